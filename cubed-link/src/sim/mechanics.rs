//! What the simulated hardware drives: the `Mechanics` seam (the machine feels the motors
//! move, batch by batch, and names a motor that cannot), the sim's own time formula for a
//! whole step; the robot machine (`PhysicsMechanics`) is in
//! `mechanics_robot`: it tracks the cube and faults on impossible steps.

use super::board::BoardBuildError;
use cubed_firmware::Machine;
use firmware_protocol::message::{ActuatorConfig, Fault};

/// A mechanical failure: the fault the firmware latches and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MechanicalFault {
    pub fault: Fault,
    pub reason: String,
}

impl MechanicalFault {
    /// The actuator the fault names.
    pub fn actuator(&self) -> u8 {
        match self.fault {
            Fault::Stall { actuator }
            | Fault::Limit { actuator }
            | Fault::HomeNotFound { actuator } => actuator,
            _ => 0,
        }
    }
}

/// What the motors did at one instant of the firmware's time, by actuator index.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MotorBatch {
    /// Jaws sent to a side now (`true`: closing).
    pub jaws_started: Vec<(u8, bool)>,
    /// Jaws still travelling (`true`: closing), those just sent included.
    pub jaws_travelling: Vec<(u8, bool)>,
    /// Motors that left their position, in this sense (±1): the move must be possible,
    /// together with every other motor still on its way.
    pub leaving: Vec<(u8, i32)>,
    /// Other motors on their way (left earlier, not yet half-way), in this sense (±1).
    pub heading: Vec<(u8, i32)>,
    /// Motors past half-way to the next position, in this sense (±1): the move happens.
    pub passing: Vec<(u8, i32)>,
}

impl MotorBatch {
    /// Whether nothing happened that the machine must feel.
    pub fn is_empty(&self) -> bool {
        self.jaws_started.is_empty() && self.leaving.is_empty() && self.passing.is_empty()
    }
}

/// The motors and whatever they hold.
pub trait Mechanics {
    /// The machine these motors are (actuators in the host's order), as the host sends
    /// it at connect.
    fn machine(&self) -> Result<Machine, BoardBuildError>;
    /// A `Home` of `mask` begins: the rotations and flippers will find their marks.
    /// `Err`: a motor that cannot (its stall is reported to the firmware).
    fn homing(&mut self, mask: u16) -> Result<(), MechanicalFault>;
    /// The motors moved; `Err` names the motor that stalls (nothing else moves).
    fn moved(&mut self, batch: &MotorBatch) -> Result<(), MechanicalFault>;
    /// The firmware's command changed (a new move begins).
    fn command_ended(&mut self) {}
    /// A `Motion` begins (before its first motors move).
    fn motion_began(&mut self) {}
    /// How long jaw `actuator` really takes to open and to close, ms, where the machine
    /// knows (else the servo's travel from the board setup).
    fn jaw_times(&self, _actuator: usize) -> Option<(u16, u16)> {
        None
    }
    /// `us` µs of the firmware's time went by while a `Motion` ran.
    fn spent_us(&mut self, _us: u64) {}
}

/// How long moving `actuator` configured as `config` from `from` to `to` takes.
pub(crate) fn action_ms(config: &ActuatorConfig, from: i32, to: i32) -> u32 {
    let distance = from.abs_diff(to);
    match *config {
        ActuatorConfig::Jaw { .. } => config.jaw_ms(to != 0).map_or(0, u32::from),
        ActuatorConfig::Rotation {
            quarter_turn_ms,
            half_turn_ms,
            ..
        } => {
            let halves = distance / 2;
            halves * u32::from(half_turn_ms) + (distance % 2) * u32::from(quarter_turn_ms)
        }
        ActuatorConfig::Flipper { step_ms, .. } => distance * u32::from(step_ms),
    }
}
