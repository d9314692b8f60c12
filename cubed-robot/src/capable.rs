//! Whether a design can turn every face either way again and again from home (a jawless motor with a short range cannot): checked by planning, so a design that loads but cannot solve some cubes is refused before any run.

use super::planner::{PlanError, Planner};
use cubed_core::cube::Turn;

impl Planner {
    /// Every face turn, repeated until it comes back (four quarter turns, two half turns), planned
    /// each alone from home; the first sequence that cannot be planned is the error.
    pub fn check_every_turn(&self) -> Result<(), PlanError> {
        let home = self.home();
        for turn in Turn::all() {
            let repeats = if turn.quarters == 2 { 2 } else { 4 };
            if self.plan_naive(&home, &vec![turn; repeats]).is_err() {
                return Err(PlanError::CannotRepeat {
                    robot: self.model.name.clone(),
                    turn: cubed_core::cube::format_moves(
                        &[turn.into()],
                        cubed_core::cube::Notation::Singmaster,
                    )
                    .unwrap_or_default(),
                    repeats,
                });
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_robot;

    fn shipped(name: &str) -> String {
        let path = format!("{}/../config/robots/{name}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read_to_string(path).expect("shipped design")
    }

    #[test]
    fn every_shipped_design_turns_every_face_either_way_again_and_again() {
        for name in ["four-arm.toml", "turntable-flipper.toml", "six-motor.toml"] {
            let model = parse_robot(&shipped(name), name).expect("loads");
            assert_eq!(Planner::new(model).check_every_turn(), Ok(()), "{name}");
        }
    }

    #[test]
    fn a_jawless_motor_that_turns_one_quarter_only_is_refused() {
        // The up motor turns its face between -1 and 0 only: U' then back, never U U.
        let mut model = parse_robot(&shipped("six-motor.toml"), "six-motor.toml").expect("loads");
        model.grippers[0].reach = crate::model::Reach::Limited { min: -1, max: 0 };
        let err = Planner::new(model)
            .check_every_turn()
            .expect_err("U cannot repeat");
        assert!(err.to_string().contains("'U'"), "{err}");
    }

    #[test]
    fn a_jawless_gripper_with_a_limited_range_is_refused_at_load() {
        // Homing would turn its face back: six-motor's up motor, and the turntable (the cube).
        for (design, range) in [
            ("six-motor.toml", "[-2, 2]"),
            ("turntable-flipper.toml", "[-1, 1]"),
        ] {
            let text =
                shipped(design).replacen("range = \"continuous\"", &format!("range = {range}"), 1);
            let err = parse_robot(&text, design).expect_err(design).to_string();
            for needle in [
                design,
                "key 'range'",
                range,
                "`jaw = false`",
                "homing",
                "\"continuous\"",
            ] {
                assert!(err.contains(needle), "{needle:?} not in {err}");
            }
        }
        // One that never turns (a fixed holder) is fine.
        let text =
            shipped("six-motor.toml").replacen("range = \"continuous\"", "range = [0, 0]", 1);
        assert!(parse_robot(&text, "fixed").is_err_and(|e| !e.to_string().contains("homing")));
    }
}
