//! What the simulated firmware drives: the `Mechanics` seam, a plain actuator-position
//! tracker, the sim's own time formula, and (re-exported) the robot machine
//! (`PhysicsMechanics`, in `mechanics_robot.rs`: tracks the cube, faults on impossible steps).

pub use super::mechanics_robot::PhysicsMechanics;
use firmware_protocol::message::{Action, ActuatorConfig, Configure, Fault, Motion, RotationRange};

/// A mechanical failure: the fault the firmware latches and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MechanicalFault {
    pub fault: Fault,
    pub reason: String,
}

/// The motors and whatever they hold.
pub trait Mechanics {
    /// Whether this hardware can be driven with `configure` (`Nak InvalidCommand` if not).
    fn accepts(&self, configure: &Configure) -> Result<(), String>;
    /// Homes every actuator; returns the time it takes (ms at speed 1).
    fn home(&mut self) -> Result<u32, MechanicalFault>;
    /// Performs a motion (already checked against the configuration); returns its duration.
    fn run(&mut self, motion: &Motion) -> Result<u32, MechanicalFault>;
    /// Current absolute position of each configured actuator.
    fn positions(&self) -> Vec<i32>;
}

/// Tracks actuator positions only: any motion within the configured limits is fine.
#[derive(Debug, Clone, Default)]
pub struct PositionTracker {
    configs: Vec<ActuatorConfig>,
    positions: Vec<i32>,
}

impl PositionTracker {
    /// A tracker for the actuators of `configure` at home.
    pub fn new(configure: &Configure) -> PositionTracker {
        PositionTracker {
            configs: configure.actuators.to_vec(),
            positions: vec![0; configure.actuators.len()],
        }
    }
}

/// How long moving `actuator` configured as `config` from `from` to `to` takes.
pub fn action_ms(config: &ActuatorConfig, from: i32, to: i32) -> u32 {
    let distance = from.abs_diff(to);
    match *config {
        ActuatorConfig::Jaw { open_ms, .. } if to == 0 => u32::from(open_ms),
        ActuatorConfig::Jaw { close_ms, .. } => u32::from(close_ms),
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

fn target_of(action: &Action) -> i32 {
    match *action {
        Action::Jaw { target, .. } => {
            i32::from(target == firmware_protocol::message::JawTarget::Closed)
        }
        Action::Rotate { quarter_turns, .. } => quarter_turns,
        Action::Flip { position, .. } => position,
    }
}

impl Mechanics for PositionTracker {
    fn accepts(&self, configure: &Configure) -> Result<(), String> {
        if self.configs.is_empty() || self.configs.as_slice() == configure.actuators.as_slice() {
            Ok(())
        } else {
            Err("these motors are not the configured ones".into())
        }
    }

    fn home(&mut self) -> Result<u32, MechanicalFault> {
        // Rotations and flippers at 0, jaws closed (PROTOCOL.md, Home).
        for (slot, config) in self.positions.iter_mut().zip(&self.configs) {
            *slot = i32::from(matches!(config, ActuatorConfig::Jaw { .. }));
        }
        Ok(0)
    }

    fn run(&mut self, motion: &Motion) -> Result<u32, MechanicalFault> {
        let mut ms = 0;
        for action in motion.actions.iter() {
            let index = usize::from(action.actuator());
            let (Some(config), Some(slot)) =
                (self.configs.get(index), self.positions.get_mut(index))
            else {
                continue;
            };
            let target = target_of(action);
            ms = ms.max(action_ms(config, *slot, target));
            *slot = target;
        }
        Ok(ms)
    }

    fn positions(&self) -> Vec<i32> {
        self.positions.clone()
    }
}

/// Whether `motion` fits the configured actuators (index, kind, limits).
pub fn motion_fits(configure: &Configure, motion: &Motion) -> bool {
    motion.actions.iter().all(|action| {
        let Some(config) = configure.actuators.get(usize::from(action.actuator())) else {
            return false;
        };
        match (*action, *config) {
            (Action::Jaw { .. }, ActuatorConfig::Jaw { .. }) => true,
            (Action::Rotate { quarter_turns, .. }, ActuatorConfig::Rotation { range, .. }) => {
                match range {
                    RotationRange::Limited { min, max } => {
                        (i32::from(min)..=i32::from(max)).contains(&quarter_turns)
                    }
                    RotationRange::Continuous => true,
                }
            }
            (Action::Flip { position, .. }, ActuatorConfig::Flipper { min, max, .. }) => {
                (i32::from(min)..=i32::from(max)).contains(&position)
            }
            _ => false,
        }
    })
}
