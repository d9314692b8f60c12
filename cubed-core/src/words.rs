//! Counts said in words ("1 move", "2 moves"), for every place that tells a person how many:
//! the command line, the daemon's log, the vision's notes.

/// "1 move", "0 moves", "2 moves": a count with its noun in the right number.
pub fn count(n: impl TryInto<u64> + Copy + std::fmt::Display, one: &str, many: &str) -> String {
    let is_one = n.try_into().is_ok_and(|v: u64| v == 1);
    format!("{n} {}", if is_one { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::count;

    #[test]
    fn counts_take_the_singular_only_for_one() {
        assert_eq!(count(0u32, "move", "moves"), "0 moves");
        assert_eq!(count(1usize, "move", "moves"), "1 move");
        assert_eq!(count(2u64, "link loss", "link losses"), "2 link losses");
        assert_eq!(count(-1i32, "stop", "stops"), "-1 stops");
    }
}
