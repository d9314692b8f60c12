//! The planner's recovery plans judged by the simulator's own machine (`sim::rigid`, behind the
//! firmware actuators), never by `robot::physics`: from every pose of a small enumeration and
//! from random programs cut at a random step, on the three shipped designs, with positions
//! known or lost, every command of the plan is possible (the cube never falls, no held block is
//! twisted or torn), a motion moves only homed actuators (PROTOCOL.md, Home), and the robot
//! ends in its home pose with every actuator homed.

use crate::robot::actuators::{ActuatorMap, MotionGroup};
use crate::robot::model::Reach;
use crate::robot::{plan_recovery, Planner, Program, RecoveryInput, RobotModel};
use crate::sim::mechanics_robot::PhysicsMechanics;
use cubed_core::cube::random::random_cube;
use cubed_core::cube::{FaceletCube, Move};
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::robot::SHIPPED_DESIGNS as DESIGNS;

fn design(name: &str) -> RobotModel {
    crate::robot::shipped_design(name).expect("the shipped design loads")
}

fn scrambled(seed: u64) -> FaceletCube {
    random_cube(&mut ChaCha8Rng::seed_from_u64(seed)).to_facelets()
}

/// Runs the recovery plan for `input` on `mechanics`; Err says which command failed and why.
fn recover(mechanics: &mut PhysicsMechanics, input: &RecoveryInput) -> Result<(), String> {
    let model = mechanics.model.clone();
    let plan = plan_recovery(&model, input).map_err(|e| e.to_string())?;
    let groups = (plan.encode(&mechanics.map, 1)).map_err(|e| e.to_string())?;
    let mut homed = 0u16;
    for (i, group) in groups.iter().enumerate() {
        let words = || plan.steps[i].describe(&model);
        match *group {
            MotionGroup::Home { mask, .. } => {
                mechanics
                    .home(mask)
                    .map_err(|f| format!("step {i} ({}): {}", words(), f.reason))?;
                homed |= mask;
            }
            MotionGroup::Motion(motion) => {
                let moved = (motion.actions.iter()).fold(0u16, |m, a| m | 1 << a.actuator());
                if moved & !homed != 0 {
                    return Err(format!("step {i} ({}) moves unhomed actuators", words()));
                }
                mechanics
                    .run(&motion)
                    .map_err(|f| format!("step {i} ({}): {}", words(), f.reason))?;
            }
            MotionGroup::Dwell { .. } => {}
        }
    }
    if homed != mechanics.map.home_mask() {
        return Err(format!("homed {homed:#06x}, not every actuator"));
    }
    let home = mechanics.map.positions_at(&model.home());
    if mechanics.positions() != home {
        return Err(format!(
            "ends at {:?}, not the home pose {home:?}",
            mechanics.positions()
        ));
    }
    Ok(())
}

/// Recovers a copy of `mechanics` with its positions known and with them lost; on a design
/// whose every gripper has a jaw, no face may have turned (only whole-cube turns).
fn check_both(mechanics: &PhysicsMechanics, what: &str) -> Result<(), String> {
    let model = &mechanics.model;
    let known = RecoveryInput::from_positions(&mechanics.map, model, &mechanics.positions());
    for input in [known, RecoveryInput::all_lost(model)] {
        let mut copy = mechanics.clone();
        recover(&mut copy, &input).map_err(|e| format!("{what}, {input:?}: {e}"))?;
        let all_jawed = model.grippers.iter().all(|g| g.has_jaw);
        if all_jawed && copy.cube_frame() != mechanics.cube_frame() {
            return Err(format!("{what}, {input:?}: a face turned while re-homing"));
        }
    }
    Ok(())
}

/// Every combination of jaws (open/closed), rotations (a limited one over its range, a
/// continuous one over 0..=4) and flipper counts (0..=1) that holds the cube up.
fn poses(model: &RobotModel) -> Vec<(Vec<bool>, Vec<i32>, Vec<i32>)> {
    let per_gripper: Vec<Vec<(bool, i32)>> = (model.grippers.iter())
        .map(|g| {
            let angles: Vec<i32> = match g.reach {
                Reach::Limited { min, max } => (i32::from(min)..=i32::from(max)).collect(),
                Reach::Continuous => (0..=4).collect(),
            };
            let jaws: &[bool] = if g.has_jaw { &[true, false] } else { &[true] };
            jaws.iter()
                .flat_map(|&c| angles.iter().map(move |&a| (c, a)))
                .collect()
        })
        .collect();
    let mut out = vec![(Vec::new(), Vec::new())];
    for options in &per_gripper {
        out = (out.iter())
            .flat_map(|(c, a)| {
                options.iter().map(move |&(closed, angle)| {
                    let (mut c, mut a) = (c.clone(), a.clone());
                    c.push(closed);
                    a.push(angle);
                    (c, a)
                })
            })
            .collect();
    }
    let flips = if model.flippers.is_empty() {
        vec![vec![]]
    } else {
        vec![vec![0; model.flippers.len()], vec![1; model.flippers.len()]]
    };
    out.into_iter()
        .filter(|(closed, _)| {
            let held = (closed.iter().enumerate()).fold(0u16, |m, (g, &c)| m | u16::from(c) << g);
            model.supported(held)
        })
        .flat_map(|(c, a)| flips.iter().map(move |f| (c.clone(), a.clone(), f.clone())))
        .collect()
}

#[test]
fn recovery_from_every_enumerated_pose_is_possible_on_the_machine() {
    for name in DESIGNS {
        let model = design(name);
        let map = ActuatorMap::new(&model).expect("fits");
        let all = poses(&model);
        assert!(all.len() > 10, "{name}: {} poses", all.len());
        for (i, (closed, rotations, flips)) in all.into_iter().enumerate() {
            let mut mechanics = PhysicsMechanics::new(model.clone(), map.clone(), &scrambled(7));
            mechanics.machine.closed = closed;
            mechanics.machine.rotations = rotations;
            mechanics.machine.flips = flips;
            let what = format!("{name} pose {i} {:?}", mechanics.positions());
            if let Err(e) = check_both(&mechanics, &what) {
                panic!("{e}");
            }
        }
    }
}

/// A random program of `design`: a planned solution of a short scramble, or a scan.
fn random_program(planner: &Planner, rng: &mut ChaCha8Rng) -> Program {
    let start = planner.home();
    if rng.random_range(0..4u32) == 0 {
        return planner.plan_scan(&start).expect("scans plan").program;
    }
    let turns: Vec<_> = cubed_core::cube::random::random_scramble(rng, 8, false)
        .into_iter()
        .filter_map(|m| match m {
            Move::Turn(t) => Some(t),
            Move::Rotate(_) => None,
        })
        .collect();
    planner.plan(&start, &turns).expect("plans").program
}

/// Runs the first `cut` steps of `program` on the machine (an e-stop or a fault right after).
fn run_until(mechanics: &mut PhysicsMechanics, program: &Program, cut: usize) {
    let head = Program {
        steps: program.steps[..cut].to_vec(),
    };
    let encoded = (mechanics.map)
        .encode_from(&head, &mechanics.positions(), 1)
        .expect("encodes");
    for (step, group) in encoded.groups {
        if let MotionGroup::Motion(motion) = group {
            if let Err(f) = mechanics.run(&motion) {
                panic!("the planned step {step} is impossible: {}", f.reason);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn recovery_after_a_program_cut_at_a_random_step_is_possible(seed in any::<u64>()) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for name in DESIGNS {
            let model = design(name);
            let map = ActuatorMap::new(&model).expect("fits");
            let planner = Planner::new(model.clone());
            let program = random_program(&planner, &mut rng);
            let cut = rng.random_range(0..=program.steps.len());
            let mut mechanics = PhysicsMechanics::new(model, map, &scrambled(seed));
            run_until(&mut mechanics, &program, cut);
            let what = format!("{name} seed {seed}, cut after step {cut} of {}", program.steps.len());
            let checked = check_both(&mechanics, &what);
            prop_assert!(checked.is_ok(), "{}", checked.err().unwrap_or_default());
        }
    }
}
