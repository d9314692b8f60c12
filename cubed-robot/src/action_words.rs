//! Gripper actions written as `cubed plan` prints them (`turn left +1, turn right -1; open
//! left`): steps split by `;` or by lines (a `t=0.35s` before a step is skipped, so plan's
//! lines may be pasted), the actions of one step by `,`, names as the design gives them.
//! For moving single actuators by hand at first power-up (`cubed exec --actions`).

use super::model::RobotModel;
use super::program::{Action, Program, Step};

/// What is wrong with written actions, and where (steps and actions counted from 1).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ActionWordsError {
    #[error("no actions given: write them as `cubed plan` prints them, e.g. \"open left; turn left +1\"")]
    Empty,
    #[error("step {step}, action {action} '{words}': {problem}")]
    Bad {
        step: usize,
        action: usize,
        words: String,
        problem: String,
    },
}

/// Reads `text` into a program for `model`; each turn is checked against its gripper's
/// range, counted from home.
pub fn parse_actions(model: &RobotModel, text: &str) -> Result<Program, ActionWordsError> {
    let mut angles = vec![0i8; model.grippers.len()];
    let mut steps = Vec::new();
    // `cubed plan`'s output pasted whole: its steps are the timed lines, the rest is its
    // summary.
    let pasted_plan = text.lines().any(|l| l.trim_start().starts_with("t="));
    let lines = (text.lines()).filter(|l| !pasted_plan || l.trim_start().starts_with("t="));
    let written = (lines.flat_map(|l| l.split(';')).map(without_time)).filter(|s| !s.is_empty());
    for (s, step_text) in written.enumerate() {
        let mut step = Step::default();
        let mut moved = Vec::new();
        for (a, words) in step_text.split(',').map(str::trim).enumerate() {
            let bad = |problem: String| ActionWordsError::Bad {
                step: s + 1,
                action: a + 1,
                words: words.to_string(),
                problem,
            };
            let action = parse_action(model, words).map_err(bad)?;
            let actuator = Moved::by(action);
            if moved.contains(&actuator) {
                return Err(bad(format!(
                    "{} is moved twice in one step: give each actuator one action a step",
                    actuator.words(model)
                )));
            }
            moved.push(actuator);
            if let Action::Turn { gripper, quarters } = action {
                let reach = model.grippers[gripper].reach;
                if let (false, super::model::Reach::Limited { min, max }) =
                    (reach.allows(angles[gripper], quarters), reach)
                {
                    return Err(bad(format!(
                        "'{}' is at {:+} quarter turns from home and reaches only [{min}, {max}] (its `range`)",
                        model.grippers[gripper].name, angles[gripper]
                    )));
                }
                angles[gripper] = reach.after(angles[gripper], quarters);
            }
            step.actions.push(action);
        }
        steps.push(step);
    }
    if steps.is_empty() {
        return Err(ActionWordsError::Empty);
    }
    Ok(Program { steps })
}

/// A step's text without the `t=0.35s` that `cubed plan` prints before it.
fn without_time(step: &str) -> &str {
    let step = step.trim();
    match step.split_once(char::is_whitespace) {
        Some((first, rest)) if first.starts_with("t=") && first.ends_with('s') => rest.trim(),
        _ => step,
    }
}

/// Which actuator an action moves: a gripper's jaw or rotation, or a flipper.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Moved {
    Jaw(usize),
    Rotation(usize),
    Flipper(usize),
    Camera(usize),
}

impl Moved {
    fn by(action: Action) -> Moved {
        match action {
            Action::Open(g) | Action::Close(g) => Moved::Jaw(g),
            Action::Turn { gripper, .. } => Moved::Rotation(gripper),
            Action::Flip(f) => Moved::Flipper(f),
            Action::Capture { camera, .. } => Moved::Camera(camera),
        }
    }

    fn words(self, model: &RobotModel) -> String {
        let gripper = |g: usize| model.grippers.get(g).map_or("?", |g| g.name.as_str());
        match self {
            Moved::Jaw(g) => format!("the jaw of '{}'", gripper(g)),
            Moved::Rotation(g) => format!("'{}'", gripper(g)),
            Moved::Flipper(f) => format!(
                "flipper '{}'",
                model.flippers.get(f).map_or("?", |f| f.name.as_str())
            ),
            Moved::Camera(c) => format!("camera {c}"),
        }
    }
}

/// One action: `open NAME`, `close NAME`, `turn NAME QUARTERS` (±1 or ±2), `flip NAME`.
fn parse_action(model: &RobotModel, words: &str) -> Result<Action, String> {
    let parts: Vec<&str> = words.split_whitespace().collect();
    let gripper = |name: &str| {
        model.gripper_index(name).ok_or_else(|| {
            if model.flipper_index(name).is_some() {
                return format!("'{name}' is a flipper: it only flips (`flip {name}`)");
            }
            let names: Vec<&str> = model.grippers.iter().map(|g| g.name.as_str()).collect();
            let flippers: Vec<&str> = model.flippers.iter().map(|f| f.name.as_str()).collect();
            let flippers = match flippers.is_empty() {
                true => String::new(),
                false => format!("; its flippers: {}", flippers.join(", ")),
            };
            format!(
                "robot '{}' has no gripper '{name}' (its grippers: {}{flippers})",
                model.name,
                names.join(", "),
            )
        })
    };
    let jawed = |name: &str| {
        let g = gripper(name)?;
        match model.grippers[g].has_jaw {
            true => Ok(g),
            false => Err(format!(
                "'{name}' has no jaw to open or close (`jaw = false`)"
            )),
        }
    };
    let turning = |name: &str| {
        let g = gripper(name)?;
        match model.grippers[g].reach.turns() {
            true => Ok(g),
            false => Err(format!("'{name}' never turns (`range = [0, 0]`)")),
        }
    };
    let verb = parts.first().map(|v| v.to_ascii_lowercase());
    if let Some(verb) = verb.filter(|v| Some(v.as_str()) != parts.first().copied()) {
        if ["open", "close", "turn", "flip"].contains(&verb.as_str()) {
            return Err(format!("write the verb in lower case: `{verb}`"));
        }
    }
    match parts[..] {
        ["open", name] => Ok(Action::Open(jawed(name)?)),
        ["close", name] => Ok(Action::Close(jawed(name)?)),
        ["turn", name, quarters] => {
            let quarters = match quarters.trim_start_matches('+').parse::<i8>() {
                Ok(q @ (-2..=-1 | 1..=2)) => q,
                _ => {
                    return Err(format!(
                        "'{quarters}' is not a turn: give +1, -1, +2 or -2 quarter turns"
                    ))
                }
            };
            Ok(Action::Turn {
                gripper: turning(name)?,
                quarters,
            })
        }
        ["flip", name] => model.flipper_index(name).map(Action::Flip).ok_or_else(|| {
            match model.flippers.is_empty() {
                true => format!("robot '{}' has no flippers", model.name),
                false => format!("robot '{}' has no flipper '{name}'", model.name),
            }
        }),
        _ => Err(
            "write `open NAME`, `close NAME`, `turn NAME +1` (or -1, +2, -2) or `flip NAME`".into(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn four_arm() -> RobotModel {
        crate::shipped::shipped_design("four-arm").expect("four-arm loads")
    }

    #[test]
    fn actions_as_plan_prints_them_read_back_into_the_same_program() {
        let model = four_arm();
        let planner = crate::planner::Planner::new(model.clone());
        let turns = cubed_core::cube::parse_moves("R U F'", cubed_core::cube::Notation::Singmaster)
            .expect("moves");
        let turns = cubed_core::cube::FaceletCube::turns_without_rotations(&turns);
        let plan = planner.plan(&planner.home(), &turns).expect("plans");
        let text: Vec<String> = (plan.program.to_text(&model).lines())
            .map(|line| line.split_once("  ").map_or(line, |(_, a)| a).to_string())
            .collect();
        let read = parse_actions(&model, &text.join("; ")).expect("reads");
        assert_eq!(read, plan.program);
        // Plan's lines pasted as they are, times and all, and its whole output with the
        // summary lines after the steps.
        let pasted = parse_actions(&model, &plan.program.to_text(&model)).expect("reads");
        assert_eq!(pasted, plan.program);
        let whole = format!(
            "{}robot four-arm: 6 steps, 0.75 s; solution R U F'\nthe cube ends held U up, F to the front: give the next program --start UF\n",
            plan.program.to_text(&model)
        );
        assert_eq!(parse_actions(&model, &whole).expect("reads"), plan.program);
    }

    #[test]
    fn a_wrong_name_verb_turn_or_range_is_placed_by_step_and_action() {
        let model = four_arm();
        let cases = [
            (
                "open left; turn lfet +1",
                "step 2, action 1",
                "no gripper 'lfet'",
            ),
            (
                "open left, spin left +1",
                "step 1, action 2",
                "write `open NAME`",
            ),
            ("turn left 3", "step 1, action 1", "'3' is not a turn"),
            (
                "turn left +1; turn left +1",
                "step 2, action 1",
                "at +1 quarter turns",
            ),
            ("flip left", "step 1, action 1", "has no flippers"),
            (
                "open left, close left",
                "step 1, action 2",
                "the jaw of 'left' is moved twice",
            ),
            ("Open left", "step 1, action 1", "lower case: `open`"),
        ];
        for (text, place, problem) in cases {
            let message = parse_actions(&model, text).expect_err(text).to_string();
            assert!(
                message.starts_with(place) && message.contains(problem),
                "{text}: {message}"
            );
        }
        assert_eq!(parse_actions(&model, " ; "), Err(ActionWordsError::Empty));
    }

    #[test]
    fn a_jawless_or_fixed_gripper_is_refused_what_it_cannot_do() {
        let six = crate::shipped::shipped_design("six-motor").expect("six-motor");
        let said = parse_actions(&six, "open up-motor")
            .expect_err("no jaw")
            .to_string();
        assert!(said.contains("'up-motor' has no jaw"), "{said}");
        let table = crate::shipped::shipped_design("turntable-flipper").expect("loads");
        let said = parse_actions(&table, "turn holder +1")
            .expect_err("fixed")
            .to_string();
        assert!(said.contains("'holder' never turns"), "{said}");
        let said = parse_actions(&table, "turn flipper +1").expect_err("a flipper");
        assert!(said.to_string().contains("`flip flipper`"), "{said}");
        // A name from another design: what this one has, its flipper too.
        let said = parse_actions(&table, "open left").expect_err("four-arm's name");
        let said = said.to_string();
        assert!(
            said.contains("(its grippers: turntable, holder; its flippers: flipper)"),
            "{said}"
        );
        let said = parse_actions(&four_arm(), "open lfet").expect_err("a typo");
        assert!(
            said.to_string()
                .ends_with("(its grippers: left, right, front, back)"),
            "{said}"
        );
    }
}
