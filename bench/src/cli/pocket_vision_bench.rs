//! `cubed-bench vision`, the 2x2 rows: the corners of the real scans under every lighting condition (development and held-out parts apart, and the 2x2's own calibration fitted on the development part), random 2x2s through the simulated camera, under its default and its drifting lighting, read on the configured and on the found grid (right, refused, wrong), and under a lamp too bright for a webcam with the faces in doubt re-captured, and the 2x2 reader's timings.

use super::bench_report::time_ms;
use cubed::pocket::random_pocket;
use cubed::vision::camera::sim::{SimCamera, SimLighting, STANDARD_STICKERS};
use cubed::vision::grid::pocket::find_pocket_grid;
use cubed::vision::grid::pocket_sample::sample_pocket_face;
use cubed::vision::grid::sample::SampleOptions;
use cubed::vision::light::palette::Palette;
use cubed::vision::read::classify::{Calibration, ClassifyOptions};
use cubed::vision::read::pocket::{classify_pocket_best_guess, POCKET_UNSHOWN_REPAIR};
use cubed::vision::recapture::Rounds;
use cubed::vision::scan::GridChoice;
use cubed_bench::measure::evaluate::{fit_calibration, scans_in, LabelledScan, Part, Sample};
use cubed_bench::measure::perturb::conditions;
use cubed_bench::measure::pocket::{
    tally_real_pockets, tally_real_pockets_recaptured, tally_sim_pockets, PocketReading,
    PocketTally,
};
use cubed_bench::measure::sim::{tally_sim_pocket_recaptures, SimPhotos};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn report(label: &str, t: &PocketTally) {
    let percent = 100.0 * t.right as f64 / t.total().max(1) as f64;
    println!(
        "{label}: {}/{} exactly right ({percent:.1} %), {} unsure (refused), {} wrong",
        t.right,
        t.total(),
        t.unsure,
        t.wrong
    );
    for f in t.failures.iter().take(10) {
        println!("    {f}");
    }
}

/// Prints the 2x2s the real scans' corners show under every condition, per part.
pub fn print_real_pocket_rows(
    all: &[(Part, LabelledScan)],
    parts: &[Part],
    (variants, seed, recaptures): (usize, u64, u32),
    palette: &Palette,
    options: &ClassifyOptions,
) {
    println!("\n2x2s from the real scans' corners, {variants} variants per scan and condition (the 3x3 rows' draws), then {recaptures} round(s) of re-capture:\n");
    println!("| condition                                            | part     | cubes |   right  | refused  | confidently wrong | after re-capture: right / refused / wrong |");
    println!("|------------------------------------------------------|----------|-------|----------|----------|-------------------|-------------------------------------------|");
    let reading = PocketReading { palette, options };
    let rounds = Rounds::new(recaptures);
    let mut guesses: Vec<Vec<Sample>> = parts.iter().map(|_| Vec::new()).collect();
    for condition in conditions() {
        for (&part, guessed) in parts.iter().zip(guesses.iter_mut()) {
            let both = tally_real_pockets_recaptured(
                &scans_in(all, part),
                (variants, seed),
                condition.perturbation.as_ref(),
                (&reading, &rounds),
            );
            guessed.extend(both.first.samples.iter().chain(&both.after.samples));
            let (t, after) = (&both.first, &both.after);
            let percent = |t: &PocketTally, n: usize| 100.0 * n as f64 / t.total().max(1) as f64;
            println!(
                "| {:<52} | {:<8} | {:>5} | {:>6.1} % | {:>6.1} % | {:>6.2} % ({}) | {:>5.1} / {:>4.1} / {:.2} % |",
                condition.name,
                part.label(),
                t.total(),
                percent(t, t.right),
                percent(t, t.unsure),
                percent(t, t.wrong),
                t.wrong,
                percent(after, after.right),
                percent(after, after.unsure),
                percent(after, after.wrong),
            );
        }
    }
    for (part, guessed) in parts.iter().zip(&guesses) {
        let what = format!("2x2, {} part", part.label());
        super::vision_bench_repairs::print_repair_reach(
            &what,
            guessed,
            (POCKET_UNSHOWN_REPAIR, None),
        );
    }
}

/// Fits the 2x2's calibration on the development part's corners (every
/// condition pooled) into `options`, and prints it.
pub fn fit_pocket_on_dev(
    all: &[(Part, LabelledScan)],
    draws: (usize, u64),
    palette: &Palette,
    options: &mut ClassifyOptions,
) {
    let dev = scans_in(all, Part::Dev);
    let pooled: Vec<Sample> = conditions()
        .iter()
        .flat_map(|c| {
            tally_real_pockets(&dev, draws, c.perturbation.as_ref(), palette, options).samples
        })
        .collect();
    match fit_calibration(&pooled) {
        Some((a, b)) => {
            println!(
                "2x2 calibration fitted on the dev part's corners ({} cubes): a = {a:.3}, b = {b:.4}",
                pooled.len()
            );
            options.pocket_calibration = Calibration {
                a: a as f32,
                b: b as f32,
            };
        }
        None => println!(
            "2x2 calibration: the dev part's corners have no wrong (or no right) best guess to fit"
        ),
    }
}

/// Prints the 2x2 rows: `cubes` simulated 2x2s per grid choice (under the roll-off lamp with
/// `recaptures` rounds of re-capture), then timings over `runs`.
pub fn print_pocket_rows(
    (cubes, seed, recaptures): (usize, u64, u32),
    runs: usize,
    palette: &Palette,
    options: &ClassifyOptions,
) {
    let lighting = SimLighting::default();
    let rows = [
        (
            "default lighting",
            lighting,
            "configured grid",
            GridChoice::Fixed(SimCamera::nominal_grid()),
        ),
        (
            "default lighting",
            lighting,
            "grid found automatically",
            GridChoice::Auto,
        ),
        (
            "drifting lighting",
            SimLighting::drifting(),
            "configured grid",
            GridChoice::Fixed(SimCamera::nominal_grid()),
        ),
        (
            "drifting lighting",
            SimLighting::drifting(),
            "grid found automatically",
            GridChoice::Auto,
        ),
    ];
    for (light, lighting, name, grid) in rows {
        let tally = tally_sim_pockets(cubes, seed, &lighting, &grid, palette, options);
        report(
            &format!("2x2, simulated camera, {light}, {name}, seed {seed}"),
            &tally,
        );
    }
    let rolloff = SimPhotos::new(seed, SimLighting::too_bright_for_a_webcam());
    let rounds = Rounds::new(recaptures);
    let both = tally_sim_pocket_recaptures(cubes, &rolloff, &rounds, palette, options);
    let cells = |t: &PocketTally| {
        format!(
            "{}/{} right, {} refused, {} confidently wrong",
            t.right,
            t.total(),
            t.unsure,
            t.wrong
        )
    };
    println!(
        "2x2, simulated camera, lamp too bright (x1.3-1.7) with a webcam's highlight roll-off, configured grid, seed {seed}: first take {}; after {recaptures} round(s) of re-capture {} ({} faces taken darker, {} brighter, {} as before)",
        cells(&both.first),
        cells(&both.after),
        both.retaken_darker,
        both.retaken_brighter,
        both.retaken_normal
    );
    let t = cubed_bench::measure::pocket::tally_turned_pockets(100, seed, palette, options);
    println!(
        "2x2, one face's photo turned (palette colours, 100 random 2x2s, each face each way, seed {seed}): 1800 readings, {} refused, {} read as the cube before the turn, {} read as another cube",
        t.refused, t.untouched, t.other
    );
    if runs == 0 {
        println!("2x2 timings: not taken (--timing-runs 0)");
        return;
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let cubes: Vec<_> = (0..64)
        .map(|_| {
            let f = random_pocket(&mut rng).to_facelets();
            f.stickers.map(|s| STANDARD_STICKERS[s.index()])
        })
        .collect();
    let mut i = 0;
    let classify_ms = time_ms(runs, || {
        std::hint::black_box(classify_pocket_best_guess(
            &cubes[i % cubes.len()],
            palette,
            options,
        ));
        i += 1;
    });
    let four = std::array::from_fn(|k| STANDARD_STICKERS[k]);
    let frame = SimCamera::new(1, lighting).render_pocket_face(&four, 0);
    let grid = SimCamera::nominal_grid();
    let sample_ms = time_ms(runs, || {
        std::hint::black_box(sample_pocket_face(&frame, &grid, &SampleOptions::default()).ok());
    });
    let find_ms = time_ms(runs.min(50), || {
        std::hint::black_box(find_pocket_grid(&frame).ok());
    });
    println!("2x2 timings (median of {runs}): classify {classify_ms:.3} ms per cube (every placement, with confidence); sample a 640x480 frame {sample_ms:.3} ms; find the 2x2 grid in it {find_ms:.2} ms");
}
