//! Solver tests on the small tables: solutions solve, short cubes get short solutions, bytes round-trip.

use super::*;
use crate::cube::random::{random_cube, random_scramble};
use crate::cube::Move;
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::OnceLock;

/// A solver on the small tables, built once for every test in the crate.
pub(crate) fn small_solver() -> Solver {
    static TABLES: OnceLock<Arc<Tables>> = OnceLock::new();
    Solver::new(TABLES.get_or_init(|| Arc::new(Tables::small())).clone())
}

fn apply(cube: &CubieCube, turns: &[Turn]) -> CubieCube {
    turns.iter().fold(*cube, |c, &t| c.turn(t))
}

fn quick() -> SearchOptions {
    SearchOptions {
        budget: Duration::from_millis(5),
        ..SearchOptions::default()
    }
}

#[test]
fn solved_cube_needs_no_moves() {
    let s = small_solver().solve(&CubieCube::default(), Duration::from_millis(10));
    assert_eq!(s, Ok(vec![]));
}

#[test]
fn one_turn_gets_its_inverse() {
    for t in Turn::all() {
        let c = CubieCube::default().turn(t);
        assert_eq!(
            small_solver().solve(&c, Duration::from_millis(10)),
            Ok(vec![t.inverse()])
        );
    }
}

#[test]
fn invalid_cube_is_refused() {
    let mut c = CubieCube::default();
    c.co[0] = 1;
    let r = small_solver().solve(&c, Duration::from_millis(10));
    assert!(matches!(
        r,
        Err(SolveError::InvalidCube(CubeError::CornerTwist { .. }))
    ));
}

#[test]
fn thousands_of_random_cubes_are_solved() {
    let solver = small_solver();
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    let opts = SearchOptions {
        target_length: Some(26),
        ..quick()
    };
    for i in 0..2000 {
        let c = random_cube(&mut rng);
        let s = solver
            .solve_with(&c, &opts)
            .expect("a valid cube has a solution");
        assert!(apply(&c, &s).is_solved(), "cube {i} not solved by {s:?}");
        assert!(s.len() <= 30);
    }
}

/// Lengths of the solutions a search with alternatives and `slack` reports on a
/// random cube, in order (each checked to solve). A node budget, not a time
/// budget: the same search whatever the machine's load.
fn reported_lengths(seed: u64, slack: usize) -> Vec<usize> {
    let solver = small_solver();
    let c = random_cube(&mut ChaCha8Rng::seed_from_u64(seed));
    let mut lengths = Vec::new();
    let opts = SearchOptions {
        budget: Duration::from_secs(60),
        node_budget: Some(200_000),
        alternatives: true,
        slack,
        ..SearchOptions::default()
    };
    solver
        .search(&c, &opts, |s| {
            assert!(apply(&c, s).is_solved());
            lengths.push(s.len());
            Flow::Continue
        })
        .unwrap();
    lengths
}

#[test]
fn every_reported_solution_solves_and_none_is_longer_than_the_last() {
    let lengths = reported_lengths(5, 0);
    assert!(lengths.len() > 1, "alternatives were reported: {lengths:?}");
    assert!(lengths.windows(2).all(|w| w[1] <= w[0]), "{lengths:?}");
}

#[test]
fn slack_reports_solutions_up_to_that_many_turns_over_the_best_so_far() {
    let lengths = reported_lengths(6, 1);
    let mut best = usize::MAX;
    let mut over = 0;
    for &len in &lengths {
        assert!(
            len <= best.saturating_add(1),
            "{len} after a best of {best}: {lengths:?}"
        );
        over += usize::from(len > best);
        best = best.min(len);
    }
    assert!(
        over > 0,
        "some solutions were longer than the best: {lengths:?}"
    );
}

#[test]
fn tables_round_trip_through_bytes_and_corruption_is_caught() {
    let solver = small_solver();
    let bytes = solver.tables().to_bytes();
    let back = Tables::from_bytes(&bytes).expect("fresh bytes load");
    assert_eq!(back.to_bytes(), bytes);
    let mut bad = bytes.clone();
    bad[1000] ^= 0x40;
    assert!(matches!(
        Tables::from_bytes(&bad),
        Err(table_bytes::TableBytesError::Checksum { .. })
    ));
    let mut stale = bytes.clone();
    stale[8] = 99;
    assert!(matches!(
        Tables::from_bytes(&stale),
        Err(table_bytes::TableBytesError::StaleVersion { found: 99 })
    ));
    assert!(matches!(
        Tables::from_bytes(&bytes[..bytes.len() / 2]),
        Err(table_bytes::TableBytesError::Truncated { at }) if at < bytes.len() / 2
    ));
    let mut longer = bytes.clone();
    longer.push(0);
    assert_eq!(
        Tables::from_bytes(&longer).err(),
        Some(table_bytes::TableBytesError::TrailingBytes { at: bytes.len() })
    );
    assert_eq!(
        Tables::from_bytes(b"CUBED").err(),
        Some(table_bytes::TableBytesError::BadMagic)
    );
}

/// Canonical turn sequences of `togo` turns from phase-1 coordinates
/// (flip, twist, slice) that end back in phase 2 with a non-phase-2 turn.
fn returns_to_phase2(t: &Tables, c: (u16, u16, u16), last: Option<u8>, togo: usize) -> usize {
    let m = &t.moves;
    (0..18u8)
        .filter(|&mv| turn_order::may_follow(last, mv))
        .map(|mv| {
            let k = mv as usize;
            let (f, tw, s) = (
                m.flip[c.0 as usize * 18 + k],
                m.twist[c.1 as usize * 18 + k],
                m.slice_sorted[c.2 as usize * 18 + k],
            );
            if togo == 1 {
                usize::from(f == 0 && tw == 0 && s < 24 && !movetables::is_phase2_move(mv))
            } else {
                returns_to_phase2(t, (f, tw, s), Some(mv), togo - 1)
            }
        })
        .sum()
}

#[test]
fn phase2_cubes_cannot_leave_and_return_in_few_turns() {
    let solver = small_solver();
    for togo in 1..=phase1::NO_SHORT_RETURN {
        assert_eq!(returns_to_phase2(solver.tables(), (0, 0, 0), None, togo), 0);
    }
    assert!(returns_to_phase2(solver.tables(), (0, 0, 0), None, 5) > 0);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn random_cube_solve_apply_is_solved(seed in any::<u64>()) {
        let c = random_cube(&mut ChaCha8Rng::seed_from_u64(seed));
        let s = small_solver().solve_with(&c, &quick()).unwrap();
        prop_assert!(apply(&c, &s).is_solved());
    }

    #[test]
    fn short_scrambles_get_solutions_no_longer_than_the_scramble(seed in any::<u64>(), n in 1usize..=7) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let scramble = random_scramble(&mut rng, n, false);
        let c = scramble.iter().fold(CubieCube::default(), |c, m| match m {
            Move::Turn(t) => c.turn(*t),
            Move::Rotate(_) => c,
        });
        let s = small_solver().solve(&c, Duration::from_millis(50)).unwrap();
        prop_assert!(apply(&c, &s).is_solved());
        prop_assert!(s.len() <= n, "{} moves for a {}-move scramble", s.len(), n);
    }
}

/// A search that only a node budget of 100 million would end, cancelled (from its first
/// solution's callback, as another thread would; or before it starts): it ends at once.
#[test]
fn a_cancelled_search_ends_within_a_few_hundred_nodes_whatever_its_budget() {
    let solver = small_solver();
    let c = random_cube(&mut ChaCha8Rng::seed_from_u64(9));
    let endless = || SearchOptions {
        budget: Duration::from_secs(3600),
        node_budget: Some(100_000_000),
        ..SearchOptions::default()
    };
    let opts = endless();
    let mut solutions = 0;
    let stats = solver
        .search(&c, &opts, |_| {
            opts.cancel.cancel();
            solutions += 1;
            Flow::Continue
        })
        .unwrap();
    assert!(solutions >= 1 && stats.nodes < 1_000_000, "{stats:?}");

    let before = endless();
    before.cancel.cancel();
    let stats = solver.search(&c, &before, |_| Flow::Continue).unwrap();
    assert!(stats.nodes <= 256, "{} nodes after a cancel", stats.nodes);
}

/// The solutions a counted search with alternatives reports on a random cube, each checked to solve.
fn reported(seed: u64, opts: SearchOptions) -> Vec<Vec<Turn>> {
    let solver = small_solver();
    let c = random_cube(&mut ChaCha8Rng::seed_from_u64(seed));
    let opts = SearchOptions {
        budget: Duration::from_secs(60),
        node_budget: Some(200_000),
        alternatives: true,
        ..opts
    };
    let mut found = Vec::new();
    solver
        .search(&c, &opts, |s| {
            assert!(apply(&c, s).is_solved(), "{s:?}");
            found.push(s.to_vec());
            Flow::Continue
        })
        .unwrap();
    found
}

#[test]
fn phase2_alternatives_report_more_solutions_that_solve() {
    let first_only = reported(11, SearchOptions::default());
    let many = reported(
        11,
        SearchOptions {
            phase2_alternatives: 16,
            ..SearchOptions::default()
        },
    );
    assert!(
        many.len() > first_only.len(),
        "{} {}",
        many.len(),
        first_only.len()
    );
    let best = |s: &[Vec<Turn>]| s.iter().map(Vec::len).min();
    assert_eq!(best(&many), best(&first_only));
}

#[test]
fn disjoint_directions_each_find_solutions() {
    for directions in [0b01_0101, 0b10_1010, 0b00_0001] {
        let found = reported(
            12,
            SearchOptions {
                directions,
                ..SearchOptions::default()
            },
        );
        assert!(!found.is_empty(), "{directions:b}");
    }
}

#[test]
fn solving_on_threads_shares_the_directions_and_a_node_budget_gives_one_answer() {
    let shares = direction_shares(2);
    assert_eq!(shares.iter().fold(0, |a, m| a | m), ALL_DIRECTIONS);
    assert_eq!(shares[0] & shares[1], 0);
    let solver = small_solver();
    let opts = SearchOptions {
        budget: Duration::from_secs(60),
        node_budget: Some(100_000),
        ..SearchOptions::default()
    };
    let mut rng = ChaCha8Rng::seed_from_u64(13);
    for _ in 0..5 {
        let c = random_cube(&mut rng);
        let once = solver.solve_on_threads(&c, &opts, 2).unwrap();
        assert!(apply(&c, &once).is_solved());
        assert_eq!(solver.solve_on_threads(&c, &opts, 2).unwrap(), once);
    }
}
