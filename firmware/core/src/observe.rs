//! What a board (or the simulator) may ask of or tell the running firmware besides bytes
//! and input levels: the command under way, diagnostic counters, a driver's stall signal,
//! a fresh decoder after the host reconnects.

use crate::firmware::{Counters, FaultCause, Firmware, Running};

/// What the firmware is doing now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Activity {
    /// No command is running.
    Idle,
    /// A `Motion`: its actions started together.
    Motion {
        /// The motion's id.
        move_id: u32,
    },
    /// A `Home`: the rotations and flippers of `mask` are finding home.
    HomingSteppers {
        /// The command's id.
        move_id: u32,
        /// Actuators being homed.
        mask: u16,
    },
    /// A `Home`: the steppers are home, the jaws of `mask` are closing.
    HomingJaws {
        /// The command's id.
        move_id: u32,
        /// Actuators being homed.
        mask: u16,
    },
    /// A `Dwell`.
    Dwell {
        /// The command's id.
        move_id: u32,
    },
}

impl Firmware<'_> {
    /// The command under way.
    pub fn activity(&self) -> Activity {
        let move_id = self.queue.front().map_or(0, |command| command.move_id());
        match self.running {
            None => Activity::Idle,
            Some(Running::Motion) => Activity::Motion { move_id },
            Some(Running::HomeSteppers(mask)) => Activity::HomingSteppers { move_id, mask },
            Some(Running::HomeJaws(mask)) => Activity::HomingJaws { move_id, mask },
            Some(Running::Dwell(_)) => Activity::Dwell { move_id },
        }
    }

    /// What the firmware counted since power-on.
    pub fn counters(&self) -> Counters {
        self.counters
    }

    /// Notifications (`MoveDone`, events…) the host has not acknowledged yet.
    pub fn awaiting_acks(&self) -> usize {
        self.link.unacked_notifications()
    }

    /// A driver reports that actuator `actuator` cannot move (a TMC2209's DIAG output, a
    /// servo's current sense): everything stops and `Fault Stall` for it latches, as for
    /// any fault. Ignored for an actuator that is not configured or while a fault is latched.
    pub fn on_stall(&mut self, actuator: u8) {
        let configured = self.configure.map_or(0, |c| c.actuators.len());
        if usize::from(actuator) < configured && self.latched.0 == 0 {
            self.latch(FaultCause::Stall { actuator });
        }
    }

    /// Forgets a partly received frame (the host reopened the port).
    pub fn reset_decoder(&mut self) {
        self.decoder.reset();
    }
}
