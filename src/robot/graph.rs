//! The state graph of one design: every robot state reachable from home (with the cube loaded any way up) and every legal step between them, built once with the physics rules.

use super::cores::map_on_cores;
use super::direction::Orientation;
use super::graph_memory::{Footprint, MemoryLimit, TooManyStates};
use super::model::{RobotModel, RobotState};
use super::physics::{Act, CubeMotion, Motions};
use super::steps::legal_steps;
use cubed_core::cube::Turn;
use foldhash::{HashMap, HashMapExt};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// States explored so far by the graph build under way (0: none under way), and its design's
/// name: a large design takes minutes, and a front end may say how far it got.
static EXPLORED: AtomicUsize = AtomicUsize::new(0);
static FOUND: AtomicUsize = AtomicUsize::new(0);
static BUILDING: Mutex<String> = Mutex::new(String::new());

/// States explored at a time (their steps found on every core, then numbered in order).
const BATCH: usize = 1 << 12;
/// Fewer states than this for each core are explored on one.
const BATCH_PER_CORE: usize = 1 << 8;

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

/// What an edge does to the cube in its own frame: up to two face turns
/// (solver turn indices, sorted) and whether the whole cube turns.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub(crate) struct Effect {
    pub turns: [Option<Turn>; 2],
    pub rotates: bool,
}

impl Effect {
    /// Whether the step turns no face.
    pub(crate) fn keeps_faces(&self) -> bool {
        self.turns[0].is_none()
    }

    fn of(motion: &CubeMotion, state: &RobotState) -> Effect {
        let mut turns = motion.turns.map(|t| {
            t.map(|(dir, q)| Turn {
                face: state.orientation.face_at(dir),
                quarters: q as u8,
            })
        });
        if turns[0].is_none() {
            turns.swap(0, 1);
        }
        Effect {
            turns,
            rotates: motion.rotation.is_some(),
        }
    }
}

/// A legal step from one state to another.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Edge {
    pub to: u32,
    /// Its time (a step takes at most a minute: 16 bits keep a large design's many edges
    /// small).
    ms: u16,
    /// Index into [`StateGraph::motions`].
    pub motions: u32,
    pub effect: Effect,
}

// A large design has tens of millions of edges.
const _: () = assert!(std::mem::size_of::<Edge>() <= 16);

impl Edge {
    /// The step's time, ms.
    pub(crate) fn ms(&self) -> u32 {
        u32::from(self.ms)
    }

    /// The step's time as stored.
    pub(crate) fn ms16(&self) -> u16 {
        self.ms
    }
}

/// All reachable states and the legal steps between them.
#[derive(Clone, Debug)]
pub(crate) struct StateGraph {
    pub states: Vec<RobotState>,
    /// How many of `states` (the first ones) are reachable from home itself; the others start
    /// from home with the cube loaded another way, copies of them turned.
    home_part: usize,
    index: HashMap<RobotState, u32>,
    offsets: Vec<u32>,
    pub(crate) edges: Vec<Edge>,
    pub motions: Vec<Motions>,
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
        let built = StateGraph::build_on_cores(model, BATCH_PER_CORE, limit).map(Arc::new);
        cache.push((model.clone(), built.clone()));
        built
    }

    /// Explores every state reachable from the design's home state, then from home with the
    /// cube held any other way that is not reachable (states of the home part keep their ids).
    #[cfg(test)]
    pub(crate) fn build(model: &RobotModel) -> StateGraph {
        Self::build_on_cores(model, BATCH_PER_CORE, MemoryLimit::None)
            .unwrap_or_else(|unlimited| unreachable!("{unlimited}"))
    }

    /// As [`Self::build`], a batch's states split over the cores when each gets
    /// `least_per_core` of them (`usize::MAX`: all on one); Err as soon as the graph so far
    /// and the bounds it will need pass `limit`.
    fn build_on_cores(
        model: &RobotModel,
        least_per_core: usize,
        limit: MemoryLimit,
    ) -> Result<StateGraph, TooManyStates> {
        let mut graph = StateGraph {
            states: vec![model.home()],
            home_part: 0,
            index: [(model.home(), 0)].into_iter().collect(),
            offsets: vec![0],
            edges: Vec::new(),
            motions: Vec::new(),
        };
        let mut motion_ids: HashMap<Motions, u32> = HashMap::new();
        let mut steps_keeping_faces = 0;
        *BUILDING
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner()) = model.name.clone();
        EXPLORED.store(1, Ordering::Relaxed);
        let mut next = 0;
        let mut seeds = Orientation::all().map(|orientation| RobotState {
            orientation,
            ..model.home()
        });
        loop {
            if next == graph.states.len() {
                if graph.home_part == 0 {
                    graph.home_part = next;
                }
                // A person may load the cube any way up: a design that cannot turn the cube
                // to some holding still starts from it, as its own part of the graph.
                match seeds.find(|seed| graph.id(seed).is_none()) {
                    Some(seed) => _ = graph.id_or_insert(seed),
                    None => break,
                }
            }
            FOUND.store(graph.states.len(), Ordering::Relaxed);
            EXPLORED.store(next.max(1), Ordering::Relaxed);
            // The steps out of the states found and not yet explored, found on every core at
            // once (a state's steps depend on it alone), then numbered in order, as one core
            // exploring them one by one would.
            let batch: Vec<RobotState> = graph.states[next..].iter().take(BATCH).copied().collect();
            let found = map_on_cores(&batch, least_per_core, |state| {
                let mut steps = Vec::new();
                legal_steps(model, state, &mut steps);
                // In the order of combinations: new states are numbered, and ties kept, alike.
                steps.sort_unstable_by_key(|step| step.rank);
                steps
            });
            for (state, steps) in batch.iter().zip(found) {
                let mut out: Vec<(Edge, Motions)> = (steps.iter())
                    .map(|step| {
                        let edge = Edge {
                            to: graph.id_or_insert(step.after),
                            ms: edge_ms(model, &step.motions),
                            motions: 0,
                            effect: Effect::of(&step.motion, state),
                        };
                        (edge, step.motions)
                    })
                    .collect();
                keep_cheapest(&mut out);
                for (mut edge, m) in out {
                    steps_keeping_faces += usize::from(edge.effect.keeps_faces());
                    edge.motions = *motion_ids.entry(m).or_insert_with(|| {
                        graph.motions.push(m);
                        graph.motions.len() as u32 - 1
                    });
                    graph.edges.push(edge);
                }
                graph.offsets.push(graph.edges.len() as u32);
                next += 1;
            }
            let footprint = Footprint {
                states: graph.states.len(),
                index_slots: graph.index.capacity(),
                steps: graph.edges.len(),
                steps_keeping_faces,
            };
            if footprint.passes(limit) {
                EXPLORED.store(0, Ordering::Relaxed);
                return Err(TooManyStates {
                    robot: model.name.clone(),
                    found: footprint.states,
                    unexplored: footprint.states - next,
                    steps: footprint.steps,
                    needed_mb: footprint.bytes().div_ceil(1 << 20),
                    limit,
                });
            }
        }
        EXPLORED.store(0, Ordering::Relaxed);
        Ok(graph)
    }

    fn id_or_insert(&mut self, state: RobotState) -> u32 {
        if let Some(&id) = self.index.get(&state) {
            return id;
        }
        self.states.push(state);
        let id = self.states.len() as u32 - 1;
        self.index.insert(state, id);
        id
    }

    /// The id of a state, if it is reachable from home (the cube loaded any way up).
    pub(crate) fn id(&self, state: &RobotState) -> Option<u32> {
        self.index.get(state).copied()
    }

    /// Legal steps out of state `id`.
    pub(crate) fn edges(&self, id: u32) -> &[Edge] {
        let (a, b) = (self.offsets[id as usize], self.offsets[id as usize + 1]);
        &self.edges[a as usize..b as usize]
    }
}

/// Cameras whose view is clear in `state`.
pub(crate) fn clear_cameras<'a>(
    model: &'a RobotModel,
    state: &'a RobotState,
) -> impl Iterator<Item = usize> + 'a {
    (0..model.cameras.len()).filter(move |&c| {
        model.cameras[c]
            .needs_open
            .iter()
            .all(|&g| !state.is_closed(g))
    })
}

/// An edge's time: a step's, which the design's limit on each action keeps within 16 bits.
fn edge_ms(model: &RobotModel, m: &Motions) -> u16 {
    motions_ms(model, m).min(u32::from(u16::MAX)) as u16
}

/// Time of a motion step: its slowest action.
pub(crate) fn motions_ms(model: &RobotModel, m: &Motions) -> u32 {
    let grippers = model.grippers.iter().zip(m.acts).map(|(g, act)| match act {
        Act::Idle => 0,
        Act::Open => g.open_ms,
        Act::Close => g.close_ms,
        Act::Turn(q) => g.turn_ms(q),
    });
    let flip = m.flip.map_or(0, |f| model.flippers[f as usize].flip_ms);
    grippers.fold(flip, u32::max)
}

/// Keeps only the cheapest of steps with the same target and effect (the first of equals).
fn keep_cheapest(edges: &mut Vec<(Edge, Motions)>) {
    edges.sort_by_key(|(e, _)| {
        (
            e.to,
            e.effect.turns.map(|t| t.map(|t| t.index())),
            e.effect.rotates,
            e.ms(),
        )
    });
    edges.dedup_by(|(later, _), (first, _)| later.to == first.to && later.effect == first.effect);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_build_under_way_publishes_how_far_it_got() {
        let model = crate::robot::tests::shipped("four-arm");
        let built = std::thread::spawn(move || StateGraph::build(&model).states.len());
        let mut seen = None;
        while !built.is_finished() {
            if let Some(progress) = build_progress() {
                seen = Some(progress);
            }
            std::thread::yield_now();
        }
        assert!(built.join().expect("the build ends") > 1);
        // Other tests may build graphs at the same time: only that something was said holds.
        let (_, explored, found) = seen.expect("a build under way was seen");
        assert!(explored >= 1 && found >= 1);
    }

    /// The ids reachable from state 0 (home) along the graph's own edges.
    fn reachable_from_home(graph: &StateGraph) -> std::collections::HashSet<u32> {
        let (mut seen, mut todo) = (std::collections::HashSet::from([0]), vec![0]);
        while let Some(id) = todo.pop() {
            for edge in graph.edges(id) {
                if seen.insert(edge.to) {
                    todo.push(edge.to);
                }
            }
        }
        seen
    }

    /// Four-arm with each gripper turning two quarters either way (105,000 states).
    fn wide_four_arm() -> RobotModel {
        let mut wide = crate::robot::tests::shipped("four-arm");
        for gripper in &mut wide.grippers {
            gripper.reach = crate::robot::model::Reach::Limited { min: -2, max: 2 };
        }
        wide
    }

    #[test]
    fn a_build_that_passes_its_memory_limit_stops_and_says_how_far_it_got() {
        let model = wide_four_arm();
        let whole = StateGraph::build(&model);
        let keeping = whole
            .edges
            .iter()
            .filter(|e| e.effect.keeps_faces())
            .count();
        let footprint = Footprint {
            states: whole.states.len(),
            index_slots: whole.index.capacity(),
            steps: whole.edges.len(),
            steps_keeping_faces: keeping,
        };
        let mb = footprint.bytes() >> 20;
        assert!(mb > 40, "{mb} MB");
        let limit = MemoryLimit::Set { mb: 20 };
        let err = StateGraph::build_on_cores(&model, BATCH_PER_CORE, limit).expect_err("20 MB");
        assert!(err.needed_mb > 20 && err.needed_mb < mb, "{err}");
        assert!(
            err.found < whole.states.len() && err.unexplored < err.found,
            "{err}"
        );
        assert!(err.steps < whole.edges.len(), "{err}");
        assert_eq!((err.robot.as_str(), err.limit), ("four-arm", limit));
        // Room for all of it: the same graph as without a limit.
        let room = MemoryLimit::Set { mb: mb + 1 };
        let roomy = StateGraph::build_on_cores(&model, BATCH_PER_CORE, room).expect("fits");
        assert_eq!(roomy.edges, whole.edges);
    }

    #[test]
    fn a_shared_build_refused_is_refused_again_within_no_more_memory() {
        let mut model = wide_four_arm();
        model.name = "refused-once".into();
        let tight = MemoryLimit::Set { mb: 20 };
        let err = StateGraph::shared(&model, tight).expect_err("20 MB");
        let tighter = StateGraph::shared(&model, MemoryLimit::Set { mb: 10 });
        assert_eq!(tighter.err(), Some(err), "the first refusal, remembered");
        assert!(StateGraph::shared(&model, MemoryLimit::None).is_ok());
        assert!(
            StateGraph::shared(&model, tight).is_ok(),
            "built once, shared"
        );
    }

    #[test]
    fn built_on_every_core_the_graph_is_the_one_a_single_core_builds() {
        for model in [
            wide_four_arm(),
            crate::robot::tests::shipped("turntable-flipper"),
        ] {
            let build = |least| StateGraph::build_on_cores(&model, least, MemoryLimit::None);
            let (one, every) = (
                build(usize::MAX).expect("no limit"),
                build(1).expect("no limit"),
            );
            assert!(
                one.states.len() > 1000 || model.name != "four-arm",
                "{}",
                one.states.len()
            );
            assert_eq!(one.states, every.states, "{}", model.name);
            assert_eq!(one.offsets, every.offsets, "{}", model.name);
            assert_eq!(one.edges, every.edges, "{}", model.name);
            assert_eq!(one.motions, every.motions, "{}", model.name);
            assert_eq!(one.home_part, every.home_part, "{}", model.name);
        }
    }

    #[test]
    fn every_design_starts_with_the_cube_loaded_any_way_up() {
        for name in ["four-arm", "turntable-flipper", "six-motor"] {
            let model = crate::robot::tests::shipped(name);
            let graph = StateGraph::build(&model);
            for orientation in Orientation::all() {
                let held = RobotState {
                    orientation,
                    ..model.home()
                };
                assert!(graph.id(&held).is_some(), "{name}: {orientation:?}");
            }
            let home_part = reachable_from_home(&graph);
            assert_eq!(graph.home_part, home_part.len(), "{name}");
            let holdings: std::collections::HashSet<_> = (home_part.iter())
                .map(|&id| graph.states[id as usize].orientation)
                .collect();
            if name == "six-motor" {
                // It never turns the cube: 24 separate parts, each as large as home's.
                assert_eq!(holdings.len(), 1);
                assert_eq!(graph.states.len(), 24 * home_part.len());
            } else {
                // Turning the cube reaches every holding: nothing was added.
                assert_eq!(holdings.len(), 24, "{name}");
                assert_eq!(graph.states.len(), home_part.len(), "{name}");
            }
        }
    }
}
