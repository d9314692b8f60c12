//! Value parsers for counts and time budgets on the command line, so `--cubes 0` or a
//! budget of centuries is refused by clap with the allowed range instead of run.

/// Longest time budget accepted per cube: one hour.
pub const MAX_BUDGET_MS: u64 = 3_600_000;

/// A count that must be at least 1 (`--cubes`, `--threads`, `--parallel`).
pub fn at_least_one(text: &str) -> Result<usize, String> {
    let n: usize = text
        .trim()
        .parse()
        .map_err(|e| format!("'{text}' is not a whole number: {e}"))?;
    if n == 0 {
        return Err("must be at least 1".to_string());
    }
    Ok(n)
}

/// A time budget in milliseconds, 0 (first solution only) to `MAX_BUDGET_MS`.
pub fn budget_ms(text: &str) -> Result<u64, String> {
    let ms: u64 = text
        .trim()
        .parse()
        .map_err(|e| format!("'{text}' is not a whole number of milliseconds: {e}"))?;
    if ms > MAX_BUDGET_MS {
        return Err(format!(
            "{ms} ms is more than the allowed {MAX_BUDGET_MS} ms (one hour)"
        ));
    }
    Ok(ms)
}

/// "1 move", "0 moves", "2 moves": a count with its noun in the right number.
pub fn count(n: impl TryInto<u64> + Copy + std::fmt::Display, one: &str, many: &str) -> String {
    let is_one = n.try_into().is_ok_and(|v: u64| v == 1);
    format!("{n} {}", if is_one { one } else { many })
}

/// A solution's text, or "already solved (0 moves)" when there is nothing to do.
pub fn solution_line(solution: &str) -> String {
    if solution.trim().is_empty() {
        "already solved (0 moves)".to_string()
    } else {
        solution.to_string()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn counts_take_the_singular_only_for_one() {
        assert_eq!(count(0u32, "move", "moves"), "0 moves");
        assert_eq!(count(1usize, "move", "moves"), "1 move");
        assert_eq!(count(2u64, "link loss", "link losses"), "2 link losses");
        assert_eq!(solution_line(""), "already solved (0 moves)");
        assert_eq!(solution_line("R U"), "R U");
    }

    use super::*;

    #[test]
    fn counts_start_at_one() {
        assert_eq!(at_least_one("3"), Ok(3));
        assert_eq!(at_least_one("0"), Err("must be at least 1".to_string()));
        assert!(at_least_one("-1").unwrap_err().contains("'-1'"));
        assert!(at_least_one("x")
            .unwrap_err()
            .contains("not a whole number"));
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
