//! Locking a webcam's automatic controls and taking a settled frame: after the robot settles, stale frames are flushed, exposure / white balance / gain / focus are fixed (to what the automatic control chose, or to a configured number), what the device accepted is read back, every refused control is named, and a few frames are averaged. Device access goes through `ControlDevice`, so the logic is tested with a recording fake.
// Only the USB webcam backend (the `camera` feature) drives this; without it the unit tests do.
#![cfg_attr(not(feature = "camera"), allow(dead_code))]

use super::{CameraError, Exposure};
use image::RgbImage;

/// A camera control the lock fixes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    Exposure,
    WhiteBalance,
    Gain,
    Focus,
}

impl Control {
    /// Every control, in the order they are fixed (exposure first: gain and
    /// white balance are chosen against it).
    pub const ALL: [Control; 4] = [
        Control::Exposure,
        Control::Gain,
        Control::WhiteBalance,
        Control::Focus,
    ];

    /// The key in `[camera]` of `cubed.toml`.
    pub fn key(self) -> &'static str {
        match self {
            Control::Exposure => "exposure",
            Control::WhiteBalance => "white_balance",
            Control::Gain => "gain",
            Control::Focus => "focus",
        }
    }
}

impl std::fmt::Display for Control {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Control::Exposure => "exposure",
            Control::WhiteBalance => "white balance",
            Control::Gain => "gain",
            Control::Focus => "focus",
        })
    }
}

/// What to do with one control.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ControlSetting {
    /// Leave the camera's automatic control on.
    Auto,
    /// Fix it at the value the automatic control has settled on.
    Locked,
    /// Fix it at this value (the device's own units).
    Value(i64),
}

impl std::fmt::Display for ControlSetting {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ControlSetting::Auto => f.write_str("auto"),
            ControlSetting::Locked => f.write_str("locked"),
            ControlSetting::Value(v) => write!(f, "{v}"),
        }
    }
}

/// How the camera is set up before photographing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LockSettings {
    pub exposure: ControlSetting,
    pub white_balance: ControlSetting,
    pub gain: ControlSetting,
    pub focus: ControlSetting,
    /// Frames read and dropped before each photo (the driver's buffered, stale ones).
    pub flush_frames: usize,
    /// Frames averaged into each photo (less sensor noise).
    pub average_frames: usize,
}

impl Default for LockSettings {
    fn default() -> Self {
        LockSettings {
            exposure: ControlSetting::Locked,
            white_balance: ControlSetting::Locked,
            gain: ControlSetting::Locked,
            focus: ControlSetting::Locked,
            flush_frames: 4,
            average_frames: 3,
        }
    }
}

impl LockSettings {
    /// The setting of one control.
    pub fn of(&self, control: Control) -> ControlSetting {
        match control {
            Control::Exposure => self.exposure,
            Control::WhiteBalance => self.white_balance,
            Control::Gain => self.gain,
            Control::Focus => self.focus,
        }
    }
}

/// What the lock needs from a webcam.
pub(crate) trait ControlDevice {
    /// The next frame from the stream.
    fn grab(&mut self) -> Result<RgbImage, CameraError>;
    /// Turns the control's automatic mode on or off.
    fn set_auto(&mut self, control: Control, auto: bool) -> Result<(), ControlError>;
    /// Sets the control's manual value.
    fn set_value(&mut self, control: Control, value: i64) -> Result<(), ControlError>;
    /// The control's current value and whether its automatic mode is on.
    fn read(&mut self, control: Control) -> Result<(i64, bool), ControlError>;
}

/// Why a control could not be set or read as asked: the device's refusal in its own words, or
/// what it reads back instead.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ControlError {
    /// The device refused the call (its driver's words).
    #[error("{0}")]
    Refused(String),
    /// The device refused every id the control goes by (V4L2 offers some under two).
    #[error("{}", in_words(.0))]
    EveryIdRefused(Vec<IdRefusal>),
    /// The device's value is not a number (a menu or a string control).
    #[error("its value {value} is not a number")]
    NotANumber { value: String },
    /// The automatic mode was turned off but reads back on.
    #[error("its automatic mode is still on (value {value})")]
    StillAutomatic { value: i64 },
    /// The value was set but reads back as another (a device clamps silently).
    #[error("it reads back {got}")]
    ReadsBack { wanted: i64, got: i64 },
}

/// One id of a control the device refused, and its words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IdRefusal {
    /// The V4L2 control id.
    pub id: u32,
    pub why: String,
}

/// "V4L2 control 0x009a0902: …; V4L2 control 0x00980911: …".
fn in_words(refusals: &[IdRefusal]) -> String {
    let each: Vec<String> = (refusals.iter())
        .map(|r| format!("V4L2 control {:#010x}: {}", r.id, r.why))
        .collect();
    each.join("; ")
}

/// A control the device would not set as asked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the camera refused to set {control} to {wanted} ([camera] {key}): {why}", key = control.key())]
pub struct ControlRefusal {
    pub control: Control,
    pub wanted: ControlSetting,
    pub why: ControlError,
}

/// What the device accepted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LockReport {
    /// Controls fixed, with the value read back.
    pub fixed: Vec<(Control, i64)>,
    /// Controls left automatic, as configured.
    pub automatic: Vec<Control>,
    /// Controls the device refused (it keeps working; photos may drift).
    pub refused: Vec<ControlRefusal>,
}

impl LockReport {
    /// One line for the log: "exposure 156, gain 32 fixed; focus automatic; REFUSED: …".
    pub fn summary(&self) -> String {
        let mut parts = Vec::new();
        if !self.fixed.is_empty() {
            let fixed: Vec<String> = self.fixed.iter().map(|(c, v)| format!("{c} {v}")).collect();
            parts.push(format!("{} fixed", fixed.join(", ")));
        }
        if !self.automatic.is_empty() {
            let auto: Vec<String> = self.automatic.iter().map(|c| c.to_string()).collect();
            parts.push(format!("{} automatic", auto.join(", ")));
        }
        for refusal in &self.refused {
            parts.push(format!("REFUSED: {refusal}"));
        }
        parts.join("; ")
    }
}

/// Fixes every control as `settings` say and reads back what the device took.
pub(crate) fn lock_controls(device: &mut dyn ControlDevice, settings: &LockSettings) -> LockReport {
    let mut report = LockReport::default();
    for control in Control::ALL {
        let wanted = settings.of(control);
        match apply(device, control, wanted) {
            Ok(Some(value)) => report.fixed.push((control, value)),
            Ok(None) => report.automatic.push(control),
            Err(why) => report.refused.push(ControlRefusal {
                control,
                wanted,
                why,
            }),
        }
    }
    report
}

/// Applies one setting; `Some(value)` when fixed, `None` when left automatic.
fn apply(
    device: &mut dyn ControlDevice,
    control: Control,
    wanted: ControlSetting,
) -> Result<Option<i64>, ControlError> {
    let target = match wanted {
        ControlSetting::Auto => {
            device.set_auto(control, true)?;
            return Ok(None);
        }
        ControlSetting::Locked => device.read(control)?.0,
        ControlSetting::Value(v) => v,
    };
    device.set_auto(control, false)?;
    device.set_value(control, target)?;
    let (got, auto) = device.read(control)?;
    if auto {
        return Err(ControlError::StillAutomatic { value: got });
    }
    if got != target {
        return Err(ControlError::ReadsBack {
            wanted: target,
            got,
        });
    }
    Ok(Some(got))
}

/// A photo after the robot has settled: `flush_frames` dropped, then
/// `average_frames` averaged pixel by pixel.
pub(crate) fn settled_frame(
    device: &mut dyn ControlDevice,
    settings: &LockSettings,
) -> Result<RgbImage, CameraError> {
    for _ in 0..settings.flush_frames {
        device.grab()?;
    }
    let first = device.grab()?;
    let (w, h) = first.dimensions();
    let mut sum: Vec<u32> = first.as_raw().iter().map(|&v| u32::from(v)).collect();
    let count = settings.average_frames.max(1);
    for _ in 1..count {
        let frame = device.grab()?;
        if frame.dimensions() != (w, h) {
            return Err(CameraError::Backend(format!(
                "the camera changed its frame size while averaging ({w}x{h}, then {}x{})",
                frame.width(),
                frame.height()
            )));
        }
        for (s, &v) in sum.iter_mut().zip(frame.as_raw()) {
            *s += u32::from(v);
        }
    }
    let n = count as u32;
    let averaged: Vec<u8> = sum.iter().map(|&s| ((s + n / 2) / n) as u8).collect();
    RgbImage::from_raw(w, h, averaged)
        .ok_or_else(|| CameraError::Backend("averaged frame has the wrong size".into()))
}

/// A settled frame at `exposure`. With the exposure fixed at `locked`, the value is scaled for
/// this photo and put back after it; with the exposure automatic (or refused) the camera
/// decides, and the normal settled frame is taken.
pub(crate) fn frame_at_exposure(
    device: &mut dyn ControlDevice,
    settings: &LockSettings,
    locked: Option<i64>,
    exposure: Exposure,
) -> Result<RgbImage, CameraError> {
    let Some(locked) = locked.filter(|_| exposure != Exposure::NORMAL) else {
        return settled_frame(device, settings);
    };
    let scaled = ((locked as f64) * f64::from(exposure.factor()))
        .round()
        .max(1.0) as i64;
    let words = |why: ControlError| {
        CameraError::Backend(format!(
            "cannot set the exposure to {scaled} for a {} photo: {why}",
            exposure.words()
        ))
    };
    device.set_value(Control::Exposure, scaled).map_err(words)?;
    let frame = settled_frame(device, settings);
    let restored = device.set_value(Control::Exposure, locked);
    let frame = frame?;
    restored.map_err(|why| {
        CameraError::Backend(format!("cannot put the exposure back to {locked}: {why}"))
    })?;
    Ok(frame)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// A webcam that records every call; each control has a range of accepted values.
    struct Recording {
        calls: Vec<String>,
        values: HashMap<&'static str, (i64, bool)>,
        /// Controls whose automatic mode cannot be turned off.
        stuck_auto: Vec<Control>,
        /// Manual values are clamped to this (what a real device does silently).
        max_value: i64,
        frames: Vec<u8>,
    }

    impl Recording {
        fn new() -> Recording {
            let values = Control::ALL
                .iter()
                .map(|c| (c.key(), (100, true)))
                .collect();
            Recording {
                calls: Vec::new(),
                values,
                stuck_auto: Vec::new(),
                max_value: 1000,
                frames: vec![10, 20, 30, 40, 50, 60, 70, 80],
            }
        }
    }

    impl ControlDevice for Recording {
        fn grab(&mut self) -> Result<RgbImage, CameraError> {
            let v = self.frames.remove(0);
            self.calls.push(format!("grab {v}"));
            Ok(RgbImage::from_pixel(2, 2, image::Rgb([v, v, v])))
        }
        fn set_auto(&mut self, control: Control, auto: bool) -> Result<(), ControlError> {
            self.calls.push(format!("auto {} {auto}", control.key()));
            if !auto && self.stuck_auto.contains(&control) {
                return Err(ControlError::Refused("operation not permitted".into()));
            }
            if let Some(entry) = self.values.get_mut(control.key()) {
                entry.1 = auto;
            }
            Ok(())
        }
        fn set_value(&mut self, control: Control, value: i64) -> Result<(), ControlError> {
            self.calls.push(format!("set {} {value}", control.key()));
            if let Some(entry) = self.values.get_mut(control.key()) {
                entry.0 = value.min(self.max_value);
            }
            Ok(())
        }
        fn read(&mut self, control: Control) -> Result<(i64, bool), ControlError> {
            self.calls.push(format!("read {}", control.key()));
            self.values
                .get(control.key())
                .copied()
                .ok_or_else(|| ControlError::Refused("no such control".into()))
        }
    }

    #[test]
    fn locked_controls_keep_the_value_the_automatic_one_chose_and_are_read_back() {
        let mut device = Recording::new();
        device.values.insert("exposure", (156, true));
        let report = lock_controls(&mut device, &LockSettings::default());
        assert!(report.refused.is_empty(), "{report:?}");
        assert_eq!(report.fixed[0], (Control::Exposure, 156));
        assert_eq!(
            device.calls[..4],
            [
                "read exposure",
                "auto exposure false",
                "set exposure 156",
                "read exposure"
            ]
        );
        assert_eq!(device.values["exposure"], (156, false));
    }

    #[test]
    fn a_refused_or_clamped_control_is_named_and_the_others_still_fixed() {
        let mut device = Recording::new();
        device.stuck_auto = vec![Control::WhiteBalance];
        device.max_value = 500;
        let settings = LockSettings {
            exposure: ControlSetting::Value(800),
            focus: ControlSetting::Auto,
            ..LockSettings::default()
        };
        let report = lock_controls(&mut device, &settings);
        let refused: Vec<Control> = report.refused.iter().map(|r| r.control).collect();
        assert_eq!(refused, [Control::Exposure, Control::WhiteBalance]);
        assert_eq!(report.fixed, [(Control::Gain, 100)]);
        assert_eq!(report.automatic, [Control::Focus]);
        let text = report.summary();
        assert!(
            text.contains("REFUSED: the camera refused to set exposure to 800 ([camera] exposure): it reads back 500"),
            "{text}"
        );
        assert!(
            text.contains(
                "white balance to locked ([camera] white_balance): operation not permitted"
            ),
            "{text}"
        );
    }

    #[test]
    fn a_darker_photo_scales_the_locked_exposure_for_that_photo_only() {
        let mut device = Recording::new();
        let settings = LockSettings {
            flush_frames: 1,
            average_frames: 1,
            ..LockSettings::default()
        };
        let frame = frame_at_exposure(&mut device, &settings, Some(200), Exposure::stops(-1))
            .expect("photo");
        assert_eq!(
            frame.get_pixel(0, 0).0,
            [20, 20, 20],
            "one stale frame dropped"
        );
        assert_eq!(
            device.calls,
            ["set exposure 100", "grab 10", "grab 20", "set exposure 200"]
        );
        assert_eq!(device.values["exposure"].0, 200, "put back");
        let mut automatic = Recording::new();
        frame_at_exposure(&mut automatic, &settings, None, Exposure::stops(1)).expect("photo");
        assert_eq!(
            automatic.calls,
            ["grab 10", "grab 20"],
            "an automatic exposure is left to the camera"
        );
    }

    #[test]
    fn a_settled_frame_drops_stale_frames_and_averages_the_next_ones() {
        let mut device = Recording::new();
        let settings = LockSettings {
            flush_frames: 2,
            average_frames: 3,
            ..LockSettings::default()
        };
        let frame = settled_frame(&mut device, &settings).expect("frame");
        // 10 and 20 are stale; (30 + 40 + 50) / 3 = 40.
        assert_eq!(frame.get_pixel(1, 1).0, [40, 40, 40]);
        assert_eq!(device.calls.len(), 5);
        assert_eq!(
            device.frames,
            [60, 70, 80],
            "nothing read beyond the average"
        );
    }
}
