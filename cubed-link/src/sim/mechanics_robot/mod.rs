//! The simulated robot: firmware actuators drive the rigid-body machine of `sim::rigid`
//! (never the planner's rules), and an impossible step is a fault naming the motor that
//! fails. Whole steps here (`run`, `home`: for benches and the rules comparison); the
//! firmware's motors feel their way through it batch by batch (`mechanics_feel.rs`).

use super::bench::Attachment;
use super::mechanics::{action_ms, MechanicalFault};
use super::rigid::{
    camera_view, own_frame, placed_like, Culprit, GripperMove, HomeParts, Impossible, JawMove,
    Machine, MachineStep,
};
use crate::robot::actuators::{ActuatorMap, Role};
use crate::robot::RobotModel;
use cubed_core::cube::{ColourScheme, FaceletCube};
use firmware_protocol::message::{Action, ActuatorConfig, Fault, JawTarget, Motion};

/// The robot design as a machine: the simulator tracks the cube and refuses impossible steps.
#[derive(Debug, Clone)]
pub struct PhysicsMechanics {
    pub model: RobotModel,
    pub map: ActuatorMap,
    pub machine: Machine,
    /// The camera scene and bench kept up to date, when a simulated camera looks on.
    pub attached: Option<Attachment>,
    /// Per gripper, whether its current turn slips (asked once per move).
    pub(super) slipping: Vec<Option<bool>>,
    /// The bench blocks the next motor this motion moves (an injected stall).
    pub(super) block_pending: bool,
}

impl PhysicsMechanics {
    /// The robot homed, holding `cube` (its own frame) at the home orientation.
    pub fn new(model: RobotModel, map: ActuatorMap, cube: &FaceletCube) -> PhysicsMechanics {
        PhysicsMechanics {
            machine: Machine::homed(&model, *cube),
            slipping: vec![None; model.grippers.len()],
            block_pending: false,
            model,
            map,
            attached: None,
        }
    }

    /// The robot homed with no cube in it: each motor moves freely within its range.
    pub fn empty(model: RobotModel, map: ActuatorMap) -> PhysicsMechanics {
        PhysicsMechanics {
            machine: Machine::empty(&model),
            ..PhysicsMechanics::new(model, map, &FaceletCube::default())
        }
    }

    /// Keeps `attachment`'s scene showing this robot's cube and takes cubes loaded on its bench.
    pub fn attach(mut self, attachment: Attachment) -> PhysicsMechanics {
        self.attached = Some(attachment);
        self.take_load();
        self
    }

    pub(super) fn take_load(&mut self) {
        let Some(a) = &self.attached else {
            return;
        };
        if let Some(cube) = a.take_loaded() {
            self.machine.cube = placed_like(&cube, &self.machine.cube);
        }
        self.publish();
    }

    pub(super) fn publish(&self) {
        if let Some(a) = &self.attached {
            let in_view = (self.model.cameras.iter())
                .map(|c| camera_view(&self.machine.cube, c.at, c.image_top))
                .collect();
            a.show(self.cube_frame(), in_view);
        }
    }

    /// The cube in its own frame.
    pub fn cube_frame(&self) -> FaceletCube {
        own_frame(&self.machine.cube)
    }

    /// The cube in its own frame, as 54 URFDLB letters.
    pub fn cube_facelets(&self) -> String {
        self.cube_frame().to_symbols(&ColourScheme::default())
    }

    /// The stickers as the robot sees them (by robot-frame position).
    pub fn robot_frame_facelets(&self) -> String {
        self.machine.cube.to_symbols(&ColourScheme::default())
    }

    /// Whether the cube it holds is solved.
    pub fn cube_solved(&self) -> bool {
        self.machine.cube.is_solved()
    }

    /// The firmware fault for an impossible step: the failing motor's actuator index.
    pub(super) fn fault_for(&self, impossible: Impossible) -> MechanicalFault {
        let role = match impossible.culprit {
            Culprit::Jaw(gripper) => Role::Jaw { gripper },
            Culprit::Rotation(gripper) => Role::Rotation { gripper },
            Culprit::Flipper(flipper) => Role::Flipper { flipper },
        };
        // A jawless gripper's "jaw" is its motor.
        let actuator = self
            .map
            .index_of(role)
            .or_else(|| match role {
                Role::Jaw { gripper } => self.map.index_of(Role::Rotation { gripper }),
                _ => None,
            })
            .unwrap_or(0);
        let fault = if impossible.limit {
            Fault::Limit { actuator }
        } else {
            Fault::Stall { actuator }
        };
        MechanicalFault {
            fault,
            reason: impossible.cause,
        }
    }

    /// The stall of a motion whose first motor something blocks (an injected fault).
    fn blocked(&self, motion: &Motion) -> MechanicalFault {
        let actuator = motion.actions.iter().next().map_or(0, |a| a.actuator());
        Self::blocked_actuator(actuator)
    }

    /// The stall of `actuator`, blocked on the bench (an injected fault).
    pub(super) fn blocked_actuator(actuator: u8) -> MechanicalFault {
        MechanicalFault {
            fault: Fault::Stall { actuator },
            reason: format!("something blocked actuator {actuator} (injected on the bench)"),
        }
    }

    /// Absolute position of each firmware actuator.
    fn position_of(&self, role: Role) -> i32 {
        match role {
            Role::Jaw { gripper } => i32::from(self.machine.closed[gripper]),
            Role::Rotation { gripper } => self.machine.rotations[gripper],
            Role::Flipper { flipper } => self.machine.flips[flipper],
        }
    }

    /// What each motor does for `motion`, and how long the slowest takes.
    fn machine_step(&self, motion: &Motion) -> Result<(MachineStep, u32), MechanicalFault> {
        let mut step = MachineStep {
            grippers: vec![GripperMove::default(); self.model.grippers.len()],
            flips: vec![0; self.model.flippers.len()],
        };
        let mut seen = Vec::new();
        let mut ms = 0;
        for action in motion.actions.iter() {
            let index = action.actuator();
            let bad = |reason: String| MechanicalFault {
                fault: Fault::Stall { actuator: index },
                reason,
            };
            let (Some(&role), Some(config)) = (
                self.map.roles.get(usize::from(index)),
                self.map.configs.get(usize::from(index)),
            ) else {
                return Err(bad(format!("there is no actuator {index}")));
            };
            if seen.contains(&index) {
                return Err(bad(format!(
                    "actuator {index} is given two targets in one motion"
                )));
            }
            seen.push(index);
            let from = self.position_of(role);
            let to = target_for(action, role, config).ok_or_else(|| {
                bad(format!(
                    "{action:?} does not fit actuator {index} ({role:?})"
                ))
            })?;
            ms = ms.max(action_ms(config, from, to));
            match role {
                Role::Jaw { gripper } if to != from => {
                    step.grippers[gripper].jaw = if to == 1 {
                        JawMove::Closing
                    } else {
                        JawMove::Opening
                    };
                }
                Role::Jaw { .. } => {}
                Role::Rotation { gripper } => step.grippers[gripper].turn = to - from,
                Role::Flipper { flipper } => step.flips[flipper] = to - from,
            }
        }
        Ok((step, ms))
    }
}

/// The absolute target of `action` if it suits an actuator with `role` and `config`.
fn target_for(action: &Action, role: Role, config: &ActuatorConfig) -> Option<i32> {
    match (*action, role, config) {
        (Action::Jaw { target, .. }, Role::Jaw { .. }, ActuatorConfig::Jaw { .. }) => {
            Some(i32::from(target == JawTarget::Closed))
        }
        (
            Action::Rotate { quarter_turns, .. },
            Role::Rotation { .. },
            ActuatorConfig::Rotation { .. },
        ) => Some(quarter_turns),
        (Action::Flip { position, .. }, Role::Flipper { .. }, ActuatorConfig::Flipper { .. }) => {
            Some(position)
        }
        _ => None,
    }
}

impl PhysicsMechanics {
    /// The rotations of the mask turn back to their mark, then its jaws close
    /// (PROTOCOL.md, Home). Takes as long as the slowest motor: turning back plus closing.
    pub fn home(&mut self, mask: u16) -> Result<u32, MechanicalFault> {
        self.take_load();
        let parts = self.home_parts(mask);
        let ms = self.home_ms(&parts);
        self.machine
            .home_parts(&self.model, &parts)
            .map_err(|e| self.fault_for(e))?;
        self.publish();
        Ok(ms)
    }

    /// Performs a whole motion at once; returns its time from the configured times.
    pub fn run(&mut self, motion: &Motion) -> Result<u32, MechanicalFault> {
        self.take_load();
        if self
            .attached
            .as_ref()
            .is_some_and(|a| a.next_motion_stalls())
        {
            return Err(self.blocked(motion));
        }
        let (step, ms) = self.machine_step(motion)?;
        let mut slips = || self.attached.as_ref().is_some_and(|a| a.next_turn_slips());
        let mut machine = self.machine.clone();
        let done = machine.perform(&self.model, &step, &mut slips);
        match done {
            Ok(()) => {
                self.machine = machine;
                if let Some(a) = &self.attached {
                    a.spent(ms);
                }
                self.publish();
                Ok(ms)
            }
            Err(impossible) => Err(self.fault_for(impossible)),
        }
    }

    /// Absolute position of each firmware actuator.
    pub fn positions(&self) -> Vec<i32> {
        self.map
            .roles
            .iter()
            .map(|&r| self.position_of(r))
            .collect()
    }
}

impl PhysicsMechanics {
    /// Homing time from the motion parameters: each gripper turns back to its mark (a
    /// continuous one to the nearest whole turn) and then closes its jaw if it was open.
    fn home_ms(&self, parts: &HomeParts) -> u32 {
        let mut slowest = 0;
        for (g, gripper) in self.model.grippers.iter().enumerate() {
            let from = if parts.rotations[g] {
                self.machine.rotations[g]
            } else {
                0
            };
            let back = match gripper.reach {
                crate::robot::model::Reach::Continuous => from - from.rem_euclid(4),
                crate::robot::model::Reach::Limited { .. } => 0,
            };
            let turn_ms = self
                .map
                .index_of(Role::Rotation { gripper: g })
                .and_then(|i| self.map.configs.get(usize::from(i)))
                .map_or(0, |c| action_ms(c, from, back));
            let close_ms = if gripper.has_jaw && parts.jaws[g] && !self.machine.closed[g] {
                gripper.close_ms
            } else {
                0
            };
            slowest = slowest.max(turn_ms + close_ms);
        }
        slowest
    }

    /// The parts of the design the actuators of `mask` move.
    pub(super) fn home_parts(&self, mask: u16) -> HomeParts {
        let mut parts = HomeParts {
            rotations: vec![false; self.model.grippers.len()],
            jaws: vec![false; self.model.grippers.len()],
            flippers: vec![false; self.model.flippers.len()],
        };
        for (index, role) in self.map.roles.iter().enumerate() {
            if index >= 16 || mask & (1 << index) == 0 {
                continue;
            }
            let slot = match *role {
                Role::Jaw { gripper } => parts.jaws.get_mut(gripper),
                Role::Rotation { gripper } => parts.rotations.get_mut(gripper),
                Role::Flipper { flipper } => parts.flippers.get_mut(flipper),
            };
            if let Some(slot) = slot {
                *slot = true;
            }
        }
        parts
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod compare_tests;
