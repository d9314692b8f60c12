//! Counting block sequences by cost: each sequence once, at its cheapest run, and the mean and median of the cheapest so many.

use super::Unit;
use std::collections::{BTreeMap, HashMap};

/// Most sets of nodes counted.
const MOST_SETS: usize = 1 << 20;

/// A set of nodes a block sequence may end in, each with its cost above the cheapest: sorted
/// `(node, ms)`.
type NodeSet = Vec<(usize, u32)>;

/// The units of sequences: from each set of nodes, one unit per block that some node's units
/// perform, to the set they end in, costing the cheapest of them (None: more than
/// [`MOST_SETS`] sets). Counting over these counts each block sequence once, at its cheapest.
pub(super) fn by_sequence(units: &[Vec<Unit>], cap_ms: u32) -> Option<Vec<Vec<Unit>>> {
    let start: NodeSet = vec![(0, 0)];
    let mut ids: HashMap<NodeSet, usize> = HashMap::from([(start.clone(), 0)]);
    let mut sets = vec![start];
    let mut out = Vec::new();
    while out.len() < sets.len() {
        let mut ends: BTreeMap<u8, HashMap<usize, u32>> = BTreeMap::new();
        for &(node, above) in &sets[out.len()] {
            for unit in &units[node] {
                let cost = ends.entry(unit.block).or_default().entry(unit.to);
                let cost = cost.or_insert(u32::MAX);
                *cost = (*cost).min(above + unit.ms);
            }
        }
        let mut row = Vec::with_capacity(ends.len());
        for (block, reached) in ends {
            let least = reached.values().copied().min().unwrap_or(0);
            let mut set: NodeSet = (reached.into_iter())
                .map(|(node, ms)| (node, (ms - least).min(cap_ms)))
                .collect();
            set.sort_unstable();
            let to = *ids.entry(set).or_insert_with_key(|set| {
                sets.push(set.clone());
                sets.len() - 1
            });
            row.push(Unit {
                block,
                ms: least,
                to,
            });
        }
        out.push(row);
        if sets.len() > MOST_SETS {
            return None;
        }
    }
    Some(out)
}

/// The mean and median cost of the cheapest `positions` unit sequences from node 0 (the empty
/// sequence included), or None if the units never reach that many.
pub(super) fn cheapest_sequences(units: &[Vec<Unit>], positions: f64) -> Option<(f64, u64)> {
    let step = units
        .iter()
        .flatten()
        .fold(0u32, |g, u| gcd(g, u.ms))
        .max(1);
    let longest = units.iter().flatten().map(|u| u.ms / step).max()? as usize;
    // counts[t % ring][node]: sequences costing t steps that end in node.
    let ring = longest + 1;
    let mut counts = vec![vec![0f64; units.len()]; ring];
    counts[0][0] = 1.0;
    let (mut taken, mut weighted, mut median) = (0f64, 0f64, None);
    for t in 0usize.. {
        let row = std::mem::replace(&mut counts[t % ring], vec![0f64; units.len()]);
        let here: f64 = row.iter().sum();
        if here == 0.0 && t > 0 && counts.iter().all(|r| r.iter().all(|&c| c == 0.0)) {
            return None;
        }
        let take = here.min(positions - taken);
        taken += take;
        weighted += take * (t as u64 * u64::from(step)) as f64;
        if median.is_none() && taken >= positions / 2.0 {
            median = Some(t as u64 * u64::from(step));
        }
        if taken >= positions {
            return Some((weighted / positions, median.unwrap_or(0)));
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
    None
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}
