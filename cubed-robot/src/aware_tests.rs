//! Tests of robot-aware solving on the small solver tables: plans replay to solved on every shipped design, never slower than the naive baseline; orientations map back.

use super::candidates::{collect, first_solution, Seen};
use super::tests::{planners, small_solver, DESIGNS};
use super::*;
use cubed_core::cube::random::random_cube;
use cubed_core::cube::{CubieCube, Turn};
use cubed_core::solver::Flow;
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::time::Duration;

fn quick() -> AwareOptions {
    AwareOptions {
        budget: cubed_core::solver::Budget::Time(Duration::from_millis(2)),
        full_plans: 1,
        ..AwareOptions::default()
    }
}

fn check_replays_to_solved(
    planner: &Planner,
    cube: &CubieCube,
    plan: &Plan,
) -> Result<(), TestCaseError> {
    let name = &planner.model.name;
    let result = replay(
        &planner.model,
        plan.start,
        &cube.to_facelets(),
        &plan.program,
    )
    .map_err(|e| TestCaseError::fail(format!("{name}: {e}")))?;
    prop_assert!(result.end.cube_frame().is_solved(), "{name}: not solved");
    prop_assert_eq!(result.total_ms, plan.total_ms, "{}", name);
    Ok(())
}

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(200)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn robot_aware_plans_replay_to_solved_and_never_lose_to_naive(seed in any::<u64>()) {
        let cube = random_cube(&mut ChaCha8Rng::seed_from_u64(seed));
        let solver = small_solver();
        for planner in planners() {
            let start = planner.home();
            let aware = solve_for_robot(planner, &solver, &start, &cube, &quick()).unwrap();
            check_replays_to_solved(planner, &cube, &aware.plan)?;
            let naive = solve_naive(planner, &solver, &start, &cube).unwrap();
            check_replays_to_solved(planner, &cube, &naive)?;
            prop_assert!(aware.plan.total_ms <= naive.total_ms,
                "{}: robot-aware {} naive {}", planner.model.name, aware.plan.total_ms, naive.total_ms);
        }
    }
}

fn solves(cube: &CubieCube, solution: &[Turn]) -> bool {
    solution.iter().fold(*cube, |c, &t| c.turn(t)).is_solved()
}

#[test]
fn a_solution_of_the_cube_seen_in_any_orientation_maps_back() {
    let cube = random_cube(&mut ChaCha8Rng::seed_from_u64(3));
    let solver = small_solver();
    for orientation in Orientation::all() {
        let seen = Seen::new(&cube, orientation).unwrap();
        let solution = solver.solve(&seen.cube, Duration::from_millis(5)).unwrap();
        assert!(solves(&seen.cube, &solution));
        assert!(solves(&cube, &seen.map_back(&solution)), "{orientation:?}");
    }
}

#[test]
fn collected_candidates_are_distinct_solutions() {
    let cube = random_cube(&mut ChaCha8Rng::seed_from_u64(4));
    let mut all: Vec<Vec<Turn>> = Vec::new();
    // A generous budget, cut short by the callback: no timing dependence under load.
    let opts = AwareOptions {
        budget: cubed_core::solver::Budget::Time(Duration::from_secs(20)),
        ..AwareOptions::default()
    };
    let count = collect(&small_solver(), &cube, &opts, |s| {
        all.push(s);
        if all.len() == 4 {
            Flow::Stop
        } else {
            Flow::Continue
        }
    })
    .unwrap();
    assert_eq!(count, all.len());
    assert_eq!(all.len(), 4, "several candidates expected");
    assert!(all.iter().all(|s| solves(&cube, s)));
    let mut unique = all.clone();
    unique.sort_by_key(|s| s.iter().map(|t| t.index()).collect::<Vec<_>>());
    unique.dedup();
    assert_eq!(unique.len(), all.len());
}

#[test]
fn the_naive_baseline_is_the_solvers_first_solution_planned_turn_by_turn() {
    let cube = random_cube(&mut ChaCha8Rng::seed_from_u64(5));
    let solver = small_solver();
    let first = first_solution(&solver, &cube).unwrap();
    assert!(solves(&cube, &first));
    for (planner, design) in planners().iter().zip(DESIGNS) {
        let start = planner.home();
        let naive = solve_naive(planner, &solver, &start, &cube).unwrap();
        let expected = planner.plan_naive(&start, &first).unwrap();
        assert_eq!(naive, expected, "{design}");
    }
}

#[test]
fn the_estimate_is_close_to_the_planned_time() {
    let planner = &planners()[0];
    let cube = random_cube(&mut ChaCha8Rng::seed_from_u64(6));
    let solution = first_solution(&small_solver(), &cube).unwrap();
    let estimate = planner.estimate(&planner.home(), &solution).unwrap();
    let planned = planner.plan(&planner.home(), &solution).unwrap().total_ms;
    let naive = planner
        .plan_naive(&planner.home(), &solution)
        .unwrap()
        .total_ms;
    assert!(estimate <= naive, "estimate {estimate} naive {naive}");
    assert!(
        estimate * 10 <= planned * 13,
        "estimate {estimate} planned {planned}"
    );
}

#[test]
fn threads_share_the_directions_and_a_counted_budget_chooses_the_same_every_time() {
    let opts = AwareOptions {
        budget: cubed_core::solver::Budget::Nodes(20_000),
        threads: 2,
        full_plans: 2,
        ..AwareOptions::default()
    };
    use super::candidates::{thread_shares, Share};
    let all = cubed_core::solver::ALL_DIRECTIONS;
    let masks: Vec<u8> = thread_shares(&opts, false)
        .into_iter()
        .map(|s| match s {
            Share::FaceTurns(m) => m,
            Share::Axial(_) => panic!("no axial search without its tables"),
        })
        .collect();
    assert_eq!(masks.iter().fold(0, |a, m| a | m), all);
    assert_eq!(masks.iter().map(|m| m.count_ones()).sum::<u32>(), 6);
    for threads in 1..=6 {
        let shares = thread_shares(
            &AwareOptions {
                threads,
                ..opts.clone()
            },
            true,
        );
        assert_eq!(shares.len(), threads);
        let (mut axial, mut face) = (0u8, 0u8);
        for share in &shares {
            match share {
                Share::Axial(m) => axial |= m,
                Share::FaceTurns(m) => face |= m,
            }
        }
        assert_eq!(
            axial, all,
            "{threads} threads: the axial search covers every direction"
        );
        let expected_face = if threads == 1 { 0 } else { all };
        assert_eq!(face, expected_face, "{threads} threads");
    }
    let cube = random_cube(&mut ChaCha8Rng::seed_from_u64(7));
    let solver = small_solver();
    for planner in planners() {
        let start = planner.home();
        let once = solve_for_robot(planner, &solver, &start, &cube, &opts).unwrap();
        let again = solve_for_robot(planner, &solver, &start, &cube, &opts).unwrap();
        assert_eq!(once.plan, again.plan, "{}", planner.model.name);
        let result = replay(
            &planner.model,
            start,
            &cube.to_facelets(),
            &once.plan.program,
        )
        .expect("the program replays");
        assert!(result.end.cube_frame().is_solved());
    }
}
