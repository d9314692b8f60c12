//! The classifier against real scans from another robot (tests/data/vision, MIT, Daniel Walton).
//!
//! The scans are split by file name into a development part and a held-out
//! part (`Part::of`: FNV-1a 64 of the file stem odd = held out). The method
//! is developed against the development part only; the held-out part is
//! looked at only to report (`cubed-bench vision`), apart from the plain
//! "every real scan is read right" check.

use cubed::cube::{FaceOrder, FaceletCube};
use cubed::vision::light::palette::Palette;
use cubed::vision::read::classify::{ClassifyOptions, Doubt};
use cubed::vision::recapture::Rounds;
use cubed::vision::scan_file::load_scan;
use cubed_bench::measure::evaluate::{scans_in, tally_scans, LabelledScan, Part};
use cubed_bench::measure::perturb::Perturbation;
use cubed_bench::measure::pocket::tally_real_pockets;
use cubed_bench::measure::recapture::tally_variants;
use cubed_bench::measure::recapture::{tally_variants_recaptured, Reading, RecaptureTally};
use std::path::Path;

/// The ten real scans with their true states and parts.
pub fn real_scans() -> Vec<(Part, LabelledScan)> {
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
            let stem = path
                .file_stem()
                .expect("stem")
                .to_string_lossy()
                .into_owned();
            let scan = LabelledScan {
                name: stem.clone(),
                readings,
                truth,
            };
            (Part::of(&stem), scan)
        })
        .collect()
}

#[test]
fn the_split_holds_out_the_four_scans_whose_name_hash_is_odd() {
    // Worked out separately (FNV-1a 64 in a few lines of Python) when the split was fixed.
    let held_out: Vec<String> = real_scans()
        .into_iter()
        .filter(|(p, _)| *p == Part::HeldOut)
        .map(|(_, s)| s.name)
        .collect();
    assert_eq!(
        held_out,
        [
            "3x3x3-cross",
            "3x3x3-random-02",
            "3x3x3-solved-02",
            "3x3x3-superflip"
        ]
    );
}

#[test]
fn all_ten_real_scans_are_read_exactly() {
    let scans: Vec<LabelledScan> = real_scans().into_iter().map(|(_, s)| s).collect();
    assert_eq!(scans.len(), 10);
    let tally = tally_scans(&scans, &Palette::default(), &ClassifyOptions::default());
    assert_eq!(tally.right, 10, "{:?}", tally.failures);
}

/// A cube put together wrong, as a person leaves it: on every real scan, the UF edge's two
/// readings swapped (flipped in place), the URF corner's three turned (twisted in place), or
/// two of them swapped (mirrored, as a re-stickered cube can be).
#[test]
fn an_edge_flipped_or_a_corner_twisted_or_mirrored_in_place_on_a_real_scan_is_refused_as_impossible(
) {
    use cubed::vision::read::classify::{classify, ClassifyError, IMPOSSIBLE_REPAIR};
    for (_, scan) in real_scans() {
        let r = scan.readings;
        let clean = classify(&r, &Palette::default(), &ClassifyOptions::default());
        let clean = clean.unwrap_or_else(|e| panic!("{}: {e}", scan.name));
        assert!(clean.repairs.as_read <= IMPOSSIBLE_REPAIR, "{}", scan.name);
        let mut flipped = r;
        flipped.swap(7, 19);
        let mut twisted = r;
        (twisted[8], twisted[9], twisted[20]) = (r[20], r[8], r[9]);
        let mut mirrored = r;
        mirrored.swap(8, 9);
        for (how, readings) in [
            ("flipped", flipped),
            ("twisted", twisted),
            ("mirrored", mirrored),
        ] {
            match classify(&readings, &Palette::default(), &ClassifyOptions::default()) {
                Err(e @ ClassifyError { .. }) => {
                    assert_eq!(e.kind(), "impossible", "{} {how}: {e}", scan.name);
                    let ClassifyError { best_guess, .. } = e;
                    // The repair the bench reports is the one the refusal was judged by.
                    assert!(
                        best_guess.repairs.as_read > IMPOSSIBLE_REPAIR,
                        "{}",
                        scan.name
                    );
                }
                Ok(c) => panic!("{} {how}: given as {}", scan.name, c.symbols()),
            }
        }
    }
}

#[test]
fn seeded_drift_of_the_development_scans_is_right_or_refused_never_confidently_wrong() {
    let dev = scans_in(&real_scans(), Part::Dev);
    let tally = tally_variants(
        &dev,
        20,
        7,
        &Perturbation::default(),
        &Palette::default(),
        &ClassifyOptions::default(),
    );
    eprintln!(
        "seeded drift, dev part: {}/{} right, {} refused, {} wrong: {:#?}",
        tally.right,
        tally.total(),
        tally.unsure,
        tally.wrong,
        tally.failures
    );
    assert_eq!(tally.illegal, 0);
    assert_eq!(tally.wrong, 0, "{:?}", tally.failures);
    assert!(tally.percent_right() >= 97.0, "{:?}", tally.failures);
}

#[test]
fn the_corners_of_every_real_scan_read_as_the_2x2_they_show() {
    let scans: Vec<LabelledScan> = real_scans().into_iter().map(|(_, s)| s).collect();
    let tally = tally_real_pockets(
        &scans,
        (0, 1),
        None,
        &Palette::default(),
        &ClassifyOptions::default(),
    );
    assert_eq!(
        (tally.right, tally.total()),
        (10, 10),
        "{:?}",
        tally.failures
    );
}

/// A 2x2 put together wrong: the corners of every real scan, with the URF corner's three
/// readings turned (twisted in place), are refused as impossible, not repaired; with two of
/// them swapped (mirrored), refused.
#[test]
fn a_corner_twisted_or_mirrored_in_place_among_real_corners_is_refused() {
    use cubed::cube::Corner;
    use cubed::pocket::stickers::corner_stickers;
    use cubed::vision::read::pocket::{classify_pocket, PocketClassifyError};
    use cubed_bench::measure::evaluate::LabelledScan as Scan;
    use cubed_bench::measure::pocket::corners_of;
    for (
        _,
        Scan {
            name,
            readings,
            truth,
        },
    ) in real_scans()
    {
        let (r, _) = corners_of(&readings, &truth);
        let [a, b, c] = corner_stickers(Corner::URF).map(|s| s.0);
        let mut twisted = r;
        (twisted[a], twisted[b], twisted[c]) = (r[c], r[a], r[b]);
        let mut mirrored = r;
        mirrored.swap(a, b);
        match classify_pocket(&twisted, &Palette::default(), &ClassifyOptions::default()) {
            Err(PocketClassifyError { doubt, .. }) => {
                assert_eq!(doubt, Doubt::Impossible, "{name}")
            }
            Ok(read) => panic!("{name}: given as {}", read.symbols()),
        }
        // A corner mirrored (two of its stickers swapped) is refused too, though mostly as
        // close rather than impossible: in a 2x2, with no centres, a mirrored corner fits
        // noise as readily as it fits a re-stickered cube.
        if let Ok(read) =
            classify_pocket(&mirrored, &Palette::default(), &ClassifyOptions::default())
        {
            panic!("{name} mirrored: given as {}", read.symbols());
        }
    }
}

#[test]
fn drifting_corners_of_the_development_scans_are_right_or_refused_never_confidently_wrong() {
    let dev = scans_in(&real_scans(), Part::Dev);
    let tally = tally_real_pockets(
        &dev,
        (20, 7),
        Some(&Perturbation::default()),
        &Palette::default(),
        &ClassifyOptions::default(),
    );
    assert_eq!(tally.wrong, 0, "{:?}", tally.failures);
    // A fair share is given, not everything refused.
    assert!(
        tally.right * 10 >= tally.total() * 7,
        "{:?}",
        tally.failures
    );
}

#[test]
fn a_2x2_whose_colours_have_not_settled_is_refused_as_such() {
    use cubed::vision::read::pocket::{classify_pocket, PocketClassifyError};
    use cubed_bench::measure::perturb::conditions;
    use cubed_bench::measure::pocket::corners_of;
    use rand::SeedableRng;
    // One round of re-estimating the light is too few for strongly drifting light.
    let options = ClassifyOptions {
        refinements: 1,
        ..ClassifyOptions::default()
    };
    let strong = conditions()
        .into_iter()
        .find_map(|c| c.name.starts_with("strong").then_some(c.perturbation))
        .flatten()
        .expect("the strong drift condition");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    let (mut unsettled, mut given) = (0, 0);
    for (_, scan) in real_scans() {
        for _ in 0..10 {
            let varied = strong.apply(&scan.readings, &mut rng);
            let (readings, _) = corners_of(&varied, &scan.truth);
            match classify_pocket(&readings, &Palette::default(), &options) {
                Err(PocketClassifyError {
                    stickers,
                    doubt: Doubt::Unsettled,
                    best_guess,
                    ..
                }) => {
                    assert!(!stickers.is_empty());
                    assert_eq!(stickers, best_guess.unsettled);
                    unsettled += 1;
                }
                Ok(read) => {
                    assert!(read.unsettled.is_empty());
                    given += 1;
                }
                Err(PocketClassifyError { .. }) => {}
            }
        }
    }
    assert!(
        unsettled > 0 && given > 0,
        "{unsettled} unsettled, {given} given"
    );
}

/// The bench's condition named `prefix`.
fn condition(prefix: &str) -> Perturbation {
    (cubed_bench::measure::perturb::conditions().into_iter())
        .find(|c| c.name.starts_with(prefix))
        .and_then(|c| c.perturbation)
        .expect("a perturbed condition")
}

/// The development scans' `variants` seeded variants under `perturbation`, re-captured as `how`.
fn dev_recaptured(perturbation: &Perturbation, how: Rounds) -> RecaptureTally {
    let dev = scans_in(&real_scans(), Part::Dev);
    let (palette, options) = (Palette::default(), ClassifyOptions::default());
    let reading = Reading {
        palette: &palette,
        options: &options,
    };
    tally_variants_recaptured(&dev, (20, 5), perturbation, (&reading, &how))
}

#[test]
fn clipped_faces_taken_again_a_stop_darker_are_read_and_none_confidently_wrong() {
    let clipped = condition("clipped");
    let once = dev_recaptured(&clipped, Rounds::new(0));
    assert_eq!(
        once.first, once.after,
        "no round: the first take is the outcome"
    );
    let first_refused = once.first.unsure;
    assert!(
        first_refused >= 5,
        "clipped scans are refused: {first_refused}"
    );
    let darker = dev_recaptured(&clipped, Rounds::new(1));
    assert_eq!(darker.first, once.first, "the same first takes");
    assert!(
        darker.retaken_darker > 0 && darker.retaken_brighter == 0,
        "clipped faces are taken darker: {} / {}",
        darker.retaken_darker,
        darker.retaken_brighter
    );
    assert!(
        darker.after.right >= once.first.right + first_refused / 2,
        "at least half the refusals read: {} -> {} of {}",
        once.first.right,
        darker.after.right,
        darker.after.total()
    );
    assert_eq!(darker.after.wrong, 0, "{:?}", darker.after.failures);
    // Taken again at the same exposure, the same clipped readings come back.
    let same = Rounds::at_normal_exposure(1);
    assert_eq!(dev_recaptured(&clipped, same).after.right, once.first.right);
}

#[test]
fn dark_faces_in_doubt_are_taken_brighter() {
    let dark = Perturbation {
        exposure: (0.2, 0.3),
        ..condition("dark")
    };
    let both = dev_recaptured(&dark, Rounds::new(1));
    assert!(both.first.unsure > 0, "very dark scans are refused");
    assert!(
        both.retaken_brighter > 0 && both.retaken_darker == 0,
        "{} brighter / {} darker",
        both.retaken_brighter,
        both.retaken_darker
    );
    assert!(both.after.right > both.first.right);
}

/// The development scan whose whites and yellows clip alike (3x3x3-random-01) under the bench's
/// strong drift: two of its 200 variants once read as a sure but wrong cube on the first take,
/// each with a white and a yellow on one face that read the same where the camera clipped.
/// One light gives one reading one colour, so those stickers are now in doubt on the first take
/// (none is sure but wrong), their faces are taken again darker, and none ends confidently
/// wrong.
#[test]
fn sure_readings_of_overexposed_faces_are_taken_again_and_none_ends_confidently_wrong() {
    let scans: Vec<LabelledScan> = (real_scans().into_iter())
        .map(|(_, scan)| scan)
        .filter(|scan| scan.name == "3x3x3-random-01")
        .collect();
    assert_eq!(scans.len(), 1, "the clipped development scan");
    let (palette, options) = (Palette::default(), ClassifyOptions::default());
    let reading = Reading {
        palette: &palette,
        options: &options,
    };
    let strong = condition("strong");
    let both = tally_variants_recaptured(&scans, (200, 1), &strong, (&reading, &Rounds::new(2)));
    assert_eq!(
        both.first.wrong, 0,
        "no first take sure but wrong: {:?}",
        both.first.failures
    );
    assert!(
        both.first.unsure > 0 && both.retaken_darker > 0,
        "the overexposed faces are refused and taken darker: {} refused, {} darker",
        both.first.unsure,
        both.retaken_darker
    );
    assert_eq!(
        both.after.wrong + both.after.illegal,
        0,
        "{:?}",
        both.after.failures
    );
    assert!(
        both.after.right > both.first.right,
        "the overexposed readings taken again end right: {} -> {}",
        both.first.right,
        both.after.right
    );
}

/// A cube re-stickered: two stickers of colours that no light makes alike (not opposite
/// faces' colours, as white and yellow are) swapped between two pieces. The cube's own rules,
/// apart from the reader, say each such cube cannot exist; the reader refuses most of them
/// (a legal reading that gives one sticker a colour it clearly does not have is refused by
/// `WORST_UNSHOWN_REPAIR`). The rest read surely as a legal cube near the photos (two
/// stickers of similar look in that camera), which the verify scan after solving catches.
#[test]
fn two_stickers_of_unlike_colours_swapped_between_pieces_are_mostly_refused() {
    use cubed::cube::CubieCube;
    use cubed::vision::read::classify::classify;
    let (mut swaps, mut sure) = (0, 0);
    for (_, scan) in real_scans() {
        let colour = |s: usize| scan.truth.stickers[s];
        let stickers = (0..54).filter(|s| s % 9 != 4);
        for a in stickers.clone() {
            let unlike = |b: &usize| colour(*b) != colour(a) && colour(*b) != colour(a).opposite();
            for b in stickers.clone().filter(|&b| b > a).filter(unlike) {
                let mut restickered = scan.truth;
                restickered.stickers.swap(a, b);
                assert!(CubieCube::from_facelets(&restickered).is_err(), "{a}-{b}");
                let mut readings = scan.readings;
                readings.swap(a, b);
                swaps += 1;
                let read = classify(&readings, &Palette::default(), &ClassifyOptions::default());
                sure += usize::from(read.is_ok());
            }
        }
    }
    assert_eq!(swaps, 7680);
    assert!(sure * 100 <= swaps * 20, "{sure} of {swaps} read surely");
}

/// A centre covered or painted over by another centre's colour is seldom explained as two
/// photos exchanged: an exchange is named only when the centres, given the palette's colours
/// one each, sit as on no cube that can be held and the exchange makes them sit as on one
/// (two photos exchanged leave a mirror image). Without that, 5 of these 300 refused-or-not
/// readings got the advice, and following it read a sure, wrong cube; 6 of the 10 real
/// exchanges were named. Measured with it: 1 (solved-01, R's centre covered with U's colour,
/// told D and L) and 7.
#[test]
fn a_covered_centre_is_seldom_explained_as_two_photos_exchanged() {
    use cubed::cube::Face;
    use cubed::vision::read::swapped::swapped_photos;
    let (palette, options) = (Palette::default(), ClassifyOptions::default());
    let (mut told, mut exchanged) = (0, 0);
    for (_, scan) in real_scans() {
        for f in 0..6 {
            for g in (0..6).filter(|&g| g != f) {
                let mut readings = scan.readings;
                readings[f * 9 + 4] = scan.readings[g * 9 + 4];
                let hint = swapped_photos(&readings, &palette, &options);
                told += usize::from(hint.is_some());
            }
        }
        let mut mixed = scan.readings;
        for i in 0..9 {
            mixed.swap(Face::R.index() * 9 + i, Face::B.index() * 9 + i);
        }
        let hint = swapped_photos(&mixed, &palette, &options);
        exchanged += usize::from(hint.is_some_and(|h| h.faces == (Face::R, Face::B)));
    }
    assert!(
        told <= 1 && exchanged >= 7,
        "{told} of 300 told; {exchanged} of 10 named"
    );
}
