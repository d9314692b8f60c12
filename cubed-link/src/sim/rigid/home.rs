//! Homing on the simulator's machine: limited rotations back to their mark, continuous ones
//! to their mark and back to the quarter they left, jaws closed, flipper counts reset; a
//! gripper whose jaw holds the cube off its mark stalls, a jawless limited motor turns what it
//! drives back with it.

use super::{stall, Culprit, GripperMove, HomeParts, Impossible, Machine, MachineStep};
use crate::robot::model::{Reach, RobotModel};

impl Machine {
    /// Homes every motor: open grippers turn back and close, flipper cams go to their mark.
    /// A limited gripper holding the cube away from its home mark cannot: homing would turn
    /// the cube. A continuous one finds its mark and comes back to the quarter it left.
    pub fn home(&mut self, model: &RobotModel) -> Result<(), Impossible> {
        let all = HomeParts {
            rotations: vec![true; model.grippers.len()],
            jaws: vec![true; model.grippers.len()],
            flippers: vec![true; model.flippers.len()],
        };
        self.home_parts(model, &all)
    }

    /// Homes only `parts`: their rotations turn back to the mark, their jaws close, their
    /// flippers count from 0 again; everything else stays. A gripper with a jaw that holds
    /// the cube off its mark cannot be homed (its jaw cannot open by itself, and turning would
    /// turn the cube): a stall, and nothing moves. A jawless limited motor off its mark is
    /// fixed to what it drives, so it turns that back with it, all such motors together as
    /// one step: a stall if that step is impossible. A continuous rotation (a face motor, a
    /// turntable) turns to its mark and back to the quarter it left, which it counts 0 from
    /// then on: what it drives ends as it was, and it stalls only where that turn cannot be
    /// made.
    pub fn home_parts(&mut self, model: &RobotModel, parts: &HomeParts) -> Result<(), Impossible> {
        let still = || MachineStep {
            grippers: vec![GripperMove::default(); model.grippers.len()],
            flips: vec![0; model.flippers.len()],
        };
        // What turns back to its mark and stays, and everything that turns at once (the
        // continuous rotations' search too, which they then undo).
        let (mut back, mut together) = (still(), still());
        for (g, gripper) in model.grippers.iter().enumerate() {
            if !parts.rotations.get(g).copied().unwrap_or(false) {
                continue;
            }
            let off_mark = match gripper.reach {
                Reach::Limited { .. } => self.rotations[g],
                Reach::Continuous => self.rotations[g].rem_euclid(4),
            };
            if !self.holds_cube || !self.grips(model, g) || off_mark == 0 {
                continue;
            }
            together.grippers[g].turn = -off_mark;
            if gripper.reach == Reach::Continuous {
                continue;
            }
            if gripper.has_jaw {
                return Err(stall(
                    Culprit::Rotation(g),
                    format!(
                        "cannot home '{}': it holds the cube {:+} quarter turns from its home mark, and homing would turn the cube",
                        gripper.name, self.rotations[g]
                    ),
                ));
            }
            back.grippers[g].turn = -off_mark;
        }
        if together.grippers.iter().any(|m| m.turn != 0) {
            self.clone().perform(model, &together, &mut || false)?;
        }
        if back.grippers.iter().any(|m| m.turn != 0) {
            let mut turned = self.clone();
            turned.perform(model, &back, &mut || false)?;
            self.cube = turned.cube;
        }
        let chosen = |list: &[bool], i: usize| list.get(i).copied().unwrap_or(false);
        for g in 0..model.grippers.len() {
            if chosen(&parts.rotations, g) {
                self.rotations[g] = 0;
            }
            if chosen(&parts.jaws, g) {
                self.closed[g] = true;
            }
        }
        for (f, flips) in self.flips.iter_mut().enumerate() {
            if chosen(&parts.flippers, f) {
                *flips = 0;
            }
        }
        Ok(())
    }
}
