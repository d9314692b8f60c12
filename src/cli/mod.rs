//! Command-line interface: the clap definitions and one module per group of subcommands (the binary's edge, where anyhow lives).

use clap::{Parser, Subcommand};
use std::process::ExitCode;

pub mod cube_cmds;
pub mod plan_cmds;

/// Exit status for a refused input (an impossible cube, a bad config, …).
pub const EXIT_INVALID: u8 = 2;

#[derive(Parser, Debug)]
#[command(
    name = "cubed",
    version,
    about = "Drives a Rubik's-cube-solving robot: scan, solve, plan, execute, verify"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Check that facelet strings describe a cube that can exist.
    Check(cube_cmds::CheckArgs),
    /// Plan gripper commands for a robot design: face turns, a cube, or the scan.
    Plan(plan_cmds::PlanArgs),
    /// Benchmark the planner against the naive baseline on random cubes.
    PlanBench(plan_cmds::PlanBenchArgs),
}

/// Runs the parsed command.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Check(args) => cube_cmds::check(args),
        Command::Plan(args) => plan_cmds::plan(args),
        Command::PlanBench(args) => plan_cmds::plan_bench(args),
    }
}
