//! Counting block sequences by cost: each sequence once, at its cheapest run, and the mean and median of the cheapest so many.

use super::Unit;
use foldhash::HashMap;

/// Most sets of nodes counted.
const MOST_SETS: usize = 1 << 20;
/// Most nodes over all sets (each held twice, about 32 bytes in all: some 128 MB).
const MOST_ENTRIES: usize = 1 << 22;
/// Most units looked at while finding the sets (about ten seconds here).
const MOST_VISITS: usize = 1 << 31;
/// Most counters of the count by cost (8 bytes each: 256 MB).
const MOST_CELLS: usize = 1 << 25;

/// A set of nodes a block sequence may end in, each with its cost above the cheapest: sorted
/// `(node, ms)`.
type NodeSet = Vec<(usize, u32)>;

/// Why a count was not made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Short {
    /// It would need more than the memory allowed it (what for).
    TooLarge(&'static str),
    /// The units never reach that many sequences.
    TooFew,
}

/// The units of sequences: from each set of nodes, one unit per block that some node's units
/// perform, to the set they end in, costing the cheapest of them. Counting over these counts
/// each block sequence once, at its cheapest. What a node costs above the set's cheapest is
/// capped at `cap_ms` and rounded down to a multiple of `step_ms` (both only lower the costs
/// counted, and keep the sets few); None past [`MOST_SETS`] sets, [`MOST_ENTRIES`] nodes in
/// them or [`MOST_VISITS`] units looked at.
pub(super) fn by_sequence(
    units: &[Vec<Unit>],
    cap_ms: u32,
    step_ms: u32,
) -> Option<Vec<Vec<Unit>>> {
    let start: NodeSet = vec![(0, 0)];
    let mut ids: HashMap<NodeSet, usize> = HashMap::default();
    ids.insert(start.clone(), 0);
    let mut sets = vec![start];
    let (mut entries, mut visits) = (1, 0);
    let mut reached = Reached::new(units);
    let mut out = Vec::new();
    while out.len() < sets.len() {
        for &(node, above) in &sets[out.len()] {
            visits += units[node].len();
            for unit in &units[node] {
                reached.offer(unit, above);
            }
        }
        let mut row = Vec::new();
        reached.drain(|block, least, set| {
            let set = set.map(|(node, ms)| (node, ms.min(cap_ms) / step_ms * step_ms));
            let set: NodeSet = set.collect();
            let to = *ids.entry(set).or_insert_with_key(|set| {
                entries += set.len();
                sets.push(set.clone());
                sets.len() - 1
            });
            let ms = least;
            row.push(Unit { block, ms, to });
        });
        out.push(row);
        if sets.len() > MOST_SETS || entries > MOST_ENTRIES || visits > MOST_VISITS {
            return None;
        }
    }
    Some(out)
}

/// The least cost of each (block, node) the units out of one set reach, and which were reached.
struct Reached {
    nodes: usize,
    /// Indexed by block × nodes + node; `u32::MAX` where not reached.
    cost: Vec<u32>,
    touched: Vec<usize>,
}

impl Reached {
    fn new(units: &[Vec<Unit>]) -> Reached {
        let blocks = units
            .iter()
            .flatten()
            .map(|u| usize::from(u.block) + 1)
            .max();
        Reached {
            nodes: units.len(),
            cost: vec![u32::MAX; blocks.unwrap_or(0) * units.len()],
            touched: Vec::new(),
        }
    }

    fn offer(&mut self, unit: &Unit, above: u32) {
        let slot = usize::from(unit.block) * self.nodes + unit.to;
        if self.cost[slot] == u32::MAX {
            self.touched.push(slot);
        }
        self.cost[slot] = self.cost[slot].min(above + unit.ms);
    }

    /// Each block reached, in order: its least cost and its nodes in order, each with what it
    /// costs above that; then forgets them all.
    fn drain(&mut self, mut each: impl FnMut(u8, u32, &mut dyn Iterator<Item = (usize, u32)>)) {
        self.touched.sort_unstable();
        let (n, cost) = (self.nodes, &self.cost);
        for group in self.touched.chunk_by(|a, b| a / n == b / n) {
            let least = group.iter().map(|&s| cost[s]).min().unwrap_or(0);
            let mut set = group.iter().map(|&s| (s % n, cost[s] - least));
            each((group[0] / n) as u8, least, &mut set);
        }
        for &slot in &self.touched {
            self.cost[slot] = u32::MAX;
        }
        self.touched.clear();
    }
}

/// The step the count by cost takes (ms): the units' greatest common divisor, coarser where
/// that would need more than [`MOST_CELLS`] counters (each unit's cost then rounded down to
/// whole steps, which only lowers the costs counted); None if no step fits and keeps every
/// unit's cost above zero.
pub(super) fn time_step(units: &[Vec<Unit>]) -> Option<u32> {
    let exact = exact_step(units);
    let longest = units.iter().flatten().map(|u| u.ms).max().unwrap_or(0) as usize;
    let cells = |step: usize| (longest / step + 1) * units.len();
    if cells(exact as usize) <= MOST_CELLS {
        return Some(exact);
    }
    let cheapest = units.iter().flatten().map(|u| u.ms).min().unwrap_or(0);
    let coarse = (1..=cheapest).find(|&step| cells(step as usize) <= MOST_CELLS)?;
    Some(coarse)
}

/// The greatest common divisor of the units' costs (ms; 1 if there are none).
pub(super) fn exact_step(units: &[Vec<Unit>]) -> u32 {
    units
        .iter()
        .flatten()
        .fold(0u32, |g, u| gcd(g, u.ms))
        .max(1)
}

/// The mean and median cost of the cheapest `positions` unit sequences from node 0 (the empty
/// sequence included), counted in steps of [`time_step`].
pub(super) fn cheapest_sequences(units: &[Vec<Unit>], positions: f64) -> Result<(f64, u64), Short> {
    let step = time_step(units).ok_or(Short::TooLarge("counting sequences by cost"))?;
    counted_in_steps(units, positions, step)
}

/// [`cheapest_sequences`] with each unit's cost rounded down to whole `step`s (ms; at most the
/// cheapest unit's, so that every unit costs something).
pub(super) fn counted_in_steps(
    units: &[Vec<Unit>],
    positions: f64,
    step: u32,
) -> Result<(f64, u64), Short> {
    let longest =
        (units.iter().flatten().map(|u| u.ms / step).max()).ok_or(Short::TooFew)? as usize;
    // counts[t % ring][node]: sequences costing t steps that end in node.
    let ring = longest + 1;
    let mut counts = vec![vec![0f64; units.len()]; ring];
    counts[0][0] = 1.0;
    let (mut taken, mut weighted, mut median) = (0f64, 0f64, None);
    for t in 0usize.. {
        let row = std::mem::replace(&mut counts[t % ring], vec![0f64; units.len()]);
        let here: f64 = row.iter().sum();
        if here == 0.0 && t > 0 && counts.iter().all(|r| r.iter().all(|&c| c == 0.0)) {
            return Err(Short::TooFew);
        }
        let take = here.min(positions - taken);
        taken += take;
        weighted += take * (t as u64 * u64::from(step)) as f64;
        if median.is_none() && taken >= positions / 2.0 {
            median = Some(t as u64 * u64::from(step));
        }
        if taken >= positions {
            return Ok((weighted / positions, median.unwrap_or(0)));
        }
        for (node, &c) in row.iter().enumerate() {
            if c == 0.0 {
                continue;
            }
            for unit in &units[node] {
                let t2 = (t + (unit.ms / step) as usize) % ring;
                counts[t2][unit.to] += c;
            }
        }
    }
    Err(Short::TooFew)
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}
