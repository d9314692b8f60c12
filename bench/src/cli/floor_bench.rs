//! `cubed-bench floor`: per design, the counting floor of robot time (no solver can average below it) beside the naive baseline's mean on random cubes, and their ratio: how far any robot-aware solver could go.

use super::design_sweep::DesignSweepArgs;
use anyhow::Context;
use clap::Args;
use cubed::cube::random::random_cube;
use cubed::robot::{load_robot, solve_naive, Planner, TimeFloor, POSITIONS};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Args, Debug)]
pub struct FloorBenchArgs {
    /// The designs, and the random cubes whose naive programs the floor is compared with.
    #[command(flatten)]
    pub sweep: DesignSweepArgs,
}

pub fn floor_bench(args: FloorBenchArgs) -> anyhow::Result<ExitCode> {
    println!("{}", super::host::host_line());
    let solver = args.sweep.tables.solver();
    println!("| design | floor: mean | floor: median | naive mean | floor / naive | states, units, sets | counted in |");
    println!("| --- | --- | --- | --- | --- | --- | --- |");
    for path in &args.sweep.robots {
        let planner = Planner::new(load_robot(std::path::Path::new(path))?);
        eprintln!(
            "{}: counting its floor (a design whose blocks end in many states takes up to a minute)",
            planner.model().name
        );
        let began = Instant::now();
        let floor = match planner.time_floor(POSITIONS) {
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
        let mut rng = ChaCha8Rng::seed_from_u64(args.sweep.seed);
        let mut naive_ms = 0u64;
        for i in 0..args.sweep.cubes {
            let cube = random_cube(&mut rng);
            let plan = solve_naive(&planner, &solver, &planner.home(), &cube)
                .with_context(|| format!("{}: naive baseline, cube {i}", path.display()))?;
            naive_ms += u64::from(plan.total_ms);
        }
        let naive = naive_ms as f64 / args.sweep.cubes as f64;
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
