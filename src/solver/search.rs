//! The anytime two-phase search: six directions (three axes, cube and inverse) searched in turn, depth by depth, each solution reported as found.

use super::coord;
use super::movetables::is_phase2_move;
use super::movetables::PHASE2_MOVES;
use super::symmetry::Symmetries;
use super::tables::Tables;
use crate::cube::{CubieCube, Turn};
use std::time::{Duration, Instant};

/// What to search for and for how long.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// Time after which the search stops (it runs on past it only until a first solution exists).
    pub budget: Duration,
    /// Stop as soon as a solution of at most this many turns is found.
    pub target_length: Option<usize>,
    /// Also report solutions as long as the best so far (not only shorter ones).
    pub alternatives: bool,
    /// Longest solution worth reporting.
    pub max_length: usize,
    /// Stop after this many search nodes (once a solution exists): makes results
    /// reproducible whatever the machine's speed.
    pub node_budget: Option<u64>,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            budget: Duration::from_millis(100),
            target_length: None,
            alternatives: false,
            max_length: 30,
            node_budget: None,
        }
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
    depth1: u8,
}

impl Direction {
    fn new(t: &Tables, cube: &CubieCube, index: usize) -> Direction {
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
            depth1: t.phase1_depth(flip, slice_sorted, twist),
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

/// True if turn `m` may follow turn `last` (no same face twice, opposite faces in one order only).
#[inline(always)]
fn may_follow(last: Option<u8>, m: u8) -> bool {
    match last {
        None => true,
        Some(l) => {
            let (fl, fm) = (l / 3, m / 3);
            fl != fm && fm + 3 != fl
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
    /// Phase-2 coordinates along the phase-1 path, valid up to `valid`.
    corners_at: [u16; MAX_PATH],
    u_at: [u16; MAX_PATH],
    d_at: [u16; MAX_PATH],
    valid: usize,
    dir: usize,
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
            corners_at: [0; MAX_PATH],
            u_at: [0; MAX_PATH],
            d_at: [0; MAX_PATH],
            valid: 0,
            dir: 0,
        }
    }

    /// Runs the search on `cube` (not solved) until done, stopped or out of time.
    pub(crate) fn run(mut self, cube: &CubieCube) -> SearchStats {
        let start = Instant::now();
        let dirs: Vec<Direction> = (0..6).map(|i| Direction::new(self.t, cube, i)).collect();
        'depths: for depth1 in 0..=MAX_PHASE1 {
            if depth1 + usize::from(!self.opts.alternatives) > self.best.min(self.opts.max_length) {
                self.stats.exhausted = true;
                break;
            }
            for (i, d) in dirs.iter().enumerate() {
                if d.depth1 as usize > depth1 {
                    continue;
                }
                self.dir = i;
                self.len1 = depth1;
                self.corners_at[0] = d.corners;
                self.u_at[0] = d.u_edges;
                self.d_at[0] = d.d_edges;
                self.valid = 0;
                self.phase1(&dirs, d.flip, d.twist, d.slice_sorted, d.depth1, depth1, 0);
                if self.stop {
                    break 'depths;
                }
            }
        }
        self.stats.elapsed = start.elapsed();
        self.stats
    }

    #[inline(always)]
    fn tick(&mut self) {
        self.stats.nodes += 1;
        if self.stats.nodes & 255 == 0 && self.stats.solutions > 0 && self.out_of_budget() {
            self.stop = true;
        }
    }

    fn out_of_budget(&self) -> bool {
        match self.opts.node_budget {
            Some(n) => self.stats.nodes >= n,
            None => Instant::now() >= self.deadline,
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn phase1(
        &mut self,
        dirs: &[Direction],
        flip: u16,
        twist: u16,
        slice: u16,
        dist: u8,
        togo: usize,
        n: usize,
    ) {
        self.tick();
        if togo == 0 {
            if n == 0 || !is_phase2_move(self.path[n - 1]) {
                self.start_phase2(dirs, slice);
            }
            return;
        }
        // All children first (independent table reads overlap in memory), then recurse.
        let m = &self.t.moves;
        let last = (n > 0).then(|| self.path[n - 1]);
        let mut children = [(0u8, 0u16, 0u16, 0u16, 0u8); 18];
        let mut count = 0;
        for mv in 0..18u8 {
            if !may_follow(last, mv) {
                continue;
            }
            let k = mv as usize;
            let f1 = m.flip[flip as usize * 18 + k];
            let t1 = m.twist[twist as usize * 18 + k];
            let s1 = m.slice_sorted[slice as usize * 18 + k];
            // The last move must enter phase 2; earlier ones are first checked against the cached small bound.
            let d1 = if togo == 1 {
                if f1 != 0 || t1 != 0 || s1 >= 24 {
                    continue;
                }
                0
            } else {
                if self.t.phase1_small_bound(f1, s1, t1) as usize >= togo {
                    continue;
                }
                self.t.phase1_child(dist, f1, s1, t1)
            };
            children[count] = (mv, f1, t1, s1, d1);
            count += 1;
        }
        for &(mv, f1, t1, s1, d1) in &children[..count] {
            if d1 as usize >= togo {
                continue;
            }
            self.path[n] = mv;
            self.valid = self.valid.min(n);
            self.phase1(dirs, f1, t1, s1, d1, togo - 1, n + 1);
            if self.stop {
                return;
            }
        }
    }

    fn start_phase2(&mut self, dirs: &[Direction], slice: u16) {
        let m = &self.t.moves;
        for i in self.valid..self.len1 {
            let k = self.path[i] as usize;
            self.corners_at[i + 1] = m.corners[self.corners_at[i] as usize * 18 + k];
            self.u_at[i + 1] = m.u_edges[self.u_at[i] as usize * 18 + k];
            self.d_at[i + 1] = m.d_edges[self.d_at[i] as usize * 18 + k];
        }
        self.valid = self.len1;
        let corners = self.corners_at[self.len1];
        let bound = self.best.min(self.opts.max_length + 1) - usize::from(!self.opts.alternatives);
        let Some(limit) = bound.checked_sub(self.len1).map(|l| l.min(MAX_PHASE2)) else {
            return;
        };
        let cs = self.t.cornslice[corners as usize * 24 + slice as usize] as usize;
        if cs > limit {
            return;
        }
        self.stats.phase2_starts += 1;
        let ud = self
            .t
            .merge
            .merge(self.u_at[self.len1], self.d_at[self.len1]);
        let dprune = self.t.phase2_depth(corners, ud, slice);
        for togo in cs.max(dprune as usize)..=limit {
            if self.phase2(corners, ud, slice, dprune, togo, self.len1) {
                self.report(dirs, self.len1 + togo);
                return;
            }
            if self.stop {
                return;
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn phase2(
        &mut self,
        corners: u16,
        ud: u16,
        slice: u16,
        dprune: u8,
        togo: usize,
        n: usize,
    ) -> bool {
        self.tick();
        self.stats.phase2_nodes += 1;
        if togo == 0 {
            return corners == 0 && ud == 0 && slice == 0;
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
            let d1 = self.t.phase2_child(dprune, c1, u1, s1);
            if d1 as usize >= togo {
                continue;
            }
            self.path[n] = mv;
            if self.phase2(c1, u1, s1, d1, togo - 1, n + 1) {
                return true;
            }
            if self.stop {
                return false;
            }
        }
        false
    }

    fn report(&mut self, dirs: &[Direction], len: usize) {
        let turns = dirs[self.dir].to_real(&self.path[..len]);
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
