//! `cubed-bench`'s command line: one module per benchmark, and what they measure and print alike.

use clap::Parser;

pub mod bench_cmds;
mod bench_report;
pub mod design_sweep;
pub mod floor_bench;
pub mod handshake_bench;
pub mod host;
pub mod link_bench;
pub mod planner_bench;
pub mod pocket_bench;
pub mod pocket_frames_bench;
pub mod pocket_vision_bench;
pub mod recovery_bench;
pub mod sized_cubes;
pub mod solver_threads_bench;
pub mod trust_bench;
pub mod vision_bench;
pub mod vision_bench_args;
pub mod vision_bench_photos;
pub mod vision_bench_repairs;
pub mod vision_bench_sim;
pub mod web_bench;

pub use cubed::command_line::refuse;

/// Measures what BENCHMARKS.md reports (never timing assertions in tests).
#[derive(Parser, Debug)]
#[command(name = "cubed-bench", version)]
pub struct BenchCli {
    #[command(subcommand)]
    pub command: bench_cmds::BenchCommand,
}

/// The `cubed` binary beside this one (built with the same cargo profile), which the start-up,
/// cache and web benches run as a child; missing, the error says how to build it.
pub fn cubed_exe() -> anyhow::Result<std::path::PathBuf> {
    let this = std::env::current_exe()?;
    let cubed = this.with_file_name("cubed");
    if cubed.is_file() {
        return Ok(cubed);
    }
    anyhow::bail!(
        "this bench runs the cubed binary, which is not built beside {}: build both with `cargo build --release --workspace`",
        this.display()
    )
}
