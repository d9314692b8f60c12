//! `cubed-bench floor`: per design, the counting floor of robot time (no solver can average below it) beside the naive baseline's mean on random cubes, and their ratio: how far any robot-aware solver could go. For 3x3s, or with `--size 2` for 2x2s (counted against the 2x2's positions, its naive baseline its optimal solutions).

use super::design_sweep::DesignSweepArgs;
use super::sized_cubes::SizedCubes;
use anyhow::Context;
use clap::Args;
use cubed::robot::{load_robot, Planner, TimeFloor};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Args, Debug)]
pub struct FloorBenchArgs {
    /// The designs, and the random cubes whose naive programs the floor is compared with.
    #[command(flatten)]
    pub sweep: DesignSweepArgs,
    /// Cube size: 3, or 2 for the pocket cube (a design that turns faces by their centre
    /// caps cannot hold one and is said so, not counted).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(2..=3))]
    pub size: u8,
}

/// The mean time of the naive programs of `cubes` random cubes on `planner`'s design.
fn naive_mean_ms(
    planner: &Planner,
    sized: &SizedCubes,
    args: &FloorBenchArgs,
) -> anyhow::Result<f64> {
    let mut rng = ChaCha8Rng::seed_from_u64(args.sweep.seed);
    let mut total_ms = 0u64;
    for i in 0..args.sweep.cubes {
        let trial = (sized.naive(planner, &planner.home(), &mut rng))
            .with_context(|| format!("{}: naive baseline, cube {i}", planner.model().name))?;
        total_ms += u64::from(trial.naive.total_ms);
    }
    Ok(total_ms as f64 / args.sweep.cubes as f64)
}

pub fn floor_bench(args: FloorBenchArgs) -> anyhow::Result<ExitCode> {
    println!("{}", super::host::host_line());
    let sized = SizedCubes::new(args.size, &args.sweep.tables);
    if args.size == 2 {
        println!(
            "2x2s: counted against their {} positions; naive = an optimal solution (HTM), each turn alone",
            cubed::pocket::POSITIONS
        );
    }
    println!("| design | floor: mean | floor: median | naive mean | floor / naive | states, units, sets | counted in |");
    println!("| --- | --- | --- | --- | --- | --- | --- |");
    for path in &args.sweep.robots {
        let planner = Planner::new(load_robot(std::path::Path::new(path))?);
        if let Some(why) = sized.refusal(planner.model()) {
            println!(
                "| {} | not counted: {why} | | | | | |",
                planner.model().name
            );
            continue;
        }
        eprintln!(
            "{}: counting its floor (a design whose blocks end in many states takes up to a minute)",
            planner.model().name
        );
        let began = Instant::now();
        let floor = match planner.time_floor(sized.positions()) {
            Ok(floor) => floor,
            Err(e) if e.too_large() => {
                println!(
                    "| {} | not counted | | | | | {:.1} s |",
                    planner.model().name,
                    began.elapsed().as_secs_f64()
                );
                eprintln!("{e}");
                continue;
            }
            Err(e) => return Err(e).with_context(|| format!("the floor of {}", path.display())),
        };
        let took = began.elapsed();
        let naive = naive_mean_ms(&planner, &sized, &args)?;
        println!(
            "| {}{} | {:.0} ms | {} ms | {naive:.0} ms | {:.4} | {}, {}, {} | {:.1} s |",
            planner.model().name,
            how_counted(&floor),
            floor.mean_ms,
            floor.median_ms,
            floor.mean_ms / naive,
            floor.states,
            floor.units,
            floor.sets,
            took.as_secs_f64()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// How the count was loosened to fit, if it was: " (ranges lifted, costs above a set's
/// cheapest to 50 ms, times to 2 ms)"; each only lowers the floor.
fn how_counted(floor: &TimeFloor) -> String {
    let mut how = Vec::new();
    if floor.ranges_lifted {
        how.push("ranges lifted".to_string());
    }
    if let Some(step) = floor.offset_step_ms {
        how.push(format!(
            "costs above a set's cheapest rounded down to {step} ms"
        ));
    }
    if let Some(step) = floor.time_step_ms {
        how.push(format!("times rounded down to {step} ms"));
    }
    match how.is_empty() {
        true => String::new(),
        false => format!(" ({})", how.join(", ")),
    }
}
