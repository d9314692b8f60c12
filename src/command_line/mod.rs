//! What cubed's command-line tools (`cubed`, `cubed-bench`) share: the value parsers for counts and budgets, the solver tables argument, a `--robot` value made a design file, and a refusal said the one way (exit status 2).

pub mod counts;
pub mod designs;
pub mod overrides;
pub mod tables;

use std::process::ExitCode;

/// Exit status for a refused input (an impossible cube, a bad config, a request the daemon refused, …).
pub(crate) const EXIT_INVALID: u8 = 2;

/// Says on stderr why an input is refused (`invalid: …`) and exits 2.
pub fn refuse(message: impl std::fmt::Display) -> anyhow::Result<ExitCode> {
    eprintln!("invalid: {message}");
    Ok(ExitCode::from(EXIT_INVALID))
}

/// Says on stderr that what was read is refused (`refused: …`, as `scan` says it: the photos or
/// the cube they show, not how they were asked for) and exits 2.
pub(crate) fn refuse_reading(message: impl std::fmt::Display) -> anyhow::Result<ExitCode> {
    eprintln!("refused: {message}");
    Ok(ExitCode::from(EXIT_INVALID))
}

/// As [`refuse`], for an error: its text and each cause's, on one line.
pub(crate) fn refuse_error(error: &(dyn std::error::Error + 'static)) -> anyhow::Result<ExitCode> {
    refuse(cubed_core::error_chain::error_chain(error))
}
