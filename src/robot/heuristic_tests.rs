//! The lower bounds' steps into each state, kept in flat lists, against a list per state.

use super::graph::StateGraph;
use super::heuristic::reverse_keeping_faces;

#[test]
fn the_flat_lists_hold_each_states_steps_in_as_a_list_per_state_would() {
    for name in ["four-arm", "turntable-flipper"] {
        let graph = StateGraph::build(&super::tests::shipped(name));
        let mut per_state = vec![Vec::new(); graph.states.len()];
        for from in 0..graph.states.len() as u32 {
            for e in graph.edges(from) {
                if e.effect.turns.iter().all(Option::is_none) {
                    per_state[e.to as usize].push((from, e.ms()));
                }
            }
        }
        let flat = reverse_keeping_faces(&graph);
        for (state, expected) in per_state.iter().enumerate() {
            let found: Vec<_> = flat.steps_into(state as u32).collect();
            assert_eq!(&found, expected, "{name}: into {state}");
        }
        assert!(
            per_state.iter().map(Vec::len).sum::<usize>() > 100,
            "{name}"
        );
    }
}
