//! Which robot design `cubed plan`, `exec`, `sim` and `config wiring` work on: `--robot` if given, else the one the daemon's configuration names (found as the daemon finds it), so that all of them drive the same robot.

use crate::daemon::config::search::discover_config;
use cubed_core::error_chain::error_chain;
use std::path::{Path, PathBuf};

/// Why no design could be chosen.
#[derive(Debug, thiserror::Error)]
#[error("{reason} (or name the robot's design with --robot)")]
pub(crate) struct NoDesign {
    reason: String,
}

/// `robot` if given, else the `[robot] design` of the configuration (`config` if given, else
/// the daemon's search: `$CUBED_CONFIG`, `./config/cubed.toml`, …, the built-in one).
pub(crate) fn choose_design(
    robot: Option<&Path>,
    config: Option<&Path>,
) -> Result<PathBuf, NoDesign> {
    if let Some(robot) = robot {
        return Ok(robot.to_path_buf());
    }
    match discover_config(config) {
        Ok((config, _)) => Ok(config.robot_design),
        Err(e) => Err(NoDesign {
            reason: error_chain(&e),
        }),
    }
}
