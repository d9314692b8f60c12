//! The files a daemon's configuration names, loaded and checked before any hardware is opened: the robot design, its actuators and planner, and the palette.

use super::error::RigError;
use crate::daemon::config::DaemonConfig;
use crate::robot::{
    load_robot, planner_memory_limit, ActuatorMap, ConfigError, Planner, RobotModel,
};
use cubed_files::config_file::syntax::key_line;
use cubed_vision::light::palette::{load_palette, Palette};
use std::path::PathBuf;

pub(crate) use crate::daemon::config::palette_choice::calibrated_palette_file;
use crate::daemon::config::palette_choice::PaletteOrigin;

/// The files a configuration names, loaded and checked: the robot design (and its actuators)
/// and the palette (the one calibrated into the data directory, if there is one).
pub(crate) struct ConfigFiles {
    pub model: RobotModel,
    pub map: ActuatorMap,
    /// The design's planner, checked to turn every face either way again and again.
    pub planner: Planner,
    pub palette: Palette,
    pub palette_file: PathBuf,
}

impl ConfigFiles {
    pub(crate) fn load(config: &DaemonConfig) -> Result<ConfigFiles, RigError> {
        let model = load_robot(&config.robot_design).map_err(|e| match e {
            // A design path to nothing: said with the names that need no file.
            ConfigError::Read { source, .. } if source.kind() == std::io::ErrorKind::NotFound => {
                RigError::NoDesign {
                    path: config.robot_design.clone(),
                    shipped: cubed_files::named_file::built_in_design_names(),
                }
            }
            e => RigError::Robot(e),
        })?;
        if model.cameras.is_empty() {
            return Err(RigError::NoCamera {
                robot: model.name.clone(),
            });
        }
        let map = ActuatorMap::new(&model)?;
        let planner = Planner::checked(model.clone(), planner_memory_limit()?)?;
        holds_the_cube(config, &model)?;
        let chosen = crate::daemon::config::palette_choice::choose_palette(None, config);
        let palette_file = chosen.path;
        let palette = match chosen.origin {
            PaletteOrigin::Calibrated => {
                load_palette(&palette_file).map_err(RigError::CalibratedPalette)?
            }
            _ => load_palette(&palette_file)?,
        };
        Ok(ConfigFiles {
            model,
            map,
            planner,
            palette,
            palette_file,
        })
    }
}

/// A 2x2 asked of a design whose grippers cannot hold one is refused.
fn holds_the_cube(config: &DaemonConfig, model: &RobotModel) -> Result<(), RigError> {
    if config.cube_size == crate::daemon::config::CubeSize::Two {
        crate::robot::pocket_plan::check_holds_a_2x2(model).map_err(RigError::NoPocketGrip)?;
    }
    Ok(())
}

/// Err when `[robot] port` names what can never be a serial port (a regular file, a folder):
/// the daemon would wait for it for ever. A path with nothing there is a robot unplugged.
pub(crate) fn check_port_could_be_one(config: &DaemonConfig) -> Result<(), RigError> {
    let crate::daemon::config::PortChoice::Serial(path) = &config.port else {
        return Ok(());
    };
    match crate::link::no_port_at(path) {
        Some(what) => Err(RigError::NotAPort {
            path: path.clone(),
            what,
            line: cubed_files::config_file::read_config_text(&config.file)
                .ok()
                .and_then(|text| key_line(&text, "robot", "port")),
        }),
        None => Ok(()),
    }
}
