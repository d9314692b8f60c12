//! The counting floor of a design's robot time: the least mean time any solver could reach on random cubes with this robot, because too few programs cost less than that to reach every cube.
//!
//! A program is cut into axis blocks (maximal runs of turns on one axis).
//! A *unit* performs one block from a robot state: steps that turn no face,
//! then steps that turn faces of that axis, ending with a turning step; its
//! cost is the least time from the start to that end state. A unit is dropped
//! when another unit of the same block, from the same start, ends no later
//! and can go on to do whatever could follow the dropped one's end (each
//! first step of a next unit, matched by steps turning no face) by the same
//! time: any program can then be rewritten into kept units at no more cost.
//! So the cubes a design can solve within `T` are at most the block sequences
//! (consecutive blocks on different axes) whose cheapest run of kept units
//! from home costs at most `T`; with 4.3 × 10¹⁹ cubes, the mean over all
//! cubes is at least the mean of the cheapest 4.3 × 10¹⁹ sequences. Each
//! sequence is counted once, at its cheapest run: the count follows the set
//! of nodes a sequence may end in, each with what it costs above the
//! cheapest (capped, which only lowers the count's costs). The floor counts
//! sequences, not cubes (different sequences often give one cube), so
//! optimal solving lies above it: for face turns (every block costing its
//! turns) the same count gives 17.50, against 17.71 for the mean optimal
//! solution of random cubes (a million solved by Rokicki and Kociemba).
//!
//! Where blocks end in too many states (they differ in how idle grippers
//! stand), the count is made on the design with its grippers' ranges lifted
//! (any angle, every turn from -2 to 2): every program of the design is a
//! program of that one, in the same time, so its floor is a floor of the
//! design's too.

mod count;
#[cfg(test)]
mod tests;

use count::{by_sequence, cheapest_sequences, exact_step, time_step, Short};

use super::direction::{Direction, Orientation};
use super::graph::{Effect, StateGraph};
use super::model::{Reach, RobotModel, RobotState};
use super::planner::{PlanError, Planner};
use cubed_core::cube::Face;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};

/// Positions of the 3x3x3 cube.
pub const POSITIONS: f64 = 43_252_003_274_489_856_000.0;

/// What the count gives for one design.
#[derive(Clone, Debug, PartialEq)]
pub struct TimeFloor {
    /// No solver's mean robot time over random cubes is lower (ms).
    pub mean_ms: f64,
    /// At least half of all cubes cost this long or longer (ms).
    pub median_ms: u64,
    /// Robot states that units from home start from.
    pub states: usize,
    /// Units kept (start state, block, end state).
    pub units: usize,
    /// Sets of nodes (each with its cost above the set's cheapest) that sequences end in.
    pub sets: usize,
    /// Whether the count was made with the grippers' ranges lifted (see the module's
    /// documentation).
    pub ranges_lifted: bool,
    /// Where the sets of states were too many for memory: what a state costs above its set's
    /// cheapest, rounded down to a multiple of this (ms; at the cap, every such cost is 0).
    /// Either way the count's costs are only lowered, so the floor stays a floor, looser.
    pub offset_step_ms: Option<u32>,
    /// Where counting by cost to the ms would not fit in memory: the step it took instead
    /// (ms; each time rounded down to it, which only lowers the floor).
    pub time_step_ms: Option<u32>,
}

/// A unit's end: the block's quarters (0..16: to its U, R or F face × 4 + to the opposite),
/// the state after its last turning step, and its time.
pub(super) type UnitEnd = (usize, u32, u32);

/// A kept unit out of a (state, previous axis) node: its block (axis × 16 + quarters as
/// 0..16), its cost and the node it ends in.
#[derive(Clone, Copy, Debug)]
pub(super) struct Unit {
    pub(super) block: u8,
    pub(super) ms: u32,
    pub(super) to: usize,
}

/// Most distinct unit ends of one start, and most (state, previous axis) nodes in all: past
/// this the ends differ in what hardly matters to the time (how idle grippers stand), and
/// the count would be loose and slow.
const MOST_NODES: usize = 4096;

/// Why a design's floor was not counted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FloorError {
    #[error(transparent)]
    Plan(#[from] PlanError),
    #[error("robot '{robot}': its blocks end in more than {MOST_NODES} distinct states (they differ in what hardly matters to the time, such as how idle grippers stand), so a count would be loose and is not made")]
    TooManyEnds { robot: String },
    #[error(
        "robot '{robot}' reaches fewer cubes than there are by any sequence of blocks from home"
    )]
    TooFewSequences { robot: String },
    #[error("robot '{robot}': {what} would need more than the few hundred MB a count is allowed, even with its costs coarsened, so it is not made")]
    TooLarge { robot: String, what: &'static str },
}

impl FloorError {
    /// Whether the count was too large to make (rather than impossible).
    pub fn too_large(&self) -> bool {
        matches!(
            self,
            FloorError::TooManyEnds { .. } | FloorError::TooLarge { .. }
        )
    }
}

impl Planner {
    /// The counting floor of this design (see the module's documentation), for `positions`
    /// cubes (the 3x3x3: [`POSITIONS`]); made with the grippers' ranges lifted where blocks
    /// end in too many states.
    pub fn time_floor(&self, positions: f64) -> Result<TimeFloor, FloorError> {
        match self.counted_floor(positions) {
            Err(too_large) if too_large.too_large() => {
                let lifted = Planner::new(ranges_lifted(&self.model));
                if lifted.model == self.model {
                    return Err(too_large);
                }
                let floor = lifted.counted_floor(positions).map_err(|e| match e {
                    e if e.too_large() => too_large,
                    e => e,
                })?;
                Ok(TimeFloor {
                    ranges_lifted: true,
                    ..floor
                })
            }
            counted => counted,
        }
    }

    fn counted_floor(&self, positions: f64) -> Result<TimeFloor, FloorError> {
        let home = self.start_id(&self.home())?;
        let robot = || self.model.name.clone();
        let (nodes, units) = unit_graph(&self.graph, home)
            .ok_or_else(|| FloorError::TooManyEnds { robot: robot() })?;
        let count = units.iter().map(Vec::len).sum();
        let (sequences, offset_step_ms) = (OFFSET_STEPS_MS.iter())
            .find_map(|&step| Some((by_sequence(&units, OFFSET_CAP_MS, step)?, step)))
            .ok_or_else(|| FloorError::TooLarge {
                robot: robot(),
                what: "the sets of states its block sequences end in",
            })?;
        let time_step_ms = time_step(&sequences).filter(|&s| s != exact_step(&sequences));
        let (mean_ms, median_ms) =
            cheapest_sequences(&sequences, positions).map_err(|short| match short {
                Short::TooFew => FloorError::TooFewSequences { robot: robot() },
                Short::TooLarge(what) => FloorError::TooLarge {
                    robot: robot(),
                    what,
                },
            })?;
        Ok(TimeFloor {
            mean_ms,
            median_ms,
            states: nodes
                .iter()
                .map(|n| n.0)
                .collect::<std::collections::HashSet<_>>()
                .len(),
            units: count,
            sets: sequences.len(),
            ranges_lifted: false,
            offset_step_ms: (offset_step_ms > 1).then_some(offset_step_ms.min(OFFSET_CAP_MS)),
            time_step_ms,
        })
    }
}

/// `model` with every turning gripper free to turn to any angle (see the module's
/// documentation).
pub(super) fn ranges_lifted(model: &RobotModel) -> RobotModel {
    let mut lifted = model.clone();
    for gripper in &mut lifted.grippers {
        if let Reach::Limited { min, max } = gripper.reach {
            if min < max {
                gripper.reach = Reach::Continuous;
            }
        }
    }
    lifted
}

/// Most cost above the cheapest kept for a node in a sequence's set (ms): more counts as
/// this (which only lowers the costs counted), and keeps the sets few.
const OFFSET_CAP_MS: u32 = 3000;
/// What a node costs above its set's cheapest is counted to the ms, or, where its sets would
/// not fit in memory, rounded down to each of these in turn; the last makes every such cost 0
/// (a set is then only which nodes a sequence may end in).
const OFFSET_STEPS_MS: [u32; 6] = [1, 10, 50, 250, 1000, OFFSET_CAP_MS + 1];

/// The nodes and their units (None: too many).
type UnitGraph = Option<(Vec<(u32, u8)>, Vec<Vec<Unit>>)>;

/// Nodes `(state, previous axis or 3 at the start)` reachable from `(home, 3)` by kept units,
/// and each node's units.
fn unit_graph(graph: &StateGraph, home: u32) -> UnitGraph {
    let mut ids: HashMap<(u32, u8), usize> = HashMap::from([((home, 3), 0)]);
    let mut nodes = vec![(home, 3u8)];
    let mut units: Vec<Vec<Unit>> = Vec::new();
    let mut relabel = Relabel::new(graph);
    let mut next = 0;
    while next < nodes.len() {
        let (state, last) = nodes[next];
        let mut out = Vec::new();
        for axis in (0..3u8).filter(|&a| a != last) {
            let ends = relabel.kept_ends(state, axis)?;
            for (net, end, ms) in ends {
                let key = (end, axis);
                let to = *ids.entry(key).or_insert_with(|| {
                    nodes.push(key);
                    nodes.len() - 1
                });
                let block = axis * 16 + net as u8;
                out.push(Unit { block, ms, to });
            }
        }
        units.push(out);
        next += 1;
        if nodes.len() > MOST_NODES {
            return None;
        }
    }
    Some((nodes, units))
}

/// The kept units of states that differ only in how the cube sits, found once: the robot
/// moves alike, and turns the faces that sit where the other's did.
pub(super) struct Relabel<'a> {
    graph: &'a StateGraph,
    /// `(state at home orientation, its axis)`: kept `(net, end, ms)` (None: too many).
    memo: HashMap<(u32, u8), Option<Vec<UnitEnd>>>,
    into: StepsInto,
}

/// `into[x]`: the steps into state `x`: where from, their time and what they do.
pub(super) type StepsInto = Vec<Vec<(u32, u32, Effect)>>;

pub(super) fn steps_into(graph: &StateGraph) -> StepsInto {
    let mut into = vec![Vec::new(); graph.states.len()];
    for from in 0..graph.states.len() as u32 {
        for edge in graph.edges(from) {
            into[edge.to as usize].push((from, edge.ms(), edge.effect));
        }
    }
    into
}

impl<'a> Relabel<'a> {
    pub(super) fn new(graph: &'a StateGraph) -> Relabel<'a> {
        Relabel {
            graph,
            memo: HashMap::new(),
            into: steps_into(graph),
        }
    }

    /// [`kept_ends`] of `state` for cube `axis`, from those of the same robot pose with the
    /// cube at home (or found directly if that pose is not in the graph).
    pub(super) fn kept_ends(&mut self, state: u32, axis: u8) -> Option<Vec<UnitEnd>> {
        let actual = self.graph.states[state as usize];
        let o = actual.orientation;
        let at_home = RobotState {
            orientation: Orientation::HOME,
            ..actual
        };
        let Some(home_id) = self.graph.id(&at_home) else {
            return kept_ends(self.graph, &self.into, state, axis);
        };
        // The cube face at home that sits where `axis`'s positive face sits now.
        let home_axis = (o.direction_of(Face::from_index(usize::from(axis))).index() % 3) as u8;
        let (graph, into) = (self.graph, &self.into);
        let ends = self
            .memo
            .entry((home_id, home_axis))
            .or_insert_with(|| kept_ends(graph, into, home_id, home_axis));
        let ends = ends.as_ref()?;
        // Whether the home block's U, R or F face now sits where the opposite face belongs.
        let flipped = o
            .face_at(Direction::from_index(usize::from(home_axis)))
            .index()
            >= 3;
        let relabelled = ends
            .iter()
            .filter_map(|&(net, end, ms)| {
                let moved = graph.states[end as usize];
                let relabelled = RobotState {
                    orientation: compose(o, moved.orientation)?,
                    ..moved
                };
                let net = if flipped { net % 4 * 4 + net / 4 } else { net };
                Some((net, graph.id(&relabelled)?, ms))
            })
            .collect();
        Some(relabelled)
    }
}

/// The orientation whose face in each direction is the face `first` has where `then` has
/// the face it has in that direction at home: `then` performed on a cube that sat as `first`.
fn compose(first: Orientation, then: Orientation) -> Option<Orientation> {
    Orientation::from_faces(std::array::from_fn(|d| {
        let home_face = then.face_at(Direction::from_index(d));
        first.face_at(Direction::from_index(home_face.index()))
    }))
}

/// What turning steps on `axis` have done so far (quarters turned on its two faces, mod 4, as
/// 0..16) after one more step turning `edge_turns`, or None if that step turns another axis.
fn turned(net: usize, edge_turns: &[Option<cubed_core::cube::Turn>; 2], axis: u8) -> Option<usize> {
    let mut q = [net / 4, net % 4];
    for turn in edge_turns.iter().flatten() {
        let index = turn.face.index();
        if index % 3 != usize::from(axis) {
            return None;
        }
        let side = usize::from(index >= 3);
        q[side] = (q[side] + usize::from(turn.quarters)) % 4;
    }
    Some(q[0] * 4 + q[1])
}

/// The kept units of every block on `axis` from `start`: `(block's quarters as 0..16, end
/// state, ms)`; None if more than [`MOST_NODES`] ends are reached by a turning step more
/// cheaply than by any path ending in steps that turn no face.
pub(super) fn kept_ends(
    graph: &StateGraph,
    into: &StepsInto,
    start: u32,
    axis: u8,
) -> Option<Vec<UnitEnd>> {
    let mut ends = turning_arrivals(graph, start, axis);
    if ends.len() > MOST_NODES {
        return None;
    }
    ends.sort_unstable_by_key(|&(net, end, ms)| (net, ms, end));
    let mut kept = Vec::new();
    let longest_step = graph.edges.iter().map(|e| e.ms()).max().unwrap_or(0);
    for block in ends.chunk_by(|a, b| a.0 == b.0) {
        let dearest = block.last().map_or(0, |e| e.2);
        let mut reach: HashMap<u32, HashMap<u32, u32>> = HashMap::new();
        for (i, &(net, end, ms)) in block.iter().enumerate() {
            let dominated = block[..i].iter().any(|&(_, e1, c1)| {
                let walks = reach
                    .entry(e1)
                    .or_insert_with(|| walks_within(graph, e1, dearest - c1 + longest_step));
                continues_as_well(graph, into, axis, walks, c1, (end, ms))
            });
            if !dominated {
                kept.push((net, end, ms));
            }
        }
    }
    Some(kept)
}

/// Every `(quarters as 0..16, state, ms)` that steps on `axis` from `start` reach by a turning
/// step more cheaply than by any path ending in a step that turns no face.
fn turning_arrivals(graph: &StateGraph, start: u32, axis: u8) -> Vec<UnitEnd> {
    let n = graph.states.len();
    let at = |net: usize, state: u32| net * n + state as usize;
    let mut best = vec![u32::MAX; 16 * n];
    let mut heap = BinaryHeap::from([Reverse((0u32, 0usize, start))]);
    best[at(0, start)] = 0;
    while let Some(Reverse((cost, net, state))) = heap.pop() {
        if cost > best[at(net, state)] {
            continue;
        }
        for edge in graph.edges(state) {
            let Some(next) = turned(net, &edge.effect.turns, axis) else {
                continue;
            };
            let c = cost + edge.ms();
            if c < best[at(next, edge.to)] {
                best[at(next, edge.to)] = c;
                heap.push(Reverse((c, next, edge.to)));
            }
        }
    }
    // The cheapest arrival at each node by a turning step, and by a step that turns nothing.
    let mut by_turn = vec![u32::MAX; 16 * n];
    let mut by_walk = vec![u32::MAX; 16 * n];
    for (node, &cost) in best.iter().enumerate().filter(|(_, &c)| c != u32::MAX) {
        let (net, state) = (node / n, (node % n) as u32);
        for edge in graph.edges(state) {
            let Some(next) = turned(net, &edge.effect.turns, axis) else {
                continue;
            };
            let slot = if edge.effect.keeps_faces() {
                &mut by_walk[at(next, edge.to)]
            } else {
                &mut by_turn[at(next, edge.to)]
            };
            *slot = (*slot).min(cost + edge.ms());
        }
    }
    (n..16 * n)
        .filter(|&node| by_turn[node] < by_walk[node])
        .map(|node| (node / n, (node % n) as u32, by_turn[node]))
        .collect()
}

/// Whether a unit on `axis` ending after `c1` ms in a state that reaches `reach` (states and
/// times, by steps turning no face) does everything one ending in `e2` after `c2` does, no
/// slower: `c1 ≤ c2`, and every step out of `e2` that a next unit (on another axis) can start
/// with is matched: one turning no face (to `x`) by steps turning no face to `x`, one turning
/// a face by such steps to a state with the same step to `x`, in the same time.
fn continues_as_well(
    graph: &StateGraph,
    into: &StepsInto,
    axis: u8,
    reach: &HashMap<u32, u32>,
    c1: u32,
    (e2, c2): (u32, u32),
) -> bool {
    if c1 > c2 {
        return false;
    }
    let slack = c2 - c1;
    let out = graph.edges(e2);
    out.iter().all(|step| {
        if turned(0, &step.effect.turns, axis).is_some_and(|net| net != 0) {
            true // turns this unit's axis again: no next unit starts so
        } else if step.effect.keeps_faces() {
            reach.get(&step.to).is_some_and(|&d| d <= slack + step.ms())
        } else {
            into[step.to as usize].iter().any(|&(z, ms, effect)| {
                effect == step.effect && reach.get(&z).is_some_and(|&d| d + ms <= slack + step.ms())
            })
        }
    })
}

/// States reachable from `from` by steps turning no face within `limit` ms, and their times.
fn walks_within(graph: &StateGraph, from: u32, limit: u32) -> HashMap<u32, u32> {
    let mut best = HashMap::from([(from, 0u32)]);
    let mut heap = BinaryHeap::from([Reverse((0u32, from))]);
    while let Some(Reverse((cost, state))) = heap.pop() {
        if best.get(&state).is_some_and(|&b| cost > b) {
            continue;
        }
        for edge in graph.edges(state).iter().filter(|e| e.effect.keeps_faces()) {
            let c = cost + edge.ms();
            if c <= limit && best.get(&edge.to).is_none_or(|&b| c < b) {
                best.insert(edge.to, c);
                heap.push(Reverse((c, edge.to)));
            }
        }
    }
    best
}
