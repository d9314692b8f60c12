//! The state graph's witnesses: built on every core as on one, within a memory limit or refused, every holding a start, progress published.

use super::build::{build_progress, Batching, BATCH, BATCH_PER_CORE};
use super::memory::{Footprint, MemoryLimit, Need};
use super::*;
use crate::direction::Orientation;

#[test]
fn a_build_under_way_publishes_how_far_it_got() {
    let model = crate::tests::shipped("four-arm");
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
    let mut wide = crate::tests::shipped("four-arm");
    for gripper in &mut wide.grippers {
        gripper.reach = crate::model::Reach::Limited { min: -2, max: 2 };
    }
    wide
}

/// The footprint of a whole graph, counted from its own edges.
fn footprint_of(graph: &StateGraph) -> Footprint {
    Footprint {
        states: graph.states.len(),
        index_slots: graph.index.capacity(),
        steps: graph.edges.len(),
        steps_keeping_faces: graph
            .edges
            .iter()
            .filter(|e| e.effect.keeps_faces())
            .count(),
    }
}

#[test]
fn a_build_that_passes_its_memory_limit_stops_and_says_how_far_it_got() {
    let model = wide_four_arm();
    let whole = StateGraph::build(&model);
    let mb = footprint_of(&whole).bytes() >> 20;
    assert!(mb > 80, "{mb} MB");
    let build = |mb| build::build_in_batches(&model, Batching::EVERY_CORE, MemoryLimit::Set { mb });
    // Far too little: refused on what the states found so far foresee, or on what they took.
    let err = build(20).expect_err("20 MB");
    assert!(err.need.mb() > 20, "{err}");
    assert!(
        err.explored < err.found && err.found < whole.states.len(),
        "{err}"
    );
    assert!(err.steps < whole.edges.len(), "{err}");
    assert_eq!(
        (err.robot.as_str(), err.limit),
        ("four-arm", MemoryLimit::Set { mb: 20 })
    );
    // More than half of it: nothing foresees twice that, so refused on what it took.
    let err = build(mb * 6 / 10).expect_err("60 %");
    let Need::Already { mb: took } = err.need else {
        panic!("{err}")
    };
    assert!(took > mb * 6 / 10 && took < mb + 32, "{err}");
    // Room for all of it and a batch under way: the same graph as without a limit.
    let roomy = build(mb + 32).expect("fits");
    assert!(roomy.edges == whole.edges);
}

#[test]
fn a_design_whose_states_have_thousands_of_steps_is_refused_on_what_it_foresees() {
    let model = crate::steps_tests::six_jaws();
    let limit = MemoryLimit::Set { mb: 100 };
    let err = build::build_in_batches(&model, Batching::EVERY_CORE, limit).expect_err("100 MB");
    let Need::Foreseen {
        mb,
        steps_per_state,
    } = err.need
    else {
        panic!("{err}")
    };
    assert!(mb > 200 && steps_per_state > 500, "{err}");
    // Refused within the first few thousand states, its steps in batches of fewer states.
    assert!(
        err.explored < BATCH && err.explored >= BATCH_PER_CORE,
        "{err}"
    );
    assert!(
        err.to_string().contains("more than twice the limit"),
        "{err}"
    );
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
    let mut graph = StateGraph::holding_home(model);
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
        crate::steps::legal_steps(model, &state, &mut steps);
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
        crate::tests::shipped("turntable-flipper"),
        crate::tests::shipped("six-motor"),
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
        // One core; every core; every core, a few states at a time.
        let splits = [(usize::MAX, 1 << 18), (1, 1 << 18), (BATCH_PER_CORE, 1000)];
        for (least_per_core, steps) in splits {
            let batching = Batching {
                least_per_core,
                steps,
            };
            let built = build::build_in_batches(&model, batching, MemoryLimit::None);
            let built = built.expect("no limit");
            let name = format!("{}, {batching:?}", model.name);
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
        let model = crate::tests::shipped(name);
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
