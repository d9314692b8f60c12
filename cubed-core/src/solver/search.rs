//! The anytime two-phase search: six directions (three axes, cube and inverse) searched in turn, depth by depth, each solution reported as found.

use super::coord;
use super::memory::prefetch;
use super::movetables::PHASE2_MOVES;
use super::phase1::{Pending, Phase1, RawPhase1, SymPhase1};
use super::symmetry::Symmetries;
use super::tables::Tables;
use super::turn_order::{followers, may_follow, moves_in};
use crate::cube::{CubieCube, Turn};
use ends::EndQueue;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

mod ends;
mod options;

pub use options::{SearchOptions, ALL_DIRECTIONS};

/// Asks a search running on another thread to end now; clones share the request.
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// Whether the search should go on after a solution was reported.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Flow {
    Continue,
    Stop,
}

/// How a search went.
#[derive(Clone, Copy, Debug, Default)]
pub struct SearchStats {
    pub nodes: u64,
    /// Phase-1 solutions handed to phase 2, and phase-2 nodes.
    pub phase2_starts: u64,
    pub phase2_nodes: u64,
    pub solutions: usize,
    pub elapsed: Duration,
    /// True when every phase-1 depth that could still shorten the solution was searched.
    pub exhausted: bool,
}

const MAX_PHASE1: usize = 20;
const MAX_PHASE2: usize = 18;
const MAX_PATH: usize = MAX_PHASE1 + MAX_PHASE2 + 2;

/// One of the six ways to look at the cube.
struct Direction {
    /// Maps a turn of the searched cube back to the turn of the real cube.
    back: [u8; 18],
    inverse: bool,
    flip: u16,
    twist: u16,
    slice_sorted: u16,
    u_edges: u16,
    d_edges: u16,
    corners: u16,
}

impl Direction {
    fn new(cube: &CubieCube, index: usize) -> Direction {
        let syms = Symmetries::get();
        let inverse = index >= 3;
        let base = if inverse { cube.inverse() } else { *cube };
        let s = 16 * (index % 3);
        let c = syms.conjugate(&base, s);
        let (flip, twist, slice_sorted) =
            (coord::flip(&c), coord::twist(&c), coord::slice_sorted(&c));
        Direction {
            back: syms.conj_move[syms.inverse[s]],
            inverse,
            flip,
            twist,
            slice_sorted,
            u_edges: coord::u_edges(&c),
            d_edges: coord::d_edges(&c),
            corners: coord::corners(&c),
        }
    }

    fn to_real(&self, path: &[u8]) -> Vec<Turn> {
        let turns = path
            .iter()
            .map(|&m| Turn::from_index(self.back[m as usize] as usize));
        if self.inverse {
            turns.rev().map(Turn::inverse).collect()
        } else {
            turns.collect()
        }
    }
}

pub(crate) struct Search<'a, 'f> {
    t: &'a Tables,
    opts: &'a SearchOptions,
    on_solution: &'f mut dyn FnMut(&[Turn]) -> Flow,
    deadline: Instant,
    stats: SearchStats,
    stop: bool,
    best: usize,
    path: [u8; MAX_PATH],
    len1: usize,
    /// U- and D-edge coordinates along the phase-1 path, computed only
    /// where phase 2 starts, valid up to `valid_ud`.
    u_at: [u16; MAX_PATH],
    d_at: [u16; MAX_PATH],
    valid_ud: usize,
    dirs: Vec<Direction>,
    dir: usize,
    /// Ends of phase 1 waiting to be checked (all of the current direction and depth).
    queue: EndQueue,
    /// Phase-2 completions of the current phase-1 path reported so far (with `phase2_alternatives`).
    completions: usize,
}

/// A phase-1 node with the corner and slice coordinates phase 2 starts from
/// (carried so that their move-table rows can be fetched ahead).
#[derive(Clone, Copy)]
struct At<N> {
    node: N,
    corners: u16,
    slice: u16,
}

/// True if a node `togo` turns from the end of phase 1 is searched by its
/// children (expanded ahead by its parent), not finished by `entries` or endings.
fn expands<P: Phase1>(p: &P, togo: usize) -> bool {
    togo > p.ending_depth().max(1)
}

impl<'a, 'f> Search<'a, 'f> {
    pub(crate) fn new(
        t: &'a Tables,
        opts: &'a SearchOptions,
        on_solution: &'f mut dyn FnMut(&[Turn]) -> Flow,
    ) -> Search<'a, 'f> {
        Search {
            t,
            opts,
            on_solution,
            deadline: Instant::now() + opts.budget,
            stats: SearchStats::default(),
            stop: false,
            best: opts.max_length + 1,
            path: [0; MAX_PATH],
            len1: 0,
            u_at: [0; MAX_PATH],
            d_at: [0; MAX_PATH],
            valid_ud: 0,
            dirs: Vec::new(),
            dir: 0,
            queue: EndQueue::new(),
            completions: 0,
        }
    }

    /// Runs the search on `cube` (not solved) until done, stopped or out of time.
    pub(crate) fn run(mut self, cube: &CubieCube) -> SearchStats {
        let start = Instant::now();
        self.dirs = (0..6).map(|i| Direction::new(cube, i)).collect();
        match SymPhase1::new(self.t) {
            Some(p) => self.run_with(&p),
            None => self.run_with(&RawPhase1::new(self.t)),
        }
        self.stats.elapsed = start.elapsed();
        self.stats
    }

    fn run_with<P: Phase1>(&mut self, p: &P) {
        let roots: Vec<At<P::Node>> = (self.dirs.iter())
            .map(|d| At {
                node: p.root(d.flip, d.slice_sorted, d.twist),
                corners: d.corners,
                slice: d.slice_sorted,
            })
            .collect();
        let mut root_pending = Pending::default();
        let mut below = vec![[Pending::default(); 18]; MAX_PHASE1];
        for depth1 in 0..=MAX_PHASE1 {
            if depth1 + usize::from(!self.opts.alternatives)
                > (self.best + self.slack()).min(self.opts.max_length)
            {
                self.stats.exhausted = true;
                return;
            }
            for (i, root) in roots.iter().enumerate() {
                if self.opts.directions & (1 << i) == 0 || P::dist(&root.node) as usize > depth1 {
                    continue;
                }
                self.dir = i;
                self.len1 = depth1;
                self.u_at[0] = self.dirs[i].u_edges;
                self.d_at[0] = self.dirs[i].d_edges;
                self.valid_ud = 0;
                if expands(p, depth1) {
                    p.expand(&root.node, followers(None), depth1, &mut root_pending);
                }
                self.phase1(p, *root, depth1, 0, &mut root_pending, &mut below);
                self.flush();
                if self.stop {
                    return;
                }
            }
        }
    }

    #[inline(always)]
    fn tick(&mut self) {
        self.stats.nodes += 1;
        if self.stats.nodes & 255 == 0
            && (self.opts.cancel.is_cancelled() || self.stats.solutions > 0 && self.out_of_budget())
        {
            self.stop = true;
        }
    }

    fn out_of_budget(&self) -> bool {
        match self.opts.node_budget {
            Some(n) => self.stats.nodes >= n,
            None => Instant::now() >= self.deadline,
        }
    }

    /// Sets turn `n` of the path (the coordinates after it are then stale).
    #[inline(always)]
    fn set_turn(&mut self, n: usize, mv: u8) {
        self.path[n] = mv;
        self.valid_ud = self.valid_ud.min(n);
    }

    /// Searches below a node `togo` turns from the end of phase 1, whose
    /// candidate children (when `togo >= 2`) its parent expanded into `mine`.
    /// `below` holds the candidates of the levels underneath, one per child.
    fn phase1<P: Phase1>(
        &mut self,
        p: &P,
        at: At<P::Node>,
        togo: usize,
        n: usize,
        mine: &mut Pending<P::Node>,
        below: &mut [[Pending<P::Node>; 18]],
    ) {
        self.tick();
        if togo == 0 {
            // Only a cube already in phase 2 at the root gets here.
            self.start_phase2(at.corners, at.slice, None);
            return;
        }
        if togo <= p.ending_depth() {
            self.enqueue(p.endings(&at.node, togo), at.corners, at.slice, togo, n);
            return;
        }
        if togo == 1 {
            let allowed = followers((n > 0).then(|| self.path[n - 1]));
            let entries = p.entries(&at.node, allowed);
            if entries != 0 {
                self.phase1_leaves(&at, entries, n);
            }
            return;
        }
        let count = p.settle(&at.node, togo, mine);
        // `below` has a level for every depth phase 1 can reach.
        let Some((level, rest)) = below.split_first_mut() else {
            return;
        };
        let m = &self.t.moves;
        let corners = &m.corners[at.corners as usize * 18..][..18];
        let slices = &m.slice_sorted[at.slice as usize * 18..][..18];
        let mut next = [(0u16, 0u16); 18];
        for (kid, next) in mine.kids[..count].iter().zip(&mut next) {
            *next = (corners[kid.mv as usize], slices[kid.mv as usize]);
            prefetch(&m.corners, next.0 as usize * 18 + 9);
            prefetch(&m.slice_sorted, next.1 as usize * 18 + 9);
        }
        if expands(p, togo - 1) {
            // All children expand now: their memory reads overlap each other
            // and the search below the first ones.
            for (kid, pending) in mine.kids[..count].iter().zip(level.iter_mut()) {
                p.expand(&kid.node, followers(Some(kid.mv)), togo - 1, pending);
            }
        }
        for ((kid, &(corners, slice)), pending) in
            mine.kids[..count].iter().zip(&next).zip(level.iter_mut())
        {
            self.set_turn(n, kid.mv);
            let at = At {
                node: kid.node,
                corners,
                slice,
            };
            self.phase1(p, at, togo - 1, n + 1, pending, rest);
            if self.stop {
                return;
            }
        }
    }

    /// Most phase-2 turns still worth searching after the phase-1 path.
    fn phase2_limit(&self) -> Option<usize> {
        (self.allowed_total())
            .checked_sub(self.len1)
            .map(|l| l.min(MAX_PHASE2))
    }

    /// Longest total solution still worth finding.
    fn allowed_total(&self) -> usize {
        if self.opts.alternatives {
            (self.best + self.opts.slack).min(self.opts.max_length)
        } else {
            self.best.min(self.opts.max_length + 1) - 1
        }
    }

    /// Extra turns beyond the best that are still reported.
    fn slack(&self) -> usize {
        if self.opts.alternatives {
            self.opts.slack
        } else {
            0
        }
    }

    /// Brings the U- and D-edge coordinates along the path up to depth `n`.
    fn walk_ud(&mut self, n: usize) {
        let m = &self.t.moves;
        for i in self.valid_ud..n {
            let k = self.path[i] as usize;
            self.u_at[i + 1] = m.u_edges[self.u_at[i] as usize * 18 + k];
            self.d_at[i + 1] = m.d_edges[self.d_at[i] as usize * 18 + k];
        }
        self.valid_ud = self.valid_ud.max(n);
    }

    /// Hands the phase-1 solutions ending in the turns of `entries` after
    /// depth `n` to phase 2; their corner-slice entries are fetched together.
    fn phase1_leaves<N>(&mut self, at: &At<N>, entries: u32, n: usize) {
        let m = &self.t.moves;
        let (c, s) = (at.corners as usize, at.slice as usize);
        let mut leaves = [(0u8, 0u16, 0u16); 18];
        let mut count = 0;
        for mv in moves_in(entries) {
            let (c1, s1) = (
                m.corners[c * 18 + mv as usize],
                m.slice_sorted[s * 18 + mv as usize],
            );
            prefetch(&self.t.cornslice, c1 as usize * 24 + s1 as usize);
            leaves[count] = (mv, c1, s1);
            count += 1;
        }
        for &(mv, c1, s1) in &leaves[..count] {
            self.tick();
            self.set_turn(n, mv);
            self.start_phase2(c1, s1, Some(mv));
            if self.stop {
                return;
            }
        }
    }

    /// Phase 2 from the end of a phase-1 path of `len1` turns, whose last turn
    /// (None when the path is empty) leads to `corners` and `slice`.
    fn start_phase2(&mut self, corners: u16, slice: u16, last: Option<u8>) {
        let Some(limit) = self.phase2_limit() else {
            return;
        };
        let cs = self.t.cornslice[corners as usize * 24 + slice as usize] as usize;
        if cs > limit {
            return;
        }
        self.stats.phase2_starts += 1;
        let n = self.len1 - usize::from(last.is_some());
        self.walk_ud(n);
        let (mut u_edges, mut d_edges) = (self.u_at[n], self.d_at[n]);
        if let Some(mv) = last {
            let m = &self.t.moves;
            u_edges = m.u_edges[u_edges as usize * 18 + mv as usize];
            d_edges = m.d_edges[d_edges as usize * 18 + mv as usize];
        }
        let ud = self.t.merge.merge(u_edges, d_edges);
        let Some(dprune) = self.t.phase2_depth_within(corners, ud, slice, limit) else {
            return;
        };
        self.completions = 0;
        for togo in cs.max(dprune as usize)..=limit {
            if self.phase2(corners, ud, slice, togo, self.len1) {
                if !self.enumerates() {
                    self.report(self.len1 + togo);
                }
                return;
            }
            if self.stop || self.completions > 0 {
                return;
            }
        }
    }

    /// Whether phase 2 reports its completions itself (more than the first one).
    fn enumerates(&self) -> bool {
        self.opts.alternatives && self.opts.phase2_alternatives > 1
    }

    #[allow(clippy::too_many_arguments)]
    fn phase2(&mut self, corners: u16, ud: u16, slice: u16, togo: usize, n: usize) -> bool {
        self.tick();
        self.stats.phase2_nodes += 1;
        if togo == 0 {
            let solved = corners == 0 && ud == 0 && slice == 0;
            if solved && self.enumerates() {
                self.report(n);
                self.completions += 1;
                return self.completions >= self.opts.phase2_alternatives;
            }
            return solved;
        }
        let m = &self.t.moves;
        let last = (n > 0).then(|| self.path[n - 1]);
        for &mv in &PHASE2_MOVES {
            if !may_follow(last, mv) {
                continue;
            }
            let k = mv as usize;
            let c1 = m.corners[corners as usize * 18 + k];
            let s1 = m.slice_sorted[slice as usize * 18 + k];
            if self.t.cornslice[c1 as usize * 24 + s1 as usize] as usize >= togo {
                continue;
            }
            let u1 = m.ud_edges[ud as usize * 18 + k];
            let d1 = self.t.phase2_child(c1, u1, s1);
            if d1 as usize >= togo {
                continue;
            }
            self.path[n] = mv;
            if self.phase2(c1, u1, s1, togo - 1, n + 1) {
                return true;
            }
            if self.stop {
                return false;
            }
        }
        false
    }

    fn report(&mut self, len: usize) {
        let turns = self.dirs[self.dir].to_real(&self.path[..len]);
        self.best = self.best.min(len);
        self.stats.solutions += 1;
        if (self.on_solution)(&turns) == Flow::Stop {
            self.stop = true;
        }
        if self.opts.target_length.is_some_and(|t| len <= t) {
            self.stop = true;
        }
        if self.out_of_budget() {
            self.stop = true;
        }
    }
}
