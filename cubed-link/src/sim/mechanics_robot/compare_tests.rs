//! Property tests: the planner's rules (`robot::physics`) and the simulator's machine
//! (`sim::rigid` behind the firmware's actuators) judge the same random programs, legal and
//! illegal, on the three shipped designs. Where they disagree one of them is wrong.

use crate::robot::actuators::{ActuatorMap, MotionGroup};
use crate::robot::model::Reach;
use crate::robot::program::{Action, Program, Step};
use crate::robot::{PhysicsState, RobotModel};
use crate::sim::mechanics_robot::PhysicsMechanics;
use cubed_core::cube::FaceletCube;
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::robot::SHIPPED_DESIGNS as DESIGNS;

fn design(name: &str) -> RobotModel {
    crate::robot::shipped_design(name).expect("the shipped design loads")
}

/// A random step from `state`: each gripper idle, toggling its jaw or turning ±1/±2, and
/// sometimes a flip. Never empty; many are illegal.
fn random_step(model: &RobotModel, state: &PhysicsState, rng: &mut ChaCha8Rng) -> Step {
    loop {
        let mut actions = Vec::new();
        for (g, gripper) in model.grippers.iter().enumerate() {
            let roll: u32 = rng.random_range(0..100);
            if roll < 15 && gripper.has_jaw {
                actions.push(if state.robot.is_closed(g) {
                    Action::Open(g)
                } else {
                    Action::Close(g)
                });
            } else if roll >= 70 {
                let quarters = [-2, -1, 1, 2][rng.random_range(0..4usize)];
                actions.push(Action::Turn {
                    gripper: g,
                    quarters,
                });
            }
        }
        if !model.flippers.is_empty() && rng.random_range(0..10u32) == 0 {
            actions.push(Action::Flip(rng.random_range(0..model.flippers.len())));
        }
        if !actions.is_empty() {
            return Step { actions };
        }
    }
}

/// A step the planner's rules accept, found by trying random ones (None if none turned up).
fn planner_legal_step(
    model: &RobotModel,
    state: &PhysicsState,
    rng: &mut ChaCha8Rng,
) -> Option<Step> {
    (0..200).find_map(|_| {
        let step = random_step(model, state, rng);
        state.clone().apply_step(model, &step).ok().map(|_| step)
    })
}

/// Runs `step` on the simulated machine through the firmware encoding; Err says why not.
fn machine_runs(mechanics: &mut PhysicsMechanics, step: &Step) -> Result<(), String> {
    let program = Program {
        steps: vec![step.clone()],
    };
    let encoded = (mechanics.map)
        .encode_from(&program, &mechanics.positions(), 1)
        .map_err(|e| format!("cannot be encoded: {e}"))?;
    let mut before = mechanics.clone();
    for (_, group) in encoded.groups {
        if let MotionGroup::Motion(motion) = group {
            if let Err(fault) = before.run(&motion) {
                return Err(format!("{:?}: {}", fault.fault, fault.reason));
            }
        }
    }
    *mechanics = before;
    Ok(())
}

/// Steps a random program on both models; returns the first disagreement, in words.
fn first_disagreement(name: &str, seed: u64, steps: usize) -> Option<String> {
    let model = design(name);
    let map = ActuatorMap::new(&model).expect("the design fits the protocol");
    let cube = FaceletCube::default();
    let mut planner = PhysicsState::new(model.home(), &cube);
    let mut machine = PhysicsMechanics::new(model.clone(), map, &cube);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for i in 0..steps {
        let step = match rng.random_range(0..2u32) {
            0 => planner_legal_step(&model, &planner, &mut rng),
            _ => None,
        }
        .unwrap_or_else(|| random_step(&model, &planner, &mut rng));
        let by_planner = planner.apply_step(&model, &step).map(|_| ());
        let by_machine = machine_runs(&mut machine, &step);
        let words = || {
            let actions: Vec<String> = step.actions.iter().map(|a| a.describe(&model)).collect();
            format!("{name} seed {seed} step {i} ({})", actions.join(", "))
        };
        match (&by_planner, &by_machine) {
            (Ok(()), Err(why)) => {
                return Some(format!("{}: planner allows, machine: {why}", words()))
            }
            (Err(v), Ok(())) => {
                return Some(format!(
                    "{}: machine allows, planner: {}",
                    words(),
                    v.explain(&model)
                ))
            }
            (Err(_), Err(_)) => {}
            (Ok(()), Ok(())) => {
                if let Some(diff) = state_difference(&model, &planner, &machine) {
                    return Some(format!("{}: both allow, but {diff}", words()));
                }
            }
        }
    }
    None
}

/// How the two models' robots differ after the same legal steps, if they do.
fn state_difference(
    model: &RobotModel,
    planner: &PhysicsState,
    machine: &PhysicsMechanics,
) -> Option<String> {
    if planner.cube != machine.machine.cube {
        return Some("the cubes differ".into());
    }
    for (g, gripper) in model.grippers.iter().enumerate() {
        if gripper.has_jaw && planner.robot.is_closed(g) != machine.machine.closed[g] {
            return Some(format!("jaw of '{}' differs", gripper.name));
        }
        let limited = matches!(gripper.reach, Reach::Limited { .. });
        if limited && i32::from(planner.robot.angles[g]) != machine.machine.rotations[g] {
            return Some(format!("angle of '{}' differs", gripper.name));
        }
    }
    None
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn rigid_machine_and_planner_rules_agree_on_random_programs(seed in any::<u64>()) {
        for name in DESIGNS {
            let found = first_disagreement(name, seed, 60);
            prop_assert!(found.is_none(), "{}", found.unwrap_or_default());
        }
    }
}

#[test]
fn rigid_machine_runs_the_four_arm_plan_of_r_l2_f2() {
    // `cubed plan --robot four-arm --moves "R L2 F2"` once planned a step that twists the cube.
    let model = design("four-arm");
    let planner = crate::robot::Planner::new(model.clone());
    let moves = cubed_core::cube::parse_moves("R L2 F2", cubed_core::cube::Notation::Singmaster)
        .expect("moves parse");
    let turns: Vec<cubed_core::cube::Turn> = moves
        .into_iter()
        .filter_map(|m| match m {
            cubed_core::cube::Move::Turn(t) => Some(t),
            cubed_core::cube::Move::Rotate(_) => None,
        })
        .collect();
    let plan = planner.plan(&planner.home(), &turns).expect("plans");
    let map = ActuatorMap::new(&model).expect("fits");
    let mut machine = PhysicsMechanics::new(model, map, &FaceletCube::default());
    for (i, step) in plan.program.steps.iter().enumerate() {
        if let Err(why) = machine_runs(&mut machine, step) {
            panic!("step {} is impossible: {why}", i + 1);
        }
    }
    let expected = turns.iter().fold(FaceletCube::default(), |c, &t| {
        c.apply(cubed_core::cube::Move::Turn(t))
    });
    assert_eq!(machine.cube_frame(), expected);
}
