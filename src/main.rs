//! The `cubed` binary: parses arguments and hands over to the library's CLI.
use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = cubed::cli::Cli::parse();
    match cubed::cli::run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
