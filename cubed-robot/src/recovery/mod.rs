//! The recovery plan: after an e-stop, a fault or a firmware reboot, every actuator is unhomed
//! and some positions may be lost; this plans the `Home` groups and jaw openings that bring the
//! robot back to its home pose while the cube stays supported. Pure; checked against the
//! simulator's own machine (`sim::recovery_witness_tests`), never against `robot::physics`.
//!
//! The order: first every jaw is homed (homing only closes a jaw, so nothing is dropped) and
//! every flipper; then the grippers with jaws whose rotation is not known to be on its home mark
//! are re-homed in groups: a group opens while a support set of the others holds the cube,
//! turns back to its mark and closes (one `Home`); then each jawless motor not on its mark is
//! homed alone: a continuous one (a face motor, a turntable) turns what it drives to its
//! mark and back to the quarter it left, which leaves it as it was if it was square, and a
//! limited one turns it back to the mark; either may square a layer an interruption left
//! half turned, which is why the cube is always rescanned. Last, one `Home` for the rest.

use super::actuators::{ActuatorMap, MotionGroup, Role};
use super::model::{Reach, RobotModel};
use firmware_protocol::message::{Action, JawTarget, Motion};

/// What the host knows of the robot before it recovers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecoveryInput {
    /// Per gripper, its rotation's absolute position if known (None: lost, e.g. after a
    /// firmware reboot or a stall).
    pub rotations: Vec<Option<i32>>,
    /// Whether a cube may be in the grippers (then it must stay supported throughout).
    pub cube_held: bool,
}

impl RecoveryInput {
    /// Every position lost, a cube in the grippers: the safe assumption.
    pub fn all_lost(model: &RobotModel) -> RecoveryInput {
        RecoveryInput {
            rotations: vec![None; model.grippers.len()],
            cube_held: true,
        }
    }

    /// The rotations the firmware reports (one position per actuator, in `map`'s order).
    pub fn from_positions(map: &ActuatorMap, model: &RobotModel, positions: &[i32]) -> Self {
        let rotations = (0..model.grippers.len())
            .map(|gripper| {
                let index = map.index_of(Role::Rotation { gripper })?;
                positions.get(usize::from(index)).copied()
            })
            .collect();
        RecoveryInput {
            rotations,
            cube_held: true,
        }
    }
}

/// One command of a recovery plan; masks are over gripper (or flipper) indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecoveryStep {
    /// One `Home`: these rotations and flippers find their marks, then these jaws close.
    Home {
        jaws: u16,
        rotations: u16,
        flippers: u16,
    },
    /// One motion opening these grippers' jaws while the others hold the cube.
    Open { grippers: u16 },
}

/// The steps, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecoveryPlan {
    pub steps: Vec<RecoveryStep>,
}

/// Why the robot cannot be re-homed by itself.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecoveryError {
    #[error("cannot re-home {grippers}: no support set of the design holds the cube while they open (take the cube out, then reset)")]
    NoSupportWhileOpen { grippers: String },
    #[error("recovery step {step}")]
    Encode {
        step: usize,
        #[source]
        source: firmware_protocol::Error,
    },
}

fn bits(mask: u16) -> impl Iterator<Item = usize> {
    (0..16).filter(move |i| mask & (1 << i) != 0)
}

/// The members of `mask` that `keep` keeps.
fn those(mask: u16, keep: impl Fn(usize) -> bool) -> u16 {
    bits(mask).filter(|&g| keep(g)).fold(0, |m, g| m | 1 << g)
}

fn all(count: usize) -> u16 {
    ((1u32 << count) - 1) as u16
}

/// Whether gripper `g` is known to be on its home mark.
fn on_mark(model: &RobotModel, g: usize, position: Option<i32>) -> bool {
    match (model.grippers[g].reach, position) {
        // One that never turns (`range = [0, 0]`) has no rotation to lose: its actuator is
        // homed with the others' (the firmware counts it homed), nothing moves.
        (reach, _) if !reach.turns() => true,
        (_, None) => false,
        (Reach::Limited { .. }, Some(p)) => p == 0,
        (Reach::Continuous, Some(p)) => p.rem_euclid(4) == 0,
    }
}

/// Plans the recovery of `model` from what `input` says is known.
pub fn plan_recovery(
    model: &RobotModel,
    input: &RecoveryInput,
) -> Result<RecoveryPlan, RecoveryError> {
    let grippers = all(model.grippers.len());
    let flippers = all(model.flippers.len());
    let jawed = those(grippers, |g| model.grippers[g].has_jaw);
    if !input.cube_held {
        return Ok(RecoveryPlan {
            steps: vec![RecoveryStep::Home {
                jaws: jawed,
                rotations: grippers,
                flippers,
            }],
        });
    }
    let off_mark = those(grippers, |g| {
        !on_mark(model, g, input.rotations.get(g).copied().flatten())
    });
    // Those that never turn are counted homed in the first step, moving nothing.
    let never_turn = those(grippers, |g| !model.grippers[g].reach.turns());
    let mut steps = Vec::new();
    push_home(&mut steps, jawed, never_turn, flippers);
    let mut pending = off_mark & jawed;
    while pending != 0 {
        let group = opening_group(model, pending);
        if group == 0 {
            return Err(RecoveryError::NoSupportWhileOpen {
                grippers: names(model, pending),
            });
        }
        steps.push(RecoveryStep::Open { grippers: group });
        push_home(&mut steps, group, group, 0);
        pending &= !group;
    }
    for g in bits(off_mark & !jawed) {
        push_home(&mut steps, 0, 1 << g, 0);
    }
    let rest = grippers & !off_mark & !never_turn;
    push_home(&mut steps, rest & jawed, rest, 0);
    Ok(RecoveryPlan { steps })
}

/// The largest set of `pending` grippers that may open at once: those outside the support
/// set that keeps most of them closed (0 if every support set needs all of them).
fn opening_group(model: &RobotModel, pending: u16) -> u16 {
    let sets = model.support.iter().copied();
    sets.map(|set| pending & !set)
        .max_by_key(|group| (group.count_ones(), u16::MAX - group))
        .unwrap_or(pending)
}

fn push_home(steps: &mut Vec<RecoveryStep>, jaws: u16, rotations: u16, flippers: u16) {
    if jaws | rotations | flippers != 0 {
        steps.push(RecoveryStep::Home {
            jaws,
            rotations,
            flippers,
        });
    }
}

fn names(model: &RobotModel, mask: u16) -> String {
    let names: Vec<String> = bits(mask)
        .filter_map(|g| model.grippers.get(g))
        .map(|g| format!("'{}'", g.name))
        .collect();
    names.join(", ")
}

impl RecoveryStep {
    /// The step in words, grippers and flippers named as in the design.
    pub fn describe(&self, model: &RobotModel) -> String {
        match *self {
            RecoveryStep::Open { grippers } => {
                format!("open {} (the others hold the cube)", names(model, grippers))
            }
            RecoveryStep::Home {
                jaws,
                rotations,
                flippers,
            } => {
                let mut parts = Vec::new();
                let turning = those(rotations, |g| {
                    model.grippers.get(g).is_some_and(|g| g.reach.turns())
                });
                if turning != 0 {
                    parts.push(format!("turn {} back to home", names(model, turning)));
                }
                if flippers != 0 {
                    let flippers: Vec<String> = bits(flippers)
                        .filter_map(|f| model.flippers.get(f))
                        .map(|f| format!("'{}'", f.name))
                        .collect();
                    parts.push(format!("home {}", flippers.join(", ")));
                }
                if jaws != 0 {
                    parts.push(format!("close {}", names(model, jaws)));
                }
                parts.join(", then ")
            }
        }
    }
}

impl RecoveryPlan {
    /// The plan as firmware commands, move ids from `first_move_id`.
    pub fn encode(
        &self,
        map: &ActuatorMap,
        first_move_id: u32,
    ) -> Result<Vec<MotionGroup>, RecoveryError> {
        let mut groups = Vec::with_capacity(self.steps.len());
        for (step, command) in self.steps.iter().enumerate() {
            let move_id = first_move_id.wrapping_add(step as u32);
            groups.push(match *command {
                RecoveryStep::Home {
                    jaws,
                    rotations,
                    flippers,
                } => MotionGroup::Home {
                    move_id,
                    mask: map.mask_of(|role| match role {
                        Role::Jaw { gripper } => jaws & (1 << gripper) != 0,
                        Role::Rotation { gripper } => rotations & (1 << gripper) != 0,
                        Role::Flipper { flipper } => flippers & (1 << flipper) != 0,
                    }),
                },
                RecoveryStep::Open { grippers } => {
                    let actions: Vec<Action> = bits(grippers)
                        .filter_map(|gripper| map.index_of(Role::Jaw { gripper }))
                        .map(|actuator| Action::Jaw {
                            actuator,
                            target: JawTarget::Open,
                        })
                        .collect();
                    let motion = Motion::new(move_id, &actions)
                        .map_err(|source| RecoveryError::Encode { step, source })?;
                    MotionGroup::Motion(motion)
                }
            });
        }
        Ok(groups)
    }

    /// The plan in words, one step per line.
    pub fn describe(&self, model: &RobotModel) -> Vec<String> {
        self.steps.iter().map(|s| s.describe(model)).collect()
    }
}

impl RecoveryInput {
    /// What the host knows, in words, grippers named as in the design: whose rotation is lost
    /// and whether a cube may be held ("the rotation of 'U', 'R' lost; a cube may be held").
    pub fn describe(&self, model: &RobotModel) -> String {
        let lost = (self.rotations.iter().enumerate())
            .filter(|(_, r)| r.is_none())
            .fold(0u16, |mask, (g, _)| mask | (1 << g));
        let rotations = match lost {
            0 => "every gripper's rotation known".to_string(),
            lost if lost == all(self.rotations.len()) => {
                "every gripper's rotation lost".to_string()
            }
            lost => format!("the rotation of {} lost", names(model, lost)),
        };
        let held = match self.cube_held {
            true => "a cube may be held",
            false => "no cube held",
        };
        format!("{rotations}; {held}")
    }
}

#[cfg(test)]
mod tests;
