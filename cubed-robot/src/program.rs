//! Gripper programs: steps of simultaneous actions, their timing, and their JSON and text forms.

use super::direction::Orientation;
use super::model::RobotModel;
use cubed_core::cube::Face;
use serde::{Deserialize, Serialize};
use std::fmt::Write;

/// One actuator command. Grippers, flippers and cameras are named by index into the model.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Action {
    Open(usize),
    Close(usize),
    /// Clockwise quarter turns as seen from the gripper (the sense of the face it holds).
    Turn {
        gripper: usize,
        quarters: i8,
    },
    Flip(usize),
    /// A photo: which cube face the camera sees and how the photo is rotated
    /// (clockwise quarter turns from the face as drawn in the facelet net).
    Capture {
        camera: usize,
        face: Face,
        image_rotation: u8,
    },
}

/// Actions that run at once; the step lasts as long as its slowest action.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Step {
    pub actions: Vec<Action>,
}

/// A sequence of steps.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Program {
    pub steps: Vec<Step>,
}

impl Action {
    /// How long the action takes on this robot.
    pub fn ms(&self, model: &RobotModel) -> u32 {
        let gripper = |g: usize| model.grippers.get(g);
        match *self {
            Action::Open(g) => gripper(g).map_or(0, |g| g.open_ms),
            Action::Close(g) => gripper(g).map_or(0, |g| g.close_ms),
            Action::Turn {
                gripper: g,
                quarters,
            } => gripper(g).map_or(0, |g| g.turn_ms(quarters)),
            Action::Flip(f) => model.flippers.get(f).map_or(0, |f| f.flip_ms),
            Action::Capture { camera, .. } => model.cameras.get(camera).map_or(0, |c| c.capture_ms),
        }
    }

    /// The action in words, e.g. `turn right +1`.
    pub fn describe(&self, model: &RobotModel) -> String {
        let gripper = |g: usize| model.grippers.get(g).map_or("?", |g| g.name.as_str());
        match *self {
            Action::Open(g) => format!("open {}", gripper(g)),
            Action::Close(g) => format!("close {}", gripper(g)),
            Action::Turn {
                gripper: g,
                quarters,
            } => format!("turn {} {quarters:+}", gripper(g)),
            Action::Flip(f) => format!(
                "flip {}",
                model.flippers.get(f).map_or("?", |f| f.name.as_str())
            ),
            Action::Capture {
                camera,
                face,
                image_rotation,
            } => format!(
                "capture {} (face {face}, image rotated {image_rotation})",
                model.cameras.get(camera).map_or("?", |c| c.name.as_str())
            ),
        }
    }
}

impl Step {
    /// How long the step takes: its slowest action.
    pub fn ms(&self, model: &RobotModel) -> u32 {
        self.actions.iter().map(|a| a.ms(model)).max().unwrap_or(0)
    }
}

impl Program {
    /// Total time of the program.
    pub fn total_ms(&self, model: &RobotModel) -> u32 {
        self.steps.iter().map(|s| s.ms(model)).sum()
    }

    /// One readable line per step: `t=0.35s  open front, open back`.
    pub fn to_text(&self, model: &RobotModel) -> String {
        let mut out = String::new();
        let mut at = 0;
        for step in &self.steps {
            let actions: Vec<String> = step.actions.iter().map(|a| a.describe(model)).collect();
            let _ = writeln!(out, "t={:.2}s  {}", at as f64 / 1000.0, actions.join(", "));
            at += step.ms(model);
        }
        out
    }
}

/// The JSON form of one action.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "lowercase", deny_unknown_fields)]
pub enum ActionDoc {
    Open {
        actuator: String,
    },
    Close {
        actuator: String,
    },
    Turn {
        actuator: String,
        quarters: i8,
    },
    Flip {
        actuator: String,
    },
    Capture {
        camera: String,
        face: String,
        image_rotation: u8,
    },
}

/// The JSON form of one step.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StepDoc {
    pub at_ms: u32,
    pub ms: u32,
    pub actions: Vec<ActionDoc>,
}

/// The JSON form of a program with its summary.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProgramDoc {
    pub robot: String,
    pub steps: Vec<StepDoc>,
    pub total_ms: u32,
    pub face_turns: usize,
    pub cube_rotations: usize,
    pub solution: String,
    /// How the cube is held when the program starts: the face up, then the face to the
    /// front (`--start`), with the grippers at home.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub starts_held: Option<String>,
    /// How it is held when the program ends, and after the next program's homing (which
    /// turns no face and not the cube): the next program's `--start`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ends_held: Option<String>,
}

/// A name in a program document that the robot does not have (steps counted from 1, as a
/// person reads the document).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProgramDocError {
    #[error("step {step}: robot '{robot}' has no {kind} called '{name}'")]
    UnknownName {
        step: usize,
        robot: String,
        kind: &'static str,
        name: String,
    },
    #[error("step {step}: '{face}' is not a face (one of U R F D L B)")]
    UnknownFace { step: usize, face: String },
}

impl ActionDoc {
    /// The document form of `action`.
    pub fn of(action: &Action, model: &RobotModel) -> ActionDoc {
        let gripper = |g: usize| {
            model
                .grippers
                .get(g)
                .map_or(String::new(), |g| g.name.clone())
        };
        match *action {
            Action::Open(g) => ActionDoc::Open {
                actuator: gripper(g),
            },
            Action::Close(g) => ActionDoc::Close {
                actuator: gripper(g),
            },
            Action::Turn {
                gripper: g,
                quarters,
            } => ActionDoc::Turn {
                actuator: gripper(g),
                quarters,
            },
            Action::Flip(f) => ActionDoc::Flip {
                actuator: model
                    .flippers
                    .get(f)
                    .map_or(String::new(), |f| f.name.clone()),
            },
            Action::Capture {
                camera,
                face,
                image_rotation,
            } => ActionDoc::Capture {
                camera: model
                    .cameras
                    .get(camera)
                    .map_or(String::new(), |c| c.name.clone()),
                face: face.to_string(),
                image_rotation,
            },
        }
    }

    /// The action this document names, resolved against the model.
    pub fn resolve(&self, model: &RobotModel, step: usize) -> Result<Action, ProgramDocError> {
        let unknown = |kind: &'static str, name: &str| ProgramDocError::UnknownName {
            step,
            robot: model.name.clone(),
            kind,
            name: name.to_string(),
        };
        let gripper = |name: &str| {
            model
                .gripper_index(name)
                .ok_or_else(|| unknown("gripper", name))
        };
        Ok(match self {
            ActionDoc::Open { actuator } => Action::Open(gripper(actuator)?),
            ActionDoc::Close { actuator } => Action::Close(gripper(actuator)?),
            ActionDoc::Turn { actuator, quarters } => Action::Turn {
                gripper: gripper(actuator)?,
                quarters: *quarters,
            },
            ActionDoc::Flip { actuator } => Action::Flip(
                model
                    .flipper_index(actuator)
                    .ok_or_else(|| unknown("flipper", actuator))?,
            ),
            ActionDoc::Capture {
                camera,
                face,
                image_rotation,
            } => Action::Capture {
                camera: model
                    .camera_index(camera)
                    .ok_or_else(|| unknown("camera", camera))?,
                face: single_face(face).ok_or_else(|| ProgramDocError::UnknownFace {
                    step,
                    face: face.clone(),
                })?,
                image_rotation: *image_rotation,
            },
        })
    }
}

fn single_face(text: &str) -> Option<Face> {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Face::from_letter(c),
        _ => None,
    }
}

impl ProgramDoc {
    /// The document form of `program`, with its summary figures.
    pub fn new(
        model: &RobotModel,
        program: &Program,
        face_turns: usize,
        cube_rotations: usize,
        solution: String,
    ) -> ProgramDoc {
        let mut at_ms = 0;
        let steps = program
            .steps
            .iter()
            .map(|step| {
                let ms = step.ms(model);
                let doc = StepDoc {
                    at_ms,
                    ms,
                    actions: step
                        .actions
                        .iter()
                        .map(|a| ActionDoc::of(a, model))
                        .collect(),
                };
                at_ms += ms;
                doc
            })
            .collect();
        ProgramDoc {
            robot: model.name.clone(),
            steps,
            total_ms: at_ms,
            face_turns,
            cube_rotations,
            solution,
            starts_held: None,
            ends_held: None,
        }
    }

    /// The document with how the cube is held at its start and at its end.
    pub fn held(self, start: Orientation, end: Orientation) -> ProgramDoc {
        ProgramDoc {
            starts_held: Some(start.holding()),
            ends_held: Some(end.holding()),
            ..self
        }
    }

    /// The program this document describes, resolved against the model.
    pub fn to_program(&self, model: &RobotModel) -> Result<Program, ProgramDocError> {
        let steps = self
            .steps
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let actions = s
                    .actions
                    .iter()
                    .map(|a| a.resolve(model, i + 1))
                    .collect::<Result<_, _>>()?;
                Ok(Step { actions })
            })
            .collect::<Result<_, _>>()?;
        Ok(Program { steps })
    }
}
