//! Value parsers for counts and time budgets on the command line, so `--cubes 0` or a
//! budget of centuries is refused by clap with the allowed range instead of run.

/// Longest time budget accepted per cube: one hour.
pub(crate) const MAX_BUDGET_MS: u64 = 3_600_000;

/// A whole number of 0 or more, or what is wrong with `text`, in words (`least`: the smallest
/// the option takes, said to a negative number).
fn whole_number(text: &str, least: usize) -> Result<usize, String> {
    use std::num::IntErrorKind;
    text.trim()
        .parse()
        .map_err(|e: std::num::ParseIntError| match e.kind() {
            IntErrorKind::PosOverflow => format!("'{text}' is far too large a whole number"),
            IntErrorKind::Empty => "empty: give a whole number".to_string(),
            _ if is_negative_whole_number(text) => {
                format!("'{text}' is negative: give {least} or more")
            }
            _ => format!("'{text}' is not a whole number (digits only, e.g. 42)"),
        })
}

/// "-3": a whole number below zero, said as such rather than as not a number.
pub(crate) fn is_negative_whole_number(text: &str) -> bool {
    text.trim()
        .strip_prefix('-')
        .is_some_and(|digits| !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
}

/// A count that must be at least 1 (`--cubes`, `--threads`, `--parallel`).
pub fn at_least_one(text: &str) -> Result<usize, String> {
    let n = whole_number(text, 1)?;
    if n == 0 {
        return Err("must be at least 1".to_string());
    }
    Ok(n)
}

/// Most cubes one Test Program run takes (`--cubes`).
pub(crate) const MAX_TEST_CUBES: usize = 1_000_000;
/// Most random turns per scramble (`--turns`): a few dozen already scramble a cube fully.
pub(crate) const MAX_SCRAMBLE_TURNS: usize = 1000;
/// Most turns of all scrambles together, which are drawn before solving and kept in memory.
pub(crate) const MAX_TOTAL_TURNS: usize = 100_000_000;

/// A count of 1 to `most`, or what is wrong with `text` (`beyond`: said of a count above it).
fn one_to(text: &str, most: usize, beyond: impl FnOnce(usize) -> String) -> Result<usize, String> {
    let n = at_least_one(text)?;
    match n > most {
        true => Err(beyond(n)),
        false => Ok(n),
    }
}

/// `--cubes` of the Test Program: 1 to `MAX_TEST_CUBES`.
pub(crate) fn test_cubes(text: &str) -> Result<usize, String> {
    one_to(text, MAX_TEST_CUBES, |n| {
        format!("{n} is more than the {MAX_TEST_CUBES} cubes one run takes")
    })
}

/// Most scrambles one `cubed scramble` prints (`--count`), as many as a Test Program solves.
pub(crate) const MAX_SCRAMBLES: usize = MAX_TEST_CUBES;
/// Most search threads (`--threads`): far more than the cores only adds switching.
pub(crate) const MAX_THREADS: usize = 256;

/// `--count` of `cubed scramble`: 1 to `MAX_SCRAMBLES`.
pub(crate) fn scramble_count(text: &str) -> Result<usize, String> {
    one_to(text, MAX_SCRAMBLES, |n| {
        format!("{n} is more than the {MAX_SCRAMBLES} scrambles one command prints (run it again for more, with another --seed)")
    })
}

/// `--threads` of a search: 1 to `MAX_THREADS`.
pub(crate) fn threads(text: &str) -> Result<usize, String> {
    one_to(text, MAX_THREADS, |n| {
        format!(
            "{n} is more than the {MAX_THREADS} threads a search takes (more threads than cores only slow it; this machine has {})",
            std::thread::available_parallelism().map_or(1, |n| n.get())
        )
    })
}

/// `--turns` of a scramble: 1 to `MAX_SCRAMBLE_TURNS`.
pub(crate) fn scramble_turns(text: &str) -> Result<usize, String> {
    let n = whole_number(text, 1)?;
    if n == 0 {
        return Err("--turns 0 makes no scramble: give 1 or more turns".into());
    }
    if n > MAX_SCRAMBLE_TURNS {
        return Err(format!(
            "{n} is more than the {MAX_SCRAMBLE_TURNS} turns a scramble takes (a few dozen scramble a cube fully)"
        ));
    }
    Ok(n)
}

/// Cubes times turns within `MAX_TOTAL_TURNS` (the scrambles are drawn first, then solved).
pub(crate) fn check_total_turns(cubes: usize, turns: usize) -> Result<(), String> {
    if cubes.saturating_mul(turns) > MAX_TOTAL_TURNS {
        return Err(format!(
            "--cubes {cubes} with --turns {turns} is more than the {MAX_TOTAL_TURNS} turns of \
             scrambles one run keeps: fewer cubes or fewer turns"
        ));
    }
    Ok(())
}

/// A time budget in milliseconds, 0 (first solution only) to `MAX_BUDGET_MS`.
pub fn budget_ms(text: &str) -> Result<u64, String> {
    let ms: u64 = text
        .trim()
        .parse()
        .map_err(|e| match is_negative_whole_number(text) {
            true => format!("'{text}' is negative: give 0 ms or more"),
            false => format!("'{text}' is not a whole number of milliseconds: {e}"),
        })?;
    if ms > MAX_BUDGET_MS {
        return Err(format!(
            "{ms} ms is more than the allowed {MAX_BUDGET_MS} ms (one hour)"
        ));
    }
    Ok(ms)
}

/// A solution's text, or "already solved (0 moves)" when there is nothing to do.
pub(crate) fn solution_line(solution: &str) -> String {
    if solution.trim().is_empty() {
        "already solved (0 moves)".to_string()
    } else {
        solution.to_string()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn an_empty_solution_says_already_solved() {
        assert_eq!(solution_line(""), "already solved (0 moves)");
        assert_eq!(solution_line("R U"), "R U");
    }

    use super::*;

    #[test]
    fn scrambles_and_threads_have_ceilings() {
        assert_eq!(scramble_count("1000000"), Ok(1_000_000));
        assert!(scramble_count("1000001").is_err_and(|e| e.contains("1000000 scrambles")));
        assert_eq!(threads("256"), Ok(256));
        assert!(threads("100000").is_err_and(|e| e.contains("256 threads")));
        assert!(threads("0").is_err());
    }

    #[test]
    fn counts_start_at_one() {
        assert_eq!(at_least_one("3"), Ok(3));
        assert_eq!(at_least_one("0"), Err("must be at least 1".to_string()));
        assert_eq!(
            at_least_one("-1"),
            Err("'-1' is negative: give 1 or more".to_string())
        );
        assert!(at_least_one("x")
            .unwrap_err()
            .contains("not a whole number"));
    }

    #[test]
    fn test_program_sizes_are_bounded_with_the_limit_named() {
        assert_eq!(test_cubes("1000000"), Ok(MAX_TEST_CUBES));
        assert!(test_cubes("99999999999999")
            .unwrap_err()
            .contains("1000000 cubes"));
        assert!(test_cubes("0").is_err());
        assert!(scramble_turns("0").is_err_and(|e| e.contains("makes no scramble")));
        assert_eq!(scramble_turns("1"), Ok(1));
        assert!(scramble_turns("18446744073709551615")
            .unwrap_err()
            .contains("1000 turns"));
        assert!(scramble_turns("99999999999999999999")
            .unwrap_err()
            .contains("whole number"));
        assert!(check_total_turns(100_000, 1000).is_ok());
        assert!(check_total_turns(1_000_000, 1000)
            .unwrap_err()
            .contains("fewer cubes"));
    }

    #[test]
    fn budgets_stop_at_an_hour() {
        assert_eq!(budget_ms("0"), Ok(0));
        assert_eq!(budget_ms("3600000"), Ok(MAX_BUDGET_MS));
        let err = budget_ms("3600001").unwrap_err();
        assert!(
            err.contains("3600001 ms") && err.contains("one hour"),
            "{err}"
        );
        assert!(budget_ms("1.5").unwrap_err().contains("milliseconds"));
    }
}
