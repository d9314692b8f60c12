//! The legal steps out of a state, found the quick way, against every combination of every
//! gripper's options tried with the physics rules.

use super::direction::Direction;
use super::model::Reach;
use super::model::{RobotModel, RobotState};
use super::physics::{step_motion, Motions};
use super::steps::{advance, legal_steps, motion_options, LegalStep};
use super::tests::shipped;
use std::collections::{HashSet, VecDeque};

/// Every combination of every gripper's options, then each flip, each tried with the
/// physics rules: the plain way, as the state graph was built before.
fn by_trying_every_combination(model: &RobotModel, state: &RobotState) -> Vec<LegalStep> {
    let options = motion_options(model, state);
    let sizes: Vec<usize> = options.iter().map(Vec::len).collect();
    let mut choice = vec![0usize; options.len()];
    let mut found = Vec::new();
    let mut rank = 0;
    let mut tried = |motions: Motions, rank: u64| {
        if let Ok((after, motion)) = step_motion(model, state, &motions) {
            found.push(LegalStep {
                motions,
                after,
                motion,
                rank,
            });
        }
    };
    loop {
        let mut motions = Motions::default();
        for (g, &c) in choice.iter().enumerate() {
            motions.acts[g] = options[g][c];
        }
        tried(motions, rank);
        rank += 1;
        if !advance(&mut choice, &sizes) {
            break;
        }
    }
    for flip in 0..model.flippers.len() {
        let motions = Motions {
            flip: Some(flip as u8),
            ..Motions::default()
        };
        tried(motions, rank);
        rank += 1;
    }
    found
}

/// The first `limit` states from home, breadth first, by the plain way's steps.
fn first_states(model: &RobotModel, limit: usize) -> Vec<RobotState> {
    let mut seen = HashSet::from([model.home()]);
    let mut queue = VecDeque::from([model.home()]);
    let mut states = Vec::new();
    while let Some(state) = queue.pop_front() {
        if states.len() == limit {
            break;
        }
        states.push(state);
        for step in by_trying_every_combination(model, &state) {
            if seen.insert(step.after) {
                queue.push_back(step.after);
            }
        }
    }
    states
}

/// A four-arm design with jaws on all six sides, each gripper turning two quarters
/// either way: many open grippers turning freely at once.
pub(crate) fn six_jaws() -> RobotModel {
    let mut model = shipped("four-arm");
    for gripper in &mut model.grippers {
        gripper.reach = Reach::Limited { min: -2, max: 2 };
    }
    for (name, at) in [("up", Direction::Up), ("down", Direction::Down)] {
        let mut extra = model.grippers[0].clone();
        (extra.name, extra.at) = (name.to_string(), at);
        model.grippers.push(extra);
    }
    model.support.push(0b11_0000);
    model.cameras.clear();
    model
}

#[test]
fn the_steps_found_are_those_every_combination_tried_finds_in_the_same_order() {
    let designs = [
        shipped("four-arm"),
        shipped("turntable-flipper"),
        shipped("six-motor"),
        six_jaws(),
    ];
    for model in designs {
        let mut compared = 0;
        let mut steps = Vec::new();
        for state in first_states(&model, 400) {
            steps.clear();
            legal_steps(&model, &state, &mut steps);
            steps.sort_unstable_by_key(|step| step.rank);
            let plain = by_trying_every_combination(&model, &state);
            let key = |s: &LegalStep| (s.motions, s.after, s.motion, s.rank);
            let found: Vec<_> = steps.iter().map(key).collect();
            let expected: Vec<_> = plain.iter().map(key).collect();
            assert_eq!(found, expected, "{} from {state:?}", model.name);
            compared += found.len();
        }
        assert!(compared > 50, "{}: only {compared} steps", model.name);
    }
}
