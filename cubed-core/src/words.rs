//! Counts said in words ("1 move", "2 moves"), for every place that tells a person how many:
//! the command line, the daemon's log, the vision's notes; and numbers a person typed, said
//! back short (`1e-300`, not three hundred zeros).

/// "1 move", "0 moves", "2 moves": a count with its noun in the right number.
pub fn count(n: impl TryInto<u64> + Copy + std::fmt::Display, one: &str, many: &str) -> String {
    let is_one = n.try_into().is_ok_and(|v: u64| v == 1);
    format!("{n} {}", if is_one { one } else { many })
}

/// A number as a person reads it back: as typed for everyday sizes, in exponent form when
/// it is very small or very large (`1e-300`, `2.5e20`), so an error quoting it stays one line.
pub fn number(value: impl Into<f64>) -> String {
    let value: f64 = value.into();
    let magnitude = value.abs();
    if value.is_finite() && magnitude != 0.0 && !(1e-4..1e9).contains(&magnitude) {
        format!("{value:e}")
    } else {
        format!("{value}")
    }
}

#[cfg(test)]
mod tests {
    use super::{count, number};

    #[test]
    fn numbers_are_said_back_short() {
        assert_eq!(number(1e-300), "1e-300");
        assert_eq!(number(-2.5e20), "-2.5e20");
        assert_eq!(number(0.0), "0");
        assert_eq!(number(0.005), "0.005");
        assert_eq!(number(4.0f32), "4");
        assert_eq!(number(123456.5), "123456.5");
        assert_eq!(number(f64::INFINITY), "inf");
    }

    #[test]
    fn counts_take_the_singular_only_for_one() {
        assert_eq!(count(0u32, "move", "moves"), "0 moves");
        assert_eq!(count(1usize, "move", "moves"), "1 move");
        assert_eq!(count(2u64, "link loss", "link losses"), "2 link losses");
        assert_eq!(count(-1i32, "stop", "stops"), "-1 stops");
    }
}
