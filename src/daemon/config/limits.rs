//! The ranges a configuration's numbers are held to, shared with the command-line flags that
//! override them (`dry-run --keep-runs`, `sim --speed`, `exec --baud`), so a flag takes no
//! value its key would refuse.

/// `[robot] baud`, `exec --baud`.
pub(crate) const BAUD: (i64, i64) = (300, 4_000_000);
/// `[history] keep_runs`, `dry-run --keep-runs`.
pub(crate) const KEEP_RUNS: (i64, i64) = (1, 1_000_000);
/// `[history] max_photo_mb`, `dry-run --max-photo-mb`.
pub(crate) const MAX_PHOTO_MB: (i64, i64) = (10, 10_000_000);
/// `[sim] speed`, `sim --speed`, `dry-run --speed`: 0 = instant, 1 = real time.
pub(crate) const SIM_SPEED: (f64, f64) = (0.0, 1000.0);
/// The slowest simulator speed other than 0: below it the robot stands as good as still
/// (a second of its time would take more than a minute and a half).
pub(crate) const SIM_SPEED_SLOWEST: f64 = 0.01;

/// Whether `speed` is a simulator speed: 0 (instant), or `SIM_SPEED_SLOWEST` to the most.
pub(crate) fn is_sim_speed(speed: f64) -> bool {
    speed == 0.0 || (speed.is_finite() && (SIM_SPEED_SLOWEST..=SIM_SPEED.1).contains(&speed))
}
