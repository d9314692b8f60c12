//! The robot's hardware as the host describes it at connect (`SetupBoard`, one
//! `SetupActuator` per actuator): pins, motors, drivers, sensors, servos. The firmware
//! stages these and applies them all at once when the `Configure` that follows is
//! accepted, so a board's source holds only what belongs to its chip.

use super::command::MAX_ACTUATORS;
use crate::fixed::FixedList;
use crate::wire::{expect_zero, Reader, Writer};
use crate::Error;

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

const KIND_STEPPER: u8 = 1;
const KIND_SERVO: u8 = 2;
const KIND_FIXED: u8 = 3;

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

/// A board input's pin byte: 0xFF for none; a signal on pin 0xFF cannot be said (it would read
/// back as none), so it is refused naming `field`.
fn pin_byte(field: &'static str, signal: Option<Signal>) -> Result<u8, Error> {
    signal.map_or(Ok(NO_PIN), |s| pin(field, s.pin))
}

fn signal_from(pin: u8, active_high: bool) -> Option<Signal> {
    (pin != NO_PIN).then_some(Signal { pin, active_high })
}

fn pin(field: &'static str, pin: u8) -> Result<u8, Error> {
    if pin == NO_PIN {
        Err(Error::BadValue {
            field,
            value: pin.into(),
        })
    } else {
        Ok(pin)
    }
}

fn flag(flags: u8, bit: u8) -> bool {
    flags & (1 << bit) != 0
}

fn flags(bits: &[bool]) -> u8 {
    bits.iter()
        .enumerate()
        .fold(0, |acc, (i, &set)| acc | (u8::from(set) << i))
}

impl BoardSetup {
    /// Layout: actuators u8, debounce_samples u8, enable pin u8, estop pin u8, button pin
    /// u8 (0xFF: none), flags u8 (bit 0 enable active high, 1 estop, 2 button),
    /// idle_disable_ms u32.
    pub(crate) fn write(&self, w: &mut Writer<'_>) -> Result<(), Error> {
        check_actuator_count(self.actuators)?;
        w.u8(self.actuators)?;
        w.u8(self.debounce_samples)?;
        w.u8(pin_byte("enable_pin", self.enable)?)?;
        w.u8(pin_byte("estop_pin", self.estop)?)?;
        w.u8(pin_byte("button_pin", self.button)?)?;
        let high = |s: Option<Signal>| s.is_some_and(|s| s.active_high);
        w.u8(flags(&[
            high(self.enable),
            high(self.estop),
            high(self.button),
        ]))?;
        w.u32(self.idle_disable_ms)
    }

    pub(crate) fn read(payload: &[u8], message_type: u8) -> Result<Self, Error> {
        let mut r = Reader::exact(payload, message_type, BOARD_SETUP_LEN)?;
        let actuators = check_actuator_count(r.u8()?)?;
        let debounce_samples = r.u8()?;
        let (enable, estop, button) = (r.u8()?, r.u8()?, r.u8()?);
        let bits = r.u8()?;
        // A level only for a pin that is wired: one encoding per board.
        let wired = [enable, estop, button]
            .iter()
            .enumerate()
            .fold(0u8, |acc, (i, &pin)| acc | (u8::from(pin != NO_PIN) << i));
        if bits & !wired != 0 {
            return Err(Error::BadValue {
                field: "board_flags",
                value: bits.into(),
            });
        }
        Ok(BoardSetup {
            actuators,
            enable: signal_from(enable, flag(bits, 0)),
            estop: signal_from(estop, flag(bits, 1)),
            button: signal_from(button, flag(bits, 2)),
            debounce_samples,
            idle_disable_ms: r.u32()?,
        })
    }
}

fn check_actuator_count(count: u8) -> Result<u8, Error> {
    if (1..=MAX_ACTUATORS as u8).contains(&count) {
        Ok(count)
    } else {
        Err(Error::BadValue {
            field: "board_actuators",
            value: count.into(),
        })
    }
}

/// `SetupActuator` payload: index u8, kind u8 (1 stepper, 2 servo, 3 fixed), then the
/// record (none for a fixed actuator).
pub(crate) fn write_actuator(
    index: u8,
    actuator: &Actuator,
    w: &mut Writer<'_>,
) -> Result<(), Error> {
    check_index(index)?;
    w.u8(index)?;
    match actuator {
        Actuator::Stepper(stepper) => {
            w.u8(KIND_STEPPER)?;
            write_stepper(stepper, w)
        }
        Actuator::Servo(servo) => {
            w.u8(KIND_SERVO)?;
            w.u8(pin("servo_pin", servo.pin)?)?;
            w.u16(servo.open_us)?;
            w.u16(servo.closed_us)?;
            w.u16(servo.travel_ms)
        }
        Actuator::Fixed => w.u8(KIND_FIXED),
    }
}

pub(crate) fn read_actuator(payload: &[u8], message_type: u8) -> Result<(u8, Actuator), Error> {
    let len = match payload.get(1) {
        Some(&KIND_SERVO) => SERVO_SETUP_LEN,
        Some(&KIND_FIXED) => FIXED_SETUP_LEN,
        Some(&KIND_STEPPER) | None => STEPPER_SETUP_LEN,
        Some(&other) => {
            return Err(Error::BadValue {
                field: "setup_kind",
                value: other.into(),
            })
        }
    };
    let mut r = Reader::exact(payload, message_type, len)?;
    let index = check_index(r.u8()?)?;
    let actuator = match r.u8()? {
        KIND_SERVO => Actuator::Servo(Servo {
            pin: pin("servo_pin", r.u8()?)?,
            open_us: r.u16()?,
            closed_us: r.u16()?,
            travel_ms: r.u16()?,
        }),
        KIND_FIXED => Actuator::Fixed,
        _ => Actuator::Stepper(read_stepper(&mut r)?),
    };
    Ok((index, actuator))
}

fn check_index(index: u8) -> Result<u8, Error> {
    if usize::from(index) < MAX_ACTUATORS {
        Ok(index)
    } else {
        Err(Error::BadValue {
            field: "setup_index",
            value: index.into(),
        })
    }
}

/// Stepper record: step u8, dir u8, flags u8 (bit 0 invert_dir, 1 has home, 2 home active
/// high, 3 home is an end stop, 4 seek positive, 5 has stall, 6 stall active high), home
/// pin u8, stall pin u8, full_steps_per_rev u16, microsteps u16, gear_num u16, gear_den
/// u16, units_per_rev u16, max_deg_s u32, accel_deg_s2 u32, seek_deg_s u16,
/// approach_deg_s u16, backoff_deg u16, max_seek_deg u16, offset_steps i32 (the home
/// fields 0 without a sensor, the stall pin 0xFF without one).
fn write_stepper(s: &Stepper, w: &mut Writer<'_>) -> Result<(), Error> {
    w.u8(pin("step_pin", s.step_pin)?)?;
    w.u8(pin("dir_pin", s.dir_pin)?)?;
    let home = s.home;
    let bits = flags(&[
        s.invert_dir,
        home.is_some(),
        home.is_some_and(|h| h.input.active_high),
        home.is_some_and(|h| h.kind == SensorKind::EndStop),
        home.is_some_and(|h| h.seek_positive),
        s.stall.is_some(),
        s.stall.is_some_and(|s| s.active_high),
    ]);
    w.u8(bits)?;
    w.u8(match home {
        Some(h) => pin("home_pin", h.input.pin)?,
        None => NO_PIN,
    })?;
    w.u8(match s.stall {
        Some(stall) => pin("stall_pin", stall.pin)?,
        None => NO_PIN,
    })?;
    for value in [
        s.full_steps_per_rev,
        s.microsteps,
        s.gear_num,
        s.gear_den,
        s.units_per_rev,
    ] {
        w.u16(value)?;
    }
    w.u32(s.max_deg_s)?;
    w.u32(s.accel_deg_s2)?;
    let h = home.unwrap_or(HomeSensor {
        input: Signal::default(),
        kind: SensorKind::Hall,
        seek_positive: false,
        seek_deg_s: 0,
        approach_deg_s: 0,
        backoff_deg: 0,
        max_seek_deg: 0,
        offset_steps: 0,
    });
    for value in [
        h.seek_deg_s,
        h.approach_deg_s,
        h.backoff_deg,
        h.max_seek_deg,
    ] {
        w.u16(value)?;
    }
    w.i32(h.offset_steps)
}

fn read_stepper(r: &mut Reader<'_>) -> Result<Stepper, Error> {
    let step_pin = pin("step_pin", r.u8()?)?;
    let dir_pin = pin("dir_pin", r.u8()?)?;
    let bits = r.u8()?;
    if bits & 0x80 != 0 {
        return Err(Error::BadValue {
            field: "stepper_flags",
            value: bits.into(),
        });
    }
    let (home_pin, stall_pin) = (r.u8()?, r.u8()?);
    let mut stepper = Stepper {
        step_pin,
        dir_pin,
        full_steps_per_rev: r.u16()?,
        microsteps: r.u16()?,
        gear_num: r.u16()?,
        gear_den: r.u16()?,
        units_per_rev: r.u16()?,
        max_deg_s: r.u32()?,
        accel_deg_s2: r.u32()?,
        invert_dir: flag(bits, 0),
        home: None,
        stall: None,
    };
    let home = HomeSensor {
        input: Signal {
            pin: home_pin,
            active_high: flag(bits, 2),
        },
        kind: if flag(bits, 3) {
            SensorKind::EndStop
        } else {
            SensorKind::Hall
        },
        seek_positive: flag(bits, 4),
        seek_deg_s: r.u16()?,
        approach_deg_s: r.u16()?,
        backoff_deg: r.u16()?,
        max_seek_deg: r.u16()?,
        offset_steps: r.i32()?,
    };
    if flag(bits, 1) {
        pin("home_pin", home_pin)?;
        stepper.home = Some(home);
    } else {
        // Without a sensor every home field is zero: one encoding per stepper.
        expect_zero("home_flags", i64::from(bits & 0b1_1100))?;
        expect_zero("home_pin", i64::from(home_pin) - i64::from(NO_PIN))?;
        let speeds = [
            home.seek_deg_s,
            home.approach_deg_s,
            home.backoff_deg,
            home.max_seek_deg,
        ];
        expect_zero("home_fields", speeds.iter().map(|&v| i64::from(v)).sum())?;
        expect_zero("home_offset_steps", home.offset_steps.into())?;
    }
    if flag(bits, 5) {
        stepper.stall = Some(Signal {
            pin: pin("stall_pin", stall_pin)?,
            active_high: flag(bits, 6),
        });
    } else {
        expect_zero("stall_flags", i64::from(bits & 0x40))?;
        expect_zero("stall_pin", i64::from(stall_pin) - i64::from(NO_PIN))?;
    }
    Ok(stepper)
}
