//! What a design can do from home: which cube faces some reachable state turns, and which it
//! shows to a camera with a clear view, found by a search that stops as soon as it has seen
//! every face both ways (the whole state graph of a large design takes minutes and
//! gigabytes; a possible design shows all it can do within its first states).

use super::graph::clear_cameras;
use super::model::{RobotModel, RobotState};
use super::steps::legal_steps;
use cubed_core::cube::Face;
use foldhash::HashSet;
use std::collections::VecDeque;

/// The faces a design can turn and show, from its home state with the cube loaded as at home.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Abilities {
    turned: [bool; 6],
    seen: [bool; 6],
}

impl Abilities {
    /// Whether some reachable state has a step that turns cube face `face`.
    pub(crate) fn can_turn(&self, face: Face) -> bool {
        self.turned[face.index()]
    }

    /// Whether some reachable state shows cube face `face` to a camera with a clear view.
    pub(crate) fn can_see(&self, face: Face) -> bool {
        self.seen[face.index()]
    }

    fn complete(&self, model: &RobotModel) -> bool {
        self.turned.iter().all(|&t| t) && (model.cameras.is_empty() || self.seen.iter().all(|&s| s))
    }
}

/// Searches the states reachable from home until every face has been turned and seen (or
/// nothing is left to reach). Breadth first, except that a state whose cube orientation and
/// jaws (all a camera's view depends on) are new is explored next: a large design has hundreds
/// of thousands of states a few steps from home, and those that show a new face lie deeper.
pub(crate) fn abilities(model: &RobotModel) -> Abilities {
    abilities_within(model, usize::MAX).unwrap_or_default()
}

/// As [`abilities`], but gives up (`None`) after visiting `limit` states without having seen
/// every face both ways: what a design could do with a key changed is asked only for advice,
/// and an impossible large design would be searched to its end.
pub(crate) fn abilities_within(model: &RobotModel, limit: usize) -> Option<Abilities> {
    let mut found = Abilities::default();
    let home = model.home();
    note_views(model, &home, &mut found);
    let mut visited = HashSet::from_iter([home]);
    let mut views = HashSet::from_iter([(home.orientation, home.closed)]);
    let mut queue = VecDeque::from([home]);
    let mut steps = Vec::new();
    while let Some(state) = queue.pop_front() {
        steps.clear();
        legal_steps(model, &state, &mut steps);
        for step in &steps {
            for (direction, _) in step.motion.turns.iter().flatten() {
                found.turned[state.orientation.face_at(*direction).index()] = true;
            }
            if !visited.insert(step.after) {
                continue;
            }
            note_views(model, &step.after, &mut found);
            match views.insert((step.after.orientation, step.after.closed)) {
                true => queue.push_front(step.after),
                false => queue.push_back(step.after),
            }
        }
        if found.complete(model) {
            break;
        }
        if visited.len() > limit {
            return None;
        }
    }
    Some(found)
}

fn note_views(model: &RobotModel, state: &RobotState, found: &mut Abilities) {
    for camera in clear_cameras(model, state) {
        found.seen[state.orientation.face_at(model.cameras[camera].at).index()] = true;
    }
}

/// The faces the whole state graph turns and shows from home (its home part, found by
/// following its edges): the witness of the search that stops early.
#[cfg(test)]
pub(crate) fn by_the_whole_graph(model: &RobotModel) -> Abilities {
    let graph = super::graph::StateGraph::build(model);
    let mut found = Abilities::default();
    let mut seen = HashSet::from_iter([0u32]);
    let mut todo = vec![0u32];
    while let Some(id) = todo.pop() {
        note_views(model, &graph.states[id as usize], &mut found);
        for edge in graph.edges(id) {
            for turn in edge.effect.turns.iter().flatten() {
                found.turned[turn.face.index()] = true;
            }
            if seen.insert(edge.to) {
                todo.push(edge.to);
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_search_that_stops_early_finds_what_the_whole_graph_does() {
        let four_arm = crate::tests::shipped("four-arm");
        // Left and right never turn: L and R only by turning the cube, if at all.
        let mut two_fixed = four_arm.clone();
        for gripper in two_fixed.grippers.iter_mut().take(2) {
            gripper.reach = crate::model::Reach::Limited { min: 0, max: 0 };
        }
        let mut none_turn = four_arm.clone();
        for gripper in none_turn.grippers.iter_mut() {
            gripper.reach = crate::model::Reach::Limited { min: 0, max: 0 };
        }
        let designs = [
            four_arm,
            two_fixed,
            none_turn,
            crate::tests::shipped("turntable-flipper"),
            crate::tests::shipped("six-motor"),
        ];
        for model in designs {
            let early = abilities(&model);
            let whole = by_the_whole_graph(&model);
            for face in Face::ALL {
                assert_eq!(
                    (early.can_turn(face), early.can_see(face)),
                    (whole.can_turn(face), whole.can_see(face)),
                    "{} {face}",
                    model.name
                );
            }
        }
    }

    #[test]
    fn a_design_with_thousands_of_steps_a_state_shows_every_face_within_its_first_states() {
        use crate::direction::Direction;
        use crate::model::{Camera, Reach};
        // Six jaw grippers turning four quarters either way (about 1,800 steps out of each
        // state), a camera in front that needs the front gripper open: breadth first, it
        // took more than 600,000 states to see a second face (and 25 s to load).
        let mut model = crate::steps_tests::six_jaws();
        for gripper in &mut model.grippers {
            gripper.reach = Reach::Limited { min: -4, max: 4 };
        }
        let front = (model.grippers.iter())
            .position(|g| g.at == Direction::Front)
            .expect("a front gripper");
        model.cameras = vec![Camera {
            name: "cam".into(),
            at: Direction::Front,
            image_top: Direction::Up,
            needs_open: vec![front],
            capture_ms: 50,
        }];
        let can = abilities_within(&model, 50_000).expect("found within 50,000 states");
        for face in Face::ALL {
            assert!(can.can_turn(face) && can.can_see(face), "{face}");
        }
    }
}
