//! The `[camera]` keys: `grid` ("auto", `[x, y, side]` or four corners), and those that lock the webcam (`exposure`, `white_balance`, `gain`, `focus`: "auto", "locked" or a number; `flush_frames`, `average_frames`), validated with errors naming the key and what is allowed.

use crate::daemon::config::values::{whole_within, WholeNumberError};
use cubed_vision::camera::lock::{Control, ControlSetting, LockSettings};
use cubed_vision::grid::file::CornersError;
use serde::Deserialize;

/// Where the stickers are in each photo.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum GridSetting {
    Auto,
    /// Top-left corner and side of the face in the image, pixels.
    Square {
        x: f32,
        y: f32,
        side: f32,
    },
    /// The face's four corners as `--show-grids` says them (a camera that looks at a slant).
    Corners(cubed_vision::grid::face_grid::FaceGrid),
}

/// `[camera]` as written.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub(crate) struct CameraSection {
    pub source: String,
    #[serde(default = "default_grid")]
    pub grid: toml::Value,
    exposure: Option<toml::Value>,
    white_balance: Option<toml::Value>,
    gain: Option<toml::Value>,
    focus: Option<toml::Value>,
    flush_frames: Option<i64>,
    average_frames: Option<i64>,
}

fn default_grid() -> toml::Value {
    toml::Value::String("auto".into())
}

/// Why a lock key is invalid: the key and the problem, in words.
pub(crate) type KeyProblem = (&'static str, String);

/// What is wrong with a `[camera]` value (the key is said by the caller).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub(crate) enum CameraKeyError {
    /// `grid` is neither "auto", nor three numbers, nor four corners.
    #[error(
        "expected \"auto\", [x, y, side] (the face's top-left corner and side, pixels) or four \
             corners [[x, y], [x, y], [x, y], [x, y]] (top-left, top-right, bottom-right, \
             bottom-left, as `scan --show-grids` says them)"
    )]
    GridShape,
    /// `grid`'s four corners do not make a face.
    #[error(transparent)]
    GridCorners(#[from] CornersError),
    /// `grid = [x, y, side]` beyond any camera's frame, or a side too small to hold nine stickers.
    #[error("[{x}, {y}, {side}] is outside the frame: x and y must be 0..={MAX_GRID_PIXELS} and side 9..={MAX_GRID_PIXELS} pixels")]
    GridOutsideFrame { x: f32, y: f32, side: f32 },
    /// A control's number outside what a video device's control can hold.
    #[error("{value} is outside {min}..={max} (a number is in the device's own units; it says its range when the camera is locked)")]
    ControlOutOfRange { value: i64, min: i64, max: i64 },
    /// A control given something other than "auto", "locked" or a whole number.
    #[error("{value} is not allowed: \"auto\" (the camera decides), \"locked\" (fixed at what it chose after settling) or an integer in the device's units")]
    ControlNotAllowed { value: toml::Value },
    /// `flush_frames` or `average_frames` outside its range.
    #[error(transparent)]
    Frames(#[from] WholeNumberError),
}

impl CameraSection {
    /// The validated lock settings (defaults: every control locked, 4 frames flushed, 3 averaged).
    pub(crate) fn lock(&self) -> Result<LockSettings, KeyProblem> {
        let defaults = LockSettings::default();
        let setting = |control: Control, value: &Option<toml::Value>| match value {
            None => Ok(defaults.of(control)),
            Some(v) => (control_setting(control, v))
                .map_err(|problem| (control.key(), problem.to_string())),
        };
        Ok(LockSettings {
            exposure: setting(Control::Exposure, &self.exposure)?,
            white_balance: setting(Control::WhiteBalance, &self.white_balance)?,
            gain: setting(Control::Gain, &self.gain)?,
            focus: setting(Control::Focus, &self.focus)?,
            flush_frames: frames("flush_frames", self.flush_frames, defaults.flush_frames, 0)?,
            average_frames: frames(
                "average_frames",
                self.average_frames,
                defaults.average_frames,
                1,
            )?,
        })
    }
}

/// Largest `[camera] grid` coordinate or side, pixels (beyond any camera's frame).
const MAX_GRID_PIXELS: f32 = 100_000.0;

/// `grid`: "auto", `[x, y, side]` in pixels (finite, within the frame any camera has), or the
/// face's four corners `[[x, y], [x, y], [x, y], [x, y]]` as `--show-grids` says them.
pub(crate) fn grid_setting(value: &toml::Value) -> Result<GridSetting, CameraKeyError> {
    let bad = || CameraKeyError::GridShape;
    let numbers = |items: &[toml::Value]| -> Option<Vec<f32>> {
        (items.iter())
            .map(|v| match v {
                toml::Value::Integer(i) => Some(*i as f32),
                toml::Value::Float(f) => Some(*f as f32),
                _ => None,
            })
            .collect()
    };
    match value {
        toml::Value::String(s) if s == "auto" => Ok(GridSetting::Auto),
        toml::Value::Array(items) if items.len() == 4 => {
            let point = |v: &toml::Value| match v {
                toml::Value::Array(xy) if xy.len() == 2 => numbers(xy).map(|n| [n[0], n[1]]),
                _ => None,
            };
            let points: Vec<[f32; 2]> = items
                .iter()
                .map(point)
                .collect::<Option<_>>()
                .ok_or_else(bad)?;
            let corners = std::array::from_fn(|i| points[i].map(f64::from));
            let grid = cubed_vision::grid::file::parse_corners(corners)?;
            Ok(GridSetting::Corners(grid))
        }
        toml::Value::Array(items) if items.len() == 3 => {
            let n = numbers(items).ok_or_else(bad)?;
            let pixels = |v: f32, least: f32| (least..=MAX_GRID_PIXELS).contains(&v);
            if !(pixels(n[0], 0.0) && pixels(n[1], 0.0) && pixels(n[2], 9.0)) {
                return Err(CameraKeyError::GridOutsideFrame {
                    x: n[0],
                    y: n[1],
                    side: n[2],
                });
            }
            Ok(GridSetting::Square {
                x: n[0],
                y: n[1],
                side: n[2],
            })
        }
        _ => Err(bad()),
    }
}

/// The numbers a control may be given: what a video device's 32-bit control can hold, and
/// not below nothing (an exposure of at least one step). The device's own range is narrower;
/// what it refuses is read back and said when the camera is locked.
fn allowed_values(control: Control) -> std::ops::RangeInclusive<i64> {
    let least = if control == Control::Exposure { 1 } else { 0 };
    least..=i64::from(i32::MAX)
}

fn control_setting(
    control: Control,
    value: &toml::Value,
) -> Result<ControlSetting, CameraKeyError> {
    match value {
        toml::Value::String(s) if s == "auto" => Ok(ControlSetting::Auto),
        toml::Value::String(s) if s == "locked" => Ok(ControlSetting::Locked),
        toml::Value::Integer(n) if allowed_values(control).contains(n) => {
            Ok(ControlSetting::Value(*n))
        }
        toml::Value::Integer(n) => {
            let allowed = allowed_values(control);
            Err(CameraKeyError::ControlOutOfRange {
                value: *n,
                min: *allowed.start(),
                max: *allowed.end(),
            })
        }
        other => Err(CameraKeyError::ControlNotAllowed {
            value: other.clone(),
        }),
    }
}

fn frames(
    key: &'static str,
    value: Option<i64>,
    default: usize,
    min: i64,
) -> Result<usize, KeyProblem> {
    let default = i64::try_from(default).unwrap_or(i64::MAX);
    whole_within(value, default, (min, 30))
        .map_err(|problem| (key, CameraKeyError::from(problem).to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `[camera]` with the simulated camera and the lock keys of `text`.
    fn keys(text: &str) -> CameraSection {
        toml::from_str(&format!("source = \"sim\"\n{text}")).expect("syntax")
    }

    #[test]
    fn each_control_takes_auto_locked_or_a_number() {
        let s = keys(
            "exposure = 156\nwhite_balance = \"auto\"\nfocus = \"locked\"\naverage_frames = 5",
        )
        .lock()
        .expect("valid");
        assert_eq!(s.exposure, ControlSetting::Value(156));
        assert_eq!(s.white_balance, ControlSetting::Auto);
        assert_eq!(s.gain, ControlSetting::Locked, "the default");
        assert_eq!(s.focus, ControlSetting::Locked);
        assert_eq!((s.flush_frames, s.average_frames), (4, 5));
    }

    #[test]
    fn a_bad_value_names_its_key_and_the_allowed_ones() {
        let (key, problem) = keys("gain = \"manual\"").lock().expect_err("invalid");
        assert_eq!(key, "gain");
        assert!(
            problem.contains("\"auto\"") && problem.contains("\"manual\""),
            "{problem}"
        );
        let (key, problem) = keys("exposure = -5").lock().expect_err("invalid");
        assert_eq!(key, "exposure");
        assert!(
            problem.starts_with("-5 is outside 1..=2147483647"),
            "{problem}"
        );
        let (key, problem) = keys("gain = 99999999999").lock().expect_err("invalid");
        assert_eq!(key, "gain");
        assert!(
            problem.starts_with("99999999999 is outside 0..="),
            "{problem}"
        );
        let (key, problem) = keys("average_frames = 0").lock().expect_err("invalid");
        assert_eq!(
            (key, problem.as_str()),
            ("average_frames", "0 is outside 1..=30")
        );
    }
}
