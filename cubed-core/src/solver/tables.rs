//! All tables of the search in one value: built in a small mode (exact-depth byte tables, well under a second) or a full mode (symmetry-reduced 2-bit tables), and turned into and from bytes with a checksum.

use super::class_move::{class_move_table, ClassRow};
use super::coord::*;
use super::endings::Endings;
use super::movetables::{MoveTables, UdEdgeMerge, PHASE2_MOVES};
use super::near::Phase1Space;
use super::near_masks::NearMasks;
use super::pruning::{build_byte_table, next_depth, Packed2, Packed4, SymPruneSpec};
use super::symtables::{conjugation_table, SymClasses};
use std::time::Instant;

/// Which set of pruning tables to build.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TableMode {
    /// A few MB, built in well under a second; solutions a little longer at short budgets.
    Small,
    /// About 122 MB, built once (seconds) and cached on disk; the strongest search.
    Full,
}

pub(crate) enum Phase1Prune {
    /// Only the exact slice×twist and slice×flip tables (kept in `Tables` for both modes).
    Small,
    Full {
        classes: SymClasses,
        twist_conj: Vec<u16>,
        table: Packed2,
        /// Class move table (see `class_move::class_move_table`); derived, not stored.
        class_move: Vec<ClassRow>,
        /// The last turns of phase 1, precomputed; derived, not stored.
        endings: Box<Endings>,
        /// Turn masks of the positions near phase 2; stored.
        masks: NearMasks,
    },
}

pub(crate) enum Phase2Prune {
    /// Only the exact corners×slice and U/D-edges×slice tables (kept in `Tables` for both modes).
    Small,
    Full {
        classes: SymClasses,
        ud_conj: Vec<u16>,
        table: Packed4,
    },
}

/// Move, symmetry and pruning tables.
pub struct Tables {
    pub mode: TableMode,
    pub(crate) moves: MoveTables,
    pub(crate) merge: UdEdgeMerge,
    /// Phase-1 slice coordinate (0..495) after each turn: `[slice * 18 + m]`; derived, not stored.
    pub(crate) slice_moves: Vec<u16>,
    /// Exact phase-2 depth of (corners, slice_sorted < 24): `[corners * 24 + slice]`.
    pub(crate) cornslice: Vec<u8>,
    /// Exact phase-2 depth of (ud_edges, slice_sorted < 24): `[ud * 24 + slice]`.
    pub(crate) edge_slice: Vec<u8>,
    /// Exact phase-1 depths of (slice, twist) and (slice, flip): a lower bound
    /// that sits in cache, checked before the large table.
    pub(crate) slice_twist: Vec<u8>,
    pub(crate) slice_flip: Vec<u8>,
    pub(crate) phase1: Phase1Prune,
    pub(crate) phase2: Phase2Prune,
    /// Seconds it took to build these tables (0 when loaded).
    pub build_seconds: f64,
}

pub(crate) fn slice_move_table(moves: &MoveTables) -> Vec<u16> {
    let mut t = vec![0u16; N_SLICE * 18];
    for s in 0..N_SLICE {
        for m in 0..18 {
            t[s * 18 + m] = moves.slice_sorted[s * 24 * 18 + m] / 24;
        }
    }
    t
}

impl Tables {
    /// Builds the tables of `mode` from nothing.
    pub fn build(mode: TableMode) -> Tables {
        let start = Instant::now();
        let moves = MoveTables::build();
        let all: Vec<u8> = (0..18).collect();
        let slice = slice_move_table(&moves);
        let slice_twist = build_byte_table(N_SLICE, N_TWIST, &all, &slice, &moves.twist);
        let slice_flip = build_byte_table(N_SLICE, N_FLIP, &all, &slice, &moves.flip);
        let edge_slice = build_byte_table(
            N_PERM8,
            24,
            &PHASE2_MOVES,
            &moves.ud_edges,
            &moves.slice_sorted,
        );
        let (phase1, phase2, cornslice) = match mode {
            TableMode::Small => (
                Phase1Prune::Small,
                Phase2Prune::Small,
                cornslice_table(&moves),
            ),
            TableMode::Full => std::thread::scope(|scope| {
                let p1 = scope.spawn(|| full_phase1(&moves, &slice_flip));
                let p2 = full_phase2(&moves);
                let cs = cornslice_table(&moves);
                (
                    p1.join().expect("phase-1 table builder does not panic"),
                    p2,
                    cs,
                )
            }),
        };
        Tables {
            mode,
            merge: UdEdgeMerge::build(),
            slice_moves: slice,
            moves,
            cornslice,
            edge_slice,
            slice_twist,
            slice_flip,
            phase1,
            phase2,
            build_seconds: start.elapsed().as_secs_f64(),
        }
    }

    /// The small tables (for tests and quick starts).
    pub fn small() -> Tables {
        Tables::build(TableMode::Small)
    }

    /// Exact phase-1 distance of a cube with these coordinates.
    pub(crate) fn phase1_depth(&self, flip: u16, slice_sorted: u16, twist: u16) -> u8 {
        match &self.phase1 {
            Phase1Prune::Small => self.phase1_small_bound(flip, slice_sorted, twist),
            Phase1Prune::Full { .. } => self.descend_phase1(flip, slice_sorted, twist),
        }
    }

    /// Phase-1 distance of a child, given its parent's distance.
    #[inline(always)]
    pub(crate) fn phase1_child(&self, parent: u8, flip: u16, slice_sorted: u16, twist: u16) -> u8 {
        match &self.phase1 {
            Phase1Prune::Small => self.phase1_small_bound(flip, slice_sorted, twist),
            Phase1Prune::Full { .. } => {
                next_depth(parent, self.phase1_entry(flip, slice_sorted, twist))
            }
        }
    }

    /// A lower bound on the phase-1 distance from the two small exact tables.
    #[inline(always)]
    pub(crate) fn phase1_small_bound(&self, flip: u16, slice_sorted: u16, twist: u16) -> u8 {
        let slice = slice_sorted as usize / 24;
        self.slice_twist[slice * N_TWIST + twist as usize]
            .max(self.slice_flip[slice * N_FLIP + flip as usize])
    }

    /// The stored phase-1 entry: the exact distance (small) or the distance mod 3 (full).
    #[inline(always)]
    fn phase1_entry(&self, flip: u16, slice_sorted: u16, twist: u16) -> u8 {
        let slice = slice_sorted as usize / 24;
        match &self.phase1 {
            Phase1Prune::Small => self.phase1_small_bound(flip, slice_sorted, twist),
            Phase1Prune::Full {
                classes,
                twist_conj,
                table,
                ..
            } => {
                let raw = slice * N_FLIP + flip as usize;
                let (class, sym) = classes.class_and_sym(raw);
                let t = twist_conj[twist as usize * 16 + sym] as usize;
                table.get(class * N_TWIST + t)
            }
        }
    }

    fn descend_phase1(&self, mut flip: u16, mut slice: u16, mut twist: u16) -> u8 {
        let m = &self.moves;
        let mut depth = 0u8;
        // Distances are found by walking down: some turn always lowers the distance by one.
        let mut dist_mod3 = self.phase1_mod3(flip, slice, twist);
        while flip != 0 || slice / 24 != 0 || twist != 0 {
            let want = (dist_mod3 + 2) % 3;
            let step = (0..18).find_map(|mv| {
                let (f, s, t) = (
                    m.flip[flip as usize * 18 + mv],
                    m.slice_sorted[slice as usize * 18 + mv],
                    m.twist[twist as usize * 18 + mv],
                );
                (self.phase1_mod3(f, s, t) == want).then_some((f, s, t))
            });
            let Some((f, s, t)) = step else { break };
            (flip, slice, twist, dist_mod3) = (f, s, t, want);
            depth += 1;
        }
        depth
    }

    fn phase1_mod3(&self, flip: u16, slice_sorted: u16, twist: u16) -> u8 {
        self.phase1_entry(flip, slice_sorted, twist) % 3
    }

    /// Phase-2 distance bound of (corners, ud_edges, slice) if it is at most
    /// `limit`, else None: the larger of the exact U/D-edges×slice distance
    /// and (full tables) the corners×U/D-edges distance.
    pub(crate) fn phase2_depth_within(
        &self,
        corners: u16,
        ud: u16,
        slice: u16,
        limit: usize,
    ) -> Option<u8> {
        let exact_bound = self.edge_slice[ud as usize * 24 + slice as usize];
        if exact_bound as usize > limit {
            return None;
        }
        let depth = exact_bound.max(self.phase2_child(corners, ud, slice));
        (depth as usize <= limit).then_some(depth)
    }

    /// A lower bound on the phase-2 distance (without the corner-slice bound):
    /// U/D-edges×slice (small), corners×U/D-edges (full).
    #[inline(always)]
    pub(crate) fn phase2_child(&self, corners: u16, ud: u16, slice: u16) -> u8 {
        match &self.phase2 {
            Phase2Prune::Small => self.edge_slice[ud as usize * 24 + slice as usize],
            Phase2Prune::Full {
                classes,
                ud_conj,
                table,
            } => {
                let (class, sym) = classes.class_and_sym(corners as usize);
                let u = ud_conj[ud as usize * 16 + sym] as usize;
                table.get(class * N_PERM8 + u)
            }
        }
    }
}

fn cornslice_table(moves: &MoveTables) -> Vec<u8> {
    build_byte_table(
        N_PERM8,
        24,
        &PHASE2_MOVES,
        &moves.corners,
        &moves.slice_sorted,
    )
}

fn full_phase1(moves: &MoveTables, slice_flip: &[u8]) -> Phase1Prune {
    let classes = SymClasses::flipslice();
    let twist_conj = conjugation_table(N_TWIST, set_twist, twist);
    let all: Vec<u8> = (0..18).collect();
    let rep_move = |raw: u32, m: u8| flipslice_move(moves, raw, m);
    let (table, masks) = std::thread::scope(|scope| {
        let masks = scope.spawn(|| {
            NearMasks::build(&Phase1Space {
                moves,
                classes: &classes,
                twist_conj: &twist_conj,
            })
        });
        let table = SymPruneSpec {
            classes: &classes,
            n_inner: N_TWIST,
            moves: &all,
            stride: 18,
            rep_move: &rep_move,
            inner_move: &moves.twist,
            inner_conj: &twist_conj,
        }
        .build();
        let masks = masks.join().expect("the mask builder does not panic");
        (table, masks)
    });
    Phase1Prune::full(moves, slice_flip, classes, twist_conj, table, masks)
}

/// Raw flip-slice coordinate (`slice * 2048 + flip`) after turn `m`.
pub(crate) fn flipslice_move(moves: &MoveTables, raw: u32, m: u8) -> usize {
    let (slice, flip) = (raw as usize / N_FLIP, raw as usize % N_FLIP);
    let flip1 = moves.flip[flip * 18 + m as usize] as usize;
    let slice1 = moves.slice_sorted[slice * 24 * 18 + m as usize] as usize / 24;
    slice1 * N_FLIP + flip1
}

impl Phase1Prune {
    /// The full phase-1 tables, with the class move table derived from them.
    pub(crate) fn full(
        moves: &MoveTables,
        slice_flip: &[u8],
        classes: SymClasses,
        twist_conj: Vec<u16>,
        table: Packed2,
        masks: NearMasks,
    ) -> Phase1Prune {
        let (class_move, endings) = std::thread::scope(|scope| {
            let endings = scope.spawn(|| Box::new(Endings::build(moves, &classes, &twist_conj)));
            let class_move =
                class_move_table(&classes, slice_flip, |raw, m| flipslice_move(moves, raw, m));
            let endings = endings.join().expect("the endings builder does not panic");
            (class_move, endings)
        });
        Phase1Prune::Full {
            classes,
            twist_conj,
            table,
            class_move,
            endings,
            masks,
        }
    }
}

fn full_phase2(moves: &MoveTables) -> Phase2Prune {
    let classes = SymClasses::corners();
    let ud_conj = conjugation_table(N_PERM8, set_ud_edges, ud_edges);
    let rep_move = |raw: u32, m: u8| moves.corners[raw as usize * 18 + m as usize] as usize;
    let table = SymPruneSpec {
        classes: &classes,
        n_inner: N_PERM8,
        moves: &PHASE2_MOVES,
        stride: 18,
        rep_move: &rep_move,
        inner_move: &moves.ud_edges,
        inner_conj: &ud_conj,
    }
    .build();
    Phase2Prune::Full {
        classes,
        ud_conj,
        table,
    }
}
