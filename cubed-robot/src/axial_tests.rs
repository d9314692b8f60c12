//! Tests of the axial search priced for a design: prices against the design file's own turn times, which designs get it, and its programs replayed to solved by the simulator's rules.

use super::tests::{planners, shipped, small_solver};
use super::*;
use cubed_core::cube::random::random_cube;
use cubed_core::solver::axial::{AxialMove, AxialTables, N_AXIAL};
use cubed_core::solver::Budget;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

fn axial_tables() -> &'static Arc<AxialTables> {
    static T: OnceLock<Arc<AxialTables>> = OnceLock::new();
    T.get_or_init(|| Arc::new(AxialTables::build()))
}

/// The gripper at the face's home direction, as the design file describes it.
fn gripper_at(model: &RobotModel, index: usize) -> &super::model::Gripper {
    let at = Direction::ALL[index];
    (model.grippers.iter())
        .find(|g| g.at == at)
        .expect("six-motor has a motor on every face")
}

#[test]
fn six_motor_blocks_cost_their_dearer_motor_as_the_design_file_says() {
    let model = shipped("six-motor");
    let prices = axial_prices(&Planner::new(model.clone()))
        .expect("plans")
        .expect("six-motor's blocks leave the robot as it was");
    for k in 0..N_AXIAL {
        let by_hand = AxialMove::from_index(k)
            .turns()
            .map(|t| {
                let signed = if t.quarters == 3 {
                    -1
                } else {
                    t.quarters as i8
                };
                gripper_at(&model, t.face.index()).turn_ms(signed)
            })
            .max()
            .expect("a block turns a face");
        assert_eq!(
            prices.price[k] as u32,
            by_hand,
            "{:?}",
            AxialMove::from_index(k)
        );
    }
}

#[test]
fn only_designs_whose_blocks_end_where_they_began_are_priced() {
    for planner in planners() {
        let priced = axial_prices(planner).expect("plans").is_some();
        assert_eq!(
            priced,
            planner.model.name == "six-motor",
            "{}",
            planner.model.name
        );
        let with = planner.clone().with_axial(axial_tables()).expect("plans");
        assert_eq!(with.axial().is_some(), priced, "{}", planner.model.name);
    }
}

#[test]
fn axial_programs_replay_to_solved_and_never_lose_to_naive() {
    let planner = Planner::new(shipped("six-motor"))
        .with_axial(axial_tables())
        .expect("plans");
    let solver = small_solver();
    let opts = AwareOptions {
        budget: Budget::Time(Duration::from_millis(20)),
        ..AwareOptions::default()
    };
    let mut rng = ChaCha8Rng::seed_from_u64(54);
    for _ in 0..5 {
        let cube = random_cube(&mut rng);
        let start = planner.home();
        let aware = solve_for_robot(&planner, &solver, &start, &cube, &opts).expect("solves");
        let replayed = replay(
            &planner.model,
            start,
            &cube.to_facelets(),
            &aware.plan.program,
        )
        .expect("the simulator's rules accept every step");
        assert!(replayed.end.cube_frame().is_solved());
        assert_eq!(replayed.total_ms, aware.plan.total_ms);
        let naive = solve_naive(&planner, &solver, &start, &cube).expect("solves");
        assert!(aware.plan.total_ms <= naive.total_ms);
    }
}
