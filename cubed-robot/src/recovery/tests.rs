//! Unit tests of the recovery plan's shape on the shipped designs and a design that cannot
//! recover by itself. Whether a plan is physically possible is judged elsewhere, by the
//! simulator's own machine (`sim::recovery_witness_tests`).

use super::*;
use crate::tests::shipped;

fn homes(plan: &RecoveryPlan, map: &ActuatorMap) -> u16 {
    (plan.encode(map, 1).expect("encodes").iter())
        .filter_map(|g| match *g {
            MotionGroup::Home { mask, .. } => Some(mask),
            _ => None,
        })
        .fold(0, |all, mask| all | mask)
}

#[test]
fn four_arm_with_lost_positions_rehomes_one_pair_while_the_other_holds() {
    let model = shipped("four-arm");
    let plan = plan_recovery(&model, &RecoveryInput::all_lost(&model)).expect("plans");
    let lr = 0b0011;
    let fb = 0b1100;
    let expected = vec![
        RecoveryStep::Home {
            jaws: 0b1111,
            rotations: 0,
            flippers: 0,
        },
        RecoveryStep::Open { grippers: lr },
        RecoveryStep::Home {
            jaws: lr,
            rotations: lr,
            flippers: 0,
        },
        RecoveryStep::Open { grippers: fb },
        RecoveryStep::Home {
            jaws: fb,
            rotations: fb,
            flippers: 0,
        },
    ];
    assert_eq!(plan.steps, expected, "{:?}", plan.describe(&model));
}

#[test]
fn every_plan_homes_every_actuator() {
    for name in ["four-arm", "turntable-flipper", "six-motor"] {
        let model = shipped(name);
        let map = ActuatorMap::new(&model).expect("fits");
        for input in [
            RecoveryInput::all_lost(&model),
            RecoveryInput::from_positions(&map, &model, &vec![0; map.roles.len()]),
            RecoveryInput {
                cube_held: false,
                ..RecoveryInput::all_lost(&model)
            },
        ] {
            let plan = plan_recovery(&model, &input).expect("plans");
            assert_eq!(homes(&plan, &map), map.home_mask(), "{name}: {input:?}");
        }
    }
}

#[test]
fn known_home_positions_need_no_jaw_to_open() {
    let model = shipped("four-arm");
    let map = ActuatorMap::new(&model).expect("fits");
    let input = RecoveryInput::from_positions(&map, &model, &[1, 0, 1, 0, 0, 0, 1, 0]);
    let plan = plan_recovery(&model, &input).expect("plans");
    assert!(
        !(plan.steps.iter()).any(|s| matches!(s, RecoveryStep::Open { .. })),
        "{:?}",
        plan.describe(&model)
    );
    let one_off = RecoveryInput::from_positions(&map, &model, &[1, 0, 1, 1, 0, 0, 1, 0]);
    let plan = plan_recovery(&model, &one_off).expect("plans");
    let opened: Vec<u16> = (plan.steps.iter())
        .filter_map(|s| match s {
            RecoveryStep::Open { grippers } => Some(*grippers),
            _ => None,
        })
        .collect();
    assert_eq!(opened, vec![0b0010], "only 'right' (off its mark) opens");
}

/// The turntable-flipper's holder never turns: re-homing neither opens it to turn it back
/// nor says it turns; the flipper homes, the holder closes, the turntable squares its layer.
#[test]
fn a_gripper_that_never_turns_is_neither_opened_nor_turned_home() {
    let model = shipped("turntable-flipper");
    let plan = plan_recovery(&model, &RecoveryInput::all_lost(&model)).expect("plans");
    let words = plan.describe(&model);
    assert!(
        !(plan.steps.iter()).any(|s| matches!(s, RecoveryStep::Open { .. })),
        "{words:?}"
    );
    assert!(
        !words.iter().any(|w| w.contains("turn 'holder'")),
        "{words:?}"
    );
    assert_eq!(
        words,
        [
            "home 'flipper', then close 'holder'",
            "turn 'turntable' back to home"
        ],
    );
}

#[test]
fn jawless_motors_off_their_mark_are_homed_one_at_a_time() {
    let model = shipped("six-motor");
    let plan = plan_recovery(&model, &RecoveryInput::all_lost(&model)).expect("plans");
    assert_eq!(plan.steps.len(), 6, "{:?}", plan.describe(&model));
    for step in &plan.steps {
        let RecoveryStep::Home { rotations, .. } = step else {
            panic!("six-motor never opens: {step:?}");
        };
        assert_eq!(rotations.count_ones(), 1);
    }
}

#[test]
fn a_continuous_motor_a_whole_turn_away_is_on_its_mark() {
    let model = shipped("six-motor");
    let map = ActuatorMap::new(&model).expect("fits");
    // Whole turns away (and none): all on their marks, homed together in one step.
    let input = RecoveryInput::from_positions(&map, &model, &[8, 4, 0, -4, 12, 16]);
    let plan = plan_recovery(&model, &input).expect("plans");
    let all = RecoveryStep::Home {
        jaws: 0,
        rotations: 0b11_1111,
        flippers: 0,
    };
    assert_eq!(plan.steps, [all], "{:?}", plan.describe(&model));
    // A quarter past its mark: that motor is homed alone first.
    let input = RecoveryInput::from_positions(&map, &model, &[9, 4, 0, -4, 12, 16]);
    let plan = plan_recovery(&model, &input).expect("plans");
    assert_eq!(plan.steps.len(), 2, "{:?}", plan.describe(&model));
}

#[test]
fn a_design_that_needs_every_gripper_to_hold_cannot_reopen_and_says_which() {
    let mut model = shipped("four-arm");
    model.support = vec![0b1111];
    let err = plan_recovery(&model, &RecoveryInput::all_lost(&model)).expect_err("no support");
    let words = err.to_string();
    assert!(
        ["'left'", "'right'", "'front'", "'back'"]
            .iter()
            .all(|n| words.contains(n)),
        "{words}"
    );
}

#[test]
fn what_the_host_knows_is_said_in_words_naming_the_grippers() {
    let model = shipped("four-arm");
    let names: Vec<String> = model
        .grippers
        .iter()
        .map(|g| format!("'{}'", g.name))
        .collect();
    let mut input = RecoveryInput::all_lost(&model);
    assert_eq!(
        input.describe(&model),
        "every gripper's rotation lost; a cube may be held"
    );
    input.rotations = vec![Some(0); model.grippers.len()];
    input.rotations[1] = None;
    input.cube_held = false;
    let said = input.describe(&model);
    assert_eq!(
        said,
        format!("the rotation of {} lost; no cube held", names[1])
    );
    assert!(!said.contains('?'), "{said}");
}
