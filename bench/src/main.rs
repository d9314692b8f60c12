//! The `cubed-bench` binary: the benchmarks (`cli`) over the `cubed` library and its measuring harness.
mod cli;

use clap::Parser;
use std::process::ExitCode;

/// The exit status of a file refused as invalid (a robot design, a palette), as `cubed` gives.
const EXIT_INVALID: u8 = 2;

fn main() -> ExitCode {
    use nix::sys::signal::{signal, SigHandler, Signal};
    // Output piped into `head` and closed early ends the bench quietly, as `cubed` does,
    // instead of a panic on a failed print.
    // SAFETY: restoring the default disposition of a signal before any thread starts.
    let _ = unsafe { signal(Signal::SIGPIPE, SigHandler::SigDfl) };
    let args = cli::BenchCli::parse();
    match cli::bench_cmds::run(args.command) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            if e.chain()
                .any(|cause| cause.is::<cubed::robot::ConfigError>())
            {
                ExitCode::from(EXIT_INVALID)
            } else {
                ExitCode::FAILURE
            }
        }
    }
}
