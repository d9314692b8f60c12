//! The state graph's witnesses: built on every core as on one, within a memory limit or refused, every holding a start, progress published.

use super::build::BATCH_PER_CORE;
use super::memory::Footprint;
use super::*;
use crate::robot::direction::Orientation;

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
    let err = build::build_on_cores(&model, BATCH_PER_CORE, limit).expect_err("20 MB");
    assert!(err.needed_mb > 20 && err.needed_mb < mb, "{err}");
    assert!(
        err.found < whole.states.len() && err.unexplored < err.found,
        "{err}"
    );
    assert!(err.steps < whole.edges.len(), "{err}");
    assert_eq!((err.robot.as_str(), err.limit), ("four-arm", limit));
    // Room for all of it: the same graph as without a limit.
    let room = MemoryLimit::Set { mb: mb + 1 };
    let roomy = build::build_on_cores(&model, BATCH_PER_CORE, room).expect("fits");
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

/// The graph as the plainest build makes it: one state at a time, each step's target numbered
/// as it is met in the order of combinations, then the cheapest kept and their motions numbered.
fn one_by_one(model: &RobotModel) -> StateGraph {
    let mut graph = StateGraph {
        states: vec![model.home()],
        home_part: 0,
        index: [(model.home(), 0)].into_iter().collect(),
        offsets: vec![0],
        edges: Vec::new(),
        motions: Vec::new(),
    };
    let mut seeds = Orientation::all().map(|orientation| RobotState {
        orientation,
        ..model.home()
    });
    let mut next = 0;
    loop {
        if next == graph.states.len() {
            if graph.home_part == 0 {
                graph.home_part = next;
            }
            match seeds.find(|seed| graph.id(seed).is_none()) {
                Some(seed) => _ = graph.id_or_insert(seed),
                None => return graph,
            }
        }
        let state = graph.states[next];
        let mut steps = Vec::new();
        crate::robot::steps::legal_steps(model, &state, &mut steps);
        steps.sort_by_key(|step| step.rank);
        let mut edges: Vec<(Edge, Motions)> = Vec::new();
        for step in &steps {
            let edge = Edge {
                to: graph.id_or_insert(step.after),
                ms: edge_ms(model, &step.motions),
                motions: 0,
                effect: Effect::of(&step.motion, &state),
            };
            edges.push((edge, step.motions));
        }
        keep_cheapest(&mut edges);
        for (mut edge, motions) in edges {
            edge.motions = match graph.motions.iter().position(|&m| m == motions) {
                Some(id) => id as u32,
                None => {
                    graph.motions.push(motions);
                    graph.motions.len() as u32 - 1
                }
            };
            graph.edges.push(edge);
        }
        graph.offsets.push(graph.edges.len() as u32);
        next += 1;
    }
}

#[test]
fn built_in_batches_on_every_core_the_graph_is_the_one_built_state_by_state() {
    for model in [
        wide_four_arm(),
        crate::robot::tests::shipped("turntable-flipper"),
        crate::robot::tests::shipped("six-motor"),
    ] {
        let plain = one_by_one(&model);
        let least = if model.name == "four-arm" {
            100_000
        } else {
            24
        };
        assert!(
            plain.states.len() >= least,
            "{}: {}",
            model.name,
            plain.states.len()
        );
        for least_per_core in [usize::MAX, 1] {
            let built =
                build::build_on_cores(&model, least_per_core, MemoryLimit::None).expect("no limit");
            let name = format!("{}, {least_per_core} a core", model.name);
            assert!(built.states == plain.states, "{name}: the states differ");
            assert!(built.offsets == plain.offsets, "{name}: the offsets differ");
            assert!(built.edges == plain.edges, "{name}: the edges differ");
            assert!(built.motions == plain.motions, "{name}: the motions differ");
            assert_eq!(built.home_part, plain.home_part, "{name}");
        }
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
