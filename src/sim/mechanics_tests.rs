//! Unit tests of `Home` in both simulated mechanics: rotations and flippers at 0, jaws closed.

use super::{Mechanics, PhysicsMechanics, PositionTracker};
use crate::cube::FaceletCube;
use crate::robot::actuators::{ActuatorMap, MotionGroup};
use crate::robot::program::{Action, Program, Step};
use crate::robot::{load_robot, RobotModel};
use firmware_protocol::message::{ActuatorConfig, Configure, JawTarget, Motion};

const LEFT: usize = 0;
const RIGHT: usize = 1;
const FRONT: usize = 2;
const BACK: usize = 3;

fn four_arm() -> (RobotModel, ActuatorMap) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("config/robots/four-arm.toml");
    let model = load_robot(&path).expect("the shipped design loads");
    let map = ActuatorMap::new(&model).expect("the design fits the protocol");
    (model, map)
}

/// Runs `steps` from the home pose on `mechanics`.
fn run(mechanics: &mut PhysicsMechanics, steps: Vec<Vec<Action>>) {
    let program = Program {
        steps: steps.into_iter().map(|actions| Step { actions }).collect(),
    };
    let encoded = (mechanics.map)
        .encode_program(&program, &mechanics.model.home(), 2)
        .expect("encodes");
    for (_, group) in encoded.groups {
        if let MotionGroup::Motion(motion) = group {
            mechanics.run(&motion).expect("a legal step");
        }
    }
}

#[test]
fn physics_home_turns_open_grippers_back_and_closes_every_jaw() {
    let (model, map) = four_arm();
    let mut mechanics = PhysicsMechanics::new(model.clone(), map.clone(), &FaceletCube::default());
    run(
        &mut mechanics,
        vec![
            vec![Action::Open(RIGHT)],
            vec![Action::Turn {
                gripper: RIGHT,
                quarters: 1,
            }],
        ],
    );
    assert_ne!(mechanics.positions(), map.positions_at(&model.home()));
    mechanics.home().expect("an open gripper may be homed");
    assert_eq!(mechanics.positions(), map.positions_at(&model.home()));
    assert_eq!(mechanics.physics.robot.closed, model.home().closed);
    assert_eq!(mechanics.physics.robot.angles, model.home().angles);
    assert_eq!(
        mechanics.cube_facelets(),
        FaceletCube::default().to_symbols(&Default::default())
    );
}

#[test]
fn physics_home_refuses_a_gripper_turned_while_holding_the_cube() {
    let (model, map) = four_arm();
    let mut mechanics = PhysicsMechanics::new(model, map, &FaceletCube::default());
    run(
        &mut mechanics,
        vec![
            vec![Action::Open(FRONT), Action::Open(BACK)],
            vec![Action::Turn {
                gripper: LEFT,
                quarters: 1,
            }],
        ],
    );
    let fault = mechanics.home().expect_err("homing would turn the cube");
    assert!(
        fault.reason.contains("turned away from home"),
        "{}",
        fault.reason
    );
}

#[test]
fn position_tracker_home_leaves_jaws_closed_and_the_rest_at_zero() {
    let configure = Configure::new(&[
        ActuatorConfig::Jaw {
            open_ms: 100,
            close_ms: 100,
        },
        ActuatorConfig::Flipper {
            min: 0,
            max: 3,
            step_ms: 100,
        },
    ])
    .expect("two actuators");
    let mut tracker = PositionTracker::new(&configure);
    let motion = Motion::new(
        1,
        &[
            firmware_protocol::message::Action::Jaw {
                actuator: 0,
                target: JawTarget::Open,
            },
            firmware_protocol::message::Action::Flip {
                actuator: 1,
                position: 2,
            },
        ],
    )
    .expect("motion");
    tracker.run(&motion).expect("runs");
    assert_eq!(tracker.positions(), vec![0, 2]);
    tracker.home().expect("homes");
    assert_eq!(tracker.positions(), vec![1, 0]);
}
