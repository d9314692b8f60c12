//! The `cubed` binary: the command-line interface (`cli`) over the `cubed` library.
mod cli;

use clap::Parser;
use nix::sys::signal::{signal, SigHandler, Signal};
use std::process::ExitCode;

fn main() -> ExitCode {
    // Output piped into `head` and closed early ends the program quietly, as
    // other command-line tools do, instead of a panic on a failed print.
    // SAFETY: restoring the default disposition of a signal before any thread starts.
    // A failure leaves the inherited disposition, which only matters for a closed pipe.
    let _ = unsafe { signal(Signal::SIGPIPE, SigHandler::SigDfl) };
    let cli = match cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return cli::argument_words::report(e),
    };
    cli::progress::say_long_graph_builds();
    match cli::run(cli) {
        Ok(code) => code,
        Err(e) => {
            // The error and each of its causes once: every error's text says only its own level.
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
