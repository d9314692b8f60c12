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

/// A phase-1 node: its coordinates (with the corners, which phase 2 needs) and its phase-1 distance.
#[derive(Clone, Copy, Default)]
struct Node {
    flip: u16,
    twist: u16,
    slice: u16,
    corners: u16,
    dist: u8,
}

/// A child of a phase-1 node: the turn that leads to it, and the node.
#[derive(Clone, Copy, Default)]
struct Child {
    mv: u8,
    node: Node,
}

/// A cube in phase 2 that leaves it and comes back within this many turns
/// used phase-2 turns only (checked by a test): such a path ends in a
/// phase-2 turn, which the search never lets a phase-1 solution end with.
pub(crate) const NO_SHORT_RETURN: usize = 4;

/// True if turn `m` may follow turn `last` (no same face twice, opposite faces in one order only).
#[inline(always)]
pub(crate) fn may_follow(last: Option<u8>, m: u8) -> bool {
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
    /// U- and D-edge coordinates along the phase-1 path, valid up to `valid`.
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
                self.u_at[0] = d.u_edges;
                self.d_at[0] = d.d_edges;
                self.valid = 0;
                let root = Node {
                    flip: d.flip,
                    twist: d.twist,
                    slice: d.slice_sorted,
                    corners: d.corners,
                    dist: d.depth1,
                };
                self.phase1(&dirs, root, depth1, 0);
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

    fn phase1(&mut self, dirs: &[Direction], node: Node, togo: usize, n: usize) {
        self.tick();
        if togo == 0 {
            // Only a cube already in phase 2 at the root gets here.
            self.walk_to(n);
            let (u, d) = (self.u_at[n], self.d_at[n]);
            self.start_phase2(dirs, node.corners, u, d, node.slice);
            return;
        }
        let (children, count) = self.phase1_children(&node, togo, n);
        if togo == 1 {
            self.phase1_leaves(dirs, &children[..count], n);
            return;
        }
        for kid in &children[..count] {
            self.path[n] = kid.mv;
            self.valid = self.valid.min(n);
            self.phase1(dirs, kid.node, togo - 1, n + 1);
            if self.stop {
                return;
            }
        }
    }

    /// Longest total solution still worth finding.
    fn allowed_total(&self) -> usize {
        self.best.min(self.opts.max_length + 1) - usize::from(!self.opts.alternatives)
    }

    /// The children of a phase-1 node that may still reach phase 2 in `togo - 1`
    /// turns, with their distances. Done in stages so that the table reads of all
    /// children are in flight together: coordinates and prefetches, then the
    /// small bound, then the large tables.
    fn phase1_children(&self, node: &Node, togo: usize, n: usize) -> ([Child; 18], usize) {
        let m = &self.t.moves;
        let last = (n > 0).then(|| self.path[n - 1]);
        let mut kids = [Child::default(); 18];
        let mut count = 0;
        for mv in 0..18u8 {
            if !may_follow(last, mv) {
                continue;
            }
            let k = mv as usize;
            let kid = Node {
                flip: m.flip[node.flip as usize * 18 + k],
                twist: m.twist[node.twist as usize * 18 + k],
                slice: m.slice_sorted[node.slice as usize * 18 + k],
                corners: m.corners[node.corners as usize * 18 + k],
                dist: 0,
            };
            let in_phase2 = kid.flip == 0 && kid.twist == 0 && kid.slice < 24;
            if togo == 1 {
                // The last turn must enter phase 2 itself.
                if in_phase2 {
                    kids[count] = Child { mv, node: kid };
                    count += 1;
                }
                continue;
            }
            if in_phase2 && togo <= NO_SHORT_RETURN + 1 {
                continue;
            }
            self.t.prefetch_phase1(kid.flip, kid.slice, kid.twist);
            kids[count] = Child { mv, node: kid };
            count += 1;
        }
        if togo == 1 {
            return (kids, count);
        }
        let mut index = [0usize; 18];
        let mut kept = 0;
        for i in 0..count {
            let kid = kids[i].node;
            let bound = self.t.phase1_small_bound(kid.flip, kid.slice, kid.twist);
            if (bound as usize) < togo {
                index[kept] = self
                    .t
                    .phase1_index(kid.flip, kid.slice, kid.twist)
                    .unwrap_or(usize::MAX);
                kids[kept] = kids[i];
                kids[kept].node.dist = bound;
                kept += 1;
            }
        }
        let mut survivors = 0;
        for i in 0..kept {
            let mut kid = kids[i];
            if index[i] != usize::MAX {
                kid.node.dist = self.t.phase1_child_at(node.dist, index[i]);
            }
            if kid.node.dist as usize >= togo {
                continue;
            }
            kids[survivors] = kid;
            survivors += 1;
        }
        (kids, survivors)
    }

    /// Brings the U- and D-edge coordinates along the path up to depth `n`.
    fn walk_to(&mut self, n: usize) {
        let m = &self.t.moves;
        for i in self.valid..n {
            let k = self.path[i] as usize;
            self.u_at[i + 1] = m.u_edges[self.u_at[i] as usize * 18 + k];
            self.d_at[i + 1] = m.d_edges[self.d_at[i] as usize * 18 + k];
        }
        self.valid = self.valid.max(n);
    }

    /// The children of a node one turn from phase 2: each that enters phase 2
    /// with a turn that is not itself a phase-2 turn is handed to phase 2. Their
    /// corner-slice entries are fetched together.
    fn phase1_leaves(&mut self, dirs: &[Direction], leaves: &[Child], n: usize) {
        if leaves.iter().all(|kid| is_phase2_move(kid.mv)) {
            return;
        }
        self.walk_to(n);
        for kid in leaves {
            let i = kid.node.corners as usize * 24 + kid.node.slice as usize;
            super::tables::prefetch(&self.t.cornslice, i);
        }
        let m = &self.t.moves;
        let (u, d) = (self.u_at[n] as usize, self.d_at[n] as usize);
        for kid in leaves {
            if is_phase2_move(kid.mv) {
                continue;
            }
            self.tick();
            self.path[n] = kid.mv;
            self.valid = self.valid.min(n);
            let k = kid.mv as usize;
            let (u1, d1) = (m.u_edges[u * 18 + k], m.d_edges[d * 18 + k]);
            self.start_phase2(dirs, kid.node.corners, u1, d1, kid.node.slice);
            if self.stop {
                return;
            }
        }
    }

    fn start_phase2(
        &mut self,
        dirs: &[Direction],
        corners: u16,
        u_edges: u16,
        d_edges: u16,
        slice: u16,
    ) {
        let Some(limit) = self
            .allowed_total()
            .checked_sub(self.len1)
            .map(|l| l.min(MAX_PHASE2))
        else {
            return;
        };
        let cs = self.t.cornslice[corners as usize * 24 + slice as usize] as usize;
        if cs > limit {
            return;
        }
        self.stats.phase2_starts += 1;
        let ud = self.t.merge.merge(u_edges, d_edges);
        let Some(dprune) = self.t.phase2_depth_within(corners, ud, slice, limit) else {
            return;
        };
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
