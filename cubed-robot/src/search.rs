//! Cheapest-path search over (layer × robot state), shared by the solution planner (layer = progress through the moves) and the scan planner (layer = faces seen).
//!
//! A* with the space's lower bound, cut down by a heuristic beam: at most
//! `per_layer` nodes are expanded in each layer (the first ones A* takes,
//! i.e. the lowest cost plus bound). This is a cap chosen by measurement, not
//! a proof: the program found is a legal one and an upper bound on the
//! cheapest, and nodes dropped from a crowded layer are only *usually*
//! dominated by those kept (a few regrips turn one into the other). On the
//! four-arm design the default cap of 80 matched exact A* on the sampled
//! solutions (`robot::tests::capped_search_stays_close_to_exact_search`
//! checks short ones in every run); a cap far too small (under ~20 there)
//! can drop every way through a layer and find no program at all.
//! `usize::MAX` gives exact A*; `cheapest_path_widening` widens the beam, up to
//! exact, before it says there is no path.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::hash::{BuildHasherDefault, Hasher};

/// A successor of a node: the layer and state it reaches, the step's time,
/// and an opaque tag the caller uses to rebuild the step.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Succ {
    pub layer: u32,
    pub state: u32,
    pub ms: u32,
    pub via: u32,
}

/// One node of a found path, with the tag of the step that reached it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PathNode {
    pub layer: u32,
    pub state: u32,
    pub via: u32,
}

/// The problem: how many layers and states, the goal, and the successors of a node.
pub(crate) trait Space {
    fn layers(&self) -> usize;
    fn is_goal(&self, layer: u32) -> bool;
    fn successors(&self, layer: u32, state: u32, out: &mut Vec<Succ>);
    /// A lower bound on the cost from the node to a goal (consistent: it drops by at most a step's cost).
    fn bound(&self, layer: u32, state: u32) -> u32;
}

#[derive(Clone, Copy)]
struct Slot {
    cost: u32,
    parent_layer: u32,
    parent_state: u32,
    via: u32,
}

const UNSEEN: Slot = Slot {
    cost: u32::MAX,
    parent_layer: u32::MAX,
    parent_state: u32::MAX,
    via: u32::MAX,
};

/// Search statistics, for benchmarks.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SearchStats {
    pub expanded: usize,
}

/// As [`cheapest_path`], but when the beam dropped every way through a crowded layer, searched
/// again with a beam 16 times wider, then exactly: None only when no path exists at all.
pub(crate) fn cheapest_path_widening(
    space: &impl Space,
    layer: u32,
    state: u32,
    per_layer: usize,
) -> Option<(Vec<PathNode>, u32, SearchStats)> {
    let widths = [per_layer, per_layer.saturating_mul(16), usize::MAX];
    let mut tried = 0;
    for width in widths {
        if width <= tried {
            continue;
        }
        tried = width;
        if let Some(found) = cheapest_path(space, layer, state, width) {
            return Some(found);
        }
    }
    None
}

/// The cheapest path from `(layer, state)` to a goal layer (within the beam),
/// as the nodes after the start, with its total cost.
pub(crate) fn cheapest_path(
    space: &impl Space,
    layer: u32,
    state: u32,
    per_layer: usize,
) -> Option<(Vec<PathNode>, u32, SearchStats)> {
    let mut slots = Slots::default();
    let mut expanded = vec![0usize; space.layers()];
    let mut heap = BinaryHeap::new();
    let mut succs = Vec::new();
    let mut stats = SearchStats::default();
    slots.get_mut(layer, state).cost = 0;
    heap.push(Reverse((
        space.bound(layer, state),
        Reverse(0u32),
        layer,
        state,
    )));
    while let Some(Reverse((_, Reverse(cost), l, s))) = heap.pop() {
        if cost > slots.get(l, s).cost {
            continue;
        }
        if space.is_goal(l) {
            return Some((unwind(&slots, l, s), cost, stats));
        }
        if expanded[l as usize] >= per_layer {
            continue;
        }
        expanded[l as usize] += 1;
        stats.expanded += 1;
        succs.clear();
        space.successors(l, s, &mut succs);
        for succ in &succs {
            let next = cost + succ.ms;
            let slot = slots.get_mut(succ.layer, succ.state);
            if next < slot.cost {
                *slot = Slot {
                    cost: next,
                    parent_layer: l,
                    parent_state: s,
                    via: succ.via,
                };
                let bound = space.bound(succ.layer, succ.state);
                if bound != u32::MAX {
                    heap.push(Reverse((
                        next + bound,
                        Reverse(next),
                        succ.layer,
                        succ.state,
                    )));
                }
            }
        }
    }
    None
}

/// A fast hasher for the `(layer, state)` keys (they are not attacker-chosen).
#[derive(Default)]
struct NodeHasher(u64);

impl Hasher for NodeHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

/// Cost and parent of every node reached so far (sparse: a search touches a
/// few thousand of the millions of (layer, state) pairs).
#[derive(Default)]
struct Slots(HashMap<u64, Slot, BuildHasherDefault<NodeHasher>>);

impl Slots {
    fn key(layer: u32, state: u32) -> u64 {
        u64::from(layer) << 32 | u64::from(state)
    }

    fn get(&self, layer: u32, state: u32) -> Slot {
        self.0
            .get(&Self::key(layer, state))
            .copied()
            .unwrap_or(UNSEEN)
    }

    fn get_mut(&mut self, layer: u32, state: u32) -> &mut Slot {
        self.0.entry(Self::key(layer, state)).or_insert(UNSEEN)
    }
}

fn unwind(slots: &Slots, mut layer: u32, mut state: u32) -> Vec<PathNode> {
    let mut path = Vec::new();
    loop {
        let slot = slots.get(layer, state);
        if slot.parent_layer == u32::MAX {
            break;
        }
        path.push(PathNode {
            layer,
            state,
            via: slot.via,
        });
        (layer, state) = (slot.parent_layer, slot.parent_state);
    }
    path.reverse();
    path
}
