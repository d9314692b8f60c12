//! What a board crate describes: its chip (name, version, the GPIOs it has and keeps,
//! its step generator's limits). The robot itself (pins, motors, sensors, servos) comes
//! from the host at connect (`SetupBoard`, `SetupActuator`), and is checked here against
//! the chip before anything is applied.

use crate::ramp::move_time_us;
use firmware_protocol::message::{
    Actuator, BoardSetup, ChipInfo, ConfigRefusal, HomeSensor, Machine, Servo, SetupKey, Signal,
    Stepper, MAX_ACTUATORS,
};

/// The chip a board crate runs on and what its firmware offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Chip {
    /// Name sent in `HelloReply` (up to 16 ASCII bytes).
    pub name: &'static str,
    /// Firmware version (major, minor, patch).
    pub version: (u8, u8, u8),
    /// GPIO numbers `0..gpio_count` exist (at most 32).
    pub gpio_count: u8,
    /// Bit `n` set: GPIO `n` is the board's own and may not be wired to the robot.
    pub reserved_pins: u32,
    /// Most steps per second one stepper's step generator makes.
    pub max_step_rate: u32,
    /// GPIO `n` drives PWM output `n % pwm_outputs` (two servos may not share one);
    /// 0: every pin has its own.
    pub pwm_outputs: u8,
    /// How far ahead of its time a ramp step is handed to [`crate::pins::Pins::step`], µs: 0
    /// when the board pulses at once, more when a timer pulses it at its time (then the
    /// board must hold every step of that span).
    pub step_lead_us: u32,
}

impl Chip {
    /// What `BoardInfo` says about this chip.
    pub const fn info(&self) -> ChipInfo {
        ChipInfo {
            gpio_count: self.gpio_count,
            max_actuators: MAX_ACTUATORS as u8,
            reserved_pins: self.reserved_pins,
            max_step_rate: self.max_step_rate,
            step_lead_us: self.step_lead_us,
        }
    }
}

/// The time the ramp of `stepper` takes to move `units` position units, µs.
pub fn stepper_move_time_us(stepper: &Stepper, units: u32) -> u64 {
    let steps = stepper.steps_for_units(i64::from(units)).unsigned_abs();
    let steps = u32::try_from(steps).unwrap_or(u32::MAX);
    move_time_us(steps, stepper.max_steps_s(), stepper.accel_steps_s2())
}

/// Most microsteps per output revolution a stepper may have.
pub const MAX_STEPS_PER_REV: u64 = 10_000_000;
/// Least acceleration, microsteps per second² (slower ramps would take minutes).
pub const MIN_ACCEL_STEPS_S2: u32 = 100;
/// Most acceleration, microsteps per second².
pub const MAX_ACCEL_STEPS_S2: u32 = 50_000_000;
/// Longest idle time before the drivers go off, ms (an hour).
pub const MAX_IDLE_DISABLE_MS: u32 = 3_600_000;

type Check = Result<(), ConfigRefusal>;

fn out_of_range(actuator: Option<u8>, key: SetupKey, value: i64, min: i64, max: i64) -> Check {
    if (min..=max).contains(&value) {
        return Ok(());
    }
    let clamp = |v: i64| v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
    Err(ConfigRefusal::OutOfRange {
        actuator,
        key,
        value: clamp(value),
        min: clamp(min),
        max: clamp(max),
    })
}

/// Every pin the machine uses, with who uses it (an actuator's index, none for the
/// board's shared wiring) and for what, in the order they are checked.
pub fn pins_of(machine: &Machine) -> impl Iterator<Item = (Option<u8>, SetupKey, u8)> + '_ {
    let board = &machine.board;
    let shared = [
        (SetupKey::Enable, board.enable),
        (SetupKey::Estop, board.estop),
        (SetupKey::Button, board.button),
    ]
    .into_iter()
    .filter_map(|(key, signal)| signal.map(|s| (None, key, s.pin)));
    let actuators = machine
        .actuators
        .iter()
        .enumerate()
        .flat_map(|(index, actuator)| {
            let who = Some(index as u8);
            let list: [Option<(SetupKey, u8)>; 4] = match actuator {
                Actuator::Stepper(s) => [
                    Some((SetupKey::StepPin, s.step_pin)),
                    Some((SetupKey::DirPin, s.dir_pin)),
                    s.home.map(|h| (SetupKey::HomePin, h.input.pin)),
                    s.stall.map(|stall| (SetupKey::StallPin, stall.pin)),
                ],
                Actuator::Servo(servo) => [Some((SetupKey::ServoPin, servo.pin)), None, None, None],
                Actuator::Fixed => [None; 4],
            };
            list.into_iter()
                .flatten()
                .map(move |(key, pin)| (who, key, pin))
        });
    shared.chain(actuators)
}

fn check_pins(chip: &Chip, machine: &Machine) -> Check {
    for (n, (actuator, key, pin)) in pins_of(machine).enumerate() {
        if !chip.info().has_pin(pin) {
            return Err(ConfigRefusal::NoSuchPin {
                actuator,
                key,
                pin,
                pins: chip.gpio_count,
            });
        }
        if chip.info().reserves(pin) {
            return Err(ConfigRefusal::PinReserved { actuator, key, pin });
        }
        if let Some((by_actuator, by_key, _)) = pins_of(machine).take(n).find(|p| p.2 == pin) {
            return Err(ConfigRefusal::PinTaken {
                actuator,
                key,
                pin,
                by_actuator,
                by_key,
            });
        }
    }
    Ok(())
}

/// Two servos on one PWM output would get the same pulse.
fn check_pwm(chip: &Chip, machine: &Machine) -> Check {
    if chip.pwm_outputs == 0 {
        return Ok(());
    }
    let servos = || {
        machine
            .actuators
            .iter()
            .enumerate()
            .filter_map(|(i, a)| match a {
                Actuator::Servo(servo) => Some((i as u8, servo.pin)),
                _ => None,
            })
    };
    for (n, (actuator, pin)) in servos().enumerate() {
        let output = pin % chip.pwm_outputs;
        if let Some((by_actuator, by_pin)) =
            servos().take(n).find(|s| s.1 % chip.pwm_outputs == output)
        {
            return Err(ConfigRefusal::PwmShared {
                actuator,
                pin,
                by_actuator,
                by_pin,
            });
        }
    }
    Ok(())
}

fn check_board(board: &BoardSetup, count: usize) -> Check {
    if count > MAX_ACTUATORS || usize::from(board.actuators) != count {
        return Err(ConfigRefusal::NotSetUp { actuator: None });
    }
    out_of_range(
        None,
        SetupKey::DebounceSamples,
        board.debounce_samples.into(),
        1,
        255,
    )?;
    out_of_range(
        None,
        SetupKey::IdleDisableMs,
        board.idle_disable_ms.into(),
        0,
        MAX_IDLE_DISABLE_MS.into(),
    )
}

/// `lo..=hi` microsteps (per second, per second²) as whole output degrees of `stepper`.
fn degrees_between(stepper: &Stepper, lo: u64, hi: u64) -> (i64, i64) {
    let per_rev = stepper.steps_per_rev().max(1);
    (
        (lo * 360).div_ceil(per_rev) as i64,
        (hi * 360 / per_rev) as i64,
    )
}

fn check_stepper(chip: &Chip, i: Option<u8>, s: &Stepper) -> Check {
    out_of_range(
        i,
        SetupKey::FullStepsPerRev,
        s.full_steps_per_rev.into(),
        1,
        10_000,
    )?;
    out_of_range(i, SetupKey::Microsteps, s.microsteps.into(), 1, 256)?;
    out_of_range(i, SetupKey::Gear, s.gear_num.into(), 1, 1000)?;
    out_of_range(i, SetupKey::Gear, s.gear_den.into(), 1, 1000)?;
    out_of_range(i, SetupKey::UnitsPerRev, s.units_per_rev.into(), 1, 360)?;
    let per_rev = s.steps_per_rev() as i64;
    out_of_range(
        i,
        SetupKey::Gear,
        per_rev,
        s.units_per_rev.into(),
        MAX_STEPS_PER_REV as i64,
    )?;
    let (lo, hi) = degrees_between(s, 1, chip.max_step_rate.into());
    out_of_range(i, SetupKey::MaxDegS, s.max_deg_s.into(), lo, hi)?;
    let (lo, hi) = degrees_between(s, MIN_ACCEL_STEPS_S2.into(), MAX_ACCEL_STEPS_S2.into());
    out_of_range(i, SetupKey::AccelDegS2, s.accel_deg_s2.into(), lo, hi)?;
    match s.home {
        Some(home) => check_home(i, s, &home),
        None => Ok(()),
    }
}

fn check_home(i: Option<u8>, s: &Stepper, home: &HomeSensor) -> Check {
    let (lo, _) = degrees_between(s, 1, 1);
    out_of_range(
        i,
        SetupKey::SeekDegS,
        home.seek_deg_s.into(),
        lo,
        s.max_deg_s.into(),
    )?;
    out_of_range(
        i,
        SetupKey::ApproachDegS,
        home.approach_deg_s.into(),
        lo,
        home.seek_deg_s.into(),
    )?;
    out_of_range(i, SetupKey::BackoffDeg, home.backoff_deg.into(), 1, 360)?;
    out_of_range(i, SetupKey::MaxSeekDeg, home.max_seek_deg.into(), 1, 3600)
}

fn check_servo(i: Option<u8>, servo: &Servo) -> Check {
    out_of_range(i, SetupKey::OpenUs, servo.open_us.into(), 400, 2600)?;
    out_of_range(i, SetupKey::ClosedUs, servo.closed_us.into(), 400, 2600)?;
    out_of_range(i, SetupKey::TravelMs, servo.travel_ms.into(), 0, 10_000)
}

/// Checks a machine against the chip: its shared wiring, every actuator's values, then
/// every pin (that it exists, is not the board's own, is used once). The first failure
/// is returned, naming the actuator and key.
pub fn check_machine(chip: &Chip, machine: &Machine) -> Check {
    check_board(&machine.board, machine.actuators.len())?;
    for (index, actuator) in machine.actuators.iter().enumerate() {
        let i = Some(index as u8);
        match actuator {
            Actuator::Stepper(stepper) => check_stepper(chip, i, stepper)?,
            Actuator::Servo(servo) => check_servo(i, servo)?,
            Actuator::Fixed => {}
        }
    }
    check_pins(chip, machine)?;
    check_pwm(chip, machine)
}

/// Whether `signal` is wired and its pin reads active at `levels` (bit per pin).
pub(crate) fn signal_active(signal: Option<Signal>, levels: u32) -> bool {
    signal.is_some_and(|s| s.pin < 32 && (levels >> s.pin) & 1 == u32::from(s.active_high))
}
