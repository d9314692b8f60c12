//! Why the daemon cannot set up its hardware (`RigError`), and why a program cannot be turned into firmware commands (`EncodeError`).

use crate::link::{LinkError, StreamError};
use crate::robot::{ActuatorError, ConfigError, RecoveryError};
use cubed_vision::camera::CameraError;
use cubed_vision::light::palette::PaletteError;
use std::path::PathBuf;

/// Why the daemon cannot set up its hardware.
#[derive(Debug, thiserror::Error)]
pub enum RigError {
    #[error("[robot] design")]
    Robot(#[from] ConfigError),
    #[error("[robot] design: there is no file {}: give your design's path, or a shipped design's name ({shipped}) as `design = \"six-motor\"`", .path.display())]
    NoDesign { path: PathBuf, shipped: String },
    #[error("[vision] palette")]
    Palette(#[from] PaletteError),
    #[error("the calibrated palette in the data directory does not load: move the file aside (or remove it), then the daemon uses [vision] palette and calibrating writes a new one")]
    CalibratedPalette(#[source] PaletteError),
    #[error("robot design")]
    Actuators(#[from] ActuatorError),
    #[error("[robot] design")]
    Design(#[from] crate::robot::PlanError),
    #[error("[robot] design")]
    PlannerMemory(#[from] crate::robot::BadMemoryLimit),
    #[error("[robot] design: robot '{robot}' has no [[camera]], and a run scans the cube before it solves it (add a [[camera]] with `at`, as in config/robots/; `cubed plan` and `cubed exec` run a design without one)")]
    NoCamera { robot: String },
    #[error("a 2x2 (`[run] cube_size = 2`, or `--size 2`) on this [robot] design")]
    NoPocketGrip(#[source] crate::robot::PlanError),
    #[error("camera")]
    Camera(#[from] CameraError),
    #[error("[camera] source = \"dir:{}\"", .dir.display())]
    CameraFolder {
        dir: PathBuf,
        #[source]
        source: CameraError,
    },
    #[error("[robot]{} port = \"{}\" is {what}, not a serial port: give the robot's serial device (its /dev/serial/by-id/… path, or /dev/ttyACM0 for the Pico), or \"sim\"", .line.map_or(String::new(), |n| format!(" (line {n})")), .path.display())]
    NotAPort {
        path: PathBuf,
        what: &'static str,
        /// The line `port` is written on in the configuration, where it is read from a file.
        line: Option<usize>,
    },
    #[error("the USB camera needs a build with `--features camera` (this one has none); or set [camera] source = \"dir:PATH\" or \"sim\"")]
    NoCameraSupport,
    #[error("cannot start the simulated robot on a pseudo-terminal")]
    Sim(#[source] std::io::Error),
    #[error("the simulated robot's firmware board")]
    SimBoard(#[from] crate::sim::BoardBuildError),
    #[error("the robot design's wiring")]
    Wiring(#[from] crate::robot::wiring::WiringError),
    #[error("robot link")]
    Link(#[from] LinkError),
    #[error("homing the robot")]
    Home(#[source] StreamError),
    #[error("planning how to re-home the robot")]
    Recovery(#[from] RecoveryError),
}

impl RigError {
    /// Whether a configured file (the robot design or the palette) is at fault.
    pub fn is_config(&self) -> bool {
        matches!(
            self,
            RigError::Robot(_)
                | RigError::Palette(_)
                | RigError::CalibratedPalette(_)
                | RigError::Actuators(_)
                | RigError::Design(_)
                | RigError::NoCamera { .. }
                | RigError::NoPocketGrip(_)
                | RigError::CameraFolder { .. }
                | RigError::NoCameraSupport
                | RigError::NotAPort { .. }
        )
    }
}

/// Why a program cannot be turned into firmware commands.
#[derive(Debug, thiserror::Error)]
pub(crate) enum EncodeError {
    #[error("the robot's actuator positions are unknown (it must be homed first)")]
    PositionsUnknown,
    #[error(transparent)]
    Actuators(#[from] ActuatorError),
}
