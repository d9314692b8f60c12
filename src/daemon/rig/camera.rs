//! The daemon's camera, opened as the configuration says: the simulated camera (watching the simulated robot's cube), a folder of photos, or a USB webcam (with the `camera` feature).

use super::{RigError, SimRig};
use crate::daemon::config::{CameraChoice, DaemonConfig, GridSetting};
use cubed_vision::camera::image_dir::ImageDirCamera;
use cubed_vision::camera::sim::{SimCamera, SimLighting};
use cubed_vision::camera::{Camera, Retake};
use cubed_vision::grid::face_grid::FaceGrid;
use cubed_vision::grid::sample::SampleOptions;
use cubed_vision::scan::GridChoice;
use std::path::Path;
use std::sync::Arc;

pub(super) fn open_camera(
    config: &DaemonConfig,
    sim: Option<&SimRig>,
) -> Result<(Box<dyn Camera>, GridChoice), RigError> {
    let grid = match config.grid {
        GridSetting::Auto => GridChoice::Auto,
        GridSetting::Square { x, y, side } => GridChoice::Fixed(FaceGrid::square(x, y, side)),
        GridSetting::Corners(grid) => GridChoice::Fixed(grid),
    };
    match &config.camera {
        CameraChoice::Sim => {
            // `[sim] exposure` is light, as a re-capture's stops are: 4 is two stops over.
            let lighting = SimLighting {
                highlight_rolloff: config.sim.highlight_rolloff,
                ..SimLighting::default()
            }
            .under_light(config.sim.exposure);
            let camera = SimCamera::new(config.sim.seed, lighting);
            let camera = match sim {
                Some(s) => camera.with_scene(Arc::clone(&s.controls.scene)),
                None => camera,
            };
            let grid = match config.grid {
                GridSetting::Auto => GridChoice::Fixed(SimCamera::nominal_grid()),
                _ => grid,
            };
            Ok((Box::new(camera), grid))
        }
        CameraChoice::Dir(dir) => Ok((Box::new(open_camera_folder(dir)?), grid)),
        CameraChoice::Usb(device) => open_usb(device, &config.camera_lock, grid),
    }
}

/// The `dir:` camera's folder, listed; a missing folder or two photos of one face is the
/// config's fault.
pub(crate) fn open_camera_folder(dir: &Path) -> Result<ImageDirCamera, RigError> {
    ImageDirCamera::open(dir).map_err(|source| RigError::CameraFolder {
        dir: dir.to_path_buf(),
        source,
    })
}

/// A webcam missing at start does not stop the daemon: it is said (logged, and on the page
/// until a photo finds it) and tried again at each photo, as a robot out of reach is.
#[cfg(feature = "camera")]
fn open_usb(
    device: &str,
    lock: &cubed_vision::camera::lock::LockSettings,
    grid: GridChoice,
) -> Result<(Box<dyn Camera>, GridChoice), RigError> {
    use cubed_vision::camera::nokhwa::{UsbCamera, UsbCameraConfig};
    use cubed_vision::camera::reopen::ReopeningCamera;
    use cubed_vision::camera::Retake;
    let config = UsbCameraConfig {
        device: device.to_string(),
        lock: *lock,
        ..UsbCameraConfig::default()
    };
    let open = move || -> Result<Box<dyn Camera>, cubed_vision::camera::CameraError> {
        let camera = UsbCamera::open(&config)?;
        let report = camera.lock_report.summary();
        if camera.lock_report.refused.is_empty() {
            tracing::info!("{}: {report}", camera.describe());
        } else {
            tracing::warn!("{}: {report}", camera.describe());
        }
        Ok(Box::new(camera))
    };
    let name = format!("usb:{device}");
    let (camera, missing) = ReopeningCamera::new(&name, Retake::Exposure, Box::new(open));
    if let Some(e) = missing {
        tracing::warn!(
            "camera {name}: {}; the daemon starts without it and tries again at each photo",
            cubed_core::error_chain::error_chain(&e)
        );
    }
    Ok((Box::new(camera), grid))
}

#[cfg(not(feature = "camera"))]
fn open_usb(
    _device: &str,
    _lock: &cubed_vision::camera::lock::LockSettings,
    _grid: GridChoice,
) -> Result<(Box<dyn Camera>, GridChoice), RigError> {
    Err(RigError::NoCameraSupport)
}

impl super::Rig {
    /// How this camera's photos are sampled, by scans and calibration alike (a palette
    /// calibrated from readings taken otherwise would not match what the scans read): a camera
    /// takes a clipped face again darker; photos that cannot be taken again are read from the
    /// rims of their clipped stickers.
    pub(crate) fn sampling(&self) -> SampleOptions {
        match self.camera_retake {
            Retake::Exposure => SampleOptions::default(),
            Retake::NextFrame | Retake::SamePhoto => SampleOptions::for_kept_photos(),
        }
    }
}
