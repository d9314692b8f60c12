//! 2x2 plans judged by the simulator's own machine on the three shipped designs: every
//! robot-aware and naive plan of a random 2x2 runs with no refused step and ends solved, and
//! the corners end where the 2x2's own sticker model puts them; a broken plan is refused or
//! ends unsolved.

use super::*;
use cubed::cube::{Move, Turn};
use cubed::pocket::{random_pocket, Metric, PocketFacelets, PocketSolver, PocketTables};
use cubed::robot::pocket_plan::{pocket_naive, solve_pocket_for_robot, PocketAwareOptions};
use cubed::robot::Planner;
use cubed::robot::Step;
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::{Arc, OnceLock};

/// The shipped designs that can hold a 2x2 (six-motor grips centre caps, which a 2x2 lacks).
const DESIGNS: [&str; 2] = ["four-arm", "turntable-flipper"];

fn solver() -> &'static PocketSolver {
    static SOLVER: OnceLock<PocketSolver> = OnceLock::new();
    SOLVER.get_or_init(|| PocketSolver::new(Arc::new(PocketTables::build())))
}

fn planner(name: &str) -> Planner {
    Planner::new(cubed::robot::shipped_design(name).expect("the shipped design loads"))
}

fn quick() -> PocketAwareOptions {
    PocketAwareOptions {
        budget: cubed::solver::Budget::Time(std::time::Duration::from_millis(60)),
        ..PocketAwareOptions::default()
    }
}

/// Runs `plan` on the machine from a homed robot holding `facelets`; panics with the refusal.
fn machine_end(
    planner: &Planner,
    program: &Program,
    facelets: &PocketFacelets,
    what: &str,
) -> MachineRun {
    match run_on_machine(planner.model(), program, &facelets.to_3x3()) {
        Ok(run) => run,
        Err(e) => panic!("{what}: {}", describe(&e)),
    }
}

fn turns_as_moves(turns: &[Turn]) -> Vec<Move> {
    turns.iter().map(|&t| Move::Turn(t)).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    #[test]
    fn every_2x2_plan_ends_solved_on_the_machine_of_every_design(seed in any::<u64>()) {
        let facelets = random_pocket(&mut ChaCha8Rng::seed_from_u64(seed)).to_facelets();
        for name in DESIGNS {
            let planner = planner(name);
            let home = planner.home();
            let aware = solve_pocket_for_robot(&planner, solver(), &home, &facelets, &quick())
                .expect("plans");
            let naive = pocket_naive(&planner, solver(), &home, &facelets, Metric::Htm)
                .expect("plans");
            for (kind, plan) in [("aware", &aware), ("naive", &naive)] {
                let what = format!("{name} {kind} {facelets}");
                let run = machine_end(&planner, &plan.program, &facelets, &what);
                let corners = PocketFacelets::from_3x3(&run.robot_frame);
                prop_assert!(corners.is_solved(), "{what}: ends {corners}");
                // Second witness: the 2x2's own sticker model, turn by turn.
                let expected = facelets.apply_all(&turns_as_moves(&plan.solution));
                prop_assert_eq!(PocketFacelets::from_3x3(&run.cube_frame), expected, "{}", what);
            }
        }
    }
}

#[test]
fn a_plan_for_another_cube_ends_unsolved_on_the_machine() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let planned = random_pocket(&mut rng).to_facelets();
    let held = random_pocket(&mut rng).to_facelets();
    for name in DESIGNS {
        let planner = planner(name);
        let plan = pocket_naive(&planner, solver(), &planner.home(), &planned, Metric::Htm)
            .expect("plans");
        let run = machine_end(&planner, &plan.program, &held, name);
        assert!(
            !PocketFacelets::from_3x3(&run.robot_frame).is_solved(),
            "{name}"
        );
    }
}

#[test]
fn the_machine_refuses_a_2x2_plan_with_a_turn_doubled_while_the_other_half_is_held() {
    let facelets = random_pocket(&mut ChaCha8Rng::seed_from_u64(9)).to_facelets();
    let planner = planner("four-arm");
    let plan =
        pocket_naive(&planner, solver(), &planner.home(), &facelets, Metric::Htm).expect("plans");
    // Every gripper of the four-arm robot turns one quarter at most from home: repeating a
    // turning step drives a gripper past its range, or a perpendicular grip jams it.
    let turning = (plan.program.steps.iter())
        .position(|s: &Step| {
            s.actions
                .iter()
                .any(|a| matches!(a, cubed::robot::Action::Turn { .. }))
        })
        .expect("a turning step");
    let mut broken = plan.program.clone();
    let again = broken.steps[turning].clone();
    broken.steps.insert(turning, again);
    let refused = run_on_machine(planner.model(), &broken, &facelets.to_3x3());
    assert!(
        matches!(
            refused,
            Err(MachineReplayError::Refused { .. }) | Err(MachineReplayError::Encode(_))
        ),
        "{refused:?}"
    );
}
