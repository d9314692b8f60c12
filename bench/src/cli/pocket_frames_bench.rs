//! `cubed-bench pocket-frames`: the 2x2 found and read in cluttered 1920x1080 frames of our own (`measure::frames`), the development and held-out sets apart: frames, grids found (and false grids), corner error, cubes read right / refused / wrong as the frames are and under the seeded drift, and the finder's median time per frame; `--write DIR` saves a set's frames to look at.

use super::bench_report::median;
use anyhow::Context;
use clap::{Args, ValueEnum};
use cubed::vision::light::palette::Palette;
use cubed::vision::read::classify::ClassifyOptions;
use cubed_bench::measure::frames::{clutter_only, frame_scan, FrameSet};
use cubed_bench::measure::perturb::Perturbation;
use cubed_bench::measure::pocket::PocketTally;
use cubed_bench::measure::pocket_frames::{measure_frames, FrameFigures, FrameReading};
use std::path::PathBuf;
use std::process::ExitCode;

/// Which frames to run.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq)]
pub enum Sets {
    Dev,
    HeldOut,
    Both,
}

#[derive(Args, Debug)]
pub struct PocketFramesArgs {
    /// Cubes per set (six frames each).
    #[arg(long, default_value_t = 30, value_parser = cubed::command_line::counts::at_least_one)]
    pub cubes: usize,
    /// Which set(s): the development frames or the held-out ones.
    #[arg(long, value_enum, default_value_t = Sets::Both)]
    pub sets: Sets,
    /// Seed of the drift's draws (the frames themselves are fixed by set and index).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print up to this many failures per row.
    #[arg(long, default_value_t = 0)]
    pub show_failures: usize,
    /// Instead of measuring, write the first `--cubes` cubes' frames of each set (and a frame
    /// of each scene with no cube) into this folder as PNG, with the truth in `truth.txt`.
    #[arg(long)]
    pub write: Option<PathBuf>,
}

pub fn pocket_frames_bench(args: PocketFramesArgs) -> anyhow::Result<ExitCode> {
    let sets: &[FrameSet] = match args.sets {
        Sets::Dev => &[FrameSet::Dev],
        Sets::HeldOut => &[FrameSet::HeldOut],
        Sets::Both => &[FrameSet::Dev, FrameSet::HeldOut],
    };
    if let Some(dir) = &args.write {
        return write_frames(dir, sets, args.cubes);
    }
    println!("{}", super::host::host_line());
    let (palette, options) = (Palette::default(), ClassifyOptions::default());
    let drift = Perturbation::default();
    let reading = FrameReading {
        palette: &palette,
        options: &options,
        drift: (&drift, args.seed),
    };
    println!(
        "2x2 in cluttered 1920x1080 frames, {} cubes (x6 frames) per set, drift x{}-{} per face, channels x{}-{}, seed {}; shipped palette, default options:\n",
        args.cubes, drift.brightness.0, drift.brightness.1, drift.channel_gain.0, drift.channel_gain.1, args.seed
    );
    println!("| set | frames | grids found | false grids | corner error median / max | frames with no cube: false grids | clean: right / refused / wrong | drift: right / refused / wrong | find, median per frame |");
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for &set in sets {
        let figures = measure_frames(set, args.cubes, &reading);
        print_row(set, &figures);
        print_failures(&figures, args.show_failures);
    }
    Ok(ExitCode::SUCCESS)
}

fn print_row(set: FrameSet, figures: &FrameFigures) {
    let f = &figures.finding;
    let mut errors: Vec<f64> = f.corner_errors.iter().map(|&e| f64::from(e)).collect();
    let max = errors.iter().copied().fold(0.0, f64::max);
    let mut ms = f.find_ms.clone();
    let cells =
        |t: &PocketTally| format!("{} / {} / {} of {}", t.right, t.unsure, t.wrong, t.total());
    println!(
        "| {} | {} | {} | {} | {:.1} / {:.1} px | {} of {} | {} | {} | {:.1} ms |",
        set.label(),
        f.frames,
        f.found,
        f.false_grids,
        median(&mut errors),
        max,
        f.clutter_grids,
        f.clutter_frames,
        cells(&figures.clean),
        cells(&figures.drift),
        median(&mut ms),
    );
}

fn print_failures(figures: &FrameFigures, show: usize) {
    let lists = [
        ("finding", &figures.finding.failures),
        ("clean", &figures.clean.failures),
        ("drift", &figures.drift.failures),
    ];
    for (what, failures) in lists {
        for failure in failures.iter().take(show) {
            println!("    {what}: {failure}");
        }
    }
}

/// Writes `cubes` cubes' frames of each set, a clutter-only frame per cube, and the truth.
fn write_frames(
    dir: &std::path::Path,
    sets: &[FrameSet],
    cubes: usize,
) -> anyhow::Result<ExitCode> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut truth = String::new();
    for &set in sets {
        for index in 0..cubes {
            let scan = frame_scan(set, index);
            let stem = format!("{}-{index}", set.label());
            for frame in &scan.frames {
                let path = dir.join(format!("{stem}-{}.png", frame.face));
                frame
                    .image
                    .save(&path)
                    .with_context(|| format!("writing {}", path.display()))?;
                truth.push_str(&format!(
                    "{stem}-{}: corners {:?}\n",
                    frame.face, frame.grid.corners
                ));
            }
            truth.push_str(&format!("{stem}: cube {}\n", scan.truth));
            let path = dir.join(format!("{stem}-clutter.png"));
            clutter_only(set, index)
                .save(&path)
                .with_context(|| format!("writing {}", path.display()))?;
        }
    }
    std::fs::write(dir.join("truth.txt"), truth).context("writing truth.txt")?;
    println!(
        "wrote {} cubes of frames per set into {}",
        cubes,
        dir.display()
    );
    Ok(ExitCode::SUCCESS)
}
