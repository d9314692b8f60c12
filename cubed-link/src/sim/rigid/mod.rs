//! The simulator's own model of the machine: the cube as rigid slabs of stickers, each
//! gripper a motor and a jaw, each flipper a cam. Written apart from the planner's rules
//! (`robot::physics`, `robot::replay`): it reasons about which cubies each jaw touches and
//! about signed angles, so a wrong planner rule shows up as a disagreement between the two.
//!
//! A step is possible only if every slab that turns is driven by closed jaws, no slab is
//! driven in two senses at once (signed quarter turns about one axis, never modulo 4), a
//! free slab between two slabs turning differently is not torn, the cube stays supported
//! by the design's support sets, a flipper tips the cube only with its grippers clear and
//! nothing else moving, and a jaw never opens or closes on a slab that moves.

pub(crate) use super::rigid_space::{camera_view, own_frame, placed_like};
use super::rigid_space::{cross, direction_of, dot, gripped_cubies, moved, vector};
use crate::robot::model::{Reach, RobotModel};
use crate::robot::Direction;
use cubed_core::cube::geometry::quarter_turn;
use cubed_core::cube::{Face, FaceletCube};

/// What a gripper's jaw does during a step.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum JawMove {
    #[default]
    Still,
    Opening,
    Closing,
}

/// What one gripper's motors do in a step.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct GripperMove {
    pub jaw: JawMove,
    /// Signed quarter turns, clockwise as seen from the gripper's own side.
    pub turn: i32,
}

/// Every motor's part in one step (they all start together).
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct MachineStep {
    pub grippers: Vec<GripperMove>,
    /// Flips each flipper's cam makes in this step.
    pub flips: Vec<i32>,
}

/// The motor that cannot do its part.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Culprit {
    Jaw(usize),
    Rotation(usize),
    Flipper(usize),
}

/// Why a step is physically impossible: which motor would stall or hit its limit, and why.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Impossible {
    pub culprit: Culprit,
    /// True when the motor would leave its range (a limit switch), false for a stall.
    pub limit: bool,
    pub cause: String,
}

/// The machine's state: jaws, motor counts since homing, and the cube by robot-frame position.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Machine {
    pub closed: Vec<bool>,
    pub rotations: Vec<i32>,
    pub flips: Vec<i32>,
    /// Stickers by robot-frame position (a direction's index stands for its home face).
    pub cube: FaceletCube,
    /// Whether a cube is in the robot at all: an empty robot moves each motor freely within
    /// its range (a builder trying actuators one at a time).
    pub holds_cube: bool,
}

/// Who imposes an angle on a slab.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Constraint {
    angle: i32,
    gripper: usize,
    /// A jaw opening or closing on the slab (it must not move).
    jaw_moving: bool,
}

fn stall(culprit: Culprit, cause: String) -> Impossible {
    Impossible {
        culprit,
        limit: false,
        cause,
    }
}

/// Which parts of the robot a (partial) home moves: per gripper its rotation and its jaw,
/// per flipper the flipper.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct HomeParts {
    pub rotations: Vec<bool>,
    pub jaws: Vec<bool>,
    pub flippers: Vec<bool>,
}

impl Machine {
    /// The machine homed: jaws closed, every count at 0, holding `cube` (robot frame).
    pub fn homed(model: &RobotModel, cube: FaceletCube) -> Machine {
        Machine {
            closed: vec![true; model.grippers.len()],
            rotations: vec![0; model.grippers.len()],
            flips: vec![0; model.flippers.len()],
            cube,
            holds_cube: true,
        }
    }

    /// The machine homed with no cube in it.
    pub fn empty(model: &RobotModel) -> Machine {
        Machine {
            holds_cube: false,
            ..Machine::homed(model, FaceletCube::default())
        }
    }

    /// Whether gripper `g` has hold of the cube: a closed jaw, or no jaw at all.
    fn grips(&self, model: &RobotModel, g: usize) -> bool {
        !model.grippers[g].has_jaw || self.closed[g]
    }

    /// Performs `step` if it is physically possible; otherwise nothing moves. `slips` is
    /// asked once per face turn whether that layer slips (its motor turns, it stays).
    pub fn perform(
        &mut self,
        model: &RobotModel,
        step: &MachineStep,
        slips: &mut dyn FnMut() -> bool,
    ) -> Result<(), Impossible> {
        check_limits(model, self, step)?;
        check_jaws_still_while_turning(model, step)?;
        if self.holds_cube {
            self.check_support(model, step)?;
            self.cube = match step.flips.iter().position(|&f| f != 0) {
                Some(f) => self.flip(model, step, f)?,
                None => self.turn_slabs(model, step, slips)?,
            };
        }
        for (g, m) in step.grippers.iter().enumerate() {
            match m.jaw {
                JawMove::Still => {}
                JawMove::Opening => self.closed[g] = false,
                JawMove::Closing => self.closed[g] = true,
            }
            self.rotations[g] += m.turn;
        }
        for (count, flips) in self.flips.iter_mut().zip(&step.flips) {
            *count += flips;
        }
        Ok(())
    }

    /// Grippers holding the cube through the whole step (bit mask).
    fn held_through(&self, model: &RobotModel, step: &MachineStep) -> u16 {
        (0..model.grippers.len())
            .filter(|&g| self.grips(model, g) && step.grippers[g].jaw != JawMove::Opening)
            .fold(0, |mask, g| mask | 1 << g)
    }

    fn check_support(&self, model: &RobotModel, step: &MachineStep) -> Result<(), Impossible> {
        let held = self.held_through(model, step);
        if model.support.iter().any(|&set| set & !held == 0) {
            return Ok(());
        }
        let opening = (0..model.grippers.len())
            .find(|&g| step.grippers[g].jaw == JawMove::Opening)
            .unwrap_or(0);
        Err(stall(
            Culprit::Jaw(opening),
            format!(
                "opening the jaw of '{}' would drop the cube: the grippers left holding it are none of the design's support sets",
                model.grippers[opening].name
            ),
        ))
    }

    /// A flipper tips the whole cube; its grippers must be clear and nothing else may move.
    fn flip(
        &self,
        model: &RobotModel,
        step: &MachineStep,
        f: usize,
    ) -> Result<FaceletCube, Impossible> {
        let flipper = &model.flippers[f];
        if let Some(other) = step
            .flips
            .iter()
            .enumerate()
            .position(|(i, &n)| i != f && n != 0)
        {
            return Err(stall(
                Culprit::Flipper(other),
                format!(
                    "'{}' and '{}' cannot both tip the cube at once",
                    flipper.name, model.flippers[other].name
                ),
            ));
        }
        if let Some(g) = step
            .grippers
            .iter()
            .position(|m| *m != GripperMove::default())
        {
            return Err(stall(
                Culprit::Flipper(f),
                format!(
                    "'{}' cannot tip the cube while '{}' moves",
                    flipper.name, model.grippers[g].name
                ),
            ));
        }
        // A closed jaw clamps the cube to the frame, whatever the design lists; the cube tips
        // off a jawless gripper that only carries it.
        let clamped =
            (0..model.grippers.len()).find(|&g| model.grippers[g].has_jaw && self.closed[g]);
        if let Some(g) = clamped {
            return Err(stall(
                Culprit::Flipper(f),
                format!(
                    "'{}' cannot tip the cube while '{}' holds it",
                    flipper.name, model.grippers[g].name
                ),
            ));
        }
        // The face at `from` ends at `to`: a clockwise quarter turn about `to × from`.
        let about = direction_of(cross(vector(flipper.to), vector(flipper.from)))
            .map(|d| d.home_face())
            .unwrap_or(Face::U);
        Ok(moved(&self.cube, &quarter_turn(about, |_| true)))
    }

    /// Slabs driven by turning jaws; the rest stay with whatever holds them.
    fn turn_slabs(
        &self,
        model: &RobotModel,
        step: &MachineStep,
        slips: &mut dyn FnMut() -> bool,
    ) -> Result<FaceletCube, Impossible> {
        let drivers: Vec<usize> = (0..model.grippers.len())
            .filter(|&g| self.grips(model, g) && step.grippers[g].turn != 0)
            .collect();
        let Some(&first) = drivers.first() else {
            return Ok(self.cube);
        };
        let axis_of = |g: usize| model.grippers[g].at.axis();
        if let Some(&second) = drivers.iter().find(|&&g| axis_of(g) != axis_of(first)) {
            return Err(stall(
                Culprit::Rotation(second),
                format!(
                    "'{}' and '{}' turn layers on crossing axes at once: the layers share cubies",
                    model.grippers[first].name, model.grippers[second].name
                ),
            ));
        }
        let positive = Direction::ALL
            .into_iter()
            .find(|d| d.is_positive() && d.axis() == axis_of(first))
            .unwrap_or(Direction::Up);
        let constraints = self.slab_constraints(model, step, positive);
        let mut angles = settle_slabs(model, &constraints, &drivers)?;
        for outer in [0, 2] {
            if (angles[outer] - angles[1]).rem_euclid(4) != 0 && slips() {
                angles[outer] = angles[1];
            }
        }
        let mut cube = self.cube;
        let axis = vector(positive);
        for (slab, &angle) in angles.iter().enumerate() {
            let depth = 1 - slab as i8;
            let quarters = angle.rem_euclid(4) as u8;
            if quarters != 0 {
                let turn = quarter_turn(positive.home_face(), |p| dot(axis, p) == depth);
                cube = moved(&cube, &turn.power(quarters));
            }
        }
        Ok(cube)
    }

    /// For each slab along `positive` (index 0 = positive end, 1 = middle, 2 = negative end),
    /// the angle each gripper touching it imposes, about `positive`.
    fn slab_constraints(
        &self,
        model: &RobotModel,
        step: &MachineStep,
        positive: Direction,
    ) -> [Vec<Constraint>; 3] {
        let axis = vector(positive);
        let mut slabs: [Vec<Constraint>; 3] = Default::default();
        for (g, gripper) in model.grippers.iter().enumerate() {
            let jaw_moving = step.grippers[g].jaw != JawMove::Still;
            if !self.grips(model, g) && !jaw_moving {
                continue;
            }
            let angle = if jaw_moving {
                0
            } else {
                step.grippers[g].turn * i32::from(dot(vector(gripper.at), axis))
            };
            let mut touched = [false; 3];
            for p in gripped_cubies(gripper.grip, gripper.at) {
                touched[(1 - dot(axis, p)) as usize] = true;
            }
            for slab in (0..3).filter(|&s| touched[s]) {
                slabs[slab].push(Constraint {
                    angle,
                    gripper: g,
                    jaw_moving,
                });
            }
        }
        slabs
    }

    /// The cube face each direction's centre shows (robot frame).
    pub fn face_at(&self, dir: Direction) -> Face {
        self.cube.stickers[dir.index() * 9 + 4]
    }
}

fn check_limits(
    model: &RobotModel,
    machine: &Machine,
    step: &MachineStep,
) -> Result<(), Impossible> {
    for (g, gripper) in model.grippers.iter().enumerate() {
        let target = machine.rotations[g] + step.grippers[g].turn;
        if let Reach::Limited { min, max } = gripper.reach {
            if !(i32::from(min)..=i32::from(max)).contains(&target) {
                return Err(Impossible {
                    culprit: Culprit::Rotation(g),
                    limit: true,
                    cause: format!(
                        "'{}' would turn to {target:+} quarter turns, outside its range {min}..={max}",
                        gripper.name
                    ),
                });
            }
        }
    }
    for (f, &flips) in step.flips.iter().enumerate() {
        if !(0..=1).contains(&flips) {
            return Err(Impossible {
                culprit: Culprit::Flipper(f),
                limit: true,
                cause: format!(
                    "'{}' tips the cube once per step, forwards only ({flips} asked)",
                    model.flippers[f].name
                ),
            });
        }
    }
    Ok(())
}

fn check_jaws_still_while_turning(
    model: &RobotModel,
    step: &MachineStep,
) -> Result<(), Impossible> {
    match step
        .grippers
        .iter()
        .position(|m| m.jaw != JawMove::Still && m.turn != 0)
    {
        Some(g) => Err(stall(
            Culprit::Jaw(g),
            format!(
                "the jaw of '{}' would open or close while its gripper turns, on a layer between positions",
                model.grippers[g].name
            ),
        )),
        None => Ok(()),
    }
}

/// The angle of each slab: what its grippers impose, or for a free slab what its neighbours
/// carry it to. Refuses a slab driven two ways, a jaw on a moving slab, a free slab torn
/// between two slabs turning differently, and a whole cube dragged round by one slab whose
/// gripper may not carry it.
fn settle_slabs(
    model: &RobotModel,
    slabs: &[Vec<Constraint>; 3],
    drivers: &[usize],
) -> Result<[i32; 3], Impossible> {
    let name = |g: usize| model.grippers[g].name.as_str();
    let mut imposed: [Option<Constraint>; 3] = [None; 3];
    // A jaw opening or closing holds nothing: it only must not meet a moving slab.
    for (slab, constraints) in slabs.iter().enumerate() {
        for &c in constraints.iter().filter(|c| !c.jaw_moving) {
            let Some(old) = imposed[slab] else {
                imposed[slab] = Some(c);
                continue;
            };
            if old.angle == c.angle {
                continue;
            }
            let (mover, other) = if old.angle != 0 { (old, c) } else { (c, old) };
            return Err(conflict(model, mover, other));
        }
    }
    let angle = |s: usize| imposed[s].map(|c| c.angle);
    let middle = match (angle(0), angle(1), angle(2)) {
        (_, Some(m), _) => m,
        (Some(a), None, Some(b)) if a == b => a,
        (Some(a), None, Some(b)) if a == 0 || b == 0 => 0,
        (Some(a), None, Some(b)) => {
            let (top, bottom) = (
                imposed[0].map_or(0, |c| c.gripper),
                imposed[2].map_or(0, |c| c.gripper),
            );
            return Err(stall(
                Culprit::Rotation(bottom),
                format!(
                    "'{}' and '{}' turn the two outer layers in different senses ({a:+} and {b:+} quarter turns about one axis) and nothing holds the middle layer: the cube would be twisted apart",
                    name(top),
                    name(bottom)
                ),
            ));
        }
        (Some(a), None, None) | (None, None, Some(a)) => a,
        (None, None, None) => 0,
    };
    let outer = |s: usize| angle(s).unwrap_or(middle);
    let angles = [outer(0), middle, outer(2)];
    let outer_free = angle(0).is_none() || angle(2).is_none();
    let whole = angles[0] != 0 && angles.iter().all(|&a| a == angles[0]);
    let carried = drivers.iter().any(|&g| model.grippers[g].carries_cube);
    if whole && outer_free && !carried {
        let g = drivers[0];
        return Err(stall(
            Culprit::Rotation(g),
            format!(
                "'{}' turns, but nothing holds the rest of the cube and the design does not let it carry the cube round",
                name(g)
            ),
        ));
    }
    for (slab, constraints) in slabs.iter().enumerate() {
        if let Some(jaw) = constraints
            .iter()
            .find(|c| c.jaw_moving && angles[slab] != 0)
        {
            let mover = imposed.iter().flatten().find(|c| c.angle != 0).copied();
            return Err(conflict(model, mover.unwrap_or(*jaw), *jaw));
        }
    }
    Ok(angles)
}

fn conflict(model: &RobotModel, mover: Constraint, other: Constraint) -> Impossible {
    let name = |g: usize| model.grippers[g].name.as_str();
    if other.jaw_moving {
        return stall(
            Culprit::Jaw(other.gripper),
            format!(
                "the jaw of '{}' would open or close on a layer that '{}' turns",
                name(other.gripper),
                name(mover.gripper)
            ),
        );
    }
    if other.angle == 0 {
        return stall(
            Culprit::Rotation(mover.gripper),
            format!(
                "'{}' cannot turn: '{}' holds part of the layers it turns",
                name(mover.gripper),
                name(other.gripper)
            ),
        );
    }
    stall(
        Culprit::Rotation(other.gripper),
        format!(
            "'{}' and '{}' drive the same layer in different senses ({:+} and {:+} quarter turns)",
            name(mover.gripper),
            name(other.gripper),
            mover.angle,
            other.angle
        ),
    )
}

mod home;

#[cfg(test)]
mod tests;
