//! The wiring tables of a design file (`[board]`, `[gripper.wiring]`, `[flipper.wiring]`):
//! their serde form and the checks that turn them into typed values, each problem naming
//! its key and what is allowed.

use super::pins::{ActuatorWiring, JawWiring, MotorPins};
use crate::drive::{out_of_range, Drive, KeyProblem};
use crate::model::Reach;
use firmware_protocol::message::{BoardSetup, HomeSensor, SensorKind, Signal};
use serde::Deserialize;

/// GPIO numbers a design may name; the firmware says which its chip has.
const MAX_PIN: i64 = 31;

/// The serde form of `[board]`: what every actuator shares.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct BoardToml {
    enable: Option<i64>,
    #[serde(default = "low")]
    enable_active: String,
    estop: Option<i64>,
    #[serde(default = "high")]
    estop_active: String,
    button: Option<i64>,
    #[serde(default = "low")]
    button_active: String,
    #[serde(default = "four")]
    debounce_samples: i64,
    #[serde(default)]
    idle_disable_ms: i64,
}

/// The serde form of an actuator's `wiring` table.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct WiringToml {
    step: Option<i64>,
    dir: Option<i64>,
    #[serde(default)]
    invert_dir: bool,
    jaw: Option<i64>,
    #[serde(default = "open_us")]
    jaw_open_us: i64,
    #[serde(default = "closed_us")]
    jaw_closed_us: i64,
    home: Option<i64>,
    #[serde(default = "low")]
    home_active: String,
    #[serde(default = "hall")]
    home_sensor: String,
    #[serde(default = "positive")]
    home_seek: String,
    home_seek_deg_s: Option<i64>,
    home_approach_deg_s: Option<i64>,
    #[serde(default = "twenty")]
    home_backoff_deg: i64,
    #[serde(default = "four_hundred")]
    home_max_seek_deg: i64,
    #[serde(default)]
    home_offset_steps: i64,
    stall: Option<i64>,
    #[serde(default = "high")]
    stall_active: String,
}

fn low() -> String {
    "low".into()
}
fn high() -> String {
    "high".into()
}
fn hall() -> String {
    "hall".into()
}
fn positive() -> String {
    "positive".into()
}
fn four() -> i64 {
    4
}
fn twenty() -> i64 {
    20
}
fn four_hundred() -> i64 {
    400
}
fn open_us() -> i64 {
    1000
}
fn closed_us() -> i64 {
    2000
}

/// `value` if it is within `lo..=hi`.
fn within(key: &'static str, value: i64, lo: i64, hi: i64) -> Result<i64, KeyProblem> {
    if (lo..=hi).contains(&value) {
        Ok(value)
    } else {
        Err(out_of_range(key, value, &format!("{lo}..={hi}")))
    }
}

fn pin(key: &'static str, value: i64) -> Result<u8, KeyProblem> {
    within(key, value, 0, MAX_PIN)
        .map(|p| p as u8)
        .map_err(|_| out_of_range(key, value, "GPIO numbers 0..=31"))
}

/// One of two words, as `true` for the first.
fn either(key: &'static str, text: &str, yes: &str, no: &str) -> Result<bool, KeyProblem> {
    match text {
        t if t == yes => Ok(true),
        t if t == no => Ok(false),
        other => Err(KeyProblem {
            key,
            problem: format!("'{other}' is neither '{yes}' nor '{no}'"),
        }),
    }
}

fn signal(
    key: &'static str,
    pin_value: Option<i64>,
    active_key: &'static str,
    active: &str,
) -> Result<Option<Signal>, KeyProblem> {
    let Some(value) = pin_value else {
        return Ok(None);
    };
    Ok(Some(Signal {
        pin: pin(key, value)?,
        active_high: either(active_key, active, "high", "low")?,
    }))
}

/// 0 (never), or long enough that the drivers stay on between a run's scan and its
/// moves (the daemon homes again at the start of a run after they went off).
fn idle_ms(value: i64) -> Result<u32, KeyProblem> {
    match value {
        0 | 10_000..=3_600_000 => Ok(value as u32),
        _ => Err(out_of_range(
            "idle_disable_ms",
            value,
            "0 (drivers stay on) or 10000..=3600000 (ms)",
        )),
    }
}

impl BoardToml {
    /// Checks every key; the actuator count is the design's, filled in later.
    pub(crate) fn validate(&self) -> Result<BoardSetup, KeyProblem> {
        Ok(BoardSetup {
            actuators: 0,
            enable: signal("enable", self.enable, "enable_active", &self.enable_active)?,
            estop: signal("estop", self.estop, "estop_active", &self.estop_active)?,
            button: signal("button", self.button, "button_active", &self.button_active)?,
            debounce_samples: within("debounce_samples", self.debounce_samples, 1, 255)? as u8,
            idle_disable_ms: idle_ms(self.idle_disable_ms)?,
        })
    }
}

impl WiringToml {
    /// Whether it names a stepper driver's pins.
    pub(crate) fn has_motor(&self) -> bool {
        self.step.is_some() || self.dir.is_some()
    }

    /// Checks every key of an actuator driven by `drive` (none: it never turns, so it
    /// has no motor); `has_jaw` says whether it needs (and may have) a jaw servo, and a
    /// gripper's `reach` (none for a flipper) what its home sensor must be: a gripper that
    /// turns without end needs one (its position is counted from home, so the firmware must
    /// find it), and an end stop must lie beyond a limited one's range.
    pub(crate) fn validate(
        &self,
        drive: Option<&Drive>,
        has_jaw: bool,
        reach: Option<Reach>,
    ) -> Result<ActuatorWiring, KeyProblem> {
        let jaw = match (has_jaw, self.jaw) {
            (true, None) => {
                return Err(KeyProblem {
                    key: "jaw",
                    problem: "missing: the gripper has a jaw; give its servo's signal pin".into(),
                })
            }
            (false, Some(_)) => {
                return Err(KeyProblem {
                    key: "jaw",
                    problem: "this actuator has no jaw (`jaw = false` or a flipper)".into(),
                })
            }
            (true, Some(_)) if self.jaw_open_us == self.jaw_closed_us => {
                return Err(KeyProblem {
                    key: "jaw_closed_us",
                    problem: format!(
                        "{} µs, the same pulse as `jaw_open_us`: the jaw would never move; give the pulse that closes it",
                        self.jaw_closed_us
                    ),
                })
            }
            (true, Some(jaw)) => Some(JawWiring {
                pin: pin("jaw", jaw)?,
                open_us: within("jaw_open_us", self.jaw_open_us, 400, 2600)? as u16,
                closed_us: within("jaw_closed_us", self.jaw_closed_us, 400, 2600)? as u16,
            }),
            (false, None) => None,
        };
        let Some(drive) = drive else {
            for (key, given) in [("home", self.home), ("stall", self.stall)] {
                if given.is_some() {
                    return Err(KeyProblem {
                        key,
                        problem: "this gripper has no motor (it never turns): no sensor to wire"
                            .into(),
                    });
                }
            }
            return Ok(ActuatorWiring {
                motor: None,
                invert_dir: false,
                jaw,
                home: None,
                stall: None,
            });
        };
        let needed = |key, value: Option<i64>| {
            value.ok_or_else(|| KeyProblem {
                key,
                problem: "missing: give the pin of the stepper driver's input".into(),
            })
        };
        let home = self.home(drive)?;
        match (reach, &home) {
            (Some(Reach::Continuous), None) => return Err(KeyProblem {
                key: "home",
                problem: "missing: a gripper with `range = \"continuous\"` needs a home sensor (its position is counted from home, so the firmware must find it); give the sensor's pin".into(),
            }),
            (Some(Reach::Limited { min, max }), Some(home)) => {
                if let Some(problem) = end_stop_in_the_way(home, drive, (min, max)) {
                    return Err(problem);
                }
            }
            _ => {}
        }
        Ok(ActuatorWiring {
            motor: Some(MotorPins {
                step: pin("step", needed("step", self.step)?)?,
                dir: pin("dir", needed("dir", self.dir)?)?,
            }),
            invert_dir: self.invert_dir,
            jaw,
            home,
            stall: signal("stall", self.stall, "stall_active", &self.stall_active)?,
        })
    }

    /// Home lies within one output revolution of where the sensor triggers, either way:
    /// a larger offset is a misread figure (steps of the motor, not of the output).
    fn home_offset(&self, drive: &Drive) -> Result<i32, KeyProblem> {
        let rev = i64::try_from(drive.steps_per_rev()).unwrap_or(i64::MAX);
        let offset = self.home_offset_steps;
        if let (true, Ok(offset)) = (
            offset.unsigned_abs() < rev.unsigned_abs(),
            i32::try_from(offset),
        ) {
            return Ok(offset);
        }
        Err(KeyProblem {
            key: "home_offset_steps",
            problem: format!(
                "{offset} is more than a turn: home is within one output revolution ({rev} microsteps, from `motion`) of where the sensor triggers, so give -{} ..= {}",
                rev - 1,
                rev - 1
            ),
        })
    }

    fn home(&self, drive: &Drive) -> Result<Option<HomeSensor>, KeyProblem> {
        let Some(input) = signal("home", self.home, "home_active", &self.home_active)? else {
            let speeds = [
                ("home_seek_deg_s", self.home_seek_deg_s),
                ("home_approach_deg_s", self.home_approach_deg_s),
            ];
            if let Some((key, _)) = speeds.into_iter().find(|(_, given)| given.is_some()) {
                return Err(KeyProblem {
                    key,
                    problem: "given, but there is no home sensor (`home`) to seek: give its pin, or remove the key".into(),
                });
            }
            return Ok(None);
        };
        let top = i64::from(drive.max_deg_s).min(i64::from(u16::MAX));
        let seek = within(
            "home_seek_deg_s",
            self.home_seek_deg_s.unwrap_or(180.min(top)),
            1,
            top,
        )?;
        let approach = within(
            "home_approach_deg_s",
            self.home_approach_deg_s.unwrap_or(30.min(seek)),
            1,
            seek,
        )?;
        Ok(Some(HomeSensor {
            input,
            kind: if either("home_sensor", &self.home_sensor, "end-stop", "hall")? {
                SensorKind::EndStop
            } else {
                SensorKind::Hall
            },
            seek_positive: either("home_seek", &self.home_seek, "positive", "negative")?,
            seek_deg_s: seek as u16,
            approach_deg_s: approach as u16,
            backoff_deg: within("home_backoff_deg", self.home_backoff_deg, 1, 360)? as u16,
            max_seek_deg: within("home_max_seek_deg", self.home_max_seek_deg, 1, 3600)? as u16,
            offset_steps: self.home_offset(drive)?,
        }))
    }
}

/// An end stop sits beyond a limited gripper's travel, on the side homing seeks: every
/// quarter turn of `range` must stop short of where it triggers (`offset_steps` before
/// home), or the first program that reaches that end trips it (a Limit fault). None when it
/// does, or for a hall sensor (passed through at home by design).
fn end_stop_in_the_way(
    home: &HomeSensor,
    drive: &Drive,
    (min, max): (i8, i8),
) -> Option<KeyProblem> {
    if home.kind != SensorKind::EndStop {
        return None;
    }
    let quarter = i64::try_from(drive.steps_per_rev() / 4).unwrap_or(i64::MAX);
    let trigger = -i64::from(home.offset_steps);
    // The farthest quarter on the stop's side, and which way the stop lies from it.
    let (side, quarters, toward) = match home.seek_positive {
        true => ("positive", max, 1),
        false => ("negative", min, -1),
    };
    let farthest = i64::from(quarters) * quarter;
    if (trigger - farthest) * toward > 0 {
        return None;
    }
    // Half a quarter turn beyond the farthest position, towards the stop.
    let suggested = farthest + toward * (quarter / 2);
    Some(KeyProblem {
        key: "home_offset_steps",
        problem: format!(
            "{}: the end stop then triggers {trigger:+} microsteps from home, but `range` reaches {} ({farthest:+} microsteps) on the {side} side, where homing seeks the stop: a program would trip it (a Limit fault); put home further from the stop, e.g. home_offset_steps = {} (the stop {suggested:+} from home), or seek the other way",
            home.offset_steps,
            cubed_core::words::count(quarters.unsigned_abs(), "quarter turn", "quarter turns"),
            -suggested
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 200 × 8 microsteps, direct drive: a quarter turn is 400.
    const DRIVE: Drive = Drive {
        full_steps_per_rev: 200,
        microsteps: 8,
        gear_num: 1,
        gear_den: 1,
        max_deg_s: 900,
        accel_deg_s2: 18000,
    };

    fn stop(seek_positive: bool, offset_steps: i32) -> HomeSensor {
        HomeSensor {
            input: Signal {
                pin: 11,
                active_high: false,
            },
            kind: SensorKind::EndStop,
            seek_positive,
            seek_deg_s: 180,
            approach_deg_s: 30,
            backoff_deg: 20,
            max_seek_deg: 400,
            offset_steps,
        }
    }

    #[test]
    fn an_end_stop_must_lie_beyond_the_farthest_quarter_on_its_side() {
        let range = (-1, 1);
        // Seeking positively, the stop triggers `-offset` from home: past +400 it is clear.
        assert!(end_stop_in_the_way(&stop(true, -401), &DRIVE, range).is_none());
        for offset in [-400, 0, 300] {
            let problem = end_stop_in_the_way(&stop(true, offset), &DRIVE, range);
            let problem = problem.expect("the range reaches the stop");
            assert_eq!(problem.key, "home_offset_steps");
            assert!(
                problem.problem.contains("home_offset_steps = -600"),
                "{}",
                problem.problem
            );
        }
        // Seeking negatively, it must lie below -400; a range of [-1, 0] on that side alike.
        assert!(end_stop_in_the_way(&stop(false, 401), &DRIVE, range).is_none());
        assert!(end_stop_in_the_way(&stop(false, 400), &DRIVE, (-1, 0)).is_some());
        // Seeking positively with nothing on that side ([-1, 0]): clear once past home.
        assert!(end_stop_in_the_way(&stop(true, -1), &DRIVE, (-1, 0)).is_none());
        assert!(end_stop_in_the_way(&stop(true, 0), &DRIVE, (-1, 0)).is_some());
        // A hall sensor is passed at home by design.
        let hall = HomeSensor {
            kind: SensorKind::Hall,
            ..stop(true, 0)
        };
        assert!(end_stop_in_the_way(&hall, &DRIVE, range).is_none());
    }
}
