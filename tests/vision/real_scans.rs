//! The classifier against real scans from another robot (tests/data/vision, MIT, Daniel Walton).

use cubed::cube::{FaceOrder, FaceletCube};
use cubed::vision::classify::ClassifyOptions;
use cubed::vision::evaluate::{tally_scans, tally_variants, LabelledScan};
use cubed::vision::palette::Palette;
use cubed::vision::perturb::Perturbation;
use cubed::vision::scan_file::load_scan;
use std::path::Path;

/// The ten real scans with their true states.
pub fn real_scans() -> Vec<LabelledScan> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/vision/scans");
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .expect("scans folder")
        .map(|e| e.expect("entry").path())
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|path| {
            let (file, readings) = load_scan(path).expect("scan");
            let expected = file.expected.expect("expected state");
            let truth: FaceletCube = FaceletCube::parse(&expected, FaceOrder::Urfdlb, None)
                .expect("legal")
                .0;
            LabelledScan {
                name: file.id.unwrap_or_default(),
                readings,
                truth,
            }
        })
        .collect()
}

#[test]
fn all_ten_real_scans_are_read_exactly() {
    let scans = real_scans();
    assert_eq!(scans.len(), 10);
    let tally = tally_scans(&scans, &Palette::default(), &ClassifyOptions::default());
    assert_eq!(tally.right, 10, "{:?}", tally.failures);
}

#[test]
fn lighting_variants_of_the_real_scans_are_legal_and_almost_always_right() {
    let scans = real_scans();
    let tally = tally_variants(
        &scans,
        4,
        7,
        &Perturbation::default(),
        &Palette::default(),
        &ClassifyOptions::default(),
    );
    eprintln!(
        "lighting variants: {}/{} right, {} unsure, {} wrong: {:#?}",
        tally.right,
        tally.total(),
        tally.unsure,
        tally.wrong,
        tally.failures
    );
    assert_eq!(tally.illegal, 0);
    assert!(tally.percent_right() >= 95.0, "{:?}", tally);
}
