//! Cameras: the `Camera` trait the daemon captures through, and its backends (image directory, simulated, and USB webcams via nokhwa behind the `camera` feature). The only part of vision that does I/O.

pub mod image_dir;
pub mod lock;
#[cfg(feature = "camera")]
pub mod nokhwa;
pub mod reopen;
pub mod sim;

use crate::cube::Face;
use image::RgbImage;
use std::path::PathBuf;

/// What the daemon asks for: a photo of the face now in front of the camera.
///
/// `face` is the cube face (named by its centre, in the scan's reference
/// orientation) the scan plan has put in view; `image_rotation` is how many
/// clockwise quarter turns the photo will be rotated relative to that face
/// drawn as in the facelet-string net. Real cameras ignore both (they are
/// used when sampling: see `sample::unrotate`); the simulated camera renders
/// what the simulated robot really shows that camera (the face the plan
/// asked for unless the robot did something else), or the requested face when
/// no robot shares its scene; the image-directory camera picks the
/// file named after the face.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CaptureRequest {
    /// Which of the robot's cameras (index in the design file; 0 when there is one).
    pub camera: usize,
    pub face: Face,
    pub image_rotation: u8,
    /// How bright against the locked exposure (a face photographed again because some of its
    /// stickers were in doubt may be taken darker or brighter).
    pub exposure: Exposure,
}

/// A photo's exposure against the one the camera is locked at, in whole stops: each stop
/// halves (darker) or doubles (brighter) the light. A face photographed again because some of
/// its stickers were in doubt may be taken darker or brighter, a stop more each round.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Exposure {
    stops: i8,
}

impl Exposure {
    /// The locked exposure.
    pub const NORMAL: Exposure = Exposure { stops: 0 };
    /// The furthest a photo is taken from the locked exposure, in stops either way.
    pub const MAX_STOPS: i8 = 3;

    /// `stops` from the locked exposure (negative: darker), within `MAX_STOPS`.
    pub fn stops(stops: i8) -> Exposure {
        Exposure {
            stops: stops.clamp(-Self::MAX_STOPS, Self::MAX_STOPS),
        }
    }

    /// Stops from the locked exposure (negative: darker).
    pub fn in_stops(self) -> i8 {
        self.stops
    }

    /// One stop darker (no further than `MAX_STOPS`).
    pub fn darker(self) -> Exposure {
        Exposure::stops(self.stops - 1)
    }

    /// One stop brighter (no further than `MAX_STOPS`).
    pub fn brighter(self) -> Exposure {
        Exposure::stops(self.stops + 1)
    }

    /// The factor on the exposure time (or the simulated light): 2 to the power of the stops.
    pub fn factor(self) -> f32 {
        2f32.powi(i32::from(self.stops))
    }

    /// "1 stop darker", "2 stops brighter", or "" for the normal exposure.
    pub fn words(self) -> String {
        let stops = cubed_core::words::count(self.stops.unsigned_abs(), "stop", "stops");
        match self.stops {
            0 => String::new(),
            s if s < 0 => format!("{stops} darker"),
            _ => format!("{stops} brighter"),
        }
    }
}

/// What photographing a face again can bring: the daemon re-captures the faces of doubtful
/// stickers only when it can bring something new.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Retake {
    /// A new photo at the exposure asked for (a webcam, the simulated camera).
    Exposure,
    /// The next recorded frame, at the exposure it was recorded with (numbered frames).
    NextFrame,
    /// The same photo again (files named after faces): nothing to gain.
    SamePhoto,
}

/// A source of photos of the cube.
pub trait Camera: Send {
    /// Takes one photo.
    fn capture(&mut self, request: &CaptureRequest) -> Result<RgbImage, CameraError>;
    /// A short description for logs ("image dir photos/", "sim seed 7", "usb 0: HD Webcam").
    fn describe(&self) -> String;
    /// What taking a face again brings.
    fn retake(&self) -> Retake {
        Retake::Exposure
    }
    /// Whether the photos come already turned as the face is drawn in the net (files named
    /// after faces), so the robot's turn of the camera's view (`image_rotation`) does not apply.
    fn upright(&self) -> bool {
        false
    }
}

/// ", nor for B, L" after the face asked for: every face a folder lacks is said at once.
fn others_missing(face: &Face, missing: &[Face]) -> String {
    let others: Vec<String> = (missing.iter())
        .filter(|f| *f != face)
        .map(|f| f.to_string())
        .collect();
    match others.as_slice() {
        [] => String::new(),
        _ => format!(", nor for {}", others.join(", ")),
    }
}

/// "; a.jpg, c.jpg are named after no face: …", for the photos a folder named after faces
/// leaves unread (`b.jpg` beside `a.jpg` is face B's, which may not be what was meant).
fn not_named(unnamed: &[PathBuf]) -> String {
    let names: Vec<String> = (unnamed.iter())
        .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .collect();
    match names.as_slice() {
        [] => String::new(),
        _ => format!(
            "; {} here {} named after no face: name each of the six photos after its face (U.jpg … B.jpg), or number all six in the order they were taken (1.jpg … 6.jpg)",
            names.join(", "),
            if names.len() == 1 { "is" } else { "are" }
        ),
    }
}

/// "; U.png is here, but a folder, not a photo file", for entries named as photos that cannot
/// be read as files.
fn not_files_words(not_files: &[PathBuf]) -> String {
    let what = |path: &PathBuf| {
        let kind = match std::fs::symlink_metadata(path).map(|m| m.file_type()) {
            Ok(t) if t.is_dir() => "a folder",
            Ok(t) if t.is_symlink() && path.is_dir() => "a link to a folder",
            Ok(t) if t.is_symlink() && !path.exists() => "a link to nothing",
            _ => "no regular file (a pipe or a device)",
        };
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        format!("{name} is here, but {kind}, not a photo file")
    };
    match not_files {
        [] => String::new(),
        _ => format!(
            "; {}",
            not_files.iter().map(what).collect::<Vec<_>>().join("; ")
        ),
    }
}

/// Why a photo could not be taken.
#[derive(Debug, thiserror::Error)]
pub enum CameraError {
    #[error("no camera found (no video devices are present)")]
    NoCamera,
    #[error("no camera matches {wanted:?}; available: {available}")]
    DeviceNotFound { wanted: String, available: String },
    #[error("camera backend error: {0}")]
    Backend(String),
    #[error(
        "the camera {camera} is not open ({why}): plug it in (it is tried again at each photo)"
    )]
    NotOpen { camera: String, why: String },
    #[error("cannot read image directory {path}")]
    ReadDir {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("image directory {path} has no photos (.png, .jpg or .jpeg){}: put the six faces' photos there (U.png … B.png), or frames in the order they were taken", not_files_words(.not_files))]
    NoPhotos {
        path: PathBuf,
        /// Named as photos, but no files to read (boxed: the error stays small).
        not_files: Box<[PathBuf]>,
    },
    #[error("image directory {path} has no photo for face {face} and no frames left (looked for {face}.png/.jpg and numbered frames)")]
    MissingImage { path: PathBuf, face: Face },
    #[error("image directory {path} has photos named after faces but none for face {} (looked for {face}.png, {face}.jpg, {face}.jpeg, in either case){}{}{}", .face, others_missing(.face, .missing), not_files_words(.not_files), not_named(.unnamed))]
    MissingFacePhoto {
        path: PathBuf,
        face: Face,
        /// Every face the folder has no photo of (URFDLB), `face` among them.
        missing: Vec<Face>,
        /// The photos there named after no face (not read).
        unnamed: Vec<PathBuf>,
        /// Named as photos, but no files to read (boxed: the error stays small).
        not_files: Box<[PathBuf]>,
    },
    #[error("two photos are named after face {face}: {first} and {second}; keep one{}", rounds_hint(.first, .second))]
    TwoFacePhotos {
        face: Face,
        first: PathBuf,
        second: PathBuf,
    },
    #[error("image {path} is cut short: its JPEG data ends before the end-of-image marker ({bytes} bytes; a copy or transfer that did not finish?): copy or take the photo again")]
    CutShort { path: PathBuf, bytes: usize },
    #[error("image {path} is empty (0 bytes): copy or take the photo again")]
    EmptyFile { path: PathBuf },
    #[error("image {path} is neither PNG nor JPEG (its first bytes are {first}): give the photo as a .png or .jpg")]
    NotAnImage { path: PathBuf, first: String },
    #[error("cannot decode image {path}")]
    Decode {
        path: PathBuf,
        source: image::ImageError,
    },
    #[error("image {path} is {width}×{height} pixels ({} megapixels): at most {} megapixels are read; scale it down (a webcam frame is 2 to 8)", (*.width as u64 * *.height as u64) / 1_000_000, image_dir::MOST_PIXELS / 1_000_000)]
    TooLarge {
        path: PathBuf,
        width: u32,
        height: u32,
    },
    #[error("the simulated camera's scene is not available (its lock was poisoned)")]
    SceneUnavailable,
}

/// For two photos of one face that are rounds of a run's saved photos (`0-U.png`, `1-U.png`):
/// what the numbers mean and how to read one round.
fn rounds_hint(first: &std::path::Path, second: &std::path::Path) -> String {
    let round = |p: &std::path::Path| -> Option<String> {
        let stem = p.file_stem()?.to_str()?;
        let (round, _) = stem.split_once('-')?;
        round
            .bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| round.to_string())
    };
    match (round(first), round(second)) {
        (Some(a), Some(b)) => format!(
            " (they are rounds {a} and {b} of a run's photos: 0 is the first scan, later rounds the faces taken again and the check after solving; copy one round's six photos to a folder of their own)"
        ),
        _ => String::new(),
    }
}
