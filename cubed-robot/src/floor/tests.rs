//! Witnesses of the counting floor: a hand count for six motors, the exact planner on every two-block and random four-block sequences, units found directly against units relabelled, the counting against sequences listed one by one, and four-arm's programs run by the rules on the design with its ranges lifted.

use super::super::blocks::Block;
use super::super::planner::Planner;
use super::super::shipped_design;
use super::count::counted_in_steps;
use super::{
    by_sequence, cheapest_sequences, kept_ends, ranges_lifted, steps_into, Relabel, Unit, POSITIONS,
};
use cubed_core::cube::Face;
use std::collections::HashMap;

fn planner(design: &str) -> Planner {
    Planner::new(shipped_design(design).expect("a shipped design loads"))
}

#[test]
fn six_motor_floor_is_the_hand_count_of_its_blocks() {
    // Six motors turn any block in its dearer face's time: 120 ms a quarter, 200 a half.
    let face = |q: usize| [0, 120, 200, 120][q];
    let mut per_axis: HashMap<u32, f64> = HashMap::new();
    for q in 1..16 {
        *per_axis.entry(face(q / 4).max(face(q % 4))).or_default() += 1.0;
    }
    // Sequences by cost in 40 ms steps: the first block on any of 3 axes, then 2.
    let mut count = vec![0f64; 200];
    let mut ends_last = vec![0f64; 200];
    for (&ms, &n) in &per_axis {
        ends_last[ms as usize / 40] += 3.0 * n;
    }
    count[0] = 1.0;
    for t in 0..200 {
        count[t] += ends_last[t];
        for (&ms, &n) in &per_axis {
            let later = t + ms as usize / 40;
            if later < 200 {
                ends_last[later] += ends_last[t] * 2.0 * n;
            }
        }
    }
    let (mut taken, mut weighted) = (0f64, 0f64);
    for (t, &c) in count.iter().enumerate() {
        let take = c.min(POSITIONS - taken);
        taken += take;
        weighted += take * (t * 40) as f64;
    }
    let floor = planner("six-motor").time_floor(POSITIONS).unwrap();
    assert!(
        (floor.mean_ms - weighted / POSITIONS).abs() < 0.01,
        "{floor:?}"
    );
}

/// The least time of `blocks` (axis, quarters as 0..16) from home by kept units alone.
fn by_units(planner: &Planner, relabel: &mut Relabel, blocks: &[(u8, usize)]) -> u32 {
    let home = planner.start_id(&planner.home()).unwrap();
    let mut reached = HashMap::from([(home, 0u32)]);
    for &(axis, net) in blocks {
        let mut next: HashMap<u32, u32> = HashMap::new();
        for (&state, &cost) in &reached {
            let ends = relabel.kept_ends(state, axis).expect("few ends");
            for (_, end, ms) in ends.into_iter().filter(|e| e.0 == net) {
                let best = next.entry(end).or_insert(u32::MAX);
                *best = (*best).min(cost + ms);
            }
        }
        reached = next;
    }
    reached.into_values().min().unwrap_or(u32::MAX)
}

#[test]
fn kept_units_price_every_two_block_sequence_as_the_exact_planner_does() {
    for design in ["turntable-flipper", "six-motor"] {
        let planner = planner(design);
        let exact = Planner {
            per_layer: usize::MAX,
            ..planner.clone()
        };
        let mut relabel = Relabel::new(&planner.graph);
        for a in 0..3u8 {
            for b in (0..3u8).filter(|&b| b != a) {
                for (x, y) in (1..16).flat_map(|x| (1..16).map(move |y| (x, y))) {
                    let blocks = [block(a, x), block(b, y)];
                    let plan = exact.plan_blocks(&planner.home(), &blocks).unwrap();
                    let units = by_units(&planner, &mut relabel, &[(a, x), (b, y)]);
                    assert_eq!(units, plan.total_ms, "{design} {blocks:?}");
                }
            }
        }
    }
}

#[test]
fn kept_units_price_random_four_block_sequences_as_the_exact_planner_does() {
    use rand::{RngExt, SeedableRng};
    let planner = planner("turntable-flipper");
    let exact = Planner {
        per_layer: usize::MAX,
        ..planner.clone()
    };
    let mut relabel = Relabel::new(&planner.graph);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(54);
    for _ in 0..200 {
        let mut blocks: Vec<(u8, usize)> = Vec::new();
        while blocks.len() < 4 {
            let axis = rng.random_range(0..3u8);
            if blocks.last().is_none_or(|b| b.0 != axis) {
                blocks.push((axis, rng.random_range(1..16usize)));
            }
        }
        let as_blocks: Vec<Block> = blocks.iter().map(|&(a, n)| block(a, n)).collect();
        let plan = exact.plan_blocks(&planner.home(), &as_blocks).unwrap();
        assert_eq!(
            by_units(&planner, &mut relabel, &blocks),
            plan.total_ms,
            "{blocks:?}"
        );
    }
}

/// The block turning `net / 4` quarters on `axis`'s U, R or F face and `net % 4` on the other.
fn block(axis: u8, net: usize) -> Block {
    Block {
        faces: [
            Face::from_index(axis.into()),
            Face::from_index(usize::from(axis) + 3),
        ],
        quarters: [(net / 4) as u8, (net % 4) as u8],
    }
}

#[test]
fn relabelled_units_are_the_units_found_directly() {
    let planner = planner("turntable-flipper");
    let into = steps_into(&planner.graph);
    let mut relabel = Relabel::new(&planner.graph);
    for state in 0..planner.graph.states.len() as u32 {
        for axis in 0..3u8 {
            let mut direct = kept_ends(&planner.graph, &into, state, axis).unwrap();
            let mut moved = relabel.kept_ends(state, axis).unwrap();
            direct.sort_unstable();
            moved.sort_unstable();
            assert_eq!(direct, moved, "state {state}, axis {axis}");
        }
    }
}

#[test]
fn counting_agrees_with_sequences_listed_one_by_one() {
    // Two nodes: from 0, units of 3 and 5 steps to 1 and one of 4 to 0; from 1, one of 2 to 0.
    let units = vec![
        vec![
            Unit {
                block: 0,
                ms: 30,
                to: 1,
            },
            Unit {
                block: 1,
                ms: 50,
                to: 1,
            },
            Unit {
                block: 2,
                ms: 40,
                to: 0,
            },
        ],
        vec![Unit {
            block: 3,
            ms: 20,
            to: 0,
        }],
    ];
    let mut costs = Vec::new();
    let mut paths = vec![(0usize, 0u32)];
    while let Some((node, cost)) = paths.pop() {
        if cost > 400 {
            continue;
        }
        costs.push(cost);
        paths.extend(units[node].iter().map(|u| (u.to, cost + u.ms)));
    }
    costs.sort_unstable();
    for positions in [1usize, 2, 7, 40, 150] {
        let cheapest = &costs[..positions];
        let mean = cheapest.iter().map(|&c| f64::from(c)).sum::<f64>() / positions as f64;
        let (got, median) = cheapest_sequences(&units, positions as f64).expect("enough");
        assert!(
            (got - mean).abs() < 1e-9,
            "{positions}: {got} against {mean}"
        );
        assert_eq!(
            median,
            u64::from(cheapest[(positions - 1) / 2]),
            "{positions}"
        );
    }
}

/// The least cost of every block sequence that some run of `units` from node 0 performs
/// within `limit`, listed one run at a time.
fn sequences_listed(units: &[Vec<Unit>], limit: u32) -> Vec<u32> {
    let mut least: HashMap<Vec<u8>, u32> = HashMap::new();
    let mut runs = vec![(0usize, 0u32, Vec::new())];
    while let Some((node, cost, blocks)) = runs.pop() {
        if cost > limit {
            continue;
        }
        let known = least.entry(blocks.clone()).or_insert(u32::MAX);
        *known = (*known).min(cost);
        for unit in &units[node] {
            let mut longer = blocks.clone();
            longer.push(unit.block);
            runs.push((unit.to, cost + unit.ms, longer));
        }
    }
    let mut costs: Vec<u32> = least.into_values().collect();
    costs.sort_unstable();
    costs
}

#[test]
fn each_block_sequence_is_counted_once_at_its_cheapest_run() {
    use rand::{RngExt, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    for _ in 0..20 {
        // Three nodes, each with units of two or three of blocks 0..3, some blocks twice with
        // different costs and ends: one sequence, several runs.
        let units: Vec<Vec<Unit>> = (0..3)
            .map(|_| {
                (0..rng.random_range(2..6))
                    .map(|_| Unit {
                        block: rng.random_range(0..3),
                        ms: 10 * rng.random_range(2..7),
                        to: rng.random_range(0..3),
                    })
                    .collect()
            })
            .collect();
        let listed = sequences_listed(&units, 150);
        // Costs above 150 never matter to sequences within 150: a cap of 200 keeps them exact.
        let sequences = by_sequence(&units, 200, 1).expect("few sets");
        let within = listed.iter().filter(|&&c| c <= 100).count();
        for positions in [1, 3, within] {
            let cheapest = &listed[..positions];
            let mean = cheapest.iter().map(|&c| f64::from(c)).sum::<f64>() / positions as f64;
            let (got, _) = cheapest_sequences(&sequences, positions as f64).expect("enough");
            assert!(
                (got - mean).abs() < 1e-9,
                "{positions}: {got} against {mean}"
            );
            // A cap on what a node costs above the cheapest only lowers the count's costs.
            let (capped, _) = cheapest_sequences(
                &by_sequence(&units, 10, 1).expect("few sets"),
                positions as f64,
            )
            .expect("enough");
            assert!(capped <= got + 1e-9, "{positions}: {capped} above {got}");
            // So does rounding it down to coarser steps, and each unit's cost to whole steps,
            // as a count too large for memory is made.
            for step in [10, 50, 201] {
                let coarse = by_sequence(&units, 200, step).expect("few sets");
                let (coarse, _) = cheapest_sequences(&coarse, positions as f64).expect("enough");
                assert!(
                    coarse <= got + 1e-9,
                    "{positions}, {step}: {coarse} above {got}"
                );
            }
            let (in_20s, _) = counted_in_steps(&sequences, positions as f64, 20).expect("enough");
            assert!(in_20s <= got + 1e-9, "{positions}: {in_20s} above {got}");
        }
    }
}

#[test]
fn four_arm_programs_run_unchanged_with_the_ranges_lifted() {
    use super::super::physics::{step_motion, Motions};
    use cubed_core::cube::random::random_cube;
    use rand::SeedableRng;
    let real = planner("four-arm");
    let lifted = ranges_lifted(&real.model);
    assert_ne!(
        lifted, real.model,
        "four-arm's grippers turn within a range"
    );
    let solver = super::super::tests::small_solver();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    for _ in 0..20 {
        let cube = random_cube(&mut rng);
        let plan = super::super::solve_naive(&real, &solver, &real.home(), &cube).expect("plans");
        let (mut state, mut ms) = (lifted.home(), 0);
        for (i, step) in plan.program.steps.iter().enumerate() {
            let (motions, _) = Motions::of_step(&lifted, step).expect("a step of the design");
            let (next, _) = step_motion(&lifted, &state, &motions)
                .unwrap_or_else(|v| panic!("step {i} is illegal with the ranges lifted: {v:?}"));
            ms += super::super::graph::motions_ms(&lifted, &motions);
            state = next;
        }
        assert_eq!(ms, plan.total_ms, "the same steps take the same time");
        assert_eq!(state.orientation, plan.end.orientation);
        assert_eq!(state.closed, plan.end.closed);
    }
}
