//! How a design's actuators are wired to the firmware's chip, and the whole machine the
//! host sends at connect (`SetupBoard`, `SetupActuator`s, then `Configure`): from the
//! design's `[board]` and `wiring` tables, or, for a design without them, a virtual
//! wiring only the simulator accepts.

mod board_check;
mod derived;
mod keys;
pub mod pins;
mod table;

pub use board_check::{refusal_placed_in, verdict_on, BoardVerdict};
pub use derived::{derived_drive, flip_drive};
pub use keys::{BoardToml, WiringToml};
pub use pins::ActuatorWiring;
pub use pins::JawWiring;
pub use pins::MotorPins;
pub use table::WiringDoc;

use super::actuators::{ActuatorMap, Role};
use super::drive::Drive;
use super::model::RobotModel;
use firmware_protocol::message::{Actuator, Configure, Machine, Servo, Stepper};
use firmware_protocol::FixedList;

/// The firmware name of the simulator, the one firmware that takes a virtual wiring.
pub const VIRTUAL_WIRING_FIRMWARE: &str = "cubed-sim";

/// The simulator's name for the machine it simulates: `cubed-sim` and a fingerprint of the
/// machine (CRC-16 of its setup frames), so that a host setting up another robot's machine
/// can tell before any motor moves. Fits the 16 bytes of `HelloReply`.
pub fn simulator_name(machine: &Machine) -> String {
    let mut crc = firmware_protocol::crc::Crc16::new();
    let mut bytes = [0u8; firmware_protocol::MAX_WIRE_LEN];
    for message in machine.setup_messages() {
        let frame =
            firmware_protocol::frame::Frame::unsequenced(firmware_protocol::Seq::ZERO, message);
        if let Ok(len) = firmware_protocol::frame::encode(&frame, &mut bytes) {
            crc.update(&bytes[..len]);
        }
    }
    format!("{VIRTUAL_WIRING_FIRMWARE} {:04x}", crc.value())
}

/// Whether a firmware's name is the simulator's: `cubed-sim`, alone or with the machine it
/// simulates (see [`simulator_name`]).
pub fn is_simulator(firmware_name: &str) -> bool {
    firmware_name
        .strip_prefix(VIRTUAL_WIRING_FIRMWARE)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(' '))
}

/// Everything the host sends the firmware at connect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RobotSetup {
    /// The hardware: pins, motors, servos, sensors.
    pub machine: Machine,
    /// The limits and times the planner uses.
    pub configure: Configure,
    /// Whether the design gives its wiring; a virtual one is only for the simulator.
    pub wired: bool,
}

/// Why a design cannot be set up on a firmware.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WiringError {
    #[error("robot '{robot}': {needed} pins are needed for a virtual wiring of its {actuators} actuators and only 30 are free: give the design its wiring ([board] and a `wiring` table per gripper and flipper)")]
    TooManyPins {
        robot: String,
        actuators: usize,
        needed: usize,
    },
}

impl RobotSetup {
    /// The machine and configuration of `model` with `map`'s actuator order.
    pub fn for_design(model: &RobotModel, map: &ActuatorMap) -> Result<RobotSetup, WiringError> {
        let wired = model.board.is_some();
        let actuators = if wired {
            map.roles
                .iter()
                .map(|&role| wired_actuator(model, role))
                .collect()
        } else {
            derived::virtual_actuators(model, map)?
        };
        let mut board = model.board.unwrap_or_else(derived::virtual_board);
        board.actuators = actuators.len() as u8;
        let machine = Machine {
            board,
            actuators: FixedList::from_slice(&actuators, "actuators").unwrap_or_default(),
        };
        Ok(RobotSetup {
            machine,
            configure: map.configure(),
            wired,
        })
    }
}

/// Output degrees of a jaw's travel: the quicker of its opening and closing.
fn jaw_travel_ms(open_ms: u32, close_ms: u32) -> u16 {
    open_ms.min(close_ms).min(10_000) as u16
}

fn stepper(drive: Drive, units_per_rev: u16, motor: MotorPins, wiring: &ActuatorWiring) -> Stepper {
    Stepper {
        step_pin: motor.step,
        dir_pin: motor.dir,
        full_steps_per_rev: drive.full_steps_per_rev as u16,
        microsteps: drive.microsteps as u16,
        gear_num: drive.gear_num as u16,
        gear_den: drive.gear_den as u16,
        units_per_rev,
        max_deg_s: drive.max_deg_s,
        accel_deg_s2: drive.accel_deg_s2,
        invert_dir: wiring.invert_dir,
        home: wiring.home,
        stall: wiring.stall,
    }
}

/// A jaw's servo: `jaw`'s pin and pulses, the travel of its gripper's quicker move.
fn jaw_servo(model: &RobotModel, gripper: usize, jaw: JawWiring) -> Servo {
    let g = &model.grippers[gripper];
    Servo {
        pin: jaw.pin,
        open_us: jaw.open_us,
        closed_us: jaw.closed_us,
        travel_ms: jaw_travel_ms(g.open_ms, g.close_ms),
    }
}

/// A motor's drive (the design's `motion`, else derived from its times), its position
/// units per revolution, and its wiring; `None` for a jaw.
fn motor_of(model: &RobotModel, role: Role) -> Option<(Drive, u16, Option<ActuatorWiring>)> {
    match role {
        Role::Jaw { .. } => None,
        Role::Rotation { gripper } => {
            let g = &model.grippers[gripper];
            let drive = g
                .drive
                .unwrap_or_else(|| derived_drive(g.quarter_ms, g.half_ms));
            Some((drive, 4, g.wiring))
        }
        Role::Flipper { flipper } => {
            let f = &model.flippers[flipper];
            let drive = f.drive.unwrap_or_else(|| flip_drive(f.flip_ms));
            Some((drive, 1, f.wiring))
        }
    }
}

/// A wired design's actuator (the design loader made sure every one has its wiring
/// and drive).
fn wired_actuator(model: &RobotModel, role: Role) -> Actuator {
    if let Role::Jaw { gripper } = role {
        let jaw = (model.grippers[gripper].wiring)
            .and_then(|w| w.jaw)
            .unwrap_or(JawWiring {
                pin: 0,
                open_us: 1000,
                closed_us: 2000,
            });
        return Actuator::Servo(jaw_servo(model, gripper, jaw));
    }
    let motor = motor_of(model, role);
    match motor.and_then(|(drive, units, w)| w.and_then(|w| w.motor.map(|m| (drive, units, m, w))))
    {
        Some((drive, units, pins, w)) => Actuator::Stepper(stepper(drive, units, pins, &w)),
        None => Actuator::Fixed,
    }
}

/// Every pin a wired design names, with the section and key that name it, in file order.
pub fn pins_named(model: &RobotModel) -> Vec<(String, &'static str, u8)> {
    let mut pins = Vec::new();
    if let Some(board) = model.board {
        for (key, signal) in [
            ("enable", board.enable),
            ("estop", board.estop),
            ("button", board.button),
        ] {
            if let Some(signal) = signal {
                pins.push(("[board]".to_string(), key, signal.pin));
            }
        }
    }
    let actuators = model
        .grippers
        .iter()
        .map(|g| (format!("[[gripper]] '{}' wiring", g.name), g.wiring))
        .chain(
            model
                .flippers
                .iter()
                .map(|f| (format!("[[flipper]] '{}' wiring", f.name), f.wiring)),
        );
    for (section, wiring) in actuators {
        let Some(w) = wiring else { continue };
        let named = [
            w.jaw.map(|j| ("jaw", j.pin)),
            w.motor.map(|m| ("step", m.step)),
            w.motor.map(|m| ("dir", m.dir)),
            w.home.map(|h| ("home", h.input.pin)),
            w.stall.map(|s| ("stall", s.pin)),
        ];
        for (key, pin) in named.into_iter().flatten() {
            pins.push((section.clone(), key, pin));
        }
    }
    pins
}

/// A design's wiring is whole or absent, and names each pin once: `Err` gives the
/// section, key and problem; `place` says where a section's key is, for a pin's first use.
pub fn check_design(
    model: &RobotModel,
    place: impl Fn(&str, &str) -> String,
) -> Result<(), (String, &'static str, String)> {
    let unwired = model
        .grippers
        .iter()
        .filter(|g| g.wiring.is_none())
        .map(|g| format!("[[gripper]] '{}'", g.name))
        .chain(
            model
                .flippers
                .iter()
                .filter(|f| f.wiring.is_none())
                .map(|f| format!("[[flipper]] '{}'", f.name)),
        )
        .next();
    let any_wired = model.grippers.iter().any(|g| g.wiring.is_some())
        || model.flippers.iter().any(|f| f.wiring.is_some());
    match (model.board.is_some(), unwired, any_wired) {
        (true, Some(section), _) => {
            return Err((
                section,
                "wiring",
                "missing: the design has a [board], so every gripper and flipper needs its wiring".into(),
            ))
        }
        (false, _, true) => {
            return Err((
                "[board]".into(),
                "board",
                "missing: the design wires its actuators, so it needs the [board] table (ENABLE, e-stop and start-button pins)".into(),
            ))
        }
        _ => {}
    }
    let pins = pins_named(model);
    for (n, (section, key, pin)) in pins.iter().enumerate() {
        if let Some((first_section, first_key, _)) = pins[..n].iter().find(|p| p.2 == *pin) {
            return Err((
                section.clone(),
                key,
                format!(
                    "pin {pin} is already used by key '{first_key}' of {}",
                    place(first_section, first_key)
                ),
            ));
        }
    }
    Ok(())
}
