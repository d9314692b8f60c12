//! A virtual wiring for a design that gives none, which only the simulator accepts:
//! pins in actuator order, hall sensors at home, hobby-servo jaws, and drives derived
//! from the design's times when it has no `motion` table.

use super::{jaw_servo, motor_of, stepper, ActuatorWiring, JawWiring, MotorPins, WiringError};
use crate::actuators::{ActuatorMap, Role};
use crate::drive::Drive;
use crate::model::RobotModel;
use firmware_protocol::message::{Actuator, BoardSetup, HomeSensor, SensorKind, Signal};

/// The virtual start button's pin (active high).
const BUTTON_PIN: u8 = 30;
/// The virtual emergency-stop button's pin (active high: pressed).
const ESTOP_PIN: u8 = 31;
/// Microsteps per revolution of a drive derived from times (1.8° motor, 8 microsteps).
const DERIVED_STEPS: u32 = 200;
const DERIVED_MICROSTEPS: u32 = 8;
/// Homing: back off and approach a few degrees around the magnet.
const BACKOFF_DEG: u16 = 5;
const APPROACH_DEG_S: u16 = 90;
const SEEK_DEG_S: u32 = 720;
const MAX_SEEK_DEG: u16 = 400;

/// The shared wiring of a virtual board: the start and e-stop buttons; inputs are set
/// as they change, not sampled, so there is nothing to debounce.
pub(super) fn virtual_board() -> BoardSetup {
    let high = |pin| {
        Some(Signal {
            pin,
            active_high: true,
        })
    };
    BoardSetup {
        actuators: 0,
        enable: None,
        estop: high(ESTOP_PIN),
        button: high(BUTTON_PIN),
        debounce_samples: 1,
        idle_disable_ms: 0,
    }
}

/// Each actuator on the next free pins: a jaw on one, a stepper's STEP, DIR and hall
/// sensor (active low) on three.
pub(super) fn virtual_actuators(
    model: &RobotModel,
    map: &ActuatorMap,
) -> Result<Vec<Actuator>, WiringError> {
    let mut next = 0u8;
    let mut take = |count: u8| {
        next += count;
        next - count
    };
    let actuators: Vec<Actuator> = map
        .roles
        .iter()
        .map(|&role| match (role, motor_of(model, role)) {
            (_, Some((drive, units, _))) => {
                let first = take(3);
                Actuator::Stepper(stepper(
                    drive,
                    units,
                    motor_at(first),
                    &hall_wiring(first, drive),
                ))
            }
            (Role::Jaw { gripper }, None) => {
                let jaw = JawWiring {
                    pin: take(1),
                    open_us: 1000,
                    closed_us: 2000,
                };
                Actuator::Servo(jaw_servo(model, gripper, jaw))
            }
            (_, None) => Actuator::Fixed,
        })
        .collect();
    if next > BUTTON_PIN {
        return Err(WiringError::TooManyPins {
            robot: model.name.clone(),
            actuators: actuators.len(),
            needed: usize::from(next),
        });
    }
    Ok(actuators)
}

/// STEP on `first`, DIR on the next pin.
fn motor_at(first: u8) -> MotorPins {
    MotorPins {
        step: first,
        dir: first + 1,
    }
}

/// STEP on `first`, DIR and the hall sensor on the next two.
fn hall_wiring(first: u8, drive: Drive) -> ActuatorWiring {
    let seek_deg_s = drive.max_deg_s.min(SEEK_DEG_S) as u16;
    ActuatorWiring {
        motor: Some(motor_at(first)),
        invert_dir: false,
        jaw: None,
        home: Some(HomeSensor {
            input: Signal {
                pin: first + 2,
                active_high: false,
            },
            kind: SensorKind::Hall,
            seek_positive: true,
            seek_deg_s,
            approach_deg_s: APPROACH_DEG_S.min(seek_deg_s),
            backoff_deg: BACKOFF_DEG,
            max_seek_deg: MAX_SEEK_DEG,
            offset_steps: 0,
        }),
        stall: None,
    }
}

/// A flip is one revolution: four times the speed and acceleration of a drive that
/// makes a quarter turn in the flip's time (quickened until the firmware's ramp makes it).
pub fn flip_drive(flip_ms: u32) -> Drive {
    let quarter = derived_drive(flip_ms, 0);
    let flip = Drive {
        max_deg_s: quarter.max_deg_s.saturating_mul(4),
        accel_deg_s2: quarter.accel_deg_s2.saturating_mul(4),
        ..quarter
    };
    quickened_until(flip, |drive| ramp_fits(drive, 1, 1, flip_ms))
}

/// A drive whose quarter turn takes `quarter_ms` and half turn at most `half_ms` (0: no
/// half turn): an exact trapezoid when the two times allow one (1.5·q ≤ h < 2·q), else
/// triangles short enough for both.
pub fn derived_drive(quarter_ms: u32, half_ms: u32) -> Drive {
    let (q, h) = (
        f64::from(quarter_ms.max(1)) / 1000.0,
        f64::from(half_ms) / 1000.0,
    );
    let (max_deg_s, accel_deg_s2) = if h >= 1.5 * q && h < 2.0 * q {
        // d/v + v/a for 90° and 180°: v = 90/(h − q), a = v/(q − 90/v).
        let v = 90.0 / (h - q);
        (v, v / (q - 90.0 / v))
    } else {
        // Triangles: 2·sqrt(d/a) ≤ the time for both moves.
        let a = (360.0 / (q * q)).max(if h > 0.0 { 720.0 / (h * h) } else { 0.0 });
        (10_000.0, a)
    };
    let drive = Drive {
        full_steps_per_rev: DERIVED_STEPS,
        microsteps: DERIVED_MICROSTEPS,
        gear_num: 1,
        gear_den: 1,
        max_deg_s: ceil_close(max_deg_s).clamp(1.0, 40_000.0) as u32,
        accel_deg_s2: ceil_close(accel_deg_s2).clamp(23.0, 1.0e7) as u32,
    };
    // The firmware counts whole microsteps a second, so its ramp can be a little slower
    // than the closed form: quicken the drive until that ramp makes both times.
    quickened_until(drive, |drive| {
        ramp_fits(drive, 4, 1, quarter_ms) && (half_ms == 0 || ramp_fits(drive, 4, 2, half_ms))
    })
}

/// `drive`, its speed and acceleration raised by half a percent at a time until `fits`.
fn quickened_until(mut drive: Drive, fits: impl Fn(Drive) -> bool) -> Drive {
    for _ in 0..200 {
        if fits(drive) {
            break;
        }
        drive.max_deg_s = (drive.max_deg_s + drive.max_deg_s / 200 + 1).min(40_000);
        drive.accel_deg_s2 = (drive.accel_deg_s2 + drive.accel_deg_s2 / 200 + 1).min(10_000_000);
    }
    drive
}

/// Whether the firmware's own ramp moves `units` (of `units_per_rev` a revolution) in `ms`.
fn ramp_fits(drive: Drive, units_per_rev: u16, units: u32, ms: u32) -> bool {
    let no_wiring = ActuatorWiring {
        motor: None,
        invert_dir: false,
        jaw: None,
        home: None,
        stall: None,
    };
    let stepper = stepper(drive, units_per_rev, motor_at(0), &no_wiring);
    cubed_firmware::stepper_move_time_us(&stepper, units) <= u64::from(ms) * 1000
}

/// Rounded up, except that a value a rounding error above a whole number is that number.
fn ceil_close(x: f64) -> f64 {
    (x - 1e-6).ceil()
}
