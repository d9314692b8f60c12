//! Value parsers for the flags that override a configuration key (`--baud`, `--keep-runs`,
//! `--max-photo-mb`, `--speed`), held to that key's range, and for a timeout in seconds.

use crate::daemon::config::limits;

/// A whole number within `range`, checked as the configuration checks the key it overrides
/// (`key`), in the type it is used as; or what is wrong with `text`, naming that key.
fn whole_within<T: TryFrom<i64>>(text: &str, range: (i64, i64), key: &str) -> Result<T, String> {
    let (min, max) = range;
    let n: i64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a whole number in {min}..={max} (as {key} takes)"))?;
    crate::daemon::config::values::whole_within(Some(n), n, range)
        .map_err(|e| format!("{e} (as {key} takes)"))
}

/// `exec --baud`: as `[robot] baud`.
pub(crate) fn baud(text: &str) -> Result<u32, String> {
    whole_within(text, limits::BAUD, "[robot] baud")
}

/// `dry-run --keep-runs`: as `[history] keep_runs`.
pub(crate) fn keep_runs(text: &str) -> Result<u32, String> {
    whole_within(text, limits::KEEP_RUNS, "[history] keep_runs")
}

/// `dry-run --max-photo-mb`: as `[history] max_photo_mb`.
pub(crate) fn max_photo_mb(text: &str) -> Result<u64, String> {
    whole_within(text, limits::MAX_PHOTO_MB, "[history] max_photo_mb")
}

/// `sim --speed`, `dry-run --speed`: as `[sim] speed` (0 = instant, 1 = real time).
pub(crate) fn sim_speed(text: &str) -> Result<f64, String> {
    let wrong = || {
        format!(
            "'{text}' is not a speed: 0 (instant), or {}..={} (1 = real time), as [sim] speed takes",
            limits::SIM_SPEED_SLOWEST,
            limits::SIM_SPEED.1
        )
    };
    let speed: f64 = text.trim().parse().map_err(|_| wrong())?;
    match limits::is_sim_speed(speed) {
        true => Ok(speed),
        false => Err(wrong()),
    }
}

/// A timeout of at least a second (`dry-run --timeout-secs`).
pub(crate) fn timeout_secs(text: &str) -> Result<u64, String> {
    super::counts::at_least_one(text).map(|n| n as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overrides_take_what_their_keys_take() {
        assert_eq!(baud("115200"), Ok(115_200));
        assert!(baud("0").is_err_and(|e| e.contains("300..=4000000 (as [robot] baud takes)")));
        assert_eq!(keep_runs("1"), Ok(1));
        assert!(keep_runs("0").is_err());
        assert!(max_photo_mb("0").is_err_and(|e| e.contains("[history] max_photo_mb")));
        assert!(max_photo_mb("99999999999999").is_err());
        assert_eq!(max_photo_mb("10"), Ok(10));
        for bad in ["nan", "inf", "-1", "99999", "fast", "1e-300"] {
            assert!(sim_speed(bad).is_err(), "{bad}");
        }
        assert_eq!(sim_speed("0"), Ok(0.0));
        assert_eq!(sim_speed("0.01"), Ok(0.01));
        assert!(timeout_secs("0").is_err());
    }
}
