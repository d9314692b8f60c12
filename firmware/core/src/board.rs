//! What a board builder describes: each actuator's hardware (stepper or servo), its
//! mechanics, home sensor and timing, plus the e-stop and start-button inputs.
//! Everything here is a `const` so a board crate keeps its whole robot in one file.

use crate::ramp::move_time_us;

/// A digital input (home sensor, e-stop switch, button) by board input index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Input {
    /// Index the board passes to [`crate::Firmware::set_input`] (0..32).
    pub index: u8,
    /// Whether a high level means "active" (triggered, pressed).
    pub active_high: bool,
}

/// What a home sensor is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SensorKind {
    /// Active around the home angle (a hall sensor and a magnet): passing it while
    /// moving is normal.
    Hall,
    /// A limit switch beyond the end of the range: active during a motion means the
    /// actuator went too far (fault `Limit`).
    EndStop,
}

/// How a stepper finds home: seek the sensor, back off, approach slowly, then move by
/// the offset to position 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HomeSensor {
    /// The sensor's input.
    pub input: Input,
    /// Hall sensor at home or end-stop switch.
    pub kind: SensorKind,
    /// Seek in the positive direction (else negative).
    pub seek_positive: bool,
    /// Seek speed, output degrees per second.
    pub seek_deg_s: u32,
    /// Slow approach speed, output degrees per second.
    pub approach_deg_s: u32,
    /// How far to back off after the first contact, output degrees.
    pub backoff_deg: u32,
    /// Longest seek before giving up (fault `Stall`), output degrees.
    pub max_seek_deg: u32,
    /// Position 0 is this many microsteps from where the sensor triggers (signed).
    pub offset_steps: i32,
}

/// A stepper motor behind a step/dir driver (A4988, TMC2209…).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stepper {
    /// Full steps per motor revolution (200 for a 1.8° motor).
    pub full_steps_per_rev: u32,
    /// Driver microsteps per full step (1, 2, 4, 8, 16…).
    pub microsteps: u32,
    /// Gear ratio as motor revolutions per `gear_den` output revolutions.
    pub gear_num: u32,
    /// See `gear_num` (1 for direct drive).
    pub gear_den: u32,
    /// Protocol position units per output revolution: 4 for a gripper rotation
    /// (quarter turns), the positions per revolution for a flipper.
    pub units_per_rev: u32,
    /// Top speed, output degrees per second.
    pub max_deg_s: u32,
    /// Acceleration (and deceleration), output degrees per second².
    pub accel_deg_s2: u32,
    /// Swap the direction pin's sense.
    pub invert_dir: bool,
    /// The home sensor, if any (required for a continuous rotation).
    pub home: Option<HomeSensor>,
}

/// A hobby servo (a jaw) driven by pulse width.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Servo {
    /// Pulse width for "open", µs.
    pub open_us: u16,
    /// Pulse width for "closed", µs.
    pub closed_us: u16,
    /// Time the servo takes from one end to the other, ms.
    pub travel_ms: u16,
}

/// One actuator channel of the board, in the order of the host's `Configure`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Actuator {
    /// Drives a rotation or a flipper.
    Stepper(Stepper),
    /// Drives a jaw.
    Servo(Servo),
}

/// The whole board: name, version, actuators and switches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoardConfig {
    /// Name sent in `HelloReply` (up to 16 ASCII bytes).
    pub name: &'static str,
    /// Firmware version (major, minor, patch).
    pub version: (u8, u8, u8),
    /// Actuators, indexed as in the host's `Configure`.
    pub actuators: &'static [Actuator],
    /// An emergency-stop switch, if fitted.
    pub estop: Option<Input>,
    /// The start button, if fitted (sends `Event ButtonPressed 0`).
    pub button: Option<Input>,
    /// An input changes only after this many samples in a row at its new level
    /// ([`crate::Firmware::set_input`] is one sample): 1 takes every sample as it comes.
    pub debounce_samples: u8,
    /// The drivers are switched off after this long with nothing to do (positions then
    /// count as lost: the host homes again); 0 keeps them on.
    pub idle_disable_ms: u32,
    /// How far ahead of its time a ramp step is handed to [`crate::Pins::step`], µs: 0
    /// when the board pulses at once, more when a timer pulses it at its time (then the
    /// board must hold every step of that span).
    pub step_lead_us: u32,
}

/// A board setting out of range: which actuator (if any), which key, and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoardError {
    /// Actuator index, or `None` for a board-wide key.
    pub actuator: Option<u8>,
    /// The key, as named in this module.
    pub key: &'static str,
    /// What is allowed.
    pub allowed: &'static str,
}

/// Most actuators a board may have (the protocol's limit).
pub const MAX_BOARD_ACTUATORS: usize = firmware_protocol::message::MAX_ACTUATORS;

const fn fail(actuator: Option<u8>, key: &'static str, allowed: &'static str) -> BoardError {
    BoardError {
        actuator,
        key,
        allowed,
    }
}

impl Stepper {
    /// Microsteps per output revolution.
    pub const fn steps_per_rev(&self) -> u64 {
        self.full_steps_per_rev as u64 * self.microsteps as u64 * self.gear_num as u64
            / self.gear_den as u64
    }

    /// Microsteps for `units` protocol position units (rounded towards zero).
    pub const fn steps_for_units(&self, units: i64) -> i64 {
        units * self.steps_per_rev() as i64 / self.units_per_rev as i64
    }

    /// Protocol position units at `steps` microsteps from home (rounded to nearest).
    pub const fn units_at(&self, steps: i64) -> i64 {
        let scaled = steps * self.units_per_rev as i64;
        let rev = self.steps_per_rev() as i64;
        if scaled >= 0 {
            (scaled + rev / 2) / rev
        } else {
            -((-scaled + rev / 2) / rev)
        }
    }

    /// Output degrees (per second, per second²…) as microsteps.
    pub const fn deg_to_steps(&self, degrees: u32) -> u32 {
        let steps = degrees as u64 * self.steps_per_rev() / 360;
        if steps > u32::MAX as u64 {
            u32::MAX
        } else {
            steps as u32
        }
    }

    /// Top speed, microsteps per second.
    pub const fn max_steps_s(&self) -> u32 {
        self.deg_to_steps(self.max_deg_s)
    }

    /// Acceleration, microsteps per second².
    pub const fn accel_steps_s2(&self) -> u32 {
        self.deg_to_steps(self.accel_deg_s2)
    }

    /// The time the ramp takes to move `units` position units, µs.
    pub fn move_time_us(&self, units: u32) -> u64 {
        let steps = self.steps_for_units(units as i64).unsigned_abs();
        let steps = if steps > u32::MAX as u64 {
            u32::MAX
        } else {
            steps as u32
        };
        move_time_us(steps, self.max_steps_s(), self.accel_steps_s2())
    }

    const fn check(&self, i: Option<u8>) -> Result<(), BoardError> {
        if self.full_steps_per_rev == 0 || self.full_steps_per_rev > 10_000 {
            return Err(fail(i, "full_steps_per_rev", "1..=10000"));
        }
        if self.microsteps == 0 || self.microsteps > 256 {
            return Err(fail(i, "microsteps", "1..=256"));
        }
        if self.gear_num == 0 || self.gear_num > 1000 || self.gear_den == 0 || self.gear_den > 1000
        {
            return Err(fail(i, "gear_num/gear_den", "1..=1000 each"));
        }
        if self.units_per_rev == 0 || self.units_per_rev > 360 {
            return Err(fail(i, "units_per_rev", "1..=360"));
        }
        if self.steps_per_rev() < self.units_per_rev as u64 || self.steps_per_rev() > 10_000_000 {
            return Err(fail(
                i,
                "full_steps_per_rev*microsteps*gear",
                "at least one microstep per unit, at most 10 000 000 per revolution",
            ));
        }
        if self.max_steps_s() < 1 || self.max_steps_s() > 200_000 {
            return Err(fail(i, "max_deg_s", "1..=200000 microsteps per second"));
        }
        if self.accel_steps_s2() < 100 || self.accel_steps_s2() > 50_000_000 {
            return Err(fail(
                i,
                "accel_deg_s2",
                "100..=50000000 microsteps per second²",
            ));
        }
        match self.home {
            Some(home) => home.check(self, i),
            None => Ok(()),
        }
    }
}

impl HomeSensor {
    const fn check(&self, stepper: &Stepper, i: Option<u8>) -> Result<(), BoardError> {
        if self.input.index >= 32 {
            return Err(fail(i, "home.input", "0..=31"));
        }
        let seek = stepper.deg_to_steps(self.seek_deg_s);
        let approach = stepper.deg_to_steps(self.approach_deg_s);
        if seek < 1 || seek > stepper.max_steps_s() {
            return Err(fail(
                i,
                "home.seek_deg_s",
                "at least one microstep/s, at most max_deg_s",
            ));
        }
        if approach < 1 || approach > seek {
            return Err(fail(
                i,
                "home.approach_deg_s",
                "at least one microstep/s, at most seek_deg_s",
            ));
        }
        if self.backoff_deg == 0 || self.backoff_deg > 360 {
            return Err(fail(i, "home.backoff_deg", "1..=360"));
        }
        if self.max_seek_deg == 0 || self.max_seek_deg > 3600 {
            return Err(fail(i, "home.max_seek_deg", "1..=3600"));
        }
        Ok(())
    }
}

impl Servo {
    const fn check(&self, i: Option<u8>) -> Result<(), BoardError> {
        if self.open_us < 400 || self.open_us > 2600 {
            return Err(fail(i, "open_us", "400..=2600"));
        }
        if self.closed_us < 400 || self.closed_us > 2600 {
            return Err(fail(i, "closed_us", "400..=2600"));
        }
        if self.travel_ms > 10_000 {
            return Err(fail(i, "travel_ms", "0..=10000"));
        }
        Ok(())
    }

    /// The pulse width for a jaw position (0 open, 1 closed).
    pub const fn pulse_us(&self, closed: bool) -> u16 {
        if closed {
            self.closed_us
        } else {
            self.open_us
        }
    }
}

impl BoardConfig {
    /// Checks every key; a board crate does this in a `const` so a bad value is a
    /// build error naming the key.
    pub const fn check(&self) -> Result<(), BoardError> {
        if self.name.is_empty() || self.name.len() > firmware_protocol::message::FIRMWARE_NAME_LEN {
            return Err(fail(None, "name", "1..=16 ASCII bytes"));
        }
        if self.actuators.is_empty() || self.actuators.len() > MAX_BOARD_ACTUATORS {
            return Err(fail(None, "actuators", "1..=12 actuators"));
        }
        if let Some(input) = self.estop {
            if input.index >= 32 {
                return Err(fail(None, "estop.index", "0..=31"));
            }
        }
        if let Some(input) = self.button {
            if input.index >= 32 {
                return Err(fail(None, "button.index", "0..=31"));
            }
        }
        if self.debounce_samples == 0 {
            return Err(fail(None, "debounce_samples", "1..=255 samples"));
        }
        let mut i = 0;
        while i < self.actuators.len() {
            let index = Some(i as u8);
            let result = match &self.actuators[i] {
                Actuator::Stepper(stepper) => stepper.check(index),
                Actuator::Servo(servo) => servo.check(index),
            };
            if let Err(error) = result {
                return Err(error);
            }
            i += 1;
        }
        Ok(())
    }
}
