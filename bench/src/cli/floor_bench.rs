//! `cubed-bench floor`: per design, the counting floor of robot time (no solver can average below it) beside the naive baseline's mean on random cubes, and their ratio: how far any robot-aware solver could go.

use super::design_sweep::DesignSweepArgs;
use anyhow::Context;
use clap::Args;
use cubed::cube::random::random_cube;
use cubed::robot::{load_robot, solve_naive, FloorError, Planner, POSITIONS};
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
        let began = Instant::now();
        let floor = match planner.time_floor(POSITIONS) {
            Ok(floor) => floor,
            Err(e @ FloorError::TooManyEnds { .. }) => {
                println!(
                    "| {} | not counted | | | | | {:.1} s |",
                    planner.model().name,
                    began.elapsed().as_secs_f64()
                );
                eprintln!("{e}");
                continue;
            }
            Err(e) => return Err(e).with_context(|| format!("the floor of {path}")),
        };
        let took = began.elapsed();
        let mut rng = ChaCha8Rng::seed_from_u64(args.sweep.seed);
        let mut naive_ms = 0u64;
        for i in 0..args.sweep.cubes {
            let cube = random_cube(&mut rng);
            let plan = solve_naive(&planner, &solver, &planner.home(), &cube)
                .with_context(|| format!("{path}: naive baseline, cube {i}"))?;
            naive_ms += u64::from(plan.total_ms);
        }
        let naive = naive_ms as f64 / args.sweep.cubes as f64;
        println!(
            "| {}{} | {:.0} ms | {} ms | {naive:.0} ms | {:.4} | {}, {}, {} | {:.1} s |",
            planner.model().name,
            if floor.ranges_lifted {
                " (ranges lifted)"
            } else {
                ""
            },
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
