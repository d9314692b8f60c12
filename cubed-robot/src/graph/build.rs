//! Building a design's state graph: the states reachable from home explored in batches, each batch's steps found and sorted on every core, and numbered in order, as one core exploring them one by one would number them.

use super::memory::{Footprint, MemoryLimit, Need, TooManyStates};
use super::{edge_ms, keep_cheapest, Edge, Effect, StateGraph};
use crate::cores::map_on_cores;
use crate::direction::Orientation;
use crate::model::{RobotModel, RobotState};
use crate::physics::Motions;
use crate::steps::legal_steps;
use foldhash::{HashMap, HashMapExt};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// States explored so far by the graph build under way (0: none under way), and its design's
/// name: a large design takes minutes, and a front end may say how far it got.
static EXPLORED: AtomicUsize = AtomicUsize::new(0);
static FOUND: AtomicUsize = AtomicUsize::new(0);
static BUILDING: Mutex<String> = Mutex::new(String::new());

/// States explored at a time, at most.
pub(super) const BATCH: usize = 1 << 12;
/// Steps found at a time, about: fewer states are explored at once when each has many steps
/// (a design with six jaws and wide ranges has thousands), so what a batch holds while its
/// steps are numbered stays small beside the graph.
const STEPS_PER_BATCH: usize = 1 << 18;
/// Fewer states than this for each core are explored on one (unless each has so many steps
/// that its batch was made smaller).
pub(super) const BATCH_PER_CORE: usize = 1 << 8;
/// Bytes a step found takes while its batch is numbered.
const BATCH_STEP_BYTES: usize =
    std::mem::size_of::<Found>() + std::mem::size_of::<(Edge, Option<Motions>)>();

/// The design whose state graph is being built, the states explored so far and those found
/// (explored or waiting to be), if a build is under way.
pub fn build_progress() -> Option<(String, usize, usize)> {
    let explored = EXPLORED.load(Ordering::Relaxed);
    if explored == 0 {
        return None;
    }
    let name = BUILDING
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .clone();
    Some((name, explored, FOUND.load(Ordering::Relaxed)))
}

/// The id of a target not yet numbered.
const UNNUMBERED: u32 = u32::MAX;

/// A step out of a state of the batch.
struct Found {
    after: RobotState,
    /// `after`'s id, or [`UNNUMBERED`].
    to: u32,
    ms: u16,
    effect: Effect,
    motions: Motions,
}

/// How a build splits its work: states explored on one core when each core would get fewer
/// than `least_per_core` (`usize::MAX`: always), and about `steps` steps found at a time.
#[derive(Clone, Copy, Debug)]
pub(super) struct Batching {
    pub least_per_core: usize,
    pub steps: usize,
}

impl Batching {
    /// On every core, batches as large as they are worth.
    pub(super) const EVERY_CORE: Batching = Batching {
        least_per_core: BATCH_PER_CORE,
        steps: STEPS_PER_BATCH,
    };
}

/// Explores every state reachable from the design's home state, then from home with the cube
/// held any other way that is not reachable (states of the home part keep their ids). Err as
/// soon as the graph so far and the bounds it will need pass `limit`.
pub(super) fn build_in_batches(
    model: &RobotModel,
    batching: Batching,
    limit: MemoryLimit,
) -> Result<StateGraph, TooManyStates> {
    *BUILDING
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner()) = model.name.clone();
    EXPLORED.store(1, Ordering::Relaxed);
    let built = Builder::new(model, batching).explore(limit);
    EXPLORED.store(0, Ordering::Relaxed);
    built
}

impl StateGraph {
    /// The graph of `model`, built on first use and then shared (building
    /// the four-arm graph takes a good fraction of a second).
    /// Err: the graph and its bounds would pass `limit` (nothing is kept).
    pub(crate) fn shared(
        model: &RobotModel,
        limit: MemoryLimit,
    ) -> Result<Arc<StateGraph>, TooManyStates> {
        type Built = Result<Arc<StateGraph>, TooManyStates>;
        static CACHE: Mutex<Vec<(RobotModel, Built)>> = Mutex::new(Vec::new());
        let mut cache = CACHE
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let known = cache.iter().position(|(m, _)| m == model);
        if let Some(at) = known {
            match &cache[at].1 {
                Ok(graph) => return Ok(graph.clone()),
                // The build is the same each time: within no more memory, it fails again.
                Err(e) if !e.limit.allows_less_than(limit) => return Err(e.clone()),
                Err(_) => _ = cache.remove(at),
            }
        }
        let built = build_in_batches(model, Batching::EVERY_CORE, limit).map(Arc::new);
        cache.push((model.clone(), built.clone()));
        built
    }

    /// Explores every state reachable from the design's home state (see [`build_in_batches`]).
    #[cfg(test)]
    pub(crate) fn build(model: &RobotModel) -> StateGraph {
        build_in_batches(model, Batching::EVERY_CORE, MemoryLimit::None)
            .unwrap_or_else(|unlimited| unreachable!("{unlimited}"))
    }
}

/// A graph being built.
struct Builder<'m> {
    model: &'m RobotModel,
    batching: Batching,
    graph: StateGraph,
    motion_ids: HashMap<Motions, u32>,
    steps_keeping_faces: usize,
    /// How many of the graph's states (the first ones) have their steps in it.
    explored: usize,
    /// How many states the next batch explores.
    batch: usize,
    /// What the last batch held while its steps were numbered, bytes.
    batch_bytes: usize,
}

impl<'m> Builder<'m> {
    fn new(model: &'m RobotModel, batching: Batching) -> Builder<'m> {
        let graph = StateGraph::holding_home(model);
        Builder {
            model,
            batching,
            graph,
            motion_ids: HashMap::new(),
            steps_keeping_faces: 0,
            explored: 0,
            batch: BATCH,
            batch_bytes: 0,
        }
    }

    fn explore(mut self, limit: MemoryLimit) -> Result<StateGraph, TooManyStates> {
        let mut seeds = Orientation::all().map(|orientation| RobotState {
            orientation,
            ..self.model.home()
        });
        loop {
            if self.explored == self.graph.states.len() {
                if self.graph.home_part == 0 {
                    self.graph.home_part = self.explored;
                }
                // A person may load the cube any way up: a design that cannot turn the cube
                // to some holding still starts from it, as its own part of the graph.
                match seeds.find(|seed| self.graph.id(seed).is_none()) {
                    Some(seed) => _ = self.graph.id_or_insert(seed),
                    None => return Ok(self.graph),
                }
            }
            FOUND.store(self.graph.states.len(), Ordering::Relaxed);
            EXPLORED.store(self.explored.max(1), Ordering::Relaxed);
            self.explore_batch();
            self.check(limit)?;
        }
    }

    /// The steps out of the next states found and not yet explored. What depends on one state
    /// alone is done on every core; what numbers states and motions, on one, in order.
    fn explore_batch(&mut self) {
        let batch: Vec<RobotState> = (self.graph.states[self.explored..].iter())
            .take(self.batch)
            .copied()
            .collect();
        // States with many steps each are worth a thread each.
        let least_per_core = match (self.batch < BATCH, self.batching.least_per_core) {
            (true, at_least) if at_least != usize::MAX => 1,
            (_, at_least) => at_least,
        };
        let (model, graph) = (self.model, &self.graph);
        let mut found = map_on_cores(&batch, least_per_core, |state| {
            steps_out(model, graph, state)
        });
        let steps_found: usize = found.iter().map(Vec::len).sum();
        self.batch_bytes = steps_found * BATCH_STEP_BYTES;
        self.batch = (self.batching.steps * batch.len() / steps_found.max(1)).clamp(1, BATCH);
        // The targets new to this batch, numbered in the order one core meets them.
        for step in found.iter_mut().flatten() {
            if step.to == UNNUMBERED {
                step.to = self.graph.id_or_insert(step.after);
            }
        }
        let motion_ids = &self.motion_ids;
        let kept = map_on_cores(&found, least_per_core, |steps| {
            cheapest_edges(steps, motion_ids)
        });
        for edges in kept {
            for (mut edge, unnumbered) in edges {
                if let Some(motions) = unnumbered {
                    edge.motions = self.motion_id(motions);
                }
                self.steps_keeping_faces += usize::from(edge.effect.keeps_faces());
                self.graph.edges.push(edge);
            }
            self.graph.offsets.push(self.graph.edges.len() as u32);
            self.explored += 1;
        }
    }

    fn motion_id(&mut self, motions: Motions) -> u32 {
        let graph = &mut self.graph;
        *self.motion_ids.entry(motions).or_insert_with(|| {
            graph.motions.push(motions);
            graph.motions.len() as u32 - 1
        })
    }

    /// Err if the graph so far, with the bounds it will need and the last batch, passes
    /// `limit`, or if every state found so far would need more than twice as much.
    fn check(&self, limit: MemoryLimit) -> Result<(), TooManyStates> {
        let footprint = Footprint {
            states: self.graph.states.len(),
            index_slots: self.graph.index.capacity(),
            steps: self.graph.edges.len(),
            steps_keeping_faces: self.steps_keeping_faces,
        };
        let mb = |bytes: u64| bytes.div_ceil(1 << 20);
        let already = footprint.bytes() + self.batch_bytes as u64;
        let foreseen = footprint.foreseen(self.explored).bytes();
        let need = if self.explored >= BATCH_PER_CORE && limit.passed_by(foreseen / 2) {
            Need::Foreseen {
                mb: mb(foreseen),
                steps_per_state: footprint.steps / self.explored,
            }
        } else if limit.passed_by(already) {
            Need::Already { mb: mb(already) }
        } else {
            return Ok(());
        };
        Err(TooManyStates {
            robot: self.model.name.clone(),
            explored: self.explored,
            found: footprint.states,
            steps: footprint.steps,
            need,
            limit,
        })
    }
}

/// The legal steps out of `state`, in the order of combinations (so new states are numbered,
/// and ties kept, alike), each target numbered if `graph` knows it already.
fn steps_out(model: &RobotModel, graph: &StateGraph, state: &RobotState) -> Vec<Found> {
    let mut steps = Vec::new();
    legal_steps(model, state, &mut steps);
    steps.sort_unstable_by_key(|step| step.rank);
    (steps.iter())
        .map(|step| Found {
            after: step.after,
            to: graph.id(&step.after).unwrap_or(UNNUMBERED),
            ms: edge_ms(model, &step.motions),
            effect: Effect::of(&step.motion, state),
            motions: step.motions,
        })
        .collect()
}

/// A state's edges (from its steps, every target numbered), the cheapest to each target with each
/// effect, in the graph's order; each with its motions if `motion_ids` cannot number them yet.
fn cheapest_edges(
    steps: &[Found],
    motion_ids: &HashMap<Motions, u32>,
) -> Vec<(Edge, Option<Motions>)> {
    let mut edges: Vec<(Edge, Option<Motions>)> = (steps.iter())
        .map(|step| {
            let known = motion_ids.get(&step.motions).copied();
            let edge = Edge {
                to: step.to,
                ms: step.ms,
                motions: known.unwrap_or(0),
                effect: step.effect,
            };
            (edge, known.is_none().then_some(step.motions))
        })
        .collect();
    keep_cheapest(&mut edges);
    edges
}
