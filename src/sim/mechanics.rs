//! What the simulated firmware drives: the `Mechanics` seam, a plain actuator-position
//! tracker, and the robot physics (tracks the cube, faults on illegal steps).

use super::bench::Attachment;
use crate::cube::{ColourScheme, FaceletCube};
use crate::error_chain::error_chain;
use crate::robot::actuators::{ActuatorMap, Role};
use crate::robot::{PhysicsState, RobotModel, Violation};
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
pub(crate) fn action_ms(config: &ActuatorConfig, from: i32, to: i32) -> u32 {
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

/// The robot design's physics: the simulator tracks the cube and refuses illegal steps.
#[derive(Debug, Clone)]
pub struct PhysicsMechanics {
    pub model: RobotModel,
    pub map: ActuatorMap,
    pub physics: PhysicsState,
    positions: Vec<i32>,
    /// The camera scene and bench kept up to date, when a simulated camera looks on.
    pub attached: Option<Attachment>,
}

impl PhysicsMechanics {
    /// The robot at its home pose holding `cube` (cube frame).
    pub fn new(model: RobotModel, map: ActuatorMap, cube: &FaceletCube) -> PhysicsMechanics {
        let home = model.home();
        let positions = map.positions_at(&home);
        PhysicsMechanics {
            physics: PhysicsState::new(home, cube),
            model,
            map,
            positions,
            attached: None,
        }
    }

    /// Keeps `attachment`'s scene showing this robot's cube and takes cubes loaded on its bench.
    pub fn attach(mut self, attachment: Attachment) -> PhysicsMechanics {
        attachment.take_load(&mut self.physics);
        attachment.publish(&self.model, &self.physics);
        self.attached = Some(attachment);
        self
    }

    fn take_load(&mut self) {
        if let Some(a) = &self.attached {
            a.take_load(&mut self.physics);
            a.publish(&self.model, &self.physics);
        }
    }

    /// The cube in its own frame, as 54 URFDLB letters.
    pub fn cube_facelets(&self) -> String {
        self.physics
            .cube_frame()
            .to_symbols(&ColourScheme::default())
    }

    /// The stickers as the robot sees them (by robot-frame position).
    pub fn robot_frame_facelets(&self) -> String {
        self.physics.cube.to_symbols(&ColourScheme::default())
    }

    fn fault_for(&self, violation: &Violation) -> Fault {
        let rotation = |g: usize| {
            self.map
                .index_of(Role::Rotation { gripper: g })
                .unwrap_or(0)
        };
        let jaw = |g: usize| self.map.index_of(Role::Jaw { gripper: g }).unwrap_or(0);
        match *violation {
            Violation::Jammed { turning, .. } => Fault::Stall {
                actuator: rotation(turning),
            },
            Violation::OutOfReach { gripper, .. } => Fault::Limit {
                actuator: rotation(gripper),
            },
            Violation::NothingHolds { gripper } => Fault::Limit {
                actuator: jaw(gripper),
            },
            _ => Fault::Stall { actuator: 0 },
        }
    }
}

impl Mechanics for PhysicsMechanics {
    fn accepts(&self, configure: &Configure) -> Result<(), String> {
        if *configure == self.map.configure() {
            Ok(())
        } else {
            Err(format!(
                "the configuration does not describe robot '{}'",
                self.model.name
            ))
        }
    }

    /// Open grippers turn back to 0, then every jaw closes: the robot holds the cube in
    /// the pose programs are planned from. A gripper holding the cube away from 0 would
    /// turn the cube: a stall.
    fn home(&mut self) -> Result<u32, MechanicalFault> {
        self.take_load();
        let robot = &mut self.physics.robot;
        let grippers = self.model.grippers.len();
        if let Some(g) = (0..grippers).find(|&g| robot.is_closed(g) && robot.angles[g] != 0) {
            return Err(MechanicalFault {
                fault: Fault::Stall {
                    actuator: self
                        .map
                        .index_of(Role::Rotation { gripper: g })
                        .unwrap_or(0),
                },
                reason: "cannot home: a gripper holding the cube is turned away from home".into(),
            });
        }
        let home = self.model.home();
        robot.angles = home.angles;
        robot.closed = home.closed;
        self.positions = self.map.positions_at(robot);
        if let Some(a) = &self.attached {
            a.publish(&self.model, &self.physics);
        }
        Ok(0)
    }

    fn run(&mut self, motion: &Motion) -> Result<u32, MechanicalFault> {
        self.take_load();
        let mut positions = self.positions.clone();
        let step = self
            .map
            .decode_motion(motion, &mut positions)
            .map_err(|e| MechanicalFault {
                fault: Fault::Stall { actuator: 0 },
                reason: error_chain(&e),
            })?;
        if step.actions.is_empty() {
            self.positions = positions;
            return Ok(0);
        }
        match self.physics.apply_step(&self.model, &step) {
            Ok(effect) => {
                self.positions = positions;
                if let Some(a) = &self.attached {
                    a.after_step(&mut self.physics, &effect.turns, effect.ms);
                    a.publish(&self.model, &self.physics);
                }
                Ok(effect.ms)
            }
            Err(violation) => Err(MechanicalFault {
                fault: self.fault_for(&violation),
                reason: violation.explain(&self.model),
            }),
        }
    }

    fn positions(&self) -> Vec<i32> {
        self.positions.clone()
    }
}

/// Whether `motion` fits the configured actuators (index, kind, limits).
pub(crate) fn motion_fits(configure: &Configure, motion: &Motion) -> bool {
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

#[cfg(test)]
#[path = "mechanics_tests.rs"]
mod tests;
