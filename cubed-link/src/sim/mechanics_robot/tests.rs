//! Unit tests of the simulated mechanics behind the firmware: `Home` (rotations and flippers at 0, jaws closed), faults naming their motor, time from the motion parameters.

use crate::robot::actuators::{ActuatorMap, MotionGroup, Role};
use crate::robot::program::{Action, Program, Step};
use crate::robot::RobotModel;
use crate::sim::mechanics_robot::PhysicsMechanics;
use cubed_core::cube::FaceletCube;
use firmware_protocol::message::{Fault, Motion};

const LEFT: usize = 0;
const RIGHT: usize = 1;
const FRONT: usize = 2;
const BACK: usize = 3;

fn four_arm() -> (RobotModel, ActuatorMap) {
    let model = crate::robot::shipped_design("four-arm").expect("the shipped design loads");
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
    mechanics
        .home(mechanics.map.home_mask())
        .expect("an open gripper may be homed");
    assert_eq!(mechanics.positions(), map.positions_at(&model.home()));
    assert!(mechanics.machine.closed.iter().all(|&c| c));
    assert!(mechanics.machine.rotations.iter().all(|&r| r == 0));
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
    let fault = mechanics
        .home(mechanics.map.home_mask())
        .expect_err("homing would turn the cube");
    assert!(
        fault.reason.contains("homing would turn the cube"),
        "{}",
        fault.reason
    );
}

#[test]
fn physics_home_of_a_mask_homes_one_pair_while_the_other_holds_the_cube() {
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
    let pair = mechanics.map.mask_of(|role| {
        matches!(
            role,
            Role::Jaw { gripper } | Role::Rotation { gripper } if gripper == FRONT || gripper == BACK
        )
    });
    mechanics
        .home(pair)
        .expect("front and back are open: they may be homed while left and right hold");
    assert!(mechanics.machine.closed[FRONT] && mechanics.machine.closed[BACK]);
    assert_eq!(
        mechanics.machine.rotations[LEFT], 1,
        "left is not in the mask"
    );
    let left = mechanics
        .map
        .mask_of(|role| role == Role::Rotation { gripper: LEFT });
    let fault = mechanics
        .home(left)
        .expect_err("left holds the cube a quarter turn off its mark");
    assert!(
        fault.reason.contains("homing would turn the cube"),
        "{}",
        fault.reason
    );
}

fn design(name: &str) -> (RobotModel, ActuatorMap) {
    let model = crate::robot::shipped_design(name).expect("the shipped design loads");
    let map = ActuatorMap::new(&model).expect("the design fits the protocol");
    (model, map)
}

/// The firmware motion of one robot step from where the mechanics are now.
fn motion_of(mechanics: &PhysicsMechanics, actions: Vec<Action>) -> Motion {
    let program = Program {
        steps: vec![Step { actions }],
    };
    let encoded = (mechanics.map)
        .encode_from(&program, &mechanics.positions(), 1)
        .expect("encodes");
    match encoded.groups.first() {
        Some((_, MotionGroup::Motion(motion))) => *motion,
        other => panic!("one motion expected, got {other:?}"),
    }
}

#[test]
fn physics_fault_names_the_jaw_that_would_drop_the_cube() {
    let (model, map) = four_arm();
    let mut mechanics = PhysicsMechanics::new(model, map.clone(), &FaceletCube::default());
    let opening = motion_of(&mechanics, vec![Action::Open(RIGHT), Action::Open(BACK)]);
    let fault = mechanics.run(&opening).expect_err("the cube would fall");
    let right_jaw = map
        .index_of(crate::robot::actuators::Role::Jaw { gripper: RIGHT })
        .expect("right has a jaw");
    assert_ne!(right_jaw, 0);
    assert_eq!(
        fault.fault,
        Fault::Stall {
            actuator: right_jaw
        }
    );
    assert!(fault.reason.contains("'right'"), "{}", fault.reason);
}

#[test]
fn physics_fault_names_the_motor_that_goes_out_of_range() {
    let (model, map) = four_arm();
    let mut mechanics = PhysicsMechanics::new(model, map.clone(), &FaceletCube::default());
    mechanics
        .run(&motion_of(&mechanics, vec![Action::Open(BACK)]))
        .expect("opens");
    let beyond = Motion::new(
        5,
        &[firmware_protocol::message::Action::Rotate {
            actuator: 7,
            quarter_turns: 2,
        }],
    )
    .expect("motion");
    let fault = mechanics.run(&beyond).expect_err("beyond +1");
    assert_eq!(fault.fault, Fault::Limit { actuator: 7 });
    assert!(fault.reason.contains("'back'"), "{}", fault.reason);
}

#[test]
fn physics_continuous_motor_off_its_mark_leaves_its_face_as_it_was_when_homed() {
    let (model, map) = design("six-motor");
    let mut mechanics = PhysicsMechanics::new(model, map, &FaceletCube::default());
    let turn_up = |mechanics: &PhysicsMechanics| {
        motion_of(
            mechanics,
            vec![Action::Turn {
                gripper: 0,
                quarters: 1,
            }],
        )
    };
    mechanics.run(&turn_up(&mechanics)).expect("U turns");
    assert!(!mechanics.cube_solved());
    let turned = mechanics.cube_frame();
    let ms = mechanics
        .home(mechanics.map.home_mask())
        .expect("the up motor finds its mark and comes back");
    assert!(ms > 0, "the search takes time");
    assert_eq!(mechanics.positions(), vec![0; 6]);
    assert_eq!(mechanics.cube_frame(), turned, "U is as it was");
    for _ in 0..3 {
        mechanics.run(&turn_up(&mechanics)).expect("U turns");
    }
    assert!(mechanics.cube_solved(), "four quarters in all");
    mechanics
        .home(mechanics.map.home_mask())
        .expect("homed again");
    assert_eq!(mechanics.positions(), vec![0; 6]);
    assert!(mechanics.cube_solved());
}

#[test]
fn physics_time_comes_from_the_configured_motion_parameters() {
    let (model, map) = design("turntable-flipper");
    let mut mechanics = PhysicsMechanics::new(model, map, &FaceletCube::default());
    let half = motion_of(
        &mechanics,
        vec![Action::Turn {
            gripper: 0,
            quarters: 2,
        }],
    );
    // turntable.toml: half_ms = 500, open_ms = 150.
    assert_eq!(mechanics.run(&half), Ok(500));
    let open = motion_of(&mechanics, vec![Action::Open(1)]);
    assert_eq!(mechanics.run(&open), Ok(150));
}
