//! Tests of the phase-1 endings against a plain search in the real frame.

use super::*;
use crate::cube::{CubieCube, Turn};
use crate::solver::coord::{flip, set_twist, slice_sorted, twist, N_FLIP, N_SLICE, N_TWIST};
use crate::solver::pruning::build_byte_table;
use crate::solver::symtables::conjugation_table;
use crate::solver::tables::slice_move_table;
use crate::solver::turn_order::{followers, moves_in};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

struct Fixture {
    moves: MoveTables,
    classes: SymClasses,
    endings: Endings,
    slice_twist: Vec<u8>,
    slice_flip: Vec<u8>,
}

impl Fixture {
    fn new() -> Fixture {
        let moves = MoveTables::build();
        let classes = SymClasses::flipslice();
        let twist_conj = conjugation_table(N_TWIST, set_twist, twist);
        let endings = Endings::build(&moves, &classes, &twist_conj);
        let all: Vec<u8> = (0..18).collect();
        let slice = slice_move_table(&moves);
        Fixture {
            slice_twist: build_byte_table(N_SLICE, N_TWIST, &all, &slice, &moves.twist),
            slice_flip: build_byte_table(N_SLICE, N_FLIP, &all, &slice, &moves.flip),
            moves,
            classes,
            endings,
        }
    }

    fn step(&self, s: Raw, m: u8) -> Raw {
        let (m, k) = (&self.moves, m as usize);
        (
            m.flip[s.0 as usize * 18 + k],
            m.slice_sorted[s.1 as usize * 24 * 18 + k] / 24,
            m.twist[s.2 as usize * 18 + k],
        )
    }

    /// A lower bound on the distance to phase 2, from the two small exact tables.
    fn bound(&self, s: Raw) -> usize {
        let slice = s.1 as usize;
        self.slice_twist[slice * N_TWIST + s.2 as usize]
            .max(self.slice_flip[slice * N_FLIP + s.0 as usize]) as usize
    }

    /// Every path the search may take into phase 2 from `s` in exactly `togo` turns after `last`, found directly.
    fn direct(
        &self,
        s: Raw,
        togo: usize,
        last: Option<u8>,
        path: &mut Vec<u8>,
        out: &mut Vec<Vec<u8>>,
    ) {
        for m in moves_in(followers(last)) {
            let child = self.step(s, m);
            let in_phase2 = child == (0, 0, 0);
            path.push(m);
            if togo == 1 && in_phase2 && PHASE2_MASK & 1 << m == 0 {
                out.push(path.clone());
            } else if togo > 1 && !in_phase2 && self.bound(child) < togo {
                self.direct(child, togo - 1, Some(m), path, out);
            }
            path.pop();
        }
    }

    /// The same paths, read from the endings of `position` through symmetry `sym`.
    fn listed(&self, position: u32, sym: usize, togo: usize, last: Option<u8>) -> Vec<Vec<u8>> {
        let to_real = self.endings.to_real(sym as u8);
        self.endings
            .of(position, togo)
            .iter()
            .filter(|e| e.frames & 1 << sym != 0)
            .map(|e| {
                e.turns[..togo]
                    .iter()
                    .map(|&k| to_real[k as usize])
                    .collect::<Vec<u8>>()
            })
            .filter(|p| may_follow(last, p[0]))
            .collect()
    }

    /// Every (position, symmetry) the search may see a cube as: one per
    /// symmetry that maps its flip-slice to its class's representative.
    fn views(&self, cube: &CubieCube) -> Vec<(u32, usize)> {
        let syms = Symmetries::get();
        let (class, _) = self.classes.class_and_sym(flipslice(cube));
        (0..N_SYM_D4H)
            .filter_map(|sym| {
                let seen = syms.conjugate(cube, sym);
                (flipslice(&seen) == self.classes.rep[class] as usize)
                    .then(|| ((class * N_TWIST) as u32 + u32::from(twist(&seen)), sym))
            })
            .collect()
    }
}

fn flipslice(c: &CubieCube) -> usize {
    slice_sorted(c) as usize / 24 * N_FLIP + flip(c) as usize
}

#[test]
fn endings_are_exactly_the_paths_a_direct_search_finds_in_every_view() {
    let f = Fixture::new();
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let (mut compared, mut twins) = (0, 0);
    for case in 0..300 {
        let mut cube = CubieCube::default();
        for _ in 0..rng.random_range(0..=ENDING_DEPTH + 1) {
            cube = cube.turn(Turn::from_index(rng.random_range(0..18)));
        }
        let s = (flip(&cube), slice_sorted(&cube) / 24, twist(&cube));
        let views = f.views(&cube);
        assert!(
            !views.is_empty(),
            "case {case}: no symmetry reaches the representative"
        );
        let distinct: std::collections::BTreeSet<u32> = views.iter().map(|v| v.0).collect();
        twins += distinct.len() - 1;
        let last = (case % 3 != 0).then(|| rng.random_range(0..18u8));
        for togo in 1..=ENDING_DEPTH {
            let mut direct = Vec::new();
            f.direct(s, togo, last, &mut Vec::new(), &mut direct);
            direct.sort();
            for &(position, sym) in &views {
                let mut listed = f.listed(position, sym, togo, last);
                listed.sort();
                assert_eq!(
                    listed, direct,
                    "case {case}, sym {sym}: {togo} turns after {last:?}"
                );
            }
            compared += direct.len();
        }
    }
    assert!(compared > 1000, "only {compared} paths compared");
    assert!(twins > 0, "no cube was seen at two positions");
}

#[test]
fn every_view_of_a_cube_near_phase_2_has_endings() {
    let f = Fixture::new();
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    let mut views = 0;
    for _ in 0..20_000 {
        let mut cube = CubieCube::default();
        for _ in 0..rng.random_range(1..=ENDING_DEPTH) {
            cube = cube.turn(Turn::from_index(rng.random_range(0..18)));
        }
        if (flip(&cube), slice_sorted(&cube) / 24, twist(&cube)) == (0, 0, 0) {
            continue;
        }
        for (position, sym) in f.views(&cube) {
            let found =
                (1..=ENDING_DEPTH).any(|len| !f.listed(position, sym, len, None).is_empty());
            assert!(found, "no endings at position {position} (symmetry {sym})");
            views += 1;
        }
    }
    assert!(views > 20_000);
}

#[test]
fn shared_counts_the_turns_in_common_with_the_previous_path() {
    let f = Fixture::new();
    let e = &f.endings;
    for starts in &e.lists {
        for (len, w) in (1..).zip(starts.windows(2)) {
            let list = &e.paths[w[0] as usize..w[1] as usize];
            for pair in list.windows(2) {
                let shared = pair[1].shared as usize;
                assert!(shared < len, "two equal paths in one list");
                assert_eq!(pair[0].turns[..shared], pair[1].turns[..shared]);
                assert_ne!(pair[0].turns[shared], pair[1].turns[shared]);
            }
        }
    }
    assert!(
        e.of(u32::MAX - 1, 3).is_empty(),
        "an unknown position has no endings"
    );
    assert!(e.of(0, 0).is_empty() && e.of(0, ENDING_DEPTH + 1).is_empty());
}
