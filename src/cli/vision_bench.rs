//! `cubed bench vision`: the vision figures of issue 5 (real scans, real photos, lighting robustness, simulated camera, timings), printed.

use anyhow::Context;
use clap::Args;
use cubed::cube::{FaceOrder, FaceletCube};
use cubed::vision::camera::image_dir::ImageDirCamera;
use cubed::vision::camera::sim::{SimCamera, SimLighting, STANDARD_STICKERS};
use cubed::vision::classify::{classify_best_guess, ClassifyOptions};
use cubed::vision::evaluate::{tally_scans, tally_sim_cubes, tally_variants, LabelledScan, Tally};
use cubed::vision::grid_finder::find_grid;
use cubed::vision::palette::Palette;
use cubed::vision::perturb::Perturbation;
use cubed::vision::sample::{sample_face, SampleOptions};
use cubed::vision::scan::{capture_faces, plain_plan, read_photos, GridChoice};
use cubed::vision::scan_file::load_scan;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

#[derive(Args, Debug)]
pub struct VisionBenchArgs {
    /// Folder of labelled scans (`expected` set).
    #[arg(long, default_value = "tests/data/vision/scans")]
    pub scans: PathBuf,
    /// Folder of six labelled photos (`expected.json`).
    #[arg(long, default_value = "tests/data/vision/photos/3x3x3-random-01")]
    pub photos: PathBuf,
    /// Lighting variants per real scan.
    #[arg(long, default_value_t = 20)]
    pub variants: usize,
    /// Random cubes through the simulated camera.
    #[arg(long, default_value_t = 1000)]
    pub sim_cubes: usize,
    /// Repetitions for the timings.
    #[arg(long, default_value_t = 300)]
    pub timing_runs: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

fn labelled_scans(dir: &Path) -> anyhow::Result<Vec<LabelledScan>> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("reading {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|path| {
            let (file, readings) = load_scan(path)?;
            let expected = file
                .expected
                .with_context(|| format!("{} has no expected state", path.display()))?;
            let truth = FaceletCube::parse(&expected, FaceOrder::Urfdlb, None)?.0;
            Ok(LabelledScan {
                name: file.id.unwrap_or_else(|| path.display().to_string()),
                readings,
                truth,
            })
        })
        .collect()
}

fn photo_scan(dir: &Path) -> anyhow::Result<LabelledScan> {
    let text =
        std::fs::read_to_string(dir.join("expected.json")).context("reading expected.json")?;
    let json: serde_json::Value = serde_json::from_str(&text).context("parsing expected.json")?;
    let expected = json["expected"]
        .as_str()
        .context("expected.json has no \"expected\" state")?;
    let truth = FaceletCube::parse(expected, FaceOrder::Urfdlb, None)?.0;
    let photos = capture_faces(&mut ImageDirCamera::open(dir)?, &plain_plan())?;
    let readings = read_photos(&photos, &GridChoice::Auto, &SampleOptions::default())?;
    Ok(LabelledScan {
        name: dir.display().to_string(),
        readings,
        truth,
    })
}

fn report(label: &str, t: &Tally) {
    println!(
        "{label}: {}/{} exactly right ({:.1} %), {} unsure (refused), {} wrong but legal, {} illegal",
        t.right,
        t.total(),
        t.percent_right(),
        t.unsure,
        t.wrong,
        t.illegal
    );
    for f in t.failures.iter().take(10) {
        println!("    {f}");
    }
}

fn median_ms(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

fn time_ms(runs: usize, mut f: impl FnMut()) -> f64 {
    median_ms(
        (0..runs.max(1))
            .map(|_| {
                let start = Instant::now();
                f();
                start.elapsed().as_secs_f64() * 1000.0
            })
            .collect(),
    )
}

/// Prints every figure.
pub fn vision_bench(args: VisionBenchArgs) -> anyhow::Result<ExitCode> {
    let (palette, options) = (Palette::default(), ClassifyOptions::default());
    let scans = labelled_scans(&args.scans)?;
    report("real scans", &tally_scans(&scans, &palette, &options));
    let photo = photo_scan(&args.photos)?;
    report(
        "real photo set, grid found automatically",
        &tally_scans(std::slice::from_ref(&photo), &palette, &options),
    );
    let variants = tally_variants(
        &scans,
        args.variants,
        args.seed,
        &Perturbation::default(),
        &palette,
        &options,
    );
    report(
        &format!(
            "lighting variants ({} per scan, seed {})",
            args.variants, args.seed
        ),
        &variants,
    );
    let sim = tally_sim_cubes(
        args.sim_cubes,
        args.seed,
        &SimLighting::default(),
        &palette,
        &options,
    );
    report(
        &format!("simulated camera, default lighting, seed {}", args.seed),
        &sim,
    );
    print_timings(&scans, args.timing_runs, &palette, &options);
    let runs = args.timing_runs;
    super::pocket_vision_bench::print_pocket_rows(
        args.sim_cubes,
        args.seed,
        runs,
        &palette,
        &options,
    );
    Ok(ExitCode::SUCCESS)
}

fn print_timings(
    scans: &[LabelledScan],
    runs: usize,
    palette: &Palette,
    options: &ClassifyOptions,
) {
    let mut i = 0;
    let classify_ms = time_ms(runs, || {
        std::hint::black_box(classify_best_guess(
            &scans[i % scans.len()].readings,
            palette,
            options,
        ));
        i += 1;
    });
    let nine = std::array::from_fn(|k| STANDARD_STICKERS[k % 6]);
    let frame = SimCamera::new(1, SimLighting::default()).render_face(&nine, 0);
    let grid = SimCamera::nominal_grid();
    let sample_ms = time_ms(runs, || {
        std::hint::black_box(sample_face(&frame, &grid, &SampleOptions::default()).ok());
    });
    let find_ms = time_ms(runs.min(50), || {
        std::hint::black_box(find_grid(&frame).ok());
    });
    println!("timings (median of {runs}): classify {classify_ms:.3} ms per cube (with confidence); sample a 640x480 frame {sample_ms:.3} ms; find the grid in it {find_ms:.2} ms");
}
