//! The `cubed-bench` binary: the benchmarks (`cli`) over the `cubed` library and its measuring harness.
mod cli;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args = cli::BenchCli::parse();
    match cli::bench_cmds::run(args.command) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
