//! Tests of the robot module against the shipped designs: physics rules, planning, replay.

use super::*;
use crate::cube::{parse_moves, FaceletCube, Move, Notation, Turn};

pub(crate) fn shipped(name: &str) -> RobotModel {
    let path = format!("{}/config/robots/{name}.toml", env!("CARGO_MANIFEST_DIR"));
    load_robot(std::path::Path::new(&path)).unwrap()
}

fn turns(s: &str) -> Vec<Turn> {
    parse_moves(s, Notation::Singmaster)
        .unwrap()
        .into_iter()
        .filter_map(|m| match m {
            Move::Turn(t) => Some(t),
            Move::Rotate(_) => None,
        })
        .collect()
}

#[test]
fn plans_and_replays_a_few_moves_on_every_design() {
    for name in ["four-arm", "turntable-flipper", "six-motor"] {
        let t0 = std::time::Instant::now();
        let planner = Planner::new(shipped(name));
        eprintln!(
            "{name}: {} states, {} edges, built in {:?}",
            planner.graph.states.len(),
            planner.graph.edge_count(),
            t0.elapsed()
        );
        let solution = turns("R U F' D2 L B' R2 U'");
        let t0 = std::time::Instant::now();
        let plan = planner.plan(&planner.home(), &solution).unwrap();
        let naive = planner.plan_naive(&planner.home(), &solution).unwrap();
        eprintln!(
            "{name}: planned {} ms ({} steps, {} expanded) in {:?}; naive {} ms",
            plan.total_ms,
            plan.program.steps.len(),
            plan.expanded,
            t0.elapsed(),
            naive.total_ms
        );
        eprint!("{}", plan.program.to_text(&planner.model));
        let moves: Vec<Move> = solution.iter().map(|&t| Move::Turn(t)).collect();
        let expected = FaceletCube::default().apply_all(&moves);
        let result = replay(
            &planner.model,
            planner.home(),
            &FaceletCube::default(),
            &plan.program,
        )
        .unwrap();
        assert_eq!(result.end.cube_frame(), expected);
        assert_eq!(result.total_ms, plan.total_ms);
    }
}

#[test]
#[ignore]
fn compare_exact_and_capped() {
    use crate::cube::random::random_cube;
    use rand::SeedableRng;
    let mut planner = Planner::new(shipped("four-arm"));
    eprintln!(
        "bounds: cheapest turn {} axis change {}",
        planner.bounds.cheapest_turn, planner.bounds.axis_change
    );
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    for _ in 0..5 {
        let scramble = crate::cube::random::random_scramble(&mut rng, 20, false);
        let solution: Vec<Turn> = scramble
            .iter()
            .rev()
            .filter_map(|m| match m.inverse() {
                Move::Turn(t) => Some(t),
                _ => None,
            })
            .collect();
        let _ = random_cube(&mut rng);
        for cap in [100, 400, 2000, usize::MAX] {
            planner.per_layer = cap;
            let t0 = std::time::Instant::now();
            let plan = planner.plan(&planner.home(), &solution).unwrap();
            eprintln!(
                "cap {cap}: {} ms, {} expanded, {:?}",
                plan.total_ms,
                plan.expanded,
                t0.elapsed()
            );
        }
        let naive = planner.plan_naive(&planner.home(), &solution).unwrap();
        eprintln!("naive {} ms", naive.total_ms);
    }
}
