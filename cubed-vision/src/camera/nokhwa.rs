//! The USB webcam backend (nokhwa, V4L2 on Linux): device by index or name, resolution, a settle period for the automatic controls, then exposure / gain / white balance / focus locked through `lock.rs` (read back, refusals named), and each photo taken after flushing stale frames and averaging a few. Behind the `camera` cargo feature (needs libclang at build time: Debian `libclang1-14`).

use super::lock::{
    frame_at_exposure, lock_controls, Control, ControlDevice, ControlError, IdRefusal, LockReport,
    LockSettings,
};
use super::{Camera, CameraError, CaptureRequest, Exposure};
use crate::error_chain::error_chain;
use image::RgbImage;
use nokhwa::pixel_format::RgbFormat;
use nokhwa::utils::{
    ApiBackend, CameraIndex, CameraInfo, ControlValueSetter, KnownCameraControl, RequestedFormat,
    RequestedFormatType, Resolution,
};
use std::sync::mpsc;
use std::time::{Duration, Instant};
use v4l2_sys_mit as v4l2;

/// Which webcam and how to set it up.
#[derive(Clone, Debug, PartialEq)]
pub struct UsbCameraConfig {
    /// A device index ("0") or part of the device's name ("HD Webcam").
    pub device: String,
    pub width: u32,
    pub height: u32,
    /// Frames are read and dropped for this long after opening so auto exposure and white balance settle.
    pub settle: Duration,
    /// What to fix after settling, and how each photo is taken.
    pub lock: LockSettings,
}

impl Default for UsbCameraConfig {
    fn default() -> Self {
        UsbCameraConfig {
            device: "0".into(),
            width: 640,
            height: 480,
            settle: Duration::from_millis(1500),
            lock: LockSettings::default(),
        }
    }
}

/// A USB webcam. `nokhwa::Camera` is not `Send`, so it lives on its own
/// thread and captures are requests over a channel: `UsbCamera` itself can
/// move between threads (into `spawn_blocking`, for instance).
pub struct UsbCamera {
    requests: mpsc::Sender<PhotoRequest>,
    name: String,
    /// What the camera accepted of the lock (refused controls are reported, not fatal).
    pub lock_report: LockReport,
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

/// A photo asked of the camera thread: its exposure, and where the photo goes.
type PhotoRequest = (Exposure, mpsc::Sender<Result<RgbImage, CameraError>>);

/// The camera opened on its thread: its name and what it accepted of the lock.
type Opened = Result<(String, LockReport), CameraError>;

impl UsbCamera {
    /// Opens, streams, lets the automatic controls settle, then fixes the configured ones.
    pub fn open(config: &UsbCameraConfig) -> Result<UsbCamera, CameraError> {
        let (opened_tx, opened_rx) = mpsc::channel::<Opened>();
        let (requests, requests_rx) = mpsc::channel::<PhotoRequest>();
        let config = config.clone();
        std::thread::Builder::new()
            .name("usb-camera".into())
            .spawn(move || match open_device(&config) {
                Ok((camera, name, report)) => {
                    let locked = report
                        .fixed
                        .iter()
                        .find(|(control, _)| *control == Control::Exposure)
                        .map(|&(_, value)| value);
                    let _ = opened_tx.send(Ok((name, report)));
                    let mut device = NokhwaDevice(camera);
                    for (exposure, reply) in requests_rx {
                        let photo = frame_at_exposure(&mut device, &config.lock, locked, exposure);
                        let _ = reply.send(photo);
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
        let (name, lock_report) = opened_rx.recv().map_err(|_| {
            CameraError::Backend("the camera thread stopped while opening".into())
        })??;
        Ok(UsbCamera {
            requests,
            name,
            lock_report,
        })
    }
}

/// Opens the device on the camera thread, lets the automatic controls settle, then locks them.
fn open_device(
    config: &UsbCameraConfig,
) -> Result<(nokhwa::Camera, String, LockReport), CameraError> {
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
    let name = format!("usb {index}: {}", camera.info().human_name());
    let mut device = NokhwaDevice(camera);
    let report = lock_controls(&mut device, &config.lock);
    Ok((device.0, name, report))
}

/// V4L2 ids of the automatic modes.
const EXPOSURE_AUTO: u32 = v4l2::V4L2_CID_EXPOSURE_AUTO;
const AUTO_WHITE_BALANCE: u32 = v4l2::V4L2_CID_AUTO_WHITE_BALANCE;
const AUTOGAIN: u32 = v4l2::V4L2_CID_AUTOGAIN;
const FOCUS_AUTO: u32 = v4l2::V4L2_CID_FOCUS_AUTO;
/// `V4L2_CID_EXPOSURE_AUTO` values: manual, and aperture priority (the usual webcam "auto").
const EXPOSURE_MANUAL: i64 = v4l2::v4l2_exposure_auto_type_V4L2_EXPOSURE_MANUAL as i64;
const EXPOSURE_APERTURE_PRIORITY: i64 =
    v4l2::v4l2_exposure_auto_type_V4L2_EXPOSURE_APERTURE_PRIORITY as i64;
/// V4L2 ids of the values. UVC webcams offer the camera class's absolute
/// exposure and focus; nokhwa's `Exposure` and `Focus` name the user class's
/// `V4L2_CID_EXPOSURE` and `V4L2_CID_FOCUS_RELATIVE`, which most do not.
const EXPOSURE_ABSOLUTE: u32 = v4l2::V4L2_CID_EXPOSURE_ABSOLUTE;
const EXPOSURE: u32 = v4l2::V4L2_CID_EXPOSURE;
const WHITE_BALANCE_TEMPERATURE: u32 = v4l2::V4L2_CID_WHITE_BALANCE_TEMPERATURE;
const GAIN: u32 = v4l2::V4L2_CID_GAIN;
const FOCUS_ABSOLUTE: u32 = v4l2::V4L2_CID_FOCUS_ABSOLUTE;

/// The lock's view of a nokhwa camera.
struct NokhwaDevice(nokhwa::Camera);

/// The V4L2 ids of a control's value, in the order tried.
fn value_ids(control: Control) -> &'static [u32] {
    match control {
        Control::Exposure => &[EXPOSURE_ABSOLUTE, EXPOSURE],
        Control::WhiteBalance => &[WHITE_BALANCE_TEMPERATURE],
        Control::Gain => &[GAIN],
        Control::Focus => &[FOCUS_ABSOLUTE],
    }
}

/// How nokhwa names a V4L2 id: by its own name where it has one (it finds a
/// control by comparing names, so `Other(id)` of a named id is never found).
fn named(id: u32) -> KnownCameraControl {
    match id {
        EXPOSURE => KnownCameraControl::Exposure,
        WHITE_BALANCE_TEMPERATURE => KnownCameraControl::WhiteBalance,
        GAIN => KnownCameraControl::Gain,
        other => KnownCameraControl::Other(u128::from(other)),
    }
}

fn auto_id(control: Control) -> KnownCameraControl {
    named(match control {
        Control::Exposure => EXPOSURE_AUTO,
        Control::WhiteBalance => AUTO_WHITE_BALANCE,
        Control::Gain => AUTOGAIN,
        Control::Focus => FOCUS_AUTO,
    })
}

/// `act` on the first of a control's value ids the device takes; every refusal named if none.
fn first_taken<T>(
    control: Control,
    mut act: impl FnMut(KnownCameraControl) -> Result<T, nokhwa::NokhwaError>,
) -> Result<T, ControlError> {
    let mut refusals = Vec::new();
    for &id in value_ids(control) {
        match act(named(id)) {
            Ok(done) => return Ok(done),
            Err(e) => refusals.push(IdRefusal {
                id,
                why: error_chain(&e),
            }),
        }
    }
    Err(ControlError::EveryIdRefused(refusals))
}

fn as_integer(value: &ControlValueSetter) -> Option<i64> {
    match value {
        ControlValueSetter::Integer(v) => Some(*v),
        ControlValueSetter::Boolean(b) => Some(i64::from(*b)),
        _ => None,
    }
}

impl ControlDevice for NokhwaDevice {
    fn grab(&mut self) -> Result<RgbImage, CameraError> {
        let frame = self.0.frame().map_err(backend)?;
        frame.decode_image::<RgbFormat>().map_err(backend)
    }

    fn set_auto(&mut self, control: Control, auto: bool) -> Result<(), ControlError> {
        let value = match control {
            Control::Exposure => ControlValueSetter::Integer(if auto {
                EXPOSURE_APERTURE_PRIORITY
            } else {
                EXPOSURE_MANUAL
            }),
            _ => ControlValueSetter::Boolean(auto),
        };
        self.0
            .set_camera_control(auto_id(control), value)
            .map_err(|e| ControlError::Refused(error_chain(&e)))
    }

    fn set_value(&mut self, control: Control, value: i64) -> Result<(), ControlError> {
        let camera = &mut self.0;
        first_taken(control, |id| {
            camera.set_camera_control(id, ControlValueSetter::Integer(value))
        })
    }

    fn read(&mut self, control: Control) -> Result<(i64, bool), ControlError> {
        let camera = &self.0;
        let value = first_taken(control, |id| camera.camera_control(id))?.value();
        let value = as_integer(&value).ok_or_else(|| ControlError::NotANumber {
            value: format!("{value:?}"),
        })?;
        let auto = self
            .0
            .camera_control(auto_id(control))
            .ok()
            .and_then(|c| as_integer(&c.value()))
            .is_some_and(|v| match control {
                Control::Exposure => v != EXPOSURE_MANUAL,
                _ => v != 0,
            });
        Ok((value, auto))
    }
}

impl Camera for UsbCamera {
    fn capture(&mut self, request: &CaptureRequest) -> Result<RgbImage, CameraError> {
        let (reply, answer) = mpsc::channel();
        let gone = || CameraError::Backend("the camera thread has stopped".into());
        self.requests
            .send((request.exposure, reply))
            .map_err(|_| gone())?;
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
    fn named_ids_keep_nokhwa_names_and_uvc_absolute_controls_come_first() {
        assert_eq!(named(GAIN), KnownCameraControl::Gain);
        assert_eq!(
            named(WHITE_BALANCE_TEMPERATURE),
            KnownCameraControl::WhiteBalance
        );
        assert_eq!(named(EXPOSURE), KnownCameraControl::Exposure);
        assert_eq!(
            named(FOCUS_ABSOLUTE),
            KnownCameraControl::Other(u128::from(FOCUS_ABSOLUTE))
        );
        assert_eq!(value_ids(Control::Exposure)[0], EXPOSURE_ABSOLUTE);
    }

    #[test]
    fn no_camera_is_a_clear_error() {
        assert!(matches!(choose(&[], "0"), Err(CameraError::NoCamera)));
    }
}
