//! `cubed-bench vision`, the real photo sets: the shipped set and the held-out sets, each read as it is and under every photo condition (rotation, JPEG, brightness, colour cast), then re-captured as the daemon would.

use super::bench_report::report;
use super::vision_bench_args::VisionBenchArgs;
use anyhow::Context;
use cubed::cube::{FaceOrder, FaceletCube};
use cubed::vision::camera::image_dir::ImageDirCamera;
use cubed::vision::grid::sample::SampleOptions;
use cubed::vision::light::palette::Palette;
use cubed::vision::read::classify::ClassifyOptions;
use cubed::vision::recapture::Rounds;
use cubed::vision::scan::{capture_faces, plain_plan, read_photos, FacePhoto, GridChoice};
use cubed_bench::measure::evaluate::{name_hash, tally_scans, LabelledScan, Tally};
use cubed_bench::measure::perturb_photo::photo_conditions;
use cubed_bench::measure::recapture::{tally_photo_variants, Reading, RecaptureTally};
use std::path::{Path, PathBuf};

/// One labelled photo set: its six photos, the true cube and the seed of its variants.
struct PhotoSet {
    name: String,
    photos: Vec<FacePhoto>,
    truth: FaceletCube,
    seed: u64,
}

/// The shipped set's rows, then the held-out sets' rows pooled.
pub(super) fn print_photo_sets(
    args: &VisionBenchArgs,
    palette: &Palette,
    options: &ClassifyOptions,
) -> anyhow::Result<()> {
    let shipped = load_set(&args.photos, args.seed)?;
    report(
        "\nreal photo set, grid found automatically",
        &tally_as_taken(std::slice::from_ref(&shipped), palette, options),
    );
    let title = format!("the photo set, {} seeded variants", args.photo_variants);
    print_rows(
        &title,
        std::slice::from_ref(&shipped),
        args,
        (palette, options),
    );
    let held_out = held_out_sets(&args.held_out_photos, args.seed)?;
    if held_out.is_empty() {
        println!(
            "\nno held-out photo sets in {} (folders holding photos and an expected.json): their rows are left out",
            args.held_out_photos.display()
        );
        return Ok(());
    }
    let names: Vec<&str> = held_out.iter().map(|s| s.name.as_str()).collect();
    report(
        &format!(
            "\nheld-out photo sets ({}), grid found automatically",
            names.join(", ")
        ),
        &tally_as_taken(&held_out, palette, options),
    );
    let title = format!(
        "the {} held-out photo sets, {} seeded variants of each",
        held_out.len(),
        args.photo_variants
    );
    print_rows(&title, &held_out, args, (palette, options));
    Ok(())
}

fn load_set(dir: &Path, seed: u64) -> anyhow::Result<PhotoSet> {
    let path = dir.join("expected.json");
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("reading {}", path.display()))?;
    let json: serde_json::Value =
        serde_json::from_str(&text).with_context(|| format!("parsing {}", path.display()))?;
    let expected = (json["expected"].as_str())
        .with_context(|| format!("{} has no \"expected\" state", path.display()))?;
    let truth = FaceletCube::parse(expected, FaceOrder::Urfdlb, None)
        .with_context(|| format!("the \"expected\" state of {}", path.display()))?
        .0;
    let photos = capture_faces(&mut ImageDirCamera::open(dir)?, &plain_plan())
        .with_context(|| format!("the photos in {}", dir.display()))?;
    let name = (dir.file_name()).map_or_else(
        || dir.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    Ok(PhotoSet {
        name,
        photos,
        truth,
        seed,
    })
}

/// Every folder under `root` with an `expected.json`, by name, each its own draws (`seed`
/// mixed with the set's name).
fn held_out_sets(root: &Path, seed: u64) -> anyhow::Result<Vec<PhotoSet>> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root)
        .with_context(|| format!("reading {}", root.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("expected.json").is_file())
        .collect();
    dirs.sort();
    (dirs.iter())
        .map(|d| {
            let name = d.file_name().map(|n| n.to_string_lossy().into_owned());
            load_set(d, seed ^ name_hash(&name.unwrap_or_default()))
        })
        .collect()
}

/// The sets read as taken; a set whose grid or photos cannot be read counts as refused.
fn tally_as_taken(sets: &[PhotoSet], palette: &Palette, options: &ClassifyOptions) -> Tally {
    let mut tally = Tally::default();
    for set in sets {
        match read_photos(
            &set.photos,
            &GridChoice::Auto,
            &SampleOptions::for_kept_photos(),
        ) {
            Ok(readings) => {
                let scan = LabelledScan {
                    name: set.name.clone(),
                    readings,
                    truth: set.truth,
                };
                tally.absorb(tally_scans(std::slice::from_ref(&scan), palette, options));
            }
            Err(e) => {
                tally.unsure += 1;
                tally.failures.push(format!("{}: {e}", set.name));
            }
        }
    }
    tally
}

/// Each photo condition over every set (each its own seeded variants), pooled: right /
/// refused / confidently wrong at the first take, how many best guesses were right, and the
/// outcome after the daemon's re-capture of doubtful faces at the exposure it chooses.
fn print_rows(
    title: &str,
    sets: &[PhotoSet],
    args: &VisionBenchArgs,
    (palette, options): (&Palette, &ClassifyOptions),
) {
    println!(
        "\n{title} per condition (seed {}; a held-out set's mixed with its name), grid found automatically; then the faces in doubt taken again at the exposure the daemon chooses, {} round(s):\n",
        args.seed, args.recaptures
    );
    println!("| condition                                          | sets | right | refused | confidently wrong | best guess right | best guess wrong on a blank white sticker | after re-capture: right / refused / wrong | faces re-taken darker / brighter / same |");
    println!("|----------------------------------------------------|------|-------|---------|-------------------|------------------|-------------------------------------------|-------------------------------------------|-----------------------------------------|");
    let reading = Reading { palette, options };
    let rounds = Rounds::new(args.recaptures);
    for condition in photo_conditions() {
        let mut tally = RecaptureTally::default();
        for set in sets {
            let mut one = tally_photo_variants(
                &set.photos,
                &set.truth,
                &condition,
                (args.photo_variants, set.seed),
                (&reading, &rounds),
            );
            if sets.len() > 1 {
                for f in one.first.failures.iter_mut().chain(&mut one.after.failures) {
                    *f = format!("{}, {f}", set.name);
                }
            }
            tally.absorb(one);
        }
        print_row(condition.name, &tally);
        for f in tally.first.failures.iter().take(args.show_failures) {
            println!("      first take: {f}");
        }
        for f in tally.after.failures.iter().take(args.show_failures) {
            println!("      after re-capture: {f}");
        }
    }
}

fn print_row(condition: &str, tally: &RecaptureTally) {
    let t = &tally.first;
    let guessed = t.samples.iter().filter(|s| s.right).count();
    let after = format!(
        "{} / {} / {}",
        tally.after.right,
        tally.after.unsure,
        tally.after.wrong + tally.after.illegal
    );
    let retaken = format!(
        "{} / {} / {}",
        tally.retaken_darker, tally.retaken_brighter, tally.retaken_normal
    );
    println!(
        "| {:<50} | {:>4} | {:>5} | {:>7} | {:>17} | {:>16} | {:>41} | {after:>41} | {retaken:>39} |",
        condition,
        t.total(),
        t.right,
        t.unsure,
        t.wrong,
        guessed,
        t.misread_blank
    );
}
