//! The `cubed` binary: parses arguments and hands over to the library's CLI.
use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    // Output piped into `head` and closed early ends the program quietly, as
    // other command-line tools do, instead of a panic on a failed print.
    // SAFETY: restoring the default disposition of a signal before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = cubed::cli::Cli::parse();
    match cubed::cli::run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {}", cubed::cli::error_text(&e));
            ExitCode::FAILURE
        }
    }
}
