//! A camera opened when a photo is wanted and opened again after one fails: a webcam missing when the daemon starts, or unplugged and plugged back in, is found at the next photo without restarting the daemon.
// Only the USB webcam backend (the `camera` feature) drives this; without it the unit tests do.
#![cfg_attr(not(feature = "camera"), allow(dead_code))]

use super::{Camera, CameraError, CaptureRequest, Retake};
use image::RgbImage;

/// Opens the camera behind a [`ReopeningCamera`].
pub type Opener = Box<dyn FnMut() -> Result<Box<dyn Camera>, CameraError> + Send>;

/// A camera that is opened when needed: tried once when made, again at each photo while it is
/// not open, and closed after a photo fails so that the next one opens it afresh.
pub struct ReopeningCamera {
    name: String,
    open: Opener,
    camera: Option<Box<dyn Camera>>,
    retake: Retake,
}

impl ReopeningCamera {
    /// Tries to open the camera named `name` (as the config gives it, "usb:0") now; the error,
    /// when it is not there, is returned beside the camera to be said at start.
    pub fn new(name: &str, retake: Retake, mut open: Opener) -> (Self, Option<CameraError>) {
        let (camera, missing) = match open() {
            Ok(camera) => (Some(camera), None),
            Err(e) => (None, Some(e)),
        };
        let reopening = ReopeningCamera {
            name: name.to_string(),
            open,
            camera,
            retake,
        };
        (reopening, missing)
    }

    /// Whether the camera is open now.
    #[cfg(test)]
    pub(crate) fn is_open(&self) -> bool {
        self.camera.is_some()
    }
}

impl Camera for ReopeningCamera {
    fn capture(&mut self, request: &CaptureRequest) -> Result<RgbImage, CameraError> {
        let camera = match &mut self.camera {
            Some(camera) => camera,
            None => {
                let opened = (self.open)().map_err(|e| CameraError::NotOpen {
                    camera: self.name.clone(),
                    why: crate::error_chain::error_chain(&e),
                })?;
                tracing::info!("camera {} opened: {}", self.name, opened.describe());
                self.camera.insert(opened)
            }
        };
        let photo = camera.capture(request);
        if photo.is_err() {
            // A camera unplugged mid-run leaves a handle that never works again: the next
            // photo opens it afresh.
            self.camera = None;
        }
        photo
    }

    fn describe(&self) -> String {
        match &self.camera {
            Some(camera) => camera.describe(),
            None => format!("{} (not open: tried again at each photo)", self.name),
        }
    }

    fn retake(&self) -> Retake {
        self.retake
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::Face;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    /// A camera whose photos fail from the `fails_from`th on (as one unplugged would).
    struct Recorded {
        photos: usize,
        fails_from: usize,
    }

    impl Camera for Recorded {
        fn capture(&mut self, _: &CaptureRequest) -> Result<RgbImage, CameraError> {
            self.photos += 1;
            if self.photos >= self.fails_from {
                return Err(CameraError::Backend("the device has gone".into()));
            }
            Ok(RgbImage::new(2, 2))
        }

        fn describe(&self) -> String {
            "recorded webcam".into()
        }
    }

    /// An opener that fails while `absent` opens remain, counting every open.
    fn opener(absent: usize, fails_from: usize, opens: Arc<AtomicUsize>) -> Opener {
        Box::new(move || {
            let n = opens.fetch_add(1, Ordering::SeqCst);
            if n < absent {
                return Err(CameraError::NoCamera);
            }
            Ok(Box::new(Recorded {
                photos: 0,
                fails_from,
            }))
        })
    }

    fn request() -> CaptureRequest {
        CaptureRequest {
            camera: 0,
            face: Face::U,
            image_rotation: 0,
            exposure: Default::default(),
        }
    }

    #[test]
    fn a_camera_missing_at_start_is_said_then_opened_at_a_later_photo() {
        let opens = Arc::new(AtomicUsize::new(0));
        let (mut camera, missing) = ReopeningCamera::new(
            "usb:0",
            Retake::Exposure,
            opener(2, usize::MAX, Arc::clone(&opens)),
        );
        assert!(
            matches!(missing, Some(CameraError::NoCamera)),
            "{missing:?}"
        );
        assert!(!camera.is_open());
        assert!(
            camera.describe().contains("usb:0 (not open"),
            "{}",
            camera.describe()
        );
        let still = camera.capture(&request()).expect_err("still unplugged");
        let words = still.to_string();
        assert!(
            words.contains("usb:0") && words.contains("no camera found"),
            "{words}"
        );
        camera.capture(&request()).expect("plugged in");
        assert!(camera.is_open());
        assert_eq!(camera.describe(), "recorded webcam");
        camera.capture(&request()).expect("kept open");
        assert_eq!(opens.load(Ordering::SeqCst), 3, "opened once it was there");
    }

    #[test]
    fn a_photo_that_fails_closes_the_camera_and_the_next_opens_it_again() {
        let opens = Arc::new(AtomicUsize::new(0));
        let (mut camera, missing) =
            ReopeningCamera::new("usb:0", Retake::Exposure, opener(0, 2, Arc::clone(&opens)));
        assert!(missing.is_none());
        camera.capture(&request()).expect("first photo");
        camera.capture(&request()).expect_err("unplugged");
        assert!(!camera.is_open());
        camera.capture(&request()).expect("opened afresh");
        assert_eq!(opens.load(Ordering::SeqCst), 2);
    }
}
