//! Replaying programs: the robot and its cube stepped one step at a time (what the simulator runs), photos checked, and the first illegal step reported.

use super::direction::{rotation_about, Orientation};
use super::model::{RobotModel, RobotState};
use super::physics::{step_motion, CubeMotion, Motions, Violation};
use super::program::{Action, Program, Step};
use cubed_core::cube::{Face, FaceletCube, Move, Turn};

/// What camera `camera` sees in `orientation`: the cube face and the photo's
/// rotation (clockwise quarter turns from the face as drawn in the net).
pub fn view(model: &RobotModel, orientation: Orientation, camera: usize) -> (Face, u8) {
    let cam = &model.cameras[camera];
    let face = orientation.face_at(cam.at);
    let net_top = orientation.direction_of(net_top_neighbour(face));
    let rotation = (0..4)
        .find(|&k| cam.image_top.rotated(cam.at, k) == net_top)
        .unwrap_or(0);
    (face, rotation as u8)
}

/// The face drawn above `face` in the facelet-string net.
pub(crate) fn net_top_neighbour(face: Face) -> Face {
    match face {
        Face::U => Face::B,
        Face::D => Face::F,
        _ => Face::U,
    }
}

/// Checks photos: the view must be clear and the capture must record what the camera sees.
fn check_captures(
    model: &RobotModel,
    state: &RobotState,
    captures: &[Action],
) -> Result<(), Violation> {
    for capture in captures {
        let Action::Capture {
            camera,
            face,
            image_rotation,
        } = *capture
        else {
            continue;
        };
        if let Some(&g) = model.cameras[camera]
            .needs_open
            .iter()
            .find(|&&g| state.is_closed(g))
        {
            return Err(Violation::CameraBlocked { camera, gripper: g });
        }
        if view(model, state.orientation, camera) != (face, image_rotation) {
            return Err(Violation::WrongCapture {
                camera,
                face,
                image_rotation,
            });
        }
    }
    Ok(())
}

/// What a legal step did, in the cube's own frame.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct StepEffect {
    pub ms: u32,
    pub turns: Vec<Turn>,
    pub rotated: bool,
    /// `(camera, face, image_rotation)` of each photo.
    pub captures: Vec<(usize, Face, u8)>,
}

/// The robot and the cube it holds, stepped one step at a time (what the simulator runs).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PhysicsState {
    pub robot: RobotState,
    /// Stickers by robot-frame position (a direction's index stands for its home face).
    pub cube: FaceletCube,
}

impl PhysicsState {
    /// The robot in `start`, holding `cube` (given in the cube's own frame).
    pub fn new(start: RobotState, cube: &FaceletCube) -> PhysicsState {
        let to_robot: Vec<Move> = start
            .orientation
            .rotations_from_home()
            .iter()
            .map(|&r| Move::Rotate(r))
            .collect();
        PhysicsState {
            robot: start,
            cube: cube.apply_all(&to_robot),
        }
    }

    /// The cube in its own frame (centres back at home).
    pub fn cube_frame(&self) -> FaceletCube {
        let back: Vec<Move> = self
            .robot
            .orientation
            .rotations_from_home()
            .iter()
            .rev()
            .map(|r| Move::Rotate(r.inverse()))
            .collect();
        self.cube.apply_all(&back)
    }

    /// Runs one step, or says which rule it breaks (the state is then unchanged).
    pub fn apply_step(&mut self, model: &RobotModel, step: &Step) -> Result<StepEffect, Violation> {
        let (motions, captures) = Motions::of_step(model, step)?;
        if !captures.is_empty() {
            if !motions.is_idle() {
                return Err(Violation::CaptureWithMotion);
            }
            check_captures(model, &self.robot, &captures)?;
            return Ok(StepEffect {
                ms: step.ms(model),
                captures: captures.iter().filter_map(capture_record).collect(),
                ..StepEffect::default()
            });
        }
        let (next, motion) = step_motion(model, &self.robot, &motions)?;
        let turns = self.apply_motion(&motion);
        self.robot = next;
        Ok(StepEffect {
            ms: step.ms(model),
            turns,
            rotated: motion.rotation.is_some(),
            captures: Vec::new(),
        })
    }

    fn apply_motion(&mut self, motion: &CubeMotion) -> Vec<Turn> {
        let mut turns = Vec::new();
        for &(dir, q) in motion.turns.iter().flatten() {
            turns.push(Turn {
                face: self.robot.orientation.face_at(dir),
                quarters: q as u8,
            });
            self.cube = self.cube.apply(Move::Turn(Turn {
                face: dir.home_face(),
                quarters: q as u8,
            }));
        }
        if let Some(rotation) = motion
            .rotation
            .and_then(|(about, q)| rotation_about(about, q))
        {
            self.cube = self.cube.apply(Move::Rotate(rotation));
        }
        turns
    }
}

/// A capture action as the record of a photo: camera, face and the photo's rotation.
pub(crate) fn capture_record(action: &Action) -> Option<(usize, Face, u8)> {
    match *action {
        Action::Capture {
            camera,
            face,
            image_rotation,
        } => Some((camera, face, image_rotation)),
        _ => None,
    }
}

/// The first illegal step of a program and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("step {step} at {at_ms} ms ({action}) is illegal: {reason}")]
pub struct IllegalStep {
    pub step: usize,
    pub at_ms: u32,
    pub action: String,
    pub reason: String,
    pub violation: Violation,
}

/// The outcome of replaying a whole program.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Replay {
    pub end: PhysicsState,
    pub total_ms: u32,
    pub turns: Vec<Turn>,
    pub rotations: usize,
    pub captures: Vec<(usize, Face, u8)>,
}

/// Replays `program` from `start` holding `cube` (cube frame); stops at the first illegal step.
pub fn replay(
    model: &RobotModel,
    start: RobotState,
    cube: &FaceletCube,
    program: &Program,
) -> Result<Replay, IllegalStep> {
    let mut physics = PhysicsState::new(start, cube);
    let mut out = Replay {
        end: physics.clone(),
        total_ms: 0,
        turns: Vec::new(),
        rotations: 0,
        captures: Vec::new(),
    };
    for (i, step) in program.steps.iter().enumerate() {
        let effect = physics
            .apply_step(model, step)
            .map_err(|violation| IllegalStep {
                step: i,
                at_ms: out.total_ms,
                action: step
                    .actions
                    .iter()
                    .map(|a| a.describe(model))
                    .collect::<Vec<_>>()
                    .join(", "),
                reason: violation.explain(model),
                violation,
            })?;
        out.total_ms += effect.ms;
        out.turns.extend(effect.turns);
        out.rotations += effect.rotated as usize;
        out.captures.extend(effect.captures);
    }
    out.end = physics;
    Ok(out)
}
