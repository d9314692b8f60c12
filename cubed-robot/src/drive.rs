//! A stepper drive's motion parameters (`[gripper.motion]`, `[flipper.motion]` in a design
//! file) and the time a move takes with them: a closed-form trapezoid (accelerate, cruise,
//! decelerate; a triangle when the move is too short to reach full speed).
//!
//! The firmware generates the same ramp step by step; this formula is written apart from
//! it, so the simulator running the firmware is a witness of the planner's times.

use crate::gear_ratio::GearToml;
use serde::Deserialize;

/// The serde form of a `motion` table.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub(crate) struct DriveToml {
    full_steps_per_rev: i64,
    microsteps: i64,
    /// `[motor revolutions, output revolutions]` (a list, so that any other length is
    /// refused by name: serde's pair would ignore a third value).
    #[serde(default)]
    gear: GearToml,
    max_deg_s: i64,
    accel_deg_s2: i64,
}

/// A validated stepper drive: motor, driver and gearing, top speed and acceleration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Drive {
    /// Full steps per motor revolution (200 for a 1.8° motor).
    pub full_steps_per_rev: u32,
    /// Driver microsteps per full step.
    pub microsteps: u32,
    /// Motor revolutions per `gear_den` output revolutions.
    pub gear_num: u32,
    /// See `gear_num`.
    pub gear_den: u32,
    /// Top speed, output degrees per second.
    pub max_deg_s: u32,
    /// Acceleration and deceleration, output degrees per second².
    pub accel_deg_s2: u32,
}

/// A key of a `motion` table out of range: the key and what is allowed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct KeyProblem {
    pub key: &'static str,
    pub problem: String,
}

pub(crate) fn out_of_range(
    key: &'static str,
    value: impl std::fmt::Display,
    allowed: &str,
) -> KeyProblem {
    KeyProblem {
        key,
        problem: format!("{value} is out of range; allowed {allowed}"),
    }
}

/// The fastest stepping a design is checked against, and who sets it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StepLimit {
    /// Most microsteps per second.
    pub max_steps_s: u32,
    /// Which shipped board takes no more ("Raspberry Pi Pico"); `None`: any board.
    pub board: Option<&'static str>,
}

impl StepLimit {
    /// What any board may take (the protocol's limit): a design not yet checked against its
    /// own board.
    pub const ANY_BOARD: StepLimit = StepLimit {
        max_steps_s: 200_000,
        board: None,
    };

    /// Who takes no more, in words.
    fn who(&self) -> String {
        self.board
            .map_or_else(|| "the board".to_string(), |name| format!("the {name}"))
    }
}

/// The output degrees `per` that `who`'s `lo..=hi` microsteps allow at `per_rev` microsteps
/// per output revolution, in words that say both.
fn degrees_allowed(per_rev: u64, lo: u64, hi: u64, per: &str, who: &str) -> String {
    let first = (lo * 360).div_ceil(per_rev);
    let last = hi * 360 / per_rev;
    format!(
        "{first}..={last} degrees {per} with this gearing ({per_rev} microsteps per output revolution; {who} takes {lo}..={hi} microsteps {per})"
    )
}

impl DriveToml {
    /// Checks every key (the ranges a firmware board accepts, the top speed `limit`'s).
    pub(crate) fn validate(&self, limit: StepLimit) -> Result<Drive, KeyProblem> {
        let within = |key, value: i64, lo: u32, hi: u32| match u32::try_from(value) {
            Ok(value) if (lo..=hi).contains(&value) => Ok(value),
            _ => Err(out_of_range(key, value, &format!("{lo}..={hi}"))),
        };
        let (gear_num, gear_den) = (self.gear.pair()).map_err(|problem| KeyProblem {
            key: "gear",
            problem,
        })?;
        let drive = Drive {
            full_steps_per_rev: within("full_steps_per_rev", self.full_steps_per_rev, 1, 10_000)?,
            microsteps: u32::try_from(self.microsteps).unwrap_or(0),
            gear_num: within("gear", gear_num, 1, 1000)?,
            gear_den: within("gear", gear_den, 1, 1000)?,
            max_deg_s: u32::try_from(self.max_deg_s).unwrap_or(0),
            accel_deg_s2: u32::try_from(self.accel_deg_s2).unwrap_or(0),
        };
        if !(drive.microsteps.is_power_of_two() && drive.microsteps <= 256) {
            return Err(out_of_range(
                "microsteps",
                self.microsteps,
                "1, 2, 4, 8, 16, 32, 64, 128 or 256 (what stepper drivers offer)",
            ));
        }
        let per_rev = drive.steps_per_rev();
        if !(4..=10_000_000).contains(&per_rev) {
            return Err(out_of_range(
                "gear",
                per_rev,
                "4..=10000000 microsteps per output revolution",
            ));
        }
        let in_type = |value: i64| u32::try_from(value).is_ok();
        let top = u64::from(limit.max_steps_s);
        if !(1..=top).contains(&drive.steps_per_s()) || !in_type(self.max_deg_s) {
            let allowed = degrees_allowed(per_rev, 1, top, "per second", &limit.who());
            return Err(out_of_range("max_deg_s", self.max_deg_s, &allowed));
        }
        if !(100..=50_000_000).contains(&drive.steps_per_s2()) || !in_type(self.accel_deg_s2) {
            let allowed = degrees_allowed(per_rev, 100, 50_000_000, "per second²", "the board");
            return Err(out_of_range("accel_deg_s2", self.accel_deg_s2, &allowed));
        }
        Ok(drive)
    }
}

/// What one move of a drive is: a gripper's quarter turn, a flipper's flip (one revolution
/// of its cam).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum MoveUnit {
    QuarterTurn,
    Flip,
}

impl MoveUnit {
    fn per_rev(self) -> u64 {
        match self {
            MoveUnit::QuarterTurn => 4,
            MoveUnit::Flip => 1,
        }
    }

    fn words(self) -> &'static str {
        match self {
            MoveUnit::QuarterTurn => "quarter turn",
            MoveUnit::Flip => "flip (one revolution of its cam)",
        }
    }
}

impl Drive {
    /// Checks that one `unit` is a whole number of microsteps: a motor stops only on whole
    /// microsteps, so a move of a fraction would fall short and the shortfall would add up
    /// move after move. The problem names the driver setting that would make it whole.
    pub(crate) fn check_whole_steps(&self, unit: MoveUnit) -> Result<(), KeyProblem> {
        let motor = u64::from(self.full_steps_per_rev) * u64::from(self.gear_num);
        let per_unit = u64::from(self.gear_den) * unit.per_rev();
        if (motor * u64::from(self.microsteps)) % per_unit == 0 {
            return Ok(());
        }
        let exact = (motor * u64::from(self.microsteps)) as f64 / per_unit as f64;
        let whole = (0..=8)
            .map(|shift| 1u64 << shift)
            .find(|&micro| (motor * micro) % per_unit == 0);
        let what = format!(
            "{} full steps a revolution, `microsteps = {}` and `gear = [{}, {}]` make {exact:.3} microsteps per {}, not a whole number: the motor stops only on whole microsteps, so every {} would fall short and the error would add up",
            self.full_steps_per_rev,
            self.microsteps,
            self.gear_num,
            self.gear_den,
            unit.words(),
            unit.words(),
        );
        Err(match whole {
            Some(micro) => KeyProblem {
                key: "microsteps",
                problem: format!(
                    "{what}; `microsteps = {micro}` (set the driver to match) makes it {}",
                    motor * micro / per_unit
                ),
            },
            None => KeyProblem {
                key: "gear",
                problem: format!(
                    "{what}, whatever the microsteps; choose a gear (or a motor) whose {} is a whole number of steps",
                    unit.words()
                ),
            },
        })
    }

    /// Microsteps per output revolution.
    pub fn steps_per_rev(&self) -> u64 {
        u64::from(self.full_steps_per_rev) * u64::from(self.microsteps) * u64::from(self.gear_num)
            / u64::from(self.gear_den)
    }

    /// Top speed in whole microsteps per second (what a step generator can time).
    fn steps_per_s(&self) -> u64 {
        u64::from(self.max_deg_s) * self.steps_per_rev() / 360
    }

    /// Acceleration in whole microsteps per second².
    fn steps_per_s2(&self) -> u64 {
        u64::from(self.accel_deg_s2) * self.steps_per_rev() / 360
    }

    /// Seconds to move `fraction` of an output revolution from rest to rest.
    pub fn move_s(&self, fraction: f64) -> f64 {
        let steps = (fraction * self.steps_per_rev() as f64).floor();
        let (v, a) = (self.steps_per_s() as f64, self.steps_per_s2() as f64);
        if steps <= 0.0 {
            0.0
        } else if steps * a >= v * v {
            // Up to v in v/a s over v²/2a steps, the same down, the rest at v.
            steps / v + v / a
        } else {
            // Half the way up, half down: steps/2 = a·t²/2 each.
            2.0 * (steps / a).sqrt()
        }
    }

    /// Whole milliseconds a planner allows for `fraction` of a revolution (rounded up,
    /// so a firmware whose ramp takes exactly this long accepts the time).
    pub fn move_ms(&self, fraction: f64) -> u32 {
        (self.move_s(fraction) * 1000.0 - 1e-6).ceil().max(1.0) as u32
    }
}

/// Why a move's time in a design file cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum DriveTimeError {
    /// A time given beside a `[motion]` table that is not the time its ramp takes.
    #[error("{given_ms} ms does not match the ramp of its [motion] table ({derived_ms} ms); remove the key or give {derived_ms}")]
    NotTheRamp { given_ms: u32, derived_ms: u32 },
}

/// The time a design gives a move of `fraction` of a revolution: derived from the drive
/// when it has one (a value also given must match it), else the value given.
pub(crate) fn timed(
    drive: Option<&Drive>,
    fraction: f64,
    given: Option<u32>,
) -> Result<Option<u32>, DriveTimeError> {
    let Some(drive) = drive else {
        return Ok(given);
    };
    let derived = drive.move_ms(fraction);
    match given {
        Some(ms) if ms != derived => Err(DriveTimeError::NotTheRamp {
            given_ms: ms,
            derived_ms: derived,
        }),
        _ => Ok(Some(derived)),
    }
}

/// A motor slowed or sped up in `[motion]` leaves both turn times written beside it wrong:
/// said at once, with the times its ramp takes, so one edit mends both.
pub(crate) fn both_off_the_ramp(
    drive: Option<&Drive>,
    quarter: Option<u32>,
    half: Option<u32>,
) -> Option<String> {
    let (drive, quarter, half) = (drive?, quarter?, half?);
    let (ramp_quarter, ramp_half) = (drive.move_ms(0.25), drive.move_ms(0.5));
    let off = |given, ramp| given != 0 && given != ramp;
    (off(quarter, ramp_quarter) && off(half, ramp_half)).then(|| {
        format!(
            "{quarter} ms, and half_ms {half} ms, do not match the ramp of its [motion] table ({ramp_quarter} ms and {ramp_half} ms); remove both keys, or give quarter_ms = {ramp_quarter} and half_ms = {ramp_half}"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drive(max_deg_s: u32, accel_deg_s2: u32) -> Drive {
        Drive {
            full_steps_per_rev: 200,
            microsteps: 8,
            gear_num: 1,
            gear_den: 1,
            max_deg_s,
            accel_deg_s2,
        }
    }

    #[test]
    fn a_trapezoid_by_hand() {
        // 900°/s reached in 50 ms over 22.5°; a quarter: 45° ramping, 45° at 900°/s (50 ms).
        let d = drive(900, 18_000);
        assert_eq!(d.move_ms(0.25), 150);
        // A half turn: 135° cruising = 150 ms, plus 100 ms of ramps.
        assert_eq!(d.move_ms(0.5), 250);
    }

    #[test]
    fn a_quarter_turn_of_a_fraction_of_a_microstep_is_refused_naming_what_makes_it_whole() {
        let geared = |full, micro, num, den| Drive {
            full_steps_per_rev: full,
            microsteps: micro,
            gear_num: num,
            gear_den: den,
            ..drive(900, 18_000)
        };
        // 50 full steps a revolution: 12.5 a quarter; 2 microsteps make 25.
        let err = (geared(50, 1, 1, 1).check_whole_steps(MoveUnit::QuarterTurn)).unwrap_err();
        assert_eq!(err.key, "microsteps");
        assert!(
            err.problem.contains("12.500 microsteps per quarter turn"),
            "{err:?}"
        );
        assert!(err.problem.contains("`microsteps = 2`"), "{err:?}");
        assert!(err.problem.ends_with("makes it 25"), "{err:?}");
        // A 15:4 belt at full steps: 187.5 a quarter; 2 microsteps make 375.
        let belt = geared(200, 1, 15, 4).check_whole_steps(MoveUnit::QuarterTurn);
        assert!(belt.unwrap_err().problem.ends_with("makes it 375"));
        // 3:7: 200 × 3 / 28 is no whole number at any power-of-two microsteps.
        let err = (geared(200, 16, 3, 7).check_whole_steps(MoveUnit::QuarterTurn)).unwrap_err();
        assert_eq!(err.key, "gear");
        // Whole: the shipped kind, and a flip of a cam that turns once.
        assert!(geared(200, 8, 1, 1)
            .check_whole_steps(MoveUnit::QuarterTurn)
            .is_ok());
        assert!(geared(200, 1, 3, 1)
            .check_whole_steps(MoveUnit::QuarterTurn)
            .is_ok());
        assert!(geared(50, 1, 1, 1)
            .check_whole_steps(MoveUnit::Flip)
            .is_ok());
        let err = geared(200, 1, 1, 3)
            .check_whole_steps(MoveUnit::Flip)
            .unwrap_err();
        assert!(err.problem.contains("per flip"), "{err:?}");
    }

    #[test]
    fn a_triangle_by_hand() {
        // 90° at 3600°/s² never reaches 10 000°/s: 45° up in sqrt(2·45/3600) = 0.158 s.
        let d = drive(10_000, 3600);
        let expected = 2.0 * (2.0f64 * 45.0 / 3600.0).sqrt();
        assert!((d.move_s(0.25) - expected).abs() < 1e-9);
    }

    #[test]
    fn keys_out_of_range_are_named() {
        let raw = DriveToml {
            full_steps_per_rev: 200,
            microsteps: 300,
            gear: GearToml::default(),
            max_deg_s: 900,
            accel_deg_s2: 18_000,
        };
        assert_eq!(
            raw.validate(StepLimit::ANY_BOARD).unwrap_err().key,
            "microsteps"
        );
        let three = DriveToml {
            microsteps: 3,
            ..raw.clone()
        };
        let err = three
            .validate(StepLimit::ANY_BOARD)
            .expect_err("no driver steps in thirds");
        assert!(
            err.key == "microsteps" && err.problem.contains("1, 2, 4, 8"),
            "{err:?}"
        );
        let slow = DriveToml {
            microsteps: 8,
            accel_deg_s2: 1,
            ..raw.clone()
        };
        assert_eq!(
            slow.validate(StepLimit::ANY_BOARD).unwrap_err().key,
            "accel_deg_s2"
        );
        // Negative: the key's own range, not the number type's.
        let backwards = DriveToml {
            microsteps: 8,
            max_deg_s: -720,
            ..raw.clone()
        };
        let err = backwards
            .validate(StepLimit::ANY_BOARD)
            .expect_err("negative speed");
        assert!(
            err.key == "max_deg_s"
                && err
                    .problem
                    .starts_with("-720 is out of range; allowed 1..="),
            "{err:?}"
        );
    }

    #[test]
    fn a_gear_is_a_pair_and_anything_else_is_refused_by_name() {
        let raw = |gear: Vec<i64>| DriveToml {
            full_steps_per_rev: 200,
            microsteps: 8,
            gear: GearToml::from(gear.as_slice()),
            max_deg_s: 900,
            accel_deg_s2: 18_000,
        };
        for gear in [vec![2, 1, 3], vec![2], vec![]] {
            let err = raw(gear.clone())
                .validate(StepLimit::ANY_BOARD)
                .expect_err("not a pair");
            assert!(
                err.key == "gear" && err.problem.contains("is not a pair"),
                "{gear:?}: {err:?}"
            );
        }
        let drive = raw(vec![3, 1])
            .validate(StepLimit::ANY_BOARD)
            .expect("a 3:1 reduction");
        assert_eq!((drive.gear_num, drive.gear_den), (3, 1));
    }

    #[test]
    fn a_speed_too_fast_for_the_board_is_told_in_degrees() {
        // 1600 microsteps a revolution: 200 000 microsteps/s is 45 000°/s.
        let raw = DriveToml {
            full_steps_per_rev: 200,
            microsteps: 8,
            gear: GearToml::default(),
            max_deg_s: 50_000,
            accel_deg_s2: 18_000,
        };
        let err = raw.validate(StepLimit::ANY_BOARD).expect_err("too fast");
        assert_eq!(err.key, "max_deg_s");
        assert!(
            err.problem.contains("1..=45000 degrees per second"),
            "{}",
            err.problem
        );
        let fast_enough = DriveToml {
            max_deg_s: 45_000,
            ..raw.clone()
        };
        assert!(
            fast_enough.validate(StepLimit::ANY_BOARD).is_ok(),
            "the top of the range is allowed"
        );
    }

    #[test]
    fn a_known_board_sets_the_top_speed_and_is_named() {
        let pico = StepLimit {
            max_steps_s: 15_000,
            board: Some("Raspberry Pi Pico"),
        };
        // 1600 microsteps a revolution: 15 000 microsteps/s is 3375°/s.
        let at = |max_deg_s| DriveToml {
            full_steps_per_rev: 200,
            microsteps: 8,
            gear: GearToml::default(),
            max_deg_s,
            accel_deg_s2: 18_000,
        };
        assert!(at(3375).validate(pico).is_ok());
        let err = at(3376).validate(pico).expect_err("beyond the Pico");
        assert_eq!(err.key, "max_deg_s");
        assert!(
            err.problem.contains("allowed 1..=3375 degrees per second")
                && err
                    .problem
                    .contains("the Raspberry Pi Pico takes 1..=15000"),
            "{}",
            err.problem
        );
        assert!(at(3376).validate(StepLimit::ANY_BOARD).is_ok());
    }
}
