//! The USB webcam backend (nokhwa, V4L2 on Linux): device by index or name, resolution, and fixed exposure, white balance and focus after a settle period where the camera allows. Behind the `camera` cargo feature (needs libclang at build time: Debian `libclang1-14`).

use super::{Camera, CameraError, CaptureRequest};
use crate::error_chain::error_chain;
use image::RgbImage;
use nokhwa::pixel_format::RgbFormat;
use nokhwa::utils::{
    ApiBackend, CameraIndex, CameraInfo, ControlValueSetter, KnownCameraControl, RequestedFormat,
    RequestedFormatType, Resolution,
};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Which webcam and how to set it up.
#[derive(Clone, Debug, PartialEq)]
pub struct UsbCameraConfig {
    /// A device index ("0") or part of the device's name ("HD Webcam").
    pub device: String,
    pub width: u32,
    pub height: u32,
    /// Frames are read and dropped for this long after opening so auto exposure and white balance settle.
    pub settle: Duration,
    /// Values to fix after settling (camera units); `None` leaves the control alone.
    pub exposure: Option<i64>,
    pub white_balance: Option<i64>,
    pub focus: Option<i64>,
}

impl Default for UsbCameraConfig {
    fn default() -> Self {
        UsbCameraConfig {
            device: "0".into(),
            width: 640,
            height: 480,
            settle: Duration::from_millis(1500),
            exposure: None,
            white_balance: None,
            focus: None,
        }
    }
}

/// A USB webcam. `nokhwa::Camera` is not `Send`, so it lives on its own
/// thread and captures are requests over a channel: `UsbCamera` itself can
/// move between threads (into `spawn_blocking`, for instance).
pub struct UsbCamera {
    requests: mpsc::Sender<mpsc::Sender<Result<RgbImage, CameraError>>>,
    name: String,
    /// Controls the camera refused to fix (reported, not fatal).
    pub refused_controls: Vec<String>,
}

fn backend(e: nokhwa::NokhwaError) -> CameraError {
    CameraError::Backend(error_chain(&e))
}

/// The webcams present (an empty list when there are none).
pub fn list_cameras() -> Result<Vec<CameraInfo>, CameraError> {
    nokhwa::query(ApiBackend::Auto).map_err(backend)
}

/// Picks the camera whose index or name matches `wanted`.
fn choose(cameras: &[CameraInfo], wanted: &str) -> Result<CameraIndex, CameraError> {
    if cameras.is_empty() {
        return Err(CameraError::NoCamera);
    }
    let by_index = wanted.parse::<u32>().ok().and_then(|i| {
        cameras
            .iter()
            .find(|c| c.index().as_index().ok() == Some(i))
            .map(|c| c.index().clone())
    });
    let by_name = || {
        let lower = wanted.to_lowercase();
        cameras
            .iter()
            .find(|c| c.human_name().to_lowercase().contains(&lower))
            .map(|c| c.index().clone())
    };
    by_index
        .or_else(by_name)
        .ok_or_else(|| CameraError::DeviceNotFound {
            wanted: wanted.to_string(),
            available: cameras
                .iter()
                .map(|c| format!("{}: {}", c.index(), c.human_name()))
                .collect::<Vec<_>>()
                .join(", "),
        })
}

/// The camera opened on its thread: its name and refused controls.
type Opened = Result<(String, Vec<String>), CameraError>;

impl UsbCamera {
    /// Opens, streams, lets the automatic controls settle, then fixes the configured ones.
    pub fn open(config: &UsbCameraConfig) -> Result<UsbCamera, CameraError> {
        let (opened_tx, opened_rx) = mpsc::channel::<Opened>();
        let (requests, requests_rx) =
            mpsc::channel::<mpsc::Sender<Result<RgbImage, CameraError>>>();
        let config = config.clone();
        std::thread::Builder::new()
            .name("usb-camera".into())
            .spawn(move || match open_device(&config) {
                Ok((mut camera, name, refused)) => {
                    let _ = opened_tx.send(Ok((name, refused)));
                    for reply in requests_rx {
                        let frame = camera
                            .frame()
                            .map_err(backend)
                            .and_then(|f| f.decode_image::<RgbFormat>().map_err(backend));
                        let _ = reply.send(frame);
                    }
                }
                Err(e) => {
                    let _ = opened_tx.send(Err(e));
                }
            })
            .map_err(|e| {
                CameraError::Backend(format!(
                    "cannot start the camera thread: {}",
                    error_chain(&e)
                ))
            })?;
        let (name, refused_controls) = opened_rx.recv().map_err(|_| {
            CameraError::Backend("the camera thread stopped while opening".into())
        })??;
        Ok(UsbCamera {
            requests,
            name,
            refused_controls,
        })
    }
}

/// Opens the device on the camera thread.
fn open_device(
    config: &UsbCameraConfig,
) -> Result<(nokhwa::Camera, String, Vec<String>), CameraError> {
    let cameras = list_cameras()?;
    let index = choose(&cameras, &config.device)?;
    let format = RequestedFormat::new::<RgbFormat>(RequestedFormatType::HighestResolution(
        Resolution::new(config.width, config.height),
    ));
    let mut camera = nokhwa::Camera::new(index.clone(), format).map_err(backend)?;
    camera.open_stream().map_err(backend)?;
    let started = Instant::now();
    while started.elapsed() < config.settle {
        camera.frame().map_err(backend)?;
    }
    let mut refused = Vec::new();
    for (control, value) in [
        (KnownCameraControl::Exposure, config.exposure),
        (KnownCameraControl::WhiteBalance, config.white_balance),
        (KnownCameraControl::Focus, config.focus),
    ] {
        if let Some(v) = value {
            if let Err(e) = camera.set_camera_control(control, ControlValueSetter::Integer(v)) {
                refused.push(format!("{control:?}: {e}", e = error_chain(&e)));
            }
        }
    }
    let name = format!("usb {index}: {}", camera.info().human_name());
    Ok((camera, name, refused))
}

impl Camera for UsbCamera {
    fn capture(&mut self, _request: &CaptureRequest) -> Result<RgbImage, CameraError> {
        let (reply, answer) = mpsc::channel();
        let gone = || CameraError::Backend("the camera thread has stopped".into());
        self.requests.send(reply).map_err(|_| gone())?;
        answer.recv().map_err(|_| gone())?
    }

    fn describe(&self) -> String {
        self.name.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_camera_is_a_clear_error() {
        assert!(matches!(choose(&[], "0"), Err(CameraError::NoCamera)));
    }
}
