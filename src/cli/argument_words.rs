//! Command-line values that do not parse as numbers, said in words ("--seed abc: not a whole number") instead of Rust's parse errors ("invalid digit found in string").

use clap::error::{ContextKind, ContextValue, ErrorKind};
use std::num::{IntErrorKind, ParseFloatError, ParseIntError};
use std::process::ExitCode;

/// Prints clap's error, or for a number that did not parse, what was wrong in words; the exit
/// status clap would use (2 for a bad argument, 0 for `--help` and `--version`).
pub(crate) fn report(error: clap::Error) -> ExitCode {
    match number_words(&error) {
        Some(words) => {
            eprintln!("error: {words}\n\nFor more information, try '--help'.");
            ExitCode::from(2)
        }
        None => {
            let _ = error.print();
            ExitCode::from(u8::try_from(error.exit_code()).unwrap_or(2))
        }
    }
}

/// "--seed <SEED> 'abc': not a whole number (digits only, e.g. 42)", for a value that failed
/// to parse as a number; None for any other error.
fn number_words(error: &clap::Error) -> Option<String> {
    if error.kind() != ErrorKind::ValueValidation {
        return None;
    }
    let source = std::error::Error::source(error)?;
    let problem = match (
        source.downcast_ref::<ParseIntError>(),
        source.downcast_ref::<ParseFloatError>(),
    ) {
        (Some(int), _) => whole_number_problem(int.kind(), &value_given(error)),
        (None, Some(_)) => "not a number (e.g. 0.5 or 2)",
        (None, None) => return None,
    };
    let arg = match error.get(ContextKind::InvalidArg) {
        Some(ContextValue::String(text)) => text.clone(),
        _ => "a value".into(),
    };
    Some(format!("{arg} '{}': {problem}", value_given(error)))
}

/// The value clap could not take, as typed.
fn value_given(error: &clap::Error) -> String {
    match error.get(ContextKind::InvalidValue) {
        Some(ContextValue::String(text)) => text.clone(),
        _ => String::new(),
    }
}

fn whole_number_problem(kind: &IntErrorKind, value: &str) -> &'static str {
    if crate::command_line::counts::is_negative_whole_number(value) {
        return "negative: give a whole number of 0 or more";
    }
    match kind {
        IntErrorKind::Empty => "empty: give a whole number",
        IntErrorKind::PosOverflow => "too large for this option",
        IntErrorKind::NegOverflow => "too small for this option",
        IntErrorKind::Zero => "must not be zero",
        _ => "not a whole number (digits only, e.g. 42)",
    }
}
