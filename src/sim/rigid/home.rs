//! Homing on the simulator's machine: rotations back to their mark, jaws closed, flipper
//! counts reset; a gripper whose jaw holds the cube off its mark stalls, a jawless motor turns
//! what it drives back with it.

use super::{stall, Culprit, GripperMove, HomeParts, Impossible, Machine, MachineStep};
use crate::robot::model::{Reach, RobotModel};

impl Machine {
    /// Homes every motor: open grippers turn back and close, flipper cams go to their mark.
    /// A gripper holding the cube away from its home mark (a limited one away from 0, a
    /// continuous one off a whole turn) cannot: homing would turn the cube.
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
    /// turn the cube): a stall, and nothing moves. A jawless motor off its mark (a face motor,
    /// a turntable) is fixed to what it drives, so it turns that back with it, all such
    /// motors together as one step: a stall if that step is impossible.
    pub fn home_parts(&mut self, model: &RobotModel, parts: &HomeParts) -> Result<(), Impossible> {
        let mut back = MachineStep {
            grippers: vec![GripperMove::default(); model.grippers.len()],
            flips: vec![0; model.flippers.len()],
        };
        for (g, gripper) in model.grippers.iter().enumerate() {
            if !parts.rotations.get(g).copied().unwrap_or(false) {
                continue;
            }
            let off_mark = match gripper.reach {
                Reach::Limited { .. } => self.rotations[g],
                Reach::Continuous => self.rotations[g].rem_euclid(4),
            };
            if !self.grips(model, g) || off_mark == 0 {
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
