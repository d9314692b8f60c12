//! The firmware board the simulator is, for a robot design: per actuator of the design (in
//! the host's order) a servo jaw or a stepper with a hall sensor, its drive taken from the
//! design's `[motion]` table or, without one, a ramp derived from the design's times.

use crate::robot::drive::Drive;
use crate::robot::model::{Gripper, RobotModel};
use crate::robot::{ActuatorMap, Role};
use cubed_firmware::{Actuator, BoardConfig, HomeSensor, Input, SensorKind, Servo, Stepper};
use std::sync::Mutex;

/// Why the design cannot be a firmware board.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardBuildError {
    #[error("robot '{robot}': {actuator}: key '{key}' gives a board the firmware refuses; allowed: {allowed}")]
    OutOfRange {
        robot: String,
        actuator: String,
        key: &'static str,
        allowed: &'static str,
    },
}

/// The board input the simulated start button is wired to (active high).
pub const BUTTON_INPUT: u8 = 30;
/// The board input the simulated emergency-stop button is wired to (active high: pressed).
pub const ESTOP_INPUT: u8 = 31;
/// Pulse widths of the simulated hobby servos.
const OPEN_US: u16 = 1000;
const CLOSED_US: u16 = 2000;
/// Microsteps per revolution of a drive derived from times (1.8° motor, 8 microsteps).
const DERIVED_STEPS: u32 = 200;
const DERIVED_MICROSTEPS: u32 = 8;
/// Homing: back off and approach a few degrees around the magnet.
const BACKOFF_DEG: u32 = 5;
const APPROACH_DEG_S: u32 = 90;
const MAX_SEEK_DEG: u32 = 400;

/// The board for `model` with `map`'s actuator order. Home sensors are board inputs
/// 0, 1, … in actuator order (active low, as with pull-ups). Boards are kept for the
/// process's life (the firmware borrows its board), one per distinct design.
pub fn board_for(
    model: &RobotModel,
    map: &ActuatorMap,
) -> Result<&'static BoardConfig, BoardBuildError> {
    let mut actuators = Vec::with_capacity(map.roles.len());
    let mut next_input = 0u8;
    for role in &map.roles {
        actuators.push(match *role {
            Role::Jaw { gripper } => Actuator::Servo(jaw(&model.grippers[gripper])),
            Role::Rotation { gripper } => {
                let g = &model.grippers[gripper];
                let drive = g
                    .drive
                    .unwrap_or_else(|| derived_drive(g.quarter_ms, g.half_ms));
                next_input += 1;
                Actuator::Stepper(stepper(drive, 4, next_input - 1))
            }
            Role::Flipper { flipper } => {
                let f = &model.flippers[flipper];
                // A flip is one revolution: four times the speed and acceleration of a
                // drive that makes a quarter turn in the flip's time.
                let drive = f.drive.unwrap_or_else(|| {
                    let quarter = derived_drive(f.flip_ms, 0);
                    Drive {
                        max_deg_s: quarter.max_deg_s.saturating_mul(4),
                        accel_deg_s2: quarter.accel_deg_s2.saturating_mul(4),
                        ..quarter
                    }
                });
                next_input += 1;
                Actuator::Stepper(stepper(drive, 1, next_input - 1))
            }
        });
    }
    intern(model, map, actuators)
}

fn intern(
    model: &RobotModel,
    map: &ActuatorMap,
    actuators: Vec<Actuator>,
) -> Result<&'static BoardConfig, BoardBuildError> {
    static BOARDS: Mutex<Vec<&'static BoardConfig>> = Mutex::new(Vec::new());
    let mut boards = BOARDS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(&known) = boards.iter().find(|b| b.actuators == actuators.as_slice()) {
        return Ok(known);
    }
    let board = BoardConfig {
        name: "cubed-sim",
        version: (0, 2, 0),
        actuators: Vec::leak(actuators),
        estop: Some(Input {
            index: ESTOP_INPUT,
            active_high: true,
        }),
        // Inputs are set as they change, not sampled: nothing to debounce.
        debounce_samples: 1,
        idle_disable_ms: 0,
        step_lead_us: 0,
        button: Some(Input {
            index: BUTTON_INPUT,
            active_high: true,
        }),
    };
    if let Err(e) = board.check() {
        let actuator = e.actuator.map_or("the board".to_string(), |i| {
            format!("actuator {i} ({:?})", map.roles.get(usize::from(i)))
        });
        return Err(BoardBuildError::OutOfRange {
            robot: model.name.clone(),
            actuator,
            key: e.key,
            allowed: e.allowed,
        });
    }
    let board: &'static BoardConfig = Box::leak(Box::new(board));
    boards.push(board);
    Ok(board)
}

fn jaw(gripper: &Gripper) -> Servo {
    Servo {
        open_us: OPEN_US,
        closed_us: CLOSED_US,
        travel_ms: gripper.open_ms.max(gripper.close_ms).min(10_000) as u16,
    }
}

fn stepper(drive: Drive, units_per_rev: u32, input: u8) -> Stepper {
    let seek_deg_s = drive.max_deg_s.min(720);
    Stepper {
        full_steps_per_rev: drive.full_steps_per_rev,
        microsteps: drive.microsteps,
        gear_num: drive.gear_num,
        gear_den: drive.gear_den,
        units_per_rev,
        max_deg_s: drive.max_deg_s,
        accel_deg_s2: drive.accel_deg_s2,
        invert_dir: false,
        home: Some(HomeSensor {
            input: Input {
                index: input,
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
    }
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
    Drive {
        full_steps_per_rev: DERIVED_STEPS,
        microsteps: DERIVED_MICROSTEPS,
        gear_num: 1,
        gear_den: 1,
        max_deg_s: ceil_close(max_deg_s).clamp(1.0, 40_000.0) as u32,
        accel_deg_s2: ceil_close(accel_deg_s2).clamp(23.0, 1.0e7) as u32,
    }
}

/// Rounded up, except that a value a rounding error above a whole number is that number.
fn ceil_close(x: f64) -> f64 {
    (x - 1e-6).ceil()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::robot::load_robot;
    use cubed_firmware::check_configure;
    use std::path::Path;

    #[test]
    fn every_shipped_design_is_a_board_that_accepts_its_own_configure() {
        for design in ["four-arm", "turntable-flipper", "six-motor"] {
            let path = format!("config/robots/{design}.toml");
            let model = load_robot(Path::new(&path)).expect("shipped design loads");
            let map = ActuatorMap::new(&model).expect("actuators");
            let board = board_for(&model, &map).expect("a board");
            assert_eq!(board.actuators.len(), map.roles.len(), "{design}");
            check_configure(board, &map.configure()).expect("the board honours the design");
        }
    }

    #[test]
    fn a_drive_derived_from_times_honours_them() {
        // The ramp the firmware computes (its own formula) meets the times.
        for (q, h) in [(150, 250), (120, 200), (300, 500), (100, 120), (200, 0)] {
            let d = derived_drive(q, h);
            let s = stepper(d, 4, 0);
            assert!(s.move_time_us(1) <= u64::from(q) * 1000, "{q}/{h}: quarter");
            if h > 0 {
                assert!(s.move_time_us(2) <= u64::from(h) * 1000, "{q}/{h}: half");
            }
        }
    }
}
