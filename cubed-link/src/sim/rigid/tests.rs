//! Unit tests of the rigid-body machine on hand-worked cases, checked against the cube
//! module's own move tables (a separately written witness), never against `robot::physics`.

use super::*;
use cubed_core::cube::{Axis, Move, Rotation, Turn};

fn design(name: &str) -> RobotModel {
    crate::robot::shipped_design(name).expect("the shipped design loads")
}

const LEFT: usize = 0;
const RIGHT: usize = 1;
const FRONT: usize = 2;
const BACK: usize = 3;

fn step(model: &RobotModel, moves: &[(usize, JawMove, i32)]) -> MachineStep {
    let mut s = MachineStep {
        grippers: vec![GripperMove::default(); model.grippers.len()],
        flips: vec![0; model.flippers.len()],
    };
    for &(g, jaw, turn) in moves {
        s.grippers[g] = GripperMove { jaw, turn };
    }
    s
}

fn never_slips() -> impl FnMut() -> bool {
    || false
}

fn solved() -> FaceletCube {
    FaceletCube::default()
}

#[test]
fn rigid_right_gripper_turns_the_r_face_while_left_holds() {
    let model = design("four-arm");
    let mut m = Machine::homed(&model, solved());
    let open_fb = step(
        &model,
        &[(FRONT, JawMove::Opening, 0), (BACK, JawMove::Opening, 0)],
    );
    m.perform(&model, &open_fb, &mut never_slips())
        .expect("opens");
    m.perform(
        &model,
        &step(&model, &[(RIGHT, JawMove::Still, 1)]),
        &mut never_slips(),
    )
    .expect("a face turn");
    let r = Turn {
        face: Face::R,
        quarters: 1,
    };
    assert_eq!(m.cube, solved().apply(Move::Turn(r)));
}

#[test]
fn rigid_left_gripper_clockwise_from_the_left_is_an_l_turn() {
    let model = design("four-arm");
    let mut m = Machine::homed(&model, solved());
    m.closed[FRONT] = false;
    m.closed[BACK] = false;
    m.perform(
        &model,
        &step(&model, &[(LEFT, JawMove::Still, -1)]),
        &mut never_slips(),
    )
    .expect("a face turn");
    let l_prime = Turn {
        face: Face::L,
        quarters: 3,
    };
    assert_eq!(m.cube, solved().apply(Move::Turn(l_prime)));
}

#[test]
fn rigid_opposite_half_turns_in_the_same_sense_seen_from_each_face_twist_the_cube() {
    let model = design("four-arm");
    let mut m = Machine::homed(&model, solved());
    m.closed[FRONT] = false;
    m.closed[BACK] = false;
    m.rotations[LEFT] = -1;
    m.rotations[RIGHT] = -1;
    let before = m.clone();
    let twist = step(
        &model,
        &[(LEFT, JawMove::Still, 2), (RIGHT, JawMove::Still, 2)],
    );
    let err = m
        .perform(&model, &twist, &mut never_slips())
        .expect_err("torn apart");
    assert!(err.cause.contains("twisted apart"), "{}", err.cause);
    assert_eq!(m, before, "nothing moved");
}

#[test]
fn rigid_opposite_half_turns_in_sync_rotate_the_whole_cube() {
    let model = design("four-arm");
    let mut m = Machine::homed(&model, solved());
    m.closed[FRONT] = false;
    m.closed[BACK] = false;
    m.rotations[LEFT] = -1;
    m.rotations[RIGHT] = 1;
    let sync = step(
        &model,
        &[(LEFT, JawMove::Still, 2), (RIGHT, JawMove::Still, -2)],
    );
    m.perform(&model, &sync, &mut never_slips())
        .expect("a rotation");
    let x2 = Rotation {
        axis: Axis::X,
        quarters: 2,
    };
    assert_eq!(m.cube, solved().apply(Move::Rotate(x2)));
}

#[test]
fn rigid_a_closed_crossing_gripper_jams_a_turn() {
    let model = design("four-arm");
    let mut m = Machine::homed(&model, solved());
    let err = m
        .perform(
            &model,
            &step(&model, &[(RIGHT, JawMove::Still, 1)]),
            &mut never_slips(),
        )
        .expect_err("front holds the right layer");
    assert_eq!(err.culprit, Culprit::Rotation(RIGHT));
}

#[test]
fn rigid_a_jaw_never_closes_on_a_turning_layer() {
    let model = design("four-arm");
    let mut m = Machine::homed(&model, solved());
    m.closed[FRONT] = false;
    m.closed[BACK] = false;
    let s = step(
        &model,
        &[(RIGHT, JawMove::Still, 1), (FRONT, JawMove::Closing, 0)],
    );
    let err = m
        .perform(&model, &s, &mut never_slips())
        .expect_err("jaw on a moving layer");
    assert_eq!(err.culprit, Culprit::Jaw(FRONT));
}

#[test]
fn rigid_opening_both_pairs_drops_the_cube() {
    let model = design("four-arm");
    let mut m = Machine::homed(&model, solved());
    let s = step(
        &model,
        &[(LEFT, JawMove::Opening, 0), (FRONT, JawMove::Opening, 0)],
    );
    let err = m
        .perform(&model, &s, &mut never_slips())
        .expect_err("falls");
    assert!(err.cause.contains("drop the cube"), "{}", err.cause);
}

#[test]
fn rigid_limited_gripper_stops_at_its_range() {
    let model = design("four-arm");
    let mut m = Machine::homed(&model, solved());
    m.closed[LEFT] = false;
    let err = m
        .perform(
            &model,
            &step(&model, &[(LEFT, JawMove::Still, 2)]),
            &mut never_slips(),
        )
        .expect_err("beyond +1");
    assert!(err.limit);
    assert_eq!(err.culprit, Culprit::Rotation(LEFT));
}

#[test]
fn rigid_turntable_carries_the_cube_with_the_holder_open_and_turns_d_with_it_closed() {
    let model = design("turntable-flipper");
    let mut m = Machine::homed(&model, solved());
    m.perform(
        &model,
        &step(&model, &[(0, JawMove::Still, 1)]),
        &mut never_slips(),
    )
    .expect("holder closed: the bottom layer turns");
    let d = Turn {
        face: Face::D,
        quarters: 1,
    };
    assert_eq!(m.cube, solved().apply(Move::Turn(d)));
    m.perform(
        &model,
        &step(&model, &[(1, JawMove::Opening, 0)]),
        &mut never_slips(),
    )
    .expect("holder opens");
    m.perform(
        &model,
        &step(&model, &[(0, JawMove::Still, 1)]),
        &mut never_slips(),
    )
    .expect("the turntable carries the cube round");
    // Clockwise from below is y' seen from above.
    let y3 = Rotation {
        axis: Axis::Y,
        quarters: 3,
    };
    assert_eq!(
        m.cube,
        solved().apply(Move::Turn(d)).apply(Move::Rotate(y3))
    );
}

#[test]
fn rigid_flipper_tips_the_back_face_up_only_with_the_holder_clear() {
    let model = design("turntable-flipper");
    let mut m = Machine::homed(&model, solved());
    let mut flip = step(&model, &[]);
    flip.flips[0] = 1;
    let err = m
        .perform(&model, &flip, &mut never_slips())
        .expect_err("holder closed");
    assert_eq!(err.culprit, Culprit::Flipper(0));
    m.closed[1] = false;
    m.perform(&model, &flip, &mut never_slips()).expect("flips");
    assert_eq!(m.face_at(Direction::Up), Face::B);
    assert_eq!(m.face_at(Direction::Front), Face::U);
}

#[test]
fn rigid_flipper_never_tips_a_cube_a_closed_jaw_clamps_whatever_the_design_lists() {
    let mut model = design("turntable-flipper");
    model.flippers[0].needs_open.clear();
    let mut m = Machine::homed(&model, solved());
    let mut flip = step(&model, &[]);
    flip.flips[0] = 1;
    let err = m
        .perform(&model, &flip, &mut never_slips())
        .expect_err("the holder's jaw is closed");
    assert_eq!(err.culprit, Culprit::Flipper(0));
    assert!(err.cause.contains("'holder' holds it"), "{}", err.cause);
    assert_eq!(m.cube, solved(), "nothing moved");
}

#[test]
fn rigid_continuous_motors_off_their_marks_search_alone_and_leave_their_faces() {
    let model = design("six-motor");
    let mut m = Machine::homed(&model, solved());
    let turn = |m: &mut Machine, g: usize| {
        m.perform(
            &model,
            &step(&model, &[(g, JawMove::Still, 1)]),
            &mut never_slips(),
        )
        .expect("the face turns")
    };
    turn(&mut m, 0);
    turn(&mut m, 2);
    assert_ne!(m.cube, solved());
    let err = m
        .home(&model)
        .expect_err("U and F cannot turn back together");
    assert!(matches!(err.culprit, Culprit::Rotation(_)), "{err:?}");
    assert!(err.cause.contains("crossing axes"), "{}", err.cause);
    let only = |g: usize| HomeParts {
        rotations: (0..6).map(|i| i == g).collect(),
        jaws: vec![false; 6],
        flippers: vec![],
    };
    let turned = m.cube;
    m.home_parts(&model, &only(2)).expect("F searches alone");
    m.home_parts(&model, &only(0)).expect("U searches alone");
    assert_eq!(m.rotations, vec![0; 6]);
    assert_eq!(m.cube, turned, "each face found its mark and came back");
}

#[test]
fn rigid_gripper_with_a_jaw_holding_the_cube_off_its_mark_cannot_home() {
    let model = design("four-arm");
    let mut m = Machine::homed(&model, solved());
    m.closed[2] = false;
    m.closed[3] = false;
    m.perform(
        &model,
        &step(&model, &[(0, JawMove::Still, 1)]),
        &mut never_slips(),
    )
    .expect("L turns while right holds");
    let before = m.clone();
    let err = m
        .home(&model)
        .expect_err("left holds the cube off its mark");
    assert_eq!(err.culprit, Culprit::Rotation(0));
    assert!(err.cause.contains("'left'"), "{}", err.cause);
    assert_eq!(m, before, "nothing moved");
}

#[test]
fn rigid_a_slipping_layer_stays_while_its_motor_turns() {
    let model = design("six-motor");
    let mut m = Machine::homed(&model, solved());
    m.perform(
        &model,
        &step(&model, &[(0, JawMove::Still, 1)]),
        &mut || true,
    )
    .expect("U motor turns");
    assert_eq!(m.cube, solved());
    assert_eq!(m.rotations[0], 1);
}

#[test]
fn rigid_own_frame_undoes_whole_cube_rotations_only() {
    let r = Turn {
        face: Face::R,
        quarters: 1,
    };
    let turned = solved().apply(Move::Turn(r));
    let rotated = turned.apply(Move::Rotate(Rotation {
        axis: Axis::Z,
        quarters: 1,
    }));
    assert_eq!(own_frame(&rotated), turned);
    assert_eq!(placed_like(&turned, &rotated), rotated);
}

#[test]
fn rigid_camera_view_matches_the_planners_view_in_all_24_orientations() {
    // Two separately written projections (this one reads the centres) must agree.
    let model = design("six-motor");
    for orientation in crate::robot::Orientation::all() {
        let mut start = model.home();
        start.orientation = orientation;
        let cube = crate::robot::PhysicsState::new(start, &solved()).cube;
        for (c, camera) in model.cameras.iter().enumerate() {
            assert_eq!(
                camera_view(&cube, camera.at, camera.image_top),
                crate::robot::view(&model, orientation, c),
                "{orientation:?}, camera {}",
                camera.name
            );
        }
    }
}
