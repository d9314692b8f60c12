//! Why a step is illegal: the physics rules' verdicts, cheap to produce (indices only) and explained with the model's names.

use super::model::RobotModel;
use cubed_core::cube::Face;

/// The first rule a step breaks. Actuators are named by index into the model.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Violation {
    EmptyStep,
    NoSuchGripper {
        index: usize,
    },
    NoSuchFlipper {
        index: usize,
    },
    NoSuchCamera {
        index: usize,
    },
    RepeatedGripper {
        gripper: usize,
    },
    RepeatedCamera {
        camera: usize,
    },
    TwoFlips,
    NoJaw {
        gripper: usize,
    },
    AlreadyOpen {
        gripper: usize,
    },
    AlreadyClosed {
        gripper: usize,
    },
    OutOfReach {
        gripper: usize,
        angle: i8,
        quarters: i8,
    },
    TwoAxes {
        first: usize,
        second: usize,
    },
    Jammed {
        turning: usize,
        holder: usize,
    },
    MiddleNotHeld {
        first: usize,
        second: usize,
    },
    /// Two grippers turn one block of the cube between them without turning in step.
    OutOfStep {
        first: usize,
        second: usize,
    },
    NothingHolds {
        gripper: usize,
    },
    Unsupported,
    FlipNotAlone {
        flipper: usize,
    },
    FlipBlocked {
        flipper: usize,
        gripper: usize,
    },
    CaptureWithMotion,
    CameraBlocked {
        camera: usize,
        gripper: usize,
    },
    WrongCapture {
        camera: usize,
        face: Face,
        image_rotation: u8,
    },
}

impl Violation {
    /// The rule broken, in words, with the model's names.
    pub fn explain(&self, model: &RobotModel) -> String {
        let g = |i: usize| {
            model
                .grippers
                .get(i)
                .map_or("?".to_string(), |g| format!("gripper '{}'", g.name))
        };
        let f = |i: usize| {
            model
                .flippers
                .get(i)
                .map_or("?".to_string(), |f| format!("flipper '{}'", f.name))
        };
        let c = |i: usize| {
            model
                .cameras
                .get(i)
                .map_or("?".to_string(), |c| format!("camera '{}'", c.name))
        };
        match *self {
            Violation::EmptyStep => "the step has no action".into(),
            Violation::NoSuchGripper { index } => format!("the robot has no gripper number {index}"),
            Violation::NoSuchFlipper { index } => format!("the robot has no flipper number {index}"),
            Violation::NoSuchCamera { index } => format!("the robot has no camera number {index}"),
            Violation::RepeatedGripper { gripper } => format!("{} is given two actions in one step", g(gripper)),
            Violation::RepeatedCamera { camera } => format!("{} captures twice in one step", c(camera)),
            Violation::TwoFlips => "two flips in one step".into(),
            Violation::NoJaw { gripper } => format!("{} has no jaw to open or close", g(gripper)),
            Violation::AlreadyOpen { gripper } => format!("{} is already open", g(gripper)),
            Violation::AlreadyClosed { gripper } => format!("{} is already closed", g(gripper)),
            Violation::OutOfReach { gripper, angle, quarters } => {
                let range = match model.grippers.get(gripper).map(|g| g.reach) {
                    Some(super::model::Reach::Limited { min, max }) => format!("{min}..={max}"),
                    _ => "its range".into(),
                };
                format!(
                    "{} at angle {angle} cannot turn {quarters:+}: angles must stay in {range} and turns be ±1 or ±2",
                    g(gripper)
                )
            }
            Violation::TwoAxes { first, second } => format!(
                "{} and {} turn closed on different axes at once",
                g(first),
                g(second)
            ),
            Violation::Jammed { turning, holder } => format!(
                "{} cannot turn: {} holds part of the block it turns",
                g(turning),
                g(holder)
            ),
            Violation::MiddleNotHeld { first, second } => format!(
                "{} and {} turn different ways and nothing holds the middle layer",
                g(first),
                g(second)
            ),
            Violation::OutOfStep { first, second } => {
                let (a, b) = (model.grippers.get(first), model.grippers.get(second));
                let times = |g: Option<&super::model::Gripper>| g.map_or(String::new(), |g| g.times_in_words());
                let differ = a.zip(b).map_or(String::new(), |(a, b)| a.out_of_step_words(b));
                format!(
                    "{} ({}) and {} ({}) would turn the cube between them, but not in step ({differ}): one would turn its layer ahead of the middle one",
                    g(first),
                    times(a),
                    g(second),
                    times(b)
                )
            }
            Violation::NothingHolds { gripper } => format!(
                "{} turns but nothing holds the rest of the cube (and it may not carry the cube)",
                g(gripper)
            ),
            Violation::Unsupported => "the cube would fall: the grippers left closed support it in none of the design's support sets".into(),
            Violation::FlipNotAlone { flipper } => format!("{} must flip in a step of its own", f(flipper)),
            Violation::FlipBlocked { flipper, gripper } => format!("{} cannot flip while {} is closed", f(flipper), g(gripper)),
            Violation::CaptureWithMotion => "a photo must be taken in a step with no motion".into(),
            Violation::CameraBlocked { camera, gripper } => format!("{} is blocked while {} is closed", c(camera), g(gripper)),
            Violation::WrongCapture { camera, face, image_rotation } => format!(
                "{} sees face {face} with image rotation {image_rotation}, not what the capture records",
                c(camera)
            ),
        }
    }
}
