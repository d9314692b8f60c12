//! Tests of the robot module on the shipped designs: plan → replay → solved (property tests), scans, blocks and robot-aware choice.

use super::blocks::{axis_blocks, block_turns};
use super::*;
use cubed_core::cube::random::random_scramble;
use cubed_core::cube::{parse_moves, FaceletCube, Move, Notation, Turn};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::OnceLock;
use std::time::Duration;

pub(crate) use crate::SHIPPED_DESIGNS as DESIGNS;

pub(crate) fn shipped(name: &str) -> RobotModel {
    crate::shipped_design(name).expect("the shipped design loads")
}

/// A solver on the small tables (built once per test binary).
pub(crate) fn small_solver() -> cubed_core::solver::Solver {
    use cubed_core::solver::{Solver, Tables};
    static TABLES: OnceLock<std::sync::Arc<Tables>> = OnceLock::new();
    Solver::new(
        TABLES
            .get_or_init(|| std::sync::Arc::new(Tables::small()))
            .clone(),
    )
}

pub(crate) fn planners() -> &'static Vec<Planner> {
    static PLANNERS: OnceLock<Vec<Planner>> = OnceLock::new();
    PLANNERS.get_or_init(|| DESIGNS.iter().map(|d| Planner::new(shipped(d))).collect())
}

fn turns(s: &str) -> Vec<Turn> {
    parse_moves(s, Notation::Singmaster)
        .unwrap()
        .into_iter()
        .filter_map(as_turn)
        .collect()
}

fn as_turn(m: Move) -> Option<Turn> {
    match m {
        Move::Turn(t) => Some(t),
        Move::Rotate(_) => None,
    }
}

fn as_moves(turns: &[Turn]) -> Vec<Move> {
    turns.iter().map(|&t| Move::Turn(t)).collect()
}

/// A random cube (as a scramble from solved) and a solution of it (the scramble undone).
fn scrambled(seed: u64, length: usize) -> (FaceletCube, Vec<Turn>) {
    let scramble = random_scramble(&mut ChaCha8Rng::seed_from_u64(seed), length, false);
    let cube = FaceletCube::default().apply_all(&scramble);
    let solution = scramble
        .iter()
        .rev()
        .filter_map(|m| as_turn(m.inverse()))
        .collect();
    (cube, solution)
}

fn check_plan_solves(
    planner: &Planner,
    cube: &FaceletCube,
    plan: &Plan,
) -> Result<(), TestCaseError> {
    let result = replay(&planner.model, plan.start, cube, &plan.program)
        .map_err(|e| TestCaseError::fail(format!("{}: {e}", planner.model.name)))?;
    prop_assert!(
        result.end.cube_frame().is_solved(),
        "{}: not solved",
        planner.model.name
    );
    prop_assert_eq!(result.total_ms, plan.total_ms);
    prop_assert_eq!(result.end.robot, plan.end);
    prop_assert_eq!(
        Orientation::of_centres(&result.end.cube),
        Some(plan.end.orientation)
    );
    prop_assert_eq!(result.turns.len(), plan.face_turns);
    Ok(())
}

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(48)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn plan_then_replay_solves_random_cubes_on_every_design(seed in any::<u64>(), length in 0usize..24) {
        let (cube, solution) = scrambled(seed, length);
        for planner in planners() {
            let plan = planner.plan(&planner.home(), &solution).unwrap();
            check_plan_solves(planner, &cube, &plan)?;
            let naive = planner.plan_naive(&planner.home(), &solution).unwrap();
            check_plan_solves(planner, &cube, &naive)?;
            prop_assert!(plan.total_ms <= naive.total_ms + 300, "{}: planned {} naive {}", planner.model.name, plan.total_ms, naive.total_ms);
        }
    }

    #[test]
    fn plans_chain_from_where_the_last_one_ended(seed in any::<u64>()) {
        let (cube, solution) = scrambled(seed, 12);
        let (first, second) = solution.split_at(6);
        for planner in planners() {
            let a = planner.plan(&planner.home(), first).unwrap();
            let b = planner.plan(&a.end, second).unwrap();
            let middle = replay(&planner.model, a.start, &cube, &a.program).unwrap().end.cube_frame();
            check_plan_solves(planner, &middle, &b)?;
        }
    }
}

#[test]
fn replayed_facelets_equal_the_solution_applied() {
    let solution = turns("R U F' D2 L B' R2 U' F2 L'");
    for planner in planners() {
        let plan = planner.plan(&planner.home(), &solution).unwrap();
        let result = replay(
            &planner.model,
            planner.home(),
            &FaceletCube::default(),
            &plan.program,
        )
        .unwrap();
        assert_eq!(
            result.end.cube_frame(),
            FaceletCube::default().apply_all(&as_moves(&solution)),
            "{}",
            planner.model.name
        );
        assert_eq!(result.turns.len(), 10);
    }
}

#[test]
fn scan_plans_show_every_face_once_and_leave_the_cube_alone() {
    for planner in planners() {
        let scan = planner.plan_scan(&planner.home()).unwrap();
        let (cube, _) = scrambled(7, 20);
        let result = replay(&planner.model, planner.home(), &cube, &scan.program).unwrap();
        let mut faces: Vec<_> = result.captures.iter().map(|c| c.1).collect();
        faces.sort();
        assert_eq!(
            faces,
            cubed_core::cube::Face::ALL.to_vec(),
            "{}",
            planner.model.name
        );
        assert_eq!(result.captures, scan.photos);
        assert_eq!(result.end.cube_frame(), cube);
        assert_eq!(result.total_ms, scan.total_ms);
    }
}

#[test]
fn axis_blocks_merge_same_face_and_drop_cancelled_turns() {
    let blocks = axis_blocks(&turns("R L R U U' D F2 F2 B"));
    let back: Vec<String> = block_turns(&blocks)
        .iter()
        .map(|t| format!("{}{}", t.face, t.quarters))
        .collect();
    assert_eq!(back, ["R2", "L1", "D1", "B1"]);
    assert!(axis_blocks(&turns("R R'")).is_empty());
}

#[test]
fn six_motor_turns_opposite_faces_in_one_step() {
    let planner = &planners()[2];
    let plan = planner.plan(&planner.home(), &turns("R L'")).unwrap();
    assert_eq!(plan.program.steps.len(), 1);
    assert_eq!(plan.face_turns, 2);
}

#[test]
fn robot_aware_choice_keeps_the_cheapest_program() {
    let planner = &planners()[0];
    let candidates = vec![turns("U D U2"), turns("R L R2")];
    let choice = planner
        .choose(&planner.home(), candidates, Some(Duration::from_secs(5)))
        .unwrap()
        .unwrap();
    assert_eq!(
        choice.index, 1,
        "R/L turns need no regrip on the four-arm robot"
    );
    assert_eq!(choice.planned, 2);
    assert!(planner
        .choose(
            &planner.home(),
            Vec::<Vec<Turn>>::new(),
            Some(Duration::ZERO)
        )
        .unwrap()
        .is_none());
}

#[test]
fn an_unknown_start_state_is_refused() {
    let planner = &planners()[0];
    let mut start = planner.home();
    start.angles[0] = 4;
    assert!(matches!(
        planner.plan(&start, &turns("R")),
        Err(PlanError::UnknownStart { .. })
    ));
}

/// The beam (`per_layer`) is a heuristic: on short solutions, where exact A*
/// is quick, it must stay within 2 % of the exact search on the four-arm design.
#[test]
fn capped_search_stays_close_to_exact_search() {
    let mut planner = Planner::new(shipped("four-arm"));
    let (mut capped, mut exact) = (0, 0);
    for seed in 0..4 {
        let (_, solution) = scrambled(seed, 7);
        planner.per_layer = planner::DEFAULT_PER_LAYER;
        capped += planner.plan(&planner.home(), &solution).unwrap().total_ms;
        planner.per_layer = usize::MAX;
        exact += planner.plan(&planner.home(), &solution).unwrap().total_ms;
    }
    assert!(exact <= capped, "exact {exact} capped {capped}");
    assert!(capped * 100 <= exact * 102, "capped {capped} exact {exact}");
}
