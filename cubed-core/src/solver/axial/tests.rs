//! The axial search against witnesses of its own: depths and prices from walks over real cubie cubes (never the move or pruning tables), solutions checked by turning a cube, prices summed block by block.

use super::moves::AxialMove;
use super::tables::{phase2_moves, PricedPhase2};
use super::*;
use crate::cube::{random::random_cube, CubieCube, Face, Turn};
use crate::solver::coord;
use crate::solver::table_bytes::TableBytesError;
use crate::solver::Flow;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;
use std::sync::OnceLock;

fn tables() -> &'static Arc<AxialTables> {
    static T: OnceLock<Arc<AxialTables>> = OnceLock::new();
    T.get_or_init(|| Arc::new(AxialTables::build()))
}

fn apply(cube: &CubieCube, turns: &[Turn]) -> CubieCube {
    turns.iter().fold(*cube, |c, &t| c.turn(t))
}

fn block(cube: &CubieCube, k: usize) -> CubieCube {
    apply(cube, &AxialMove::from_index(k).turns().collect::<Vec<_>>())
}

/// A face's price for `quarters` (1..=3): `quarter[face]`, or `half[face]` for a half turn.
struct FacePrices {
    quarter: [u32; 6],
    half: [u32; 6],
}

impl FacePrices {
    fn of(&self, t: Turn) -> u32 {
        let f = t.face.index();
        if t.quarters == 2 {
            self.half[f]
        } else {
            self.quarter[f]
        }
    }

    /// The price of a face-turn sequence cut into runs on one axis, each its dearer face.
    fn of_sequence(&self, turns: &[Turn]) -> u32 {
        let mut price = 0;
        let mut i = 0;
        while i < turns.len() {
            let axis = turns[i].face.index() % 3;
            let mut dearest = 0;
            while i < turns.len() && turns[i].face.index() % 3 == axis {
                dearest = dearest.max(self.of(turns[i]));
                i += 1;
            }
            price += dearest;
        }
        price
    }

    fn axial(&self) -> AxialPrices {
        AxialPrices {
            price: std::array::from_fn(|k| {
                let turns = AxialMove::from_index(k).turns();
                turns.map(|t| self.of(t)).max().unwrap_or(0) as u16
            }),
        }
    }
}

const SIX_MOTOR: FacePrices = FacePrices {
    quarter: [120; 6],
    half: [200; 6],
};

/// Each face priced differently, and a half turn not always dearer: directions that relabel or
/// invert the cube must price every move as the real cube's.
const UNEVEN: FacePrices = FacePrices {
    quarter: [3, 4, 5, 6, 7, 8],
    half: [5, 4, 9, 6, 11, 9],
};

#[test]
fn a_block_costs_its_dearer_face_as_a_hand_count_says() {
    assert_eq!(SIX_MOTOR.axial(), AxialPrices::dearer_face(120, 200));
}

/// Every phase-1 coordinate a breadth-first walk of real cubes reaches within four blocks:
/// its depth there against the table's.
#[test]
fn phase1_block_depths_match_a_walk_of_real_cubes() {
    let t = tables();
    let key = |c: &CubieCube| (coord::flip(c), coord::slice_sorted(c) / 24, coord::twist(c));
    let mut depth: HashMap<(u16, u16, u16), u8> = HashMap::new();
    let mut frontier = vec![CubieCube::default()];
    depth.insert(key(&frontier[0]), 0);
    for d in 1..=4u8 {
        let mut next = Vec::new();
        for cube in &frontier {
            for k in 0..N_AXIAL {
                let c = block(cube, k);
                if let std::collections::hash_map::Entry::Vacant(e) = depth.entry(key(&c)) {
                    e.insert(d);
                    next.push(c);
                }
            }
        }
        frontier = next;
    }
    assert!(
        depth.len() > 50_000,
        "the walk reaches {} coordinates",
        depth.len()
    );
    for (&(flip, slice, twist), &d) in &depth {
        assert_eq!(
            t.phase1_depth(flip, slice, twist),
            d,
            "flip {flip} slice {slice} twist {twist}"
        );
        assert!(t.phase1_small(flip, slice, twist) <= d);
    }
}

/// The cheapest phase-2 prices of (corners, slice) and (edges, slice) against a cheapest-first
/// walk of real cubes in phase 2, for every entry priced within its reach.
#[test]
fn phase2_prices_match_a_cheapest_first_walk_of_real_cubes() {
    let t = tables();
    let prices = UNEVEN.axial();
    let priced = PricedPhase2::build(t, prices.clone());
    let reach = 22u32;
    let mut best: HashMap<CubieCube, u32> = HashMap::from([(CubieCube::default(), 0)]);
    let mut queue = std::collections::BTreeMap::from([(0u32, vec![CubieCube::default()])]);
    while let Some((p, cubes)) = queue.pop_first() {
        for cube in cubes {
            if best[&cube] != p {
                continue;
            }
            for &k in &phase2_moves() {
                let next = block(&cube, k as usize);
                let q = p + prices.price[k as usize] as u32;
                if q <= reach && best.get(&next).is_none_or(|&old| q < old) {
                    best.insert(next, q);
                    queue.entry(q).or_default().push(next);
                }
            }
        }
    }
    let mut corners: HashMap<(u16, u16), u32> = HashMap::new();
    let mut edges: HashMap<(u16, u16), u32> = HashMap::new();
    for (cube, &p) in &best {
        let slice = coord::slice_sorted(cube);
        let c = corners.entry((coord::corners(cube), slice)).or_insert(p);
        *c = (*c).min(p);
        let e = edges.entry((coord::ud_edges(cube), slice)).or_insert(p);
        *e = (*e).min(p);
    }
    assert!(corners.len() > 2000, "{} corner entries", corners.len());
    eprintln!(
        "{} corner entries, {} edge entries",
        corners.len(),
        edges.len()
    );
    for (&(c, s), &p) in &corners {
        assert_eq!(priced.corner_slice[c as usize * 24 + s as usize] as u32, p);
    }
    for (&(u, s), &p) in &edges {
        assert_eq!(priced.edge_slice[u as usize * 24 + s as usize] as u32, p);
    }
}

/// Every reported solution solves the cube and costs what a block-by-block count of its face
/// turns says, each cheaper than the last; with uneven prices, in all six directions.
fn solutions_are_checked(prices: &FacePrices, seed: u64) {
    let solver = AxialSolver::new(Arc::clone(tables()), &prices.axial());
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..6 {
        let cube = random_cube(&mut rng);
        let mut reported = Vec::new();
        let opts = AxialOptions {
            node_budget: Some(300_000),
            ..AxialOptions::default()
        };
        let stats = solver
            .search(&cube, &opts, |turns, price| {
                reported.push((turns.to_vec(), price));
                Flow::Continue
            })
            .expect("a valid cube");
        assert!(!reported.is_empty());
        for pair in reported.windows(2) {
            assert!(pair[1].1 < pair[0].1, "{} then {}", pair[0].1, pair[1].1);
        }
        for (turns, price) in &reported {
            assert!(apply(&cube, turns).is_solved());
            assert_eq!(prices.of_sequence(turns), *price);
        }
        assert_eq!(stats.best, reported.last().map(|r| r.1));
    }
}

#[test]
fn six_motor_solutions_solve_and_cost_what_they_say() {
    solutions_are_checked(&SIX_MOTOR, 1);
}

#[test]
fn uneven_prices_are_honoured_in_every_direction() {
    solutions_are_checked(&UNEVEN, 2);
}

/// A cube one or two blocks from solved: the search finds a solution no dearer than undoing
/// the scramble.
#[test]
fn short_scrambles_cost_no_more_than_undoing_them() {
    let solver = AxialSolver::new(Arc::clone(tables()), &SIX_MOTOR.axial());
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for _ in 0..100 {
        let blocks = rng.random_range(1..=2);
        let mut scramble = Vec::new();
        let mut last_axis = None;
        while scramble.len() < blocks {
            let k = rng.random_range(0..N_AXIAL);
            let m = AxialMove::from_index(k);
            if last_axis != Some(m.axis) {
                scramble.push(k);
                last_axis = Some(m.axis);
            }
        }
        let turns: Vec<Turn> = scramble
            .iter()
            .flat_map(|&k| AxialMove::from_index(k).turns())
            .collect();
        let cube = apply(&CubieCube::default(), &turns);
        let undo: Vec<Turn> = turns.iter().rev().map(|t| t.inverse()).collect();
        let mut best = None;
        let opts = AxialOptions {
            node_budget: Some(200_000),
            ..AxialOptions::default()
        };
        solver
            .search(&cube, &opts, |s, p| {
                best = Some((s.to_vec(), p));
                Flow::Continue
            })
            .expect("a valid cube");
        let (solution, price) = best.expect("a solution");
        assert!(apply(&cube, &solution).is_solved());
        assert!(
            price <= SIX_MOTOR.of_sequence(&undo),
            "{turns:?}: {price} for {solution:?}"
        );
    }
}

#[test]
fn a_solved_cube_needs_nothing_and_a_broken_one_is_refused() {
    let solver = AxialSolver::new(Arc::clone(tables()), &SIX_MOTOR.axial());
    let mut found = Vec::new();
    solver
        .search(&CubieCube::default(), &AxialOptions::default(), |s, p| {
            found.push((s.to_vec(), p));
            Flow::Continue
        })
        .expect("solved is valid");
    assert_eq!(found, vec![(Vec::new(), 0)]);
    let mut twisted = CubieCube::default();
    twisted.co[0] = 1;
    let refused = solver.search(&twisted, &AxialOptions::default(), |_, _| Flow::Continue);
    assert!(
        matches!(refused, Err(SolveError::InvalidCube(_))),
        "{refused:?}"
    );
}

#[test]
fn one_block_off_is_solved_by_its_own_block() {
    let solver = AxialSolver::new(Arc::clone(tables()), &SIX_MOTOR.axial());
    let r = |face, quarters| Turn { face, quarters };
    for (scramble, cheapest) in [
        (vec![r(Face::R, 1), r(Face::L, 3)], 120),
        (vec![r(Face::U, 1), r(Face::D, 2)], 200),
        (vec![r(Face::F, 2)], 200),
    ] {
        let cube = apply(&CubieCube::default(), &scramble);
        let mut best = None;
        solver
            .search(&cube, &AxialOptions::default(), |_, p| {
                best = Some(p);
                Flow::Continue
            })
            .expect("a valid cube");
        assert_eq!(best, Some(cheapest), "{scramble:?}");
    }
}

#[test]
fn stored_tables_read_back_and_damage_is_caught() {
    let t = tables();
    let mut bytes = Vec::new();
    t.write_to(&mut bytes).expect("writes to memory");
    let back = AxialTables::read_from(&bytes[..]).expect("reads back");
    assert!(back.phase1 == t.phase1 && back.slice_twist == t.slice_twist);
    assert_eq!(back.slice_flip, t.slice_flip);
    let mut damaged = bytes.clone();
    damaged[1000] ^= 0x10;
    assert!(matches!(
        AxialTables::read_from(&damaged[..]),
        Err(TableBytesError::Checksum { .. })
    ));
    assert!(matches!(
        AxialTables::read_from(&bytes[..bytes.len() - 9]),
        Err(TableBytesError::Truncated { .. })
    ));
    let mut stale = bytes.clone();
    stale[8] = 99;
    assert!(matches!(
        AxialTables::read_from(&stale[..]),
        Err(TableBytesError::StaleAxialVersion { found: 99 })
    ));
    assert!(matches!(
        AxialTables::read_from(&b"CUBEDTBL\x09\0\0\0"[..]),
        Err(TableBytesError::BadMagic)
    ));
}
