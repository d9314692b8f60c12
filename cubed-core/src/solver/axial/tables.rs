//! Tables of the axial search: axial move tables, the phase-1 block depth (symmetry-reduced, 2-bit) with two small exact ones beside it, and phase-2 cheapest-price tables for one set of prices.

use super::moves::{AxialMove, AxialMoveTables, AxialPrices, N_AXIAL};
use crate::solver::coord::*;
use crate::solver::movetables::{MoveTables, UdEdgeMerge};
use crate::solver::pruning::{build_byte_table_strided, next_depth, Packed2, SymPruneSpec};
use crate::solver::symtables::{conjugation_table, SymClasses};
use crate::solver::tables::slice_move_table;
use std::collections::BTreeMap;

/// What the axial search needs whatever the prices: built once (seconds).
pub struct AxialTables {
    pub(crate) moves: AxialMoveTables,
    pub(crate) merge: UdEdgeMerge,
    classes: SymClasses,
    twist_conj: Vec<u16>,
    /// Phase-1 depth in blocks, mod 3, of (flip-slice class, twist).
    pub(crate) phase1: Packed2,
    /// Exact phase-1 depths in blocks of (slice, twist) and (slice, flip).
    pub(crate) slice_twist: Vec<u8>,
    pub(crate) slice_flip: Vec<u8>,
    /// Seconds it took to build them.
    pub build_seconds: f64,
}

/// The tables derived quickly from nothing (well under a second), whether the others are built
/// or read.
pub(crate) struct Derived {
    moves: AxialMoveTables,
    merge: UdEdgeMerge,
    classes: SymClasses,
    twist_conj: Vec<u16>,
}

impl Derived {
    pub(crate) fn build() -> Derived {
        let face = MoveTables::build();
        let slice18 = slice_move_table(&face);
        Derived {
            moves: AxialMoveTables::build(&face, &slice18),
            merge: UdEdgeMerge::build(),
            classes: SymClasses::flipslice(),
            twist_conj: conjugation_table(N_TWIST, set_twist, twist),
        }
    }
}

impl AxialTables {
    /// Builds every table from nothing (seconds: the phase-1 table).
    pub fn build() -> AxialTables {
        let start = std::time::Instant::now();
        let derived = Derived::build();
        let (moves, classes, twist_conj) = (&derived.moves, &derived.classes, &derived.twist_conj);
        let all: Vec<u8> = (0..N_AXIAL as u8).collect();
        let rep_move = |raw: u32, k: u8| flipslice_axial(moves, raw, k);
        let (phase1, small) = std::thread::scope(|scope| {
            let small = scope.spawn(|| {
                let by = |b: &[u16], n| {
                    build_byte_table_strided(N_SLICE, n, &all, N_AXIAL, &moves.slice, b)
                };
                (by(&moves.twist, N_TWIST), by(&moves.flip, N_FLIP))
            });
            let phase1 = SymPruneSpec {
                classes,
                n_inner: N_TWIST,
                moves: &all,
                stride: N_AXIAL,
                rep_move: &rep_move,
                inner_move: &moves.twist,
                inner_conj: twist_conj,
            }
            .build::<2>();
            let small = small
                .join()
                .expect("the small table builder does not panic");
            (phase1, small)
        });
        let seconds = start.elapsed().as_secs_f64();
        AxialTables::assemble(derived, phase1, small, seconds)
    }

    pub(crate) fn assemble(
        derived: Derived,
        phase1: Packed2,
        (slice_twist, slice_flip): (Vec<u8>, Vec<u8>),
        build_seconds: f64,
    ) -> AxialTables {
        AxialTables {
            moves: derived.moves,
            merge: derived.merge,
            classes: derived.classes,
            twist_conj: derived.twist_conj,
            phase1,
            slice_twist,
            slice_flip,
            build_seconds,
        }
    }

    /// The stored phase-1 entry: block depth mod 3.
    #[inline(always)]
    pub(crate) fn phase1_mod3(&self, flip: u16, slice: u16, twist: u16) -> u8 {
        let raw = slice as usize * N_FLIP + flip as usize;
        let (class, sym) = self.classes.class_and_sym(raw);
        let t = self.twist_conj[twist as usize * 16 + sym] as usize;
        self.phase1.get(class * N_TWIST + t)
    }

    /// A child's exact phase-1 block depth from its parent's.
    #[inline(always)]
    pub(crate) fn phase1_child(&self, parent: u8, flip: u16, slice: u16, twist: u16) -> u8 {
        next_depth(parent, self.phase1_mod3(flip, slice, twist))
    }

    /// A cheap lower bound on the phase-1 block depth (two exact tables that sit in cache).
    #[inline(always)]
    pub(crate) fn phase1_small(&self, flip: u16, slice: u16, twist: u16) -> u8 {
        let s = slice as usize;
        self.slice_twist[s * N_TWIST + twist as usize]
            .max(self.slice_flip[s * N_FLIP + flip as usize])
    }

    /// The exact phase-1 block depth, by walking down to the goal.
    pub(crate) fn phase1_depth(&self, mut flip: u16, mut slice: u16, mut twist: u16) -> u8 {
        let m = &self.moves;
        let mut depth = 0u8;
        let mut here = self.phase1_mod3(flip, slice, twist);
        while flip != 0 || slice != 0 || twist != 0 {
            let want = (here + 2) % 3;
            let step = (0..N_AXIAL).find_map(|k| {
                let (f, s, t) = (
                    m.flip[flip as usize * N_AXIAL + k],
                    m.slice[slice as usize * N_AXIAL + k],
                    m.twist[twist as usize * N_AXIAL + k],
                );
                (self.phase1_mod3(f, s, t) == want).then_some((f, s, t))
            });
            let Some((f, s, t)) = step else { break };
            (flip, slice, twist, here) = (f, s, t, want);
            depth += 1;
        }
        depth
    }
}

/// Raw flip-slice coordinate (`slice * 2048 + flip`) after axial move `k`.
fn flipslice_axial(moves: &AxialMoveTables, raw: u32, k: u8) -> usize {
    let (slice, flip) = (raw as usize / N_FLIP, raw as usize % N_FLIP);
    let k = k as usize;
    moves.slice[slice * N_AXIAL + k] as usize * N_FLIP + moves.flip[flip * N_AXIAL + k] as usize
}

/// The phase-2 axial moves, by number.
pub(crate) fn phase2_moves() -> Vec<u8> {
    (0..N_AXIAL as u8)
        .filter(|&k| AxialMove::from_index(k as usize).keeps_phase2())
        .collect()
}

/// Cheapest phase-2 prices of (corners, slice) and (U/D edges, slice) for one set of prices.
pub(crate) struct PricedPhase2 {
    pub(crate) prices: AxialPrices,
    /// `[corners * 24 + slice_sorted]`.
    pub(crate) corner_slice: Vec<u16>,
    /// `[ud_edges * 24 + slice_sorted]`.
    pub(crate) edge_slice: Vec<u16>,
}

impl PricedPhase2 {
    pub(crate) fn build(tables: &AxialTables, prices: AxialPrices) -> PricedPhase2 {
        let moves = phase2_moves();
        let m = &tables.moves;
        let (corner_slice, edge_slice) = std::thread::scope(|scope| {
            let corners =
                scope.spawn(|| cheapest(N_PERM8, &moves, &prices, &m.corners, &m.slice_sorted));
            let edges = cheapest(N_PERM8, &moves, &prices, &m.ud_edges, &m.slice_sorted);
            (
                corners
                    .join()
                    .expect("the price table builder does not panic"),
                edges,
            )
        });
        PricedPhase2 {
            prices,
            corner_slice,
            edge_slice,
        }
    }

    /// A lower bound on the price of phase 2 from here.
    #[inline(always)]
    pub(crate) fn bound(&self, corners: u16, ud_edges: u16, slice_sorted: u16) -> u32 {
        let s = slice_sorted as usize;
        (self.corner_slice[corners as usize * 24 + s])
            .max(self.edge_slice[ud_edges as usize * 24 + s]) as u32
    }
}

/// Cheapest price from (0, 0) to every (a, b < 24) over `moves`: Dijkstra, prices being small
/// whole numbers.
fn cheapest(
    n_a: usize,
    moves: &[u8],
    prices: &AxialPrices,
    move_a: &[u16],
    move_b: &[u16],
) -> Vec<u16> {
    let mut table = vec![u16::MAX; n_a * 24];
    let mut queue: BTreeMap<u16, Vec<usize>> = BTreeMap::new();
    table[0] = 0;
    queue.insert(0, vec![0]);
    while let Some((price, at)) = queue.pop_first() {
        for idx in at {
            if table[idx] != price {
                continue;
            }
            let (a, b) = (idx / 24, idx % 24);
            for &k in moves {
                let k = k as usize;
                let next = move_a[a * N_AXIAL + k] as usize * 24 + move_b[b * N_AXIAL + k] as usize;
                let p = price.saturating_add(prices.price[k]);
                if p < table[next] {
                    table[next] = p;
                    queue.entry(p).or_default().push(next);
                }
            }
        }
    }
    table
}
