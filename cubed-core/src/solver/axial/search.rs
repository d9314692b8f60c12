//! The anytime axial two-phase search: phase 1 in blocks to the group ⟨U, D, R2, F2, L2, B2⟩, phase 2 the cheapest completion by price, each cheaper solution reported as found.

use super::moves::{AxialMove, AxialPrices, N_AXIAL};
use super::tables::{phase2_moves, AxialTables, PricedPhase2};
use crate::cube::{CubieCube, Turn};
use crate::solver::coord;
use crate::solver::symmetry::Symmetries;
use crate::solver::{Cancel, Flow};
use std::time::{Duration, Instant};

/// Longest phase 1 tried, in blocks.
const MAX_PHASE1: usize = 14;
/// Longest path kept (phase 1 and phase 2).
const MAX_PATH: usize = 40;

/// What to search for and for how long.
#[derive(Clone, Debug)]
pub struct AxialOptions {
    /// Time after which the search stops (it runs on past it only until a first solution
    /// exists, or `below` gives one).
    pub budget: Duration,
    /// Instead of time, stop after this many nodes (as `budget` does): the same result on any
    /// machine.
    pub node_budget: Option<u64>,
    /// Which of the six directions are searched (bit i: axis i % 3, the inverse cube from 3).
    pub directions: u8,
    /// Report only solutions cheaper than this (a price already in hand); with it, the search
    /// ends at its budget even with nothing found.
    pub below: Option<u32>,
    pub cancel: Cancel,
}

impl Default for AxialOptions {
    fn default() -> Self {
        AxialOptions {
            budget: Duration::from_millis(100),
            node_budget: None,
            directions: crate::solver::ALL_DIRECTIONS,
            below: None,
            cancel: Cancel::default(),
        }
    }
}

/// How a search went.
#[derive(Clone, Copy, Debug, Default)]
pub struct AxialStats {
    /// Nodes whose pruning tables were read: searching for candidates on six-motor, about as
    /// many per ms as the face-turn search's nodes (13 k/ms against 10), so that a counted
    /// budget means nearly the same time for both.
    pub nodes: u64,
    pub solutions: usize,
    /// The cheapest price found (in the prices' own unit).
    pub best: Option<u32>,
}

/// One of the six ways to look at the cube, with the prices as its moves see them.
struct Direction<'p> {
    /// The real cube's turn for each turn of the searched cube.
    back: [u8; 18],
    inverse: bool,
    cube: CubieCube,
    /// Prices of the searched cube's axial moves, in units of the prices' common divisor.
    price: [u16; N_AXIAL],
    /// The cheapest move's price.
    cheapest: u32,
    priced: &'p PricedPhase2,
}

impl Direction<'_> {
    fn price_of(&self, path: &[u8]) -> u32 {
        path.iter().map(|&k| self.price[k as usize] as u32).sum()
    }

    fn to_real(&self, path: &[u8]) -> Vec<Turn> {
        let turns = path
            .iter()
            .flat_map(|&k| AxialMove::from_index(k as usize).turns())
            .map(|t| Turn::from_index(self.back[t.index()] as usize));
        if self.inverse {
            let mut turns: Vec<Turn> = turns.map(Turn::inverse).collect();
            turns.reverse();
            turns
        } else {
            turns.collect()
        }
    }
}

/// Prices of the searched cube's moves in direction `index` (each move mapped to the real
/// cube's move: relabelled, and inverted for the inverse cube).
pub(crate) fn direction_prices(prices: &AxialPrices, index: usize) -> [u16; N_AXIAL] {
    let syms = Symmetries::get();
    let s = 16 * (index % 3);
    let back = syms.conj_move[syms.inverse[s]];
    std::array::from_fn(|k| {
        let real: Vec<Turn> = AxialMove::from_index(k)
            .turns()
            .map(|t| Turn::from_index(back[t.index()] as usize))
            .map(|t| if index >= 3 { t.inverse() } else { t })
            .collect();
        prices.of_turns(&real) as u16
    })
}

/// Phase-2 price tables for each distinct set of direction prices.
pub struct PricedSet {
    /// The common divisor of every price: the search's unit.
    pub unit: u16,
    tables: Vec<PricedPhase2>,
    /// Index into `tables` per direction.
    of_direction: [usize; 6],
}

impl PricedSet {
    pub fn build(tables: &AxialTables, prices: &AxialPrices) -> PricedSet {
        let unit = prices.price.iter().fold(0u16, |g, &p| gcd(g, p)).max(1);
        let mut built: Vec<PricedPhase2> = Vec::new();
        let of_direction = std::array::from_fn(|d| {
            let price = direction_prices(prices, d).map(|p| p / unit);
            match built.iter().position(|t| t.prices.price == price) {
                Some(i) => i,
                None => {
                    built.push(PricedPhase2::build(tables, AxialPrices { price }));
                    built.len() - 1
                }
            }
        });
        PricedSet {
            unit,
            tables: built,
            of_direction,
        }
    }
}

fn gcd(a: u16, b: u16) -> u16 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// Phase-2 coordinates of a node.
#[derive(Clone, Copy)]
struct Phase2Node {
    corners: u16,
    ud: u16,
    slice: u16,
}

/// Phase-1 coordinates of a node, and the phase-2 ones carried along.
#[derive(Clone, Copy)]
struct Node {
    flip: u16,
    slice: u16,
    twist: u16,
    depth: u8,
    corners: u16,
    slice_sorted: u16,
    u_edges: u16,
    d_edges: u16,
}

/// Searches `cube`, calling `on_solution(turns, price)` with each solution cheaper than every
/// one before it.
pub fn search_axial(
    tables: &AxialTables,
    priced: &PricedSet,
    cube: &CubieCube,
    opts: &AxialOptions,
    mut on_solution: impl FnMut(&[Turn], u32) -> Flow,
) -> AxialStats {
    let syms = Symmetries::get();
    let directions: Vec<Direction> = (0..6)
        .filter(|d| opts.directions & (1 << d) != 0)
        .map(|d| {
            let s = 16 * (d % 3);
            let base = if d >= 3 { cube.inverse() } else { *cube };
            let priced = &priced.tables[priced.of_direction[d]];
            Direction {
                back: syms.conj_move[syms.inverse[s]],
                inverse: d >= 3,
                cube: syms.conjugate(&base, s),
                price: priced.prices.price,
                cheapest: priced.prices.cheapest() as u32,
                priced,
            }
        })
        .collect();
    let mut search = Axial {
        t: tables,
        opts,
        unit: priced.unit as u32,
        on_solution: &mut on_solution,
        deadline: Instant::now() + opts.budget,
        stats: AxialStats::default(),
        best: opts
            .below
            .map_or(u32::MAX, |b| b.div_ceil(priced.unit as u32)),
        path: [0; MAX_PATH],
        stopped: false,
    };
    search.run(&directions);
    search.stats
}

struct Axial<'a, 'f> {
    t: &'a AxialTables,
    opts: &'a AxialOptions,
    unit: u32,
    on_solution: &'f mut dyn FnMut(&[Turn], u32) -> Flow,
    deadline: Instant,
    stats: AxialStats,
    /// The cheapest solution's price so far, in units.
    best: u32,
    path: [u8; MAX_PATH],
    stopped: bool,
}

impl Axial<'_, '_> {
    fn run(&mut self, directions: &[Direction]) {
        let roots: Vec<Node> = directions.iter().map(|d| self.root(&d.cube)).collect();
        for length in 0..=MAX_PHASE1 {
            for (dir, root) in directions.iter().zip(&roots) {
                if root.depth as usize <= length && !self.stopped {
                    self.phase1(dir, *root, 0, length, 0, None);
                }
            }
            if self.stopped {
                return;
            }
        }
    }

    fn root(&self, c: &CubieCube) -> Node {
        let (flip, slice_sorted, twist) = (coord::flip(c), coord::slice_sorted(c), coord::twist(c));
        let slice = slice_sorted / 24;
        Node {
            flip,
            slice,
            twist,
            depth: self.t.phase1_depth(flip, slice, twist),
            corners: coord::corners(c),
            slice_sorted,
            u_edges: coord::u_edges(c),
            d_edges: coord::d_edges(c),
        }
    }

    /// Counts a node whose pruning tables are about to be read; true once the search must stop.
    fn count_probe(&mut self) -> bool {
        self.stats.nodes += 1;
        if !self.stats.nodes.is_multiple_of(256) || self.best == u32::MAX {
            return self.stopped;
        }
        let over_nodes = self.opts.node_budget.is_some_and(|n| self.stats.nodes >= n);
        let over_time = self.opts.node_budget.is_none() && Instant::now() >= self.deadline;
        if over_nodes || over_time || self.opts.cancel.is_cancelled() {
            self.stopped = true;
        }
        self.stopped
    }

    /// Every path of exactly `togo` more blocks from `node` that ends phase 1.
    fn phase1(
        &mut self,
        dir: &Direction,
        node: Node,
        n: usize,
        togo: usize,
        spent: u32,
        last: Option<AxialMove>,
    ) {
        if togo == 0 {
            if node.depth == 0 && last.is_none_or(|m| !m.keeps_phase2()) {
                self.start_phase2(dir, &node, n, spent, last);
            }
            return;
        }
        let ax = &self.t.moves;
        for k in 0..N_AXIAL {
            let m = AxialMove::from_index(k);
            if last.is_some_and(|l| l.axis == m.axis) {
                continue;
            }
            let spent1 = spent + dir.price[k] as u32;
            if spent1 + (togo as u32 - 1) * dir.cheapest >= self.best {
                continue;
            }
            let (flip, slice, twist) = (
                ax.flip[node.flip as usize * N_AXIAL + k],
                ax.slice[node.slice as usize * N_AXIAL + k],
                ax.twist[node.twist as usize * N_AXIAL + k],
            );
            if self.t.phase1_small(flip, slice, twist) as usize >= togo {
                continue;
            }
            if self.count_probe() {
                return;
            }
            let depth = self.t.phase1_child(node.depth, flip, slice, twist);
            if depth as usize >= togo {
                continue;
            }
            let child = Node {
                flip,
                slice,
                twist,
                depth,
                corners: ax.corners[node.corners as usize * N_AXIAL + k],
                slice_sorted: ax.slice_sorted[node.slice_sorted as usize * N_AXIAL + k],
                u_edges: ax.u_edges[node.u_edges as usize * N_AXIAL + k],
                d_edges: ax.d_edges[node.d_edges as usize * N_AXIAL + k],
            };
            self.path[n] = k as u8;
            self.phase1(dir, child, n + 1, togo - 1, spent1, Some(m));
            if self.stopped {
                return;
            }
        }
    }

    fn start_phase2(
        &mut self,
        dir: &Direction,
        node: &Node,
        n: usize,
        spent: u32,
        last: Option<AxialMove>,
    ) {
        let ud = self.t.merge.merge(node.u_edges, node.d_edges);
        let root = Phase2Node {
            corners: node.corners,
            ud,
            slice: node.slice_sorted,
        };
        let mut threshold = dir.priced.bound(root.corners, ud, root.slice);
        while spent + threshold < self.best && !self.stopped {
            let mut next = u32::MAX;
            if let Some(len) = self.phase2(dir, root, n, 0, threshold, last, &mut next) {
                let price = spent + dir.price_of(&self.path[n..len]);
                self.report(dir, len, price);
                return;
            }
            if next == u32::MAX {
                return;
            }
            threshold = next;
        }
    }

    /// A phase-2 completion priced at most `threshold` in all (`used` of it spent; none
    /// cheaper exists when the thresholds before it found none); its end index if found.
    /// `next` gathers the least total above `threshold` met (the next one to try).
    #[allow(clippy::too_many_arguments)]
    fn phase2(
        &mut self,
        dir: &Direction,
        at: Phase2Node,
        n: usize,
        used: u32,
        threshold: u32,
        last: Option<AxialMove>,
        next: &mut u32,
    ) -> Option<usize> {
        if at.corners == 0 && at.ud == 0 && at.slice == 0 {
            return Some(n);
        }
        if n >= MAX_PATH {
            return None;
        }
        let ax = &self.t.moves;
        for k in phase2_moves_iter() {
            let m = AxialMove::from_index(k);
            if last.is_some_and(|l| l.axis == m.axis) {
                continue;
            }
            let child = Phase2Node {
                corners: ax.corners[at.corners as usize * N_AXIAL + k],
                ud: ax.ud_edges[at.ud as usize * N_AXIAL + k],
                slice: ax.slice_sorted[at.slice as usize * N_AXIAL + k],
            };
            let used1 = used + dir.price[k] as u32;
            if self.count_probe() {
                return None;
            }
            let f = used1 + dir.priced.bound(child.corners, child.ud, child.slice);
            if f > threshold {
                *next = (*next).min(f);
                continue;
            }
            self.path[n] = k as u8;
            if let Some(end) = self.phase2(dir, child, n + 1, used1, threshold, Some(m), next) {
                return Some(end);
            }
        }
        None
    }

    fn report(&mut self, dir: &Direction, len: usize, price: u32) {
        self.best = price;
        self.stats.solutions += 1;
        self.stats.best = Some(price * self.unit);
        let turns = dir.to_real(&self.path[..len]);
        if (self.on_solution)(&turns, price * self.unit) == Flow::Stop {
            self.stopped = true;
        }
    }
}

fn phase2_moves_iter() -> impl Iterator<Item = usize> {
    static MOVES: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    MOVES.get_or_init(phase2_moves).iter().map(|&k| k as usize)
}
