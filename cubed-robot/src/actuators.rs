//! How a robot design maps onto firmware actuators (their order, names and configuration), and
//! gripper programs onto queued commands with absolute targets. Pure; the robot model owns the
//! naming, and both the link (encoding) and the simulator (decoding back into steps) use it.
//!
//! Actuators, in order: for each gripper its jaw (if it has one) then its rotation; then
//! each flipper. A flipper's position counts the flips done since homing (a cam turning one
//! cycle per flip), so targets stay absolute and a duplicate changes nothing.

use super::model::Reach;
use super::{Action as RobotAction, Program, RobotModel, RobotState, Step};
use cubed_core::error_chain::error_chain;
use firmware_protocol::message::{
    Action, ActuatorConfig, Configure, JawTarget, Motion, RotationRange, MAX_ACTUATORS,
};
use firmware_protocol::Message;

/// A queued command for the firmware: what the link streams, one move id each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MotionGroup {
    /// Home the actuators whose bits are set in `mask` (see [`ActuatorMap::home_mask`]).
    Home {
        move_id: u32,
        mask: u16,
    },
    Motion(Motion),
    Dwell {
        move_id: u32,
        ms: u16,
    },
}

impl MotionGroup {
    /// The command's move id.
    pub fn move_id(&self) -> u32 {
        match *self {
            MotionGroup::Home { move_id, .. } | MotionGroup::Dwell { move_id, .. } => move_id,
            MotionGroup::Motion(motion) => motion.move_id,
        }
    }

    /// The protocol message.
    pub fn to_message(&self) -> Message {
        match *self {
            MotionGroup::Home { move_id, mask } => Message::Home { move_id, mask },
            MotionGroup::Motion(motion) => Message::Motion(motion),
            MotionGroup::Dwell { move_id, ms } => Message::Dwell { move_id, ms },
        }
    }
}

/// Why a design or a program cannot be expressed in firmware commands.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ActuatorError {
    #[error("robot '{robot}' needs {needed} firmware actuators; the protocol allows {max}")]
    TooManyActuators {
        robot: String,
        needed: usize,
        max: usize,
    },
    #[error("step {step}: {reason}")]
    BadStep { step: usize, reason: String },
    #[error("motion {move_id}: {reason}")]
    BadMotion { move_id: u32, reason: String },
}

/// What one firmware actuator is on the robot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Jaw { gripper: usize },
    Rotation { gripper: usize },
    Flipper { flipper: usize },
}

/// The firmware actuators of a design.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActuatorMap {
    pub roles: Vec<Role>,
    pub configs: Vec<ActuatorConfig>,
}

fn ms16(ms: u32) -> u16 {
    ms.min(u32::from(u16::MAX)) as u16
}

impl ActuatorMap {
    /// The actuators of `model`.
    pub fn new(model: &RobotModel) -> Result<ActuatorMap, ActuatorError> {
        let mut map = ActuatorMap {
            roles: Vec::new(),
            configs: Vec::new(),
        };
        for (gripper, g) in model.grippers.iter().enumerate() {
            if g.has_jaw {
                map.push(
                    Role::Jaw { gripper },
                    ActuatorConfig::Jaw {
                        open_ms: ms16(g.open_ms),
                        close_ms: ms16(g.close_ms),
                    },
                );
            }
            let range = match g.reach {
                Reach::Limited { min, max } => RotationRange::Limited {
                    min: min.into(),
                    max: max.into(),
                },
                Reach::Continuous => RotationRange::Continuous,
            };
            map.push(
                Role::Rotation { gripper },
                ActuatorConfig::Rotation {
                    range,
                    quarter_turn_ms: ms16(g.quarter_ms),
                    half_turn_ms: ms16(g.half_ms),
                },
            );
        }
        for (flipper, f) in model.flippers.iter().enumerate() {
            map.push(
                Role::Flipper { flipper },
                ActuatorConfig::Flipper {
                    min: 0,
                    max: i16::MAX,
                    step_ms: ms16(f.flip_ms),
                },
            );
        }
        if map.roles.len() > MAX_ACTUATORS {
            return Err(ActuatorError::TooManyActuators {
                robot: model.name.clone(),
                needed: map.roles.len(),
                max: MAX_ACTUATORS,
            });
        }
        Ok(map)
    }

    fn push(&mut self, role: Role, config: ActuatorConfig) {
        self.roles.push(role);
        self.configs.push(config);
    }

    /// The `Configure` message for this design.
    pub fn configure(&self) -> Configure {
        Configure::new(&self.configs).unwrap_or_default()
    }

    /// The `Home` mask of every actuator of the design (homes the whole robot).
    pub fn home_mask(&self) -> u16 {
        self.mask_of(|_| true)
    }

    /// The `Home` mask of the actuators whose role passes `keep` (e.g. the jaws and
    /// rotations of some grippers, to home them while the others hold the cube).
    pub fn mask_of(&self, keep: impl Fn(Role) -> bool) -> u16 {
        (self.roles.iter().enumerate())
            .filter(|&(index, &role)| index < 16 && keep(role))
            .fold(0, |mask, (index, _)| mask | 1 << index)
    }

    /// The actuator index of `role`.
    pub fn index_of(&self, role: Role) -> Option<u8> {
        self.roles.iter().position(|&r| r == role).map(|i| i as u8)
    }

    /// Absolute positions at `state`: jaws 0/1, rotations the gripper angles, flippers 0.
    pub fn positions_at(&self, state: &RobotState) -> Vec<i32> {
        self.roles
            .iter()
            .map(|role| match *role {
                Role::Jaw { gripper } => i32::from(state.is_closed(gripper)),
                Role::Rotation { gripper } => {
                    i32::from(state.angles.get(gripper).copied().unwrap_or(0))
                }
                Role::Flipper { .. } => 0,
            })
            .collect()
    }

    /// The program as queued commands with absolute targets, move ids from `first_move_id`,
    /// starting from `start` right after homing. Photo-only steps are not sent (the host
    /// takes photos); their step indices are returned so the caller can pause there.
    pub fn encode_program(
        &self,
        program: &Program,
        start: &RobotState,
        first_move_id: u32,
    ) -> Result<EncodedProgram, ActuatorError> {
        self.encode_from(program, &self.positions_at(start), first_move_id)
    }

    /// As [`ActuatorMap::encode_program`], from the actuators' absolute positions now (a
    /// continuous gripper or a flipper keeps counting across programs; home resets them).
    pub fn encode_from(
        &self,
        program: &Program,
        positions: &[i32],
        first_move_id: u32,
    ) -> Result<EncodedProgram, ActuatorError> {
        let mut positions = positions.to_vec();
        let mut out = EncodedProgram::default();
        for (step_index, step) in program.steps.iter().enumerate() {
            let actions = self.encode_step(step, step_index, &mut positions)?;
            if actions.is_empty() {
                out.photo_steps.push(step_index);
                continue;
            }
            let move_id = first_move_id.wrapping_add(out.groups.len() as u32);
            let motion = Motion::new(move_id, &actions).map_err(|e| ActuatorError::BadStep {
                step: step_index,
                reason: error_chain(&e),
            })?;
            out.groups.push((step_index, MotionGroup::Motion(motion)));
            out.positions_after.push(positions.clone());
        }
        Ok(out)
    }

    fn encode_step(
        &self,
        step: &Step,
        step_index: usize,
        positions: &mut [i32],
    ) -> Result<Vec<Action>, ActuatorError> {
        let missing = |what: String| ActuatorError::BadStep {
            step: step_index,
            reason: format!("the robot has no firmware actuator for {what}"),
        };
        let is_photo = |a: &RobotAction| matches!(a, RobotAction::Capture { .. });
        if step.actions.iter().any(is_photo) && !step.actions.iter().all(is_photo) {
            return Err(ActuatorError::BadStep {
                step: step_index,
                reason: "it takes a photo while the robot moves; a photo needs a step of its own \
                         (the link sends only the motion, so the photo would be lost)"
                    .into(),
            });
        }
        let mut actions = Vec::new();
        for action in &step.actions {
            let (role, make): (Role, fn(u8, i32) -> Action) = match *action {
                RobotAction::Open(g) => (Role::Jaw { gripper: g }, |a, _| Action::Jaw {
                    actuator: a,
                    target: JawTarget::Open,
                }),
                RobotAction::Close(g) => (Role::Jaw { gripper: g }, |a, _| Action::Jaw {
                    actuator: a,
                    target: JawTarget::Closed,
                }),
                RobotAction::Turn { gripper, .. } => {
                    (Role::Rotation { gripper }, |a, t| Action::Rotate {
                        actuator: a,
                        quarter_turns: t,
                    })
                }
                RobotAction::Flip(f) => (Role::Flipper { flipper: f }, |a, t| Action::Flip {
                    actuator: a,
                    position: t,
                }),
                RobotAction::Capture { .. } => continue,
            };
            let index = self
                .index_of(role)
                .ok_or_else(|| missing(format!("{role:?}")))?;
            let slot = &mut positions[usize::from(index)];
            *slot = match *action {
                RobotAction::Open(_) => 0,
                RobotAction::Close(_) => 1,
                RobotAction::Turn { quarters, .. } => *slot + i32::from(quarters),
                _ => *slot + 1,
            };
            actions.push(make(index, *slot));
        }
        Ok(actions)
    }

    /// The robot step a received `Motion` performs, given the current absolute positions
    /// (which are updated). Used by the simulator.
    pub fn decode_motion(
        &self,
        motion: &Motion,
        positions: &mut [i32],
    ) -> Result<Step, ActuatorError> {
        let bad = |reason: String| ActuatorError::BadMotion {
            move_id: motion.move_id,
            reason,
        };
        let mut step = Step::default();
        for action in motion.actions.iter() {
            let index = usize::from(action.actuator());
            let role = *self
                .roles
                .get(index)
                .ok_or_else(|| bad(format!("no actuator {index}")))?;
            let current = positions[index];
            let (target, robot_action) = match (*action, role) {
                (Action::Jaw { target, .. }, Role::Jaw { gripper }) => {
                    let closed = target == JawTarget::Closed;
                    let act = if closed {
                        RobotAction::Close(gripper)
                    } else {
                        RobotAction::Open(gripper)
                    };
                    (i32::from(closed), act)
                }
                (Action::Rotate { quarter_turns, .. }, Role::Rotation { gripper }) => {
                    let delta = quarter_turns - current;
                    let quarters = i8::try_from(delta)
                        .map_err(|_| bad(format!("turn of {delta} quarters")))?;
                    (quarter_turns, RobotAction::Turn { gripper, quarters })
                }
                (Action::Flip { position, .. }, Role::Flipper { flipper }) => {
                    if position != current + 1 && position != current {
                        return Err(bad(format!(
                            "flipper {flipper} from {current} to {position}: one flip at a time"
                        )));
                    }
                    (position, RobotAction::Flip(flipper))
                }
                (action, role) => return Err(bad(format!("{action:?} on {role:?}"))),
            };
            if target != current {
                step.actions.push(robot_action);
                positions[index] = target;
            }
        }
        Ok(step)
    }
}

/// A program as queued commands.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct EncodedProgram {
    /// `(program step index, command)`, in order.
    pub groups: Vec<(usize, MotionGroup)>,
    /// Steps that only take photos (not sent to the firmware).
    pub photo_steps: Vec<usize>,
    /// The actuators' absolute positions once each command is done.
    pub positions_after: Vec<Vec<i32>>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Planner;
    use cubed_core::cube::Turn;

    fn four_arm() -> RobotModel {
        crate::shipped_design("four-arm").expect("four-arm loads")
    }

    #[test]
    fn link_four_arm_has_a_jaw_and_a_rotation_per_gripper() {
        let map = ActuatorMap::new(&four_arm()).expect("fits");
        assert_eq!(map.roles.len(), 8);
        assert_eq!(map.index_of(Role::Rotation { gripper: 1 }), Some(3));
    }

    #[test]
    fn link_a_photo_is_never_dropped_from_a_step_that_also_moves() {
        let model = four_arm();
        let map = ActuatorMap::new(&model).expect("fits");
        let photo = RobotAction::Capture {
            camera: 0,
            face: cubed_core::cube::Face::U,
            image_rotation: 0,
        };
        let alone = Program {
            steps: vec![Step {
                actions: vec![photo],
            }],
        };
        let encoded = map
            .encode_program(&alone, &model.home(), 1)
            .expect("encodes");
        assert_eq!(
            encoded.photo_steps,
            vec![0],
            "a photo step is kept for the caller"
        );
        let mixed = Program {
            steps: vec![Step {
                actions: vec![RobotAction::Open(0), photo],
            }],
        };
        let error = map
            .encode_program(&mixed, &model.home(), 1)
            .expect_err("the photo would be lost");
        assert!(
            error.to_string().starts_with("step 0: it takes a photo"),
            "{error}"
        );
    }

    #[test]
    fn link_encoded_targets_are_absolute_and_decode_back_to_the_steps() {
        let model = four_arm();
        let planner = Planner::new(model.clone());
        let solution: Vec<Turn> = ["R", "U", "F2", "L'"]
            .iter()
            .map(|t| {
                cubed_core::cube::parse_moves(t, cubed_core::cube::Notation::Singmaster)
                    .expect("move")[0]
            })
            .filter_map(|m| match m {
                cubed_core::cube::Move::Turn(t) => Some(t),
                _ => None,
            })
            .collect();
        let plan = planner.plan(&planner.home(), &solution).expect("plans");
        let map = ActuatorMap::new(&model).expect("fits");
        let encoded = map
            .encode_program(&plan.program, &planner.home(), 5)
            .expect("encodes");
        let mut positions = map.positions_at(&planner.home());
        for (index, (step_index, group)) in encoded.groups.iter().enumerate() {
            let MotionGroup::Motion(motion) = group else {
                panic!("only motions")
            };
            assert_eq!(motion.move_id, 5 + index as u32, "ids consecutive");
            let step = map.decode_motion(motion, &mut positions).expect("decodes");
            assert_eq!(step, plan.program.steps[*step_index]);
            // A duplicate changes nothing: absolute targets.
            let again = map.decode_motion(motion, &mut positions).expect("decodes");
            assert!(again.actions.is_empty());
        }
    }
}
