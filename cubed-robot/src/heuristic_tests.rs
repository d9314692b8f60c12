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

/// Each of the twelve searches lands in its place: a face's bound is 0 exactly where a step
/// turns it (or a camera sees it), and drops by at most a step's time along every step that
/// turns no face.
#[test]
fn each_bound_is_zero_where_its_face_turns_or_is_seen_and_consistent_elsewhere() {
    use super::graph::clear_cameras;
    use super::heuristic::Bounds;
    use cubed_core::cube::Face;
    let model = super::tests::shipped("four-arm");
    let graph = StateGraph::build(&model);
    let bounds = Bounds::new(&model, &graph);
    for face in Face::ALL {
        let (turn, seen) = (
            &bounds.until_turn[face.index()],
            &bounds.until_seen[face.index()],
        );
        for s in 0..graph.states.len() as u32 {
            let turns = (graph.edges(s).iter())
                .any(|e| e.effect.turns.iter().flatten().any(|t| t.face == face));
            assert_eq!(turn[s as usize] == 0, turns, "{face} turned from {s}");
            let state = &graph.states[s as usize];
            let sees = clear_cameras(&model, state)
                .any(|c| state.orientation.face_at(model.cameras[c].at) == face);
            assert_eq!(seen[s as usize] == 0, sees, "{face} seen at {s}");
            for e in graph.edges(s).iter().filter(|e| e.effect.keeps_faces()) {
                let (here, there) = (turn[s as usize], turn[e.to as usize]);
                assert!(
                    here <= there.saturating_add(e.ms()),
                    "{face}: {s} -> {}",
                    e.to
                );
            }
        }
    }
}
