//! Unit tests of the physics rules on the four-arm design, exactly as the issue states them.

use super::physics::{Act, Motions};
use super::tests::shipped;
use super::*;
use cubed_core::cube::{Axis, Face, FaceletCube, Move, Rotation, Turn};

fn step(model: &RobotModel, actions: &[(&str, Act)]) -> Motions {
    let mut m = Motions::default();
    for (name, act) in actions {
        m.acts[model.gripper_index(name).unwrap()] = *act;
    }
    m
}

fn run(model: &RobotModel, steps: &[Motions]) -> Result<PhysicsState, Violation> {
    let mut physics = PhysicsState::new(model.home(), &FaceletCube::default());
    for m in steps {
        physics.apply_step(model, &m.to_step())?;
    }
    Ok(physics)
}

fn open_front_back(model: &RobotModel) -> Motions {
    step(model, &[("front", Act::Open), ("back", Act::Open)])
}

#[test]
fn right_plus_one_with_left_closed_is_r() {
    let model = shipped("four-arm");
    let end = run(
        &model,
        &[
            open_front_back(&model),
            step(&model, &[("right", Act::Turn(1))]),
        ],
    )
    .unwrap();
    let r = FaceletCube::default().apply(Move::Turn(Turn {
        face: Face::R,
        quarters: 1,
    }));
    assert_eq!(end.cube, r);
}

#[test]
fn opposite_grippers_turning_together_rotate_the_cube() {
    let model = shipped("four-arm");
    let x = run(
        &model,
        &[
            open_front_back(&model),
            step(&model, &[("right", Act::Turn(1)), ("left", Act::Turn(-1))]),
        ],
    )
    .unwrap();
    assert_eq!(
        x.cube,
        FaceletCube::default().apply(Move::Rotate(Rotation {
            axis: Axis::X,
            quarters: 1
        }))
    );
    let open_sides = step(&model, &[("left", Act::Open), ("right", Act::Open)]);
    let z = run(
        &model,
        &[
            open_sides,
            step(&model, &[("front", Act::Turn(1)), ("back", Act::Turn(-1))]),
        ],
    )
    .unwrap();
    assert_eq!(
        z.cube,
        FaceletCube::default().apply(Move::Rotate(Rotation {
            axis: Axis::Z,
            quarters: 1
        }))
    );
    assert_eq!(
        z.robot.orientation,
        Orientation::HOME.rotated(Direction::Front, 1)
    );
}

#[test]
fn a_closed_perpendicular_gripper_jams_the_turn() {
    let model = shipped("four-arm");
    let err = run(&model, &[step(&model, &[("right", Act::Turn(1))])]).unwrap_err();
    assert!(matches!(err, Violation::Jammed { .. }), "{err:?}");
}

#[test]
fn opposite_gripper_turning_another_way_leaves_the_middle_free() {
    let model = shipped("four-arm");
    let err = run(
        &model,
        &[
            open_front_back(&model),
            step(&model, &[("right", Act::Turn(1)), ("left", Act::Turn(1))]),
        ],
    )
    .unwrap_err();
    assert!(matches!(err, Violation::MiddleNotHeld { .. }), "{err:?}");
}

#[test]
fn a_jaw_opens_only_if_the_cube_stays_supported() {
    let model = shipped("four-arm");
    let err = run(
        &model,
        &[
            open_front_back(&model),
            step(&model, &[("left", Act::Open)]),
        ],
    )
    .unwrap_err();
    assert_eq!(err, Violation::Unsupported);
}

#[test]
fn angles_stay_within_range_and_open_grippers_turn_freely() {
    let model = shipped("four-arm");
    let turn_front = step(&model, &[("front", Act::Turn(1))]);
    let end = run(&model, &[open_front_back(&model), turn_front, turn_front]);
    assert!(matches!(end, Err(Violation::OutOfReach { .. })), "{end:?}");
    let ok = run(
        &model,
        &[
            open_front_back(&model),
            turn_front,
            step(&model, &[("front", Act::Turn(-2))]),
        ],
    )
    .unwrap();
    assert_eq!(ok.cube, FaceletCube::default());
}

#[test]
fn replay_names_the_first_illegal_step() {
    let model = shipped("four-arm");
    let program = Program {
        steps: vec![
            open_front_back(&model).to_step(),
            step(&model, &[("left", Act::Open)]).to_step(),
        ],
    };
    let err = replay(&model, model.home(), &FaceletCube::default(), &program).unwrap_err();
    assert_eq!(err.step, 1);
    assert_eq!(err.at_ms, 100);
    assert!(
        err.to_string().contains("open left") && err.reason.contains("fall"),
        "{err}"
    );
}

#[test]
fn camera_reads_the_top_face_as_in_the_net() {
    let model = shipped("four-arm");
    assert_eq!(
        crate::replay::view(&model, Orientation::HOME, 0),
        (Face::U, 0)
    );
    let z = Orientation::HOME.rotated(Direction::Front, -1);
    assert_eq!(crate::replay::view(&model, z, 0), (Face::R, 3));
}

#[test]
fn opposite_half_turns_compare_signed_never_modulo_four() {
    let model = shipped("four-arm");
    let close_front_back = step(&model, &[("front", Act::Close), ("back", Act::Close)]);
    // Right and left both at -1 (each counted from its own face), both closed, front/back open.
    let both_at_minus_one = [
        open_front_back(&model),
        step(&model, &[("right", Act::Turn(-1)), ("left", Act::Turn(1))]),
        close_front_back,
        step(&model, &[("left", Act::Open)]),
        step(&model, &[("left", Act::Turn(-2))]),
        step(&model, &[("left", Act::Close)]),
        open_front_back(&model),
    ];
    run(&model, &both_at_minus_one).expect("a legal route");
    let mut torn = both_at_minus_one.to_vec();
    torn.push(step(
        &model,
        &[("right", Act::Turn(2)), ("left", Act::Turn(2))],
    ));
    assert!(
        matches!(run(&model, &torn), Err(Violation::MiddleNotHeld { .. })),
        "+2 and +2 seen from each face turn opposite ways about the axis"
    );
}

#[test]
fn opposite_grippers_out_of_step_may_not_turn_the_cube_between_them() {
    let mut slow_left = shipped("four-arm");
    let left = slow_left.gripper_index("left").unwrap();
    slow_left.grippers[left].quarter_ms *= 2;
    let rotate_x = [
        open_front_back(&slow_left),
        step(
            &slow_left,
            &[("right", Act::Turn(1)), ("left", Act::Turn(-1))],
        ),
    ];
    assert!(
        matches!(run(&slow_left, &rotate_x), Err(Violation::OutOfStep { .. })),
        "the right layer would turn ahead of the middle one"
    );
    // Either alone still turns its face; the other pair still turns the cube.
    run(&slow_left, &rotate_x[..1]).expect("open");
    let r = [
        open_front_back(&slow_left),
        step(&slow_left, &[("right", Act::Turn(1))]),
    ];
    run(&slow_left, &r).expect("R alone");
    let z = [
        step(&slow_left, &[("left", Act::Open), ("right", Act::Open)]),
        step(
            &slow_left,
            &[("front", Act::Turn(1)), ("back", Act::Turn(-1))],
        ),
    ];
    assert!(run(&slow_left, &z).is_ok(), "front and back are in step");
    // The same drive but a different microstep count is not in step either.
    let mut fine_left = shipped("four-arm");
    let drive = fine_left.grippers[left].drive.as_mut().expect("a drive");
    drive.microsteps *= 2;
    assert!(matches!(
        run(&fine_left, &rotate_x),
        Err(Violation::OutOfStep { .. })
    ));
}
