//! Optimal search for cubes a few turns from solved: IDA* on the whole cube, bounded below by the phase-1 distance seen along each of the three axes.

use super::coord;
use super::symmetry::Symmetries;
use super::tables::Tables;
use crate::cube::{CubieCube, Turn};
use std::time::Instant;

/// Longest solution the optimal search looks for; longer cubes go to the two-phase search.
pub(crate) const SHORT_DEPTH: usize = 7;

/// Phase-1 coordinates of the cube seen along one axis.
#[derive(Clone, Copy)]
struct AxisView {
    flip: u16,
    twist: u16,
    slice: u16,
    dist: u8,
}

pub(crate) struct Optimal<'a> {
    t: &'a Tables,
    /// `turn_on_axis[k][m]`: the turn that real turn `m` is on the cube seen along axis k.
    turn_on_axis: [[u8; 18]; 3],
    deadline: Instant,
    path: Vec<u8>,
    nodes: u64,
    out_of_time: bool,
}

impl<'a> Optimal<'a> {
    pub(crate) fn new(t: &'a Tables, deadline: Instant) -> Optimal<'a> {
        let syms = Symmetries::get();
        Optimal {
            t,
            turn_on_axis: std::array::from_fn(|k| syms.conj_move[16 * k]),
            deadline,
            path: Vec::with_capacity(SHORT_DEPTH),
            nodes: 0,
            out_of_time: false,
        }
    }

    fn views(&self, c: &CubieCube) -> [AxisView; 3] {
        let syms = Symmetries::get();
        std::array::from_fn(|k| {
            let v = syms.conjugate(c, 16 * k);
            let (flip, twist, slice) = (coord::flip(&v), coord::twist(&v), coord::slice_sorted(&v));
            AxisView {
                flip,
                twist,
                slice,
                dist: self.t.phase1_depth(flip, slice, twist),
            }
        })
    }

    /// A lower bound on the distance of `c` (the largest of the three phase-1 distances).
    pub(crate) fn lower_bound(&self, c: &CubieCube) -> usize {
        self.views(c)
            .iter()
            .map(|v| v.dist as usize)
            .max()
            .unwrap_or(0)
    }

    /// The shortest solution of at most `SHORT_DEPTH` turns, or None if there
    /// is none or time ran out first.
    pub(crate) fn solve(&mut self, c: &CubieCube) -> Option<Vec<Turn>> {
        let views = self.views(c);
        let bound = views.iter().map(|v| v.dist as usize).max().unwrap_or(0);
        for depth in bound..=SHORT_DEPTH {
            self.path.clear();
            if self.search(c, views, depth) {
                return Some(
                    self.path
                        .iter()
                        .map(|&m| Turn::from_index(m as usize))
                        .collect(),
                );
            }
            if self.out_of_time {
                return None;
            }
        }
        None
    }

    fn search(&mut self, c: &CubieCube, views: [AxisView; 3], togo: usize) -> bool {
        if togo == 0 {
            return c.is_solved();
        }
        self.nodes += 1;
        if self.nodes & 1023 == 0 && Instant::now() >= self.deadline {
            self.out_of_time = true;
            return false;
        }
        let last = self.path.last().copied();
        for m in 0..18u8 {
            if let Some(l) = last {
                if l / 3 == m / 3 || m / 3 + 3 == l / 3 {
                    continue;
                }
            }
            let Some(next) = self.child_views(&views, m, togo) else {
                continue;
            };
            self.path.push(m);
            if self.search(&c.turn(Turn::from_index(m as usize)), next, togo - 1) {
                return true;
            }
            self.path.pop();
            if self.out_of_time {
                return false;
            }
        }
        false
    }

    /// The three views after real turn `m`, or None if any says the rest cannot be done in `togo - 1`.
    fn child_views(&self, views: &[AxisView; 3], m: u8, togo: usize) -> Option<[AxisView; 3]> {
        let mt = &self.t.moves;
        let mut next = *views;
        for (k, v) in next.iter_mut().enumerate() {
            let mk = self.turn_on_axis[k][m as usize] as usize;
            v.flip = mt.flip[v.flip as usize * 18 + mk];
            v.twist = mt.twist[v.twist as usize * 18 + mk];
            v.slice = mt.slice_sorted[v.slice as usize * 18 + mk];
            v.dist = self.t.phase1_child(v.dist, v.flip, v.slice, v.twist);
            if v.dist as usize >= togo {
                return None;
            }
        }
        Some(next)
    }
}
