//! Which robot design `cubed plan`, `exec`, `sim` and `config wiring` work on: `--robot` if given, else the one the daemon's configuration names (found as the daemon finds it), so that all of them drive the same robot.

use crate::daemon::config::search::discover_config;
use crate::daemon::config::CubeSize;
use cubed_core::error_chain::error_chain;
use std::path::{Path, PathBuf};

/// Why no design could be chosen.
#[derive(Debug, thiserror::Error)]
#[error("{reason} (or name the robot's design with --robot)")]
pub(crate) struct NoDesign {
    reason: String,
}

/// A design chosen, and the cube size of the configuration that named it.
pub(crate) struct Chosen {
    pub(crate) design: PathBuf,
    /// `[run] cube_size` of the configuration the design came from (None: `--robot` named it),
    /// the size to work on when `--size` is not given.
    pub(crate) cube_size: Option<CubeSize>,
}

/// `robot` if given, else the `[robot] design` of the configuration (`config` if given, else
/// the daemon's search: `$CUBED_CONFIG`, `./config/cubed.toml`, …, the built-in one).
pub(crate) fn choose_design(
    robot: Option<&Path>,
    config: Option<&Path>,
) -> Result<Chosen, NoDesign> {
    if let Some(robot) = robot {
        return Ok(Chosen {
            design: robot.to_path_buf(),
            cube_size: None,
        });
    }
    match discover_config(config) {
        Ok((config, _)) => Ok(Chosen {
            design: config.robot_design,
            cube_size: Some(config.cube_size),
        }),
        Err(e) => Err(NoDesign {
            reason: error_chain(&e),
        }),
    }
}

/// The cube size to work on: `--size` if given, else the configuration's (`configured`), else 3.
pub(crate) fn cube_edge(given: Option<u8>, configured: Option<CubeSize>) -> u8 {
    given.unwrap_or_else(|| configured.unwrap_or_default().edge())
}
