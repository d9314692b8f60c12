//! Why the robot cannot be reached: the link that would not open, in words naming the port (or the simulator's line faults), and what the firmware held latched from before.

use super::{Rig, RigError};
use crate::daemon::docs::{LinkDoc, LinkState};
use crate::link::{LatchedBefore, LinkError};
use cubed_core::error_chain::error_chain;

/// Why the robot cannot be reached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Unreachable {
    /// In words, naming the port.
    pub words: String,
    /// The firmware holds a fault or an emergency stop latched from before the link opened:
    /// a person checks the robot and resets.
    pub latched: Option<LatchedBefore>,
}

impl Unreachable {
    /// The link as the status shows it: the e-stop button still held when the firmware
    /// refused to clear its emergency stop, otherwise a link that cannot be opened.
    pub(crate) fn link(&self) -> LinkDoc {
        let state = match self.latched {
            Some(latched) if latched.clear_refused => LinkState::EStopHeld,
            _ => LinkState::Unreachable,
        };
        LinkDoc::down(state, self.words.clone())
    }
}

impl Rig {
    /// Opens the link if it is not open; on failure, why the robot cannot be reached, in words
    /// that name `[robot] port` when the configured port cannot be opened.
    pub(crate) async fn reach(&mut self) -> Result<(), Unreachable> {
        let error = match self.connect().await {
            Ok(()) => return Ok(()),
            Err(e) => e,
        };
        Err(self.unreachable(error))
    }

    /// Why the robot cannot be reached, from the error opening the link gave.
    pub(super) fn unreachable(&self, error: RigError) -> Unreachable {
        let latched = match &error {
            RigError::Link(link) => link.latched_before_session(),
            _ => None,
        };
        let words = match &error {
            RigError::Link(LinkError::Open { .. }) if !self.simulated => format!(
                "{} (check `[robot] port`: the robot's serial device, e.g. /dev/serial/by-id/…)",
                error_chain(&error)
            ),
            _ => error_chain(&error),
        };
        let words = match self.sim.as_ref().and_then(|sim| sim.controls.line_faults()) {
            Some(faults) => format!(
                "{words} (here the robot is the simulator, and the faults put on its line, {faults}, did this: no cable is to blame)"
            ),
            None => words,
        };
        Unreachable { words, latched }
    }
}
