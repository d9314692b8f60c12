//! Grippers opposite each other that cannot turn the cube between them because they do not turn in step, when that is all a design lacks to turn or show a face.

use super::{ConfigError, Ctx};
use crate::reach::{abilities_within, Abilities};
use crate::RobotModel;

/// States the design made to turn in step may visit before the check gives up (then the
/// general advice stands).
const STATES_IN_STEP: usize = 50_000;

impl Ctx<'_> {
    /// The refusal naming a pair of opposite grippers that do not turn in step, when the
    /// design with each such pair in step could do what `wanted` asks (`what` says what it
    /// cannot do now, e.g. "face R can never be shown to a camera").
    pub(super) fn out_of_step_blocks(
        &self,
        model: &RobotModel,
        wanted: impl Fn(&Abilities) -> bool,
        what: &str,
    ) -> Option<ConfigError> {
        let pairs = out_of_step_pairs(model);
        let &(faster, slower) = pairs.first()?;
        let can = abilities_within(&in_step(model, &pairs), STATES_IN_STEP)?;
        if !wanted(&can) {
            return None;
        }
        let (fast, slow) = (&model.grippers[faster], &model.grippers[slower]);
        let odd = &model.grippers[odd_one_out(model, (faster, slower))];
        let key = if odd.drive.is_some() {
            "motion"
        } else {
            "quarter_ms"
        };
        Some(self.impossible(
            &format!("[[gripper]] '{}'", odd.name),
            key,
            format!(
                "{what}: only grippers '{}' ({}) and '{}' ({}) could turn the cube between them for it, and they do not turn in step ({}), so one would turn its layer ahead of the middle one and no program turns the cube that way; give both the same times and the same [gripper.motion] (motor, microsteps, gear, speed and acceleration)",
                fast.name,
                fast.times_in_words(),
                slow.name,
                slow.times_in_words(),
                fast.out_of_step_words(slow),
            ),
        ))
    }
}

/// Opposite grippers that both turn but not in step, as (faster, slower).
fn out_of_step_pairs(model: &RobotModel) -> Vec<(usize, usize)> {
    let grippers = &model.grippers;
    let mut pairs = Vec::new();
    for (a, first) in grippers.iter().enumerate() {
        for (b, second) in grippers.iter().enumerate().skip(a + 1) {
            let opposite = first.at == second.at.opposite();
            let both_turn = first.reach.turns() && second.reach.turns();
            if opposite && both_turn && !first.turns_in_step_with(second) {
                let faster_first =
                    (first.quarter_ms, first.half_ms) <= (second.quarter_ms, second.half_ms);
                pairs.push(if faster_first { (a, b) } else { (b, a) });
            }
        }
    }
    pairs
}

/// Of a pair out of step, the one to point at: the one fewer of the design's other turning
/// grippers turn in step with (a builder who changed one gripper's motor or speed changed
/// that one); the faster if neither is.
fn odd_one_out(model: &RobotModel, (faster, slower): (usize, usize)) -> usize {
    let grippers = &model.grippers;
    let in_step_with = |i: usize| {
        let others = grippers
            .iter()
            .enumerate()
            .filter(|&(j, g)| j != i && g.reach.turns());
        others
            .filter(|(_, g)| g.turns_in_step_with(&grippers[i]))
            .count()
    };
    if in_step_with(slower) < in_step_with(faster) {
        slower
    } else {
        faster
    }
}

/// `model` with the faster of each pair made to turn as the slower does.
fn in_step(model: &RobotModel, pairs: &[(usize, usize)]) -> RobotModel {
    let mut stepped = model.clone();
    for &(faster, slower) in pairs {
        let slow = &model.grippers[slower];
        let fast = &mut stepped.grippers[faster];
        (fast.quarter_ms, fast.half_ms, fast.drive) = (slow.quarter_ms, slow.half_ms, slow.drive);
    }
    stepped
}

#[cfg(test)]
mod tests {
    /// Four arms in a plane (left, right, front, back) with a camera above; `back` as given.
    fn four_arms(back: &str) -> String {
        let arm = |at: &str, times: &str| {
            format!("[[gripper]]\nname = \"{at}\"\nat = \"{at}\"\ngrips = \"layer\"\nrange = [-1, 1]\n{times}\nopen_ms = 100\nclose_ms = 100\n")
        };
        let times = "quarter_ms = 150\nhalf_ms = 250";
        format!(
            "name = \"four\"\n{}{}{}{}[support]\nsets = [[\"left\", \"right\"], [\"front\", \"back\"]]\n[[camera]]\nname = \"top\"\nat = \"up\"\nimage_top = \"back\"\n",
            arm("left", times),
            arm("right", times),
            arm("front", times),
            arm("back", back),
        )
    }

    #[test]
    fn a_design_that_needs_an_out_of_step_pair_to_turn_the_cube_names_both_and_the_fix_works() {
        let slow_back = four_arms("quarter_ms = 300\nhalf_ms = 500");
        let err = crate::parse_robot(&slow_back, "four.toml").expect_err("R is never seen");
        let said = err.to_string();
        // Pointed at the one gripper unlike the other three, though it is the slower.
        assert!(said.contains("[[gripper]] #4 'back' (line"), "{said}");
        assert!(said.contains("faces R, L can never be shown"), "{said}");
        assert!(
            said.contains("'front' (150 ms a quarter turn, 250 a half) and 'back' (300 ms"),
            "{said}"
        );
        // As the message says: the same times, and the design loads.
        let in_step = four_arms("quarter_ms = 150\nhalf_ms = 250");
        crate::parse_robot(&in_step, "four.toml").expect("in step, it loads");
    }

    #[test]
    fn the_gripper_pointed_at_is_the_one_unlike_the_others_faster_or_slower() {
        let fast_front = four_arms("quarter_ms = 150\nhalf_ms = 250").replacen(
            "name = \"front\"\nat = \"front\"\ngrips = \"layer\"\nrange = [-1, 1]\nquarter_ms = 150\nhalf_ms = 250",
            "name = \"front\"\nat = \"front\"\ngrips = \"layer\"\nrange = [-1, 1]\nquarter_ms = 100\nhalf_ms = 200",
            1,
        );
        assert!(fast_front.contains("quarter_ms = 100"), "{fast_front}");
        let err = crate::parse_robot(&fast_front, "four.toml").expect_err("R is never seen");
        let said = err.to_string();
        assert!(said.contains("[[gripper]] #3 'front' (line"), "{said}");
    }
}
