//! The robot machine felt through the firmware's motors: a jaw sent to a side changes its
//! grip at once; a motor leaving its position must be free to move together with every motor
//! still on its way (else it stalls); a motor past half-way to the next position turns
//! whatever it holds by that step.

use super::board::{machine_for, BoardBuildError};
use super::mechanics::{MechanicalFault, Mechanics, MotorBatch};
use super::mechanics_robot::PhysicsMechanics;
use super::rigid::{GripperMove, JawMove, MachineStep};
use crate::robot::Role;
use cubed_firmware::Machine;

impl PhysicsMechanics {
    /// A step of the machine: jaws as given, turns and flips as given, by actuator index.
    fn step_of(&self, jaws: &[(u8, bool)], turns: &[(u8, i32)]) -> MachineStep {
        let mut step = MachineStep {
            grippers: vec![GripperMove::default(); self.model.grippers.len()],
            flips: vec![0; self.model.flippers.len()],
        };
        for &(actuator, closing) in jaws {
            if let Some(Role::Jaw { gripper }) = self.map.roles.get(usize::from(actuator)) {
                step.grippers[*gripper].jaw = if closing {
                    JawMove::Closing
                } else {
                    JawMove::Opening
                };
            }
        }
        for &(actuator, delta) in turns {
            match self.map.roles.get(usize::from(actuator)) {
                Some(Role::Rotation { gripper }) => step.grippers[*gripper].turn += delta,
                Some(Role::Flipper { flipper }) => step.flips[*flipper] += delta,
                _ => {}
            }
        }
        step
    }

    /// Whether `step` is possible now, without performing it.
    fn try_step(&self, step: &MachineStep) -> Result<(), MechanicalFault> {
        let mut trial = self.machine.clone();
        trial
            .perform(&self.model, step, &mut || false)
            .map_err(|e| self.fault_for(e))
    }

    /// Performs `step`; a gripper's turn slips or not for its whole move (asked once).
    fn do_step(&mut self, step: &MachineStep) -> Result<(), MechanicalFault> {
        let turning = step.grippers.iter().position(|g| g.turn != 0);
        let mut slipping = self.slipping.clone();
        let attached = self.attached.clone();
        let mut slips = || match turning {
            Some(g) => *slipping[g]
                .get_or_insert_with(|| attached.as_ref().is_some_and(|a| a.next_turn_slips())),
            None => false,
        };
        let mut machine = self.machine.clone();
        let done = machine.perform(&self.model, step, &mut slips);
        self.slipping = slipping;
        match done {
            Ok(()) => {
                self.machine = machine;
                Ok(())
            }
            Err(impossible) => Err(self.fault_for(impossible)),
        }
    }
}

impl Mechanics for PhysicsMechanics {
    fn machine(&self) -> Result<Machine, BoardBuildError> {
        machine_for(&self.model, &self.map)
    }

    /// The design's jaw times are the jaw's own: a jaw slower to close than to open takes
    /// its time closing, whatever the firmware waits.
    fn jaw_times(&self, actuator: usize) -> Option<(u16, u16)> {
        let config = self.map.configs.get(actuator)?;
        Some((config.jaw_ms(false)?, config.jaw_ms(true)?))
    }

    /// The rotations and flippers of the mask go back to their marks (their jaws close
    /// afterwards, as the firmware sends them). A gripper holding the cube off its mark
    /// would turn the cube: it stalls.
    fn homing(&mut self, mask: u16) -> Result<(), MechanicalFault> {
        self.take_load();
        let mut parts = self.home_parts(mask);
        parts.jaws.iter_mut().for_each(|jaw| *jaw = false);
        let mut machine = self.machine.clone();
        machine
            .home_parts(&self.model, &parts)
            .map_err(|e| self.fault_for(e))?;
        self.machine = machine;
        self.publish();
        Ok(())
    }

    fn moved(&mut self, batch: &MotorBatch) -> Result<(), MechanicalFault> {
        self.take_load();
        if !batch.jaws_started.is_empty() {
            self.do_step(&self.step_of(&batch.jaws_started, &[]))?;
        }
        if let Some(&(actuator, _)) = batch.leaving.first().filter(|_| self.block_pending) {
            // A motor blocked on the bench cannot leave its position: it stalls.
            self.block_pending = false;
            return Err(Self::blocked_actuator(actuator));
        }
        if !batch.leaving.is_empty() {
            // Motors of one step leave at different instants (their first edges differ):
            // the move must be possible with those already on their way.
            let moving = [batch.leaving.as_slice(), batch.heading.as_slice()].concat();
            self.try_step(&self.step_of(&batch.jaws_travelling, &moving))?;
        }
        if !batch.passing.is_empty() {
            self.do_step(&self.step_of(&batch.jaws_travelling, &batch.passing))?;
        }
        self.publish();
        Ok(())
    }

    fn motion_began(&mut self) {
        // A stall due on a motion that moves no motor waits for the next one that does.
        self.block_pending |= self
            .attached
            .as_ref()
            .is_some_and(|a| a.next_motion_stalls());
    }

    fn command_ended(&mut self) {
        self.slipping.iter_mut().for_each(|s| *s = None);
    }

    fn spent_us(&mut self, us: u64) {
        if let Some(a) = &self.attached {
            a.spent_us(us);
        }
    }
}
