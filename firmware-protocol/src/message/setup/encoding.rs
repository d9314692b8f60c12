//! The `SetupBoard` and `SetupActuator` payloads on the wire: their byte layouts, and
//! the checks that keep one encoding per setup (pins, flags, counts, indices).

use super::{
    Actuator, BoardSetup, HomeSensor, SensorKind, Servo, Signal, Stepper, BOARD_SETUP_LEN,
    FIXED_SETUP_LEN, NO_PIN, SERVO_SETUP_LEN, STEPPER_SETUP_LEN,
};
use crate::message::command::MAX_ACTUATORS;
use crate::wire::{expect_zero, Reader, Writer};
use crate::Error;

const KIND_STEPPER: u8 = 1;
const KIND_SERVO: u8 = 2;
const KIND_FIXED: u8 = 3;

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
