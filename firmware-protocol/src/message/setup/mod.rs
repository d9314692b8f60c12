//! The robot's hardware as the host describes it at connect (`SetupBoard`, one
//! `SetupActuator` per actuator): pins, motors, drivers, sensors, servos. The firmware
//! stages these and applies them all at once when the `Configure` that follows is
//! accepted, so a board's source holds only what belongs to its chip.

mod encoding;

pub(crate) use encoding::{read_actuator, write_actuator};

use super::command::MAX_ACTUATORS;
use crate::fixed::FixedList;

/// No pin (in a pin byte on the wire).
pub const NO_PIN: u8 = 0xFF;
/// Bytes of a `SetupBoard` payload.
pub const BOARD_SETUP_LEN: usize = 10;
/// Bytes of a `SetupActuator` payload for a stepper.
pub const STEPPER_SETUP_LEN: usize = 37;
/// Bytes of a `SetupActuator` payload for a servo.
pub const SERVO_SETUP_LEN: usize = 9;
/// Bytes of a `SetupActuator` payload for a fixed actuator.
pub const FIXED_SETUP_LEN: usize = 2;

/// A pin and the level that means "active" (a sensor triggered, a switch pressed, the
/// drivers enabled).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Signal {
    /// The chip's GPIO number.
    pub pin: u8,
    /// Whether a high level means "active".
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
    /// The sensor's pin and active level.
    pub input: Signal,
    /// Hall sensor at home or end-stop switch.
    pub kind: SensorKind,
    /// Seek in the positive direction (else negative).
    pub seek_positive: bool,
    /// Seek speed, output degrees per second.
    pub seek_deg_s: u16,
    /// Slow approach speed, output degrees per second.
    pub approach_deg_s: u16,
    /// How far to back off after the first contact, output degrees.
    pub backoff_deg: u16,
    /// Longest seek before giving up (fault `HomeNotFound`), output degrees.
    pub max_seek_deg: u16,
    /// Position 0 is this many microsteps from where the sensor triggers (signed).
    pub offset_steps: i32,
}

/// A stepper motor behind a step/dir driver (A4988, DRV8825, TMC2209…).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stepper {
    /// The driver's STEP input.
    pub step_pin: u8,
    /// The driver's DIR input.
    pub dir_pin: u8,
    /// Full steps per motor revolution (200 for a 1.8° motor).
    pub full_steps_per_rev: u16,
    /// Driver microsteps per full step (1, 2, 4, 8, 16…).
    pub microsteps: u16,
    /// Gear ratio as motor revolutions per `gear_den` output revolutions.
    pub gear_num: u16,
    /// See `gear_num` (1 for direct drive).
    pub gear_den: u16,
    /// Protocol position units per output revolution: 4 for a gripper rotation
    /// (quarter turns), the positions per revolution for a flipper.
    pub units_per_rev: u16,
    /// Top speed, output degrees per second.
    pub max_deg_s: u32,
    /// Acceleration (and deceleration), output degrees per second².
    pub accel_deg_s2: u32,
    /// Swap the direction pin's sense.
    pub invert_dir: bool,
    /// The home sensor, if any (required for a continuous rotation).
    pub home: Option<HomeSensor>,
    /// The driver's stall output (a TMC2209's DIAG), if wired.
    pub stall: Option<Signal>,
}

/// A hobby servo (a jaw) driven by pulse width.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Servo {
    /// The signal wire's pin.
    pub pin: u8,
    /// Pulse width for "open", µs.
    pub open_us: u16,
    /// Pulse width for "closed", µs.
    pub closed_us: u16,
    /// Time the servo takes from one end to the other, ms.
    pub travel_ms: u16,
}

/// One actuator channel, in the order of the host's `Configure`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Actuator {
    /// Drives a rotation or a flipper.
    Stepper(Stepper),
    /// Drives a jaw.
    Servo(Servo),
    /// No motor: a gripper that never turns (its rotation's range is 0..=0) has its
    /// index, and nothing to drive.
    Fixed,
}

impl Default for Actuator {
    fn default() -> Self {
        Actuator::Servo(Servo {
            pin: NO_PIN,
            open_us: 0,
            closed_us: 0,
            travel_ms: 0,
        })
    }
}

/// What the whole robot shares: the drivers' ENABLE, the e-stop and start button, and
/// how inputs are read (`SetupBoard` payload).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct BoardSetup {
    /// How many `SetupActuator`s follow (1..=[`MAX_ACTUATORS`]).
    pub actuators: u8,
    /// The drivers' shared ENABLE pin and its "enabled" level, if wired.
    pub enable: Option<Signal>,
    /// The emergency-stop switch ("active" = stop), if fitted.
    pub estop: Option<Signal>,
    /// The start button, if fitted.
    pub button: Option<Signal>,
    /// An input changes only after this many samples in a row at its new level
    /// (an e-stop being pressed counts at once).
    pub debounce_samples: u8,
    /// The drivers are switched off after this long with nothing to do (positions then
    /// count as lost: the host homes again); 0 keeps them on.
    pub idle_disable_ms: u32,
}

/// The whole robot: the board's shared wiring and every actuator, as the firmware
/// applies it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Machine {
    /// Shared wiring.
    pub board: BoardSetup,
    /// Actuators by index.
    pub actuators: FixedList<Actuator, MAX_ACTUATORS>,
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

    /// Output degrees (per second, per second²…) as microsteps, saturated.
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
}

impl Servo {
    /// The pulse width for a jaw position (0 open, 1 closed).
    pub const fn pulse_us(&self, closed: bool) -> u16 {
        if closed {
            self.closed_us
        } else {
            self.open_us
        }
    }
}

impl Machine {
    /// The `SetupBoard` and `SetupActuator` messages that describe this machine, in order.
    pub fn setup_messages(&self) -> impl Iterator<Item = super::Message> + '_ {
        let board = core::iter::once(super::Message::SetupBoard(BoardSetup {
            actuators: self.actuators.len() as u8,
            ..self.board
        }));
        board.chain(self.actuators.iter().enumerate().map(|(index, actuator)| {
            super::Message::SetupActuator {
                index: index as u8,
                actuator: *actuator,
            }
        }))
    }
}
