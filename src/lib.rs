//! The `cubed` library: everything the `cubed` binary does, as modules a robot builder can
//! also call. The command line (`cli`, private) only parses arguments and prints; `src/main.rs` calls [`command_line_main`].
//!
//! A run flows through the modules in this order:
//!
//! | module | what it gives you | I/O |
//! | --- | --- | --- |
//! | [`cube`] (the `cubed-core` crate, as are the next two) | facelets and cubies, moves, Singmaster and 1988 notation, validation with reasons, random cubes | none |
//! | [`solver`] | [`solver::Solver`]: near-optimal solutions by a deadline, several alternatives | none |
//! | [`pocket`] | the 2x2 pocket cube: input, validation, optimal solutions from complete distance tables | none |
//! | [`robot`] | robot designs from TOML, the gripper planner, robot-aware solving, the scan plan, actuator naming ([`robot::ActuatorMap`]) | reads the design file |
//! | [`vision`] (the `cubed-vision` crate) | sampling photos, classifying stickers against a palette, calibration, camera backends | cameras, image files |
//! | [`link`] (the `cubed-link` crate, as is the next) | the serial link to the firmware: window, retransmit, reconnect, e-stop | serial ports |
//! | [`sim`] | the simulated robot on a pseudo-terminal | ptys |
//! | [`daemon`] | the service: one run at a time through home → scan → classify → solve → plan → execute → verify, run history in SQLite | files, SQLite |
//! | [`web`] | the HTTP API, the WebSocket and the page; the control client | TCP |
//!
//! [`table_cache`] keeps the solver's tables on disk; [`error_chain`] prints an error with its
//! causes (each error's text says only its own level, its cause is chained).

#![warn(unreachable_pub)]

// The cube, the solver and the 2x2 are the `cubed-core` crate, documented there.
// Vision, the robots, the link with the simulator, and the file leaves are crates of their own too.
#[doc(no_inline)]
pub use cubed_core::{cube, error_chain, pocket, solver, words};
#[doc(no_inline)]
pub use cubed_files::named_file;
#[doc(no_inline)]
pub use cubed_link::{link, sim};
#[doc(no_inline)]
pub use cubed_robot as robot;
#[doc(no_inline)]
pub use cubed_vision as vision;

mod cli;
pub mod command_line;
pub mod daemon;
pub mod metrics;
pub mod table_cache;
pub mod web;

/// The `cubed` command line: parses the arguments, runs the command, prints its error and each
/// cause once, and gives the exit status (the binary's `main` is only this).
pub fn command_line_main() -> std::process::ExitCode {
    use nix::sys::signal::{signal, SigHandler, Signal};
    // Output piped into `head` and closed early ends the program quietly, as
    // other command-line tools do, instead of a panic on a failed print.
    // SAFETY: restoring the default disposition of a signal before any thread starts.
    // A failure leaves the inherited disposition, which only matters for a closed pipe.
    let _ = unsafe { signal(Signal::SIGPIPE, SigHandler::SigDfl) };
    let cli = match cli::Cli::parse_with_negative_numbers() {
        Ok(cli) => cli,
        Err(e) => return cli::argument_words::report(e),
    };
    cli::progress::say_long_graph_builds();
    match cli::run(cli) {
        Ok(code) => code,
        Err(e) => {
            // The error and each of its causes once: every error's text says only its own level.
            eprintln!("error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
