//! Commands the firmware refused for its state while running: explained by a fault it
//! reported, or held until it says which fault latched. Its `Event Fault` is a
//! notification, retransmitted until acknowledged, while a refusal comes at once, so after
//! a lost stretch of line (or a reopened port) the refusal of a later command can overtake
//! the fault that caused it.

use super::LinkTask;
use crate::link::events::LinkEvent;
use firmware_protocol::message::{Fault, NakReason};
use firmware_protocol::timing::RETRANSMIT_TIMEOUT_MS;

/// How long a refusal waits for the fault that explains it: five of the firmware's
/// retransmissions. A refusal no fault explains (an actuator not homed) is then reported.
pub(super) const HOLD_MS: u64 = 5 * RETRANSMIT_TIMEOUT_MS;

/// What the link knows of refusals for the firmware's state.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Refusals {
    /// The firmware reported a fault not yet cleared: it refuses for that, and has said so.
    fault_reported: bool,
    /// The last fault reported and not yet cleared (read from a status, its report may
    /// still come: it is not told twice).
    fault: Option<Fault>,
    /// The first refusal not yet explained: its move, and when it came.
    held: Option<(Option<u32>, u64)>,
}

impl LinkTask {
    /// A refusal for the firmware's state is explained by a fault reported, else held
    /// (one is enough: the program ends on it or on the fault); others are reported at once.
    pub(super) fn refused(&mut self, move_id: Option<u32>, reason: NakReason) {
        if reason != NakReason::BadState {
            return self.emit(LinkEvent::Refused { move_id, reason });
        }
        if !self.refusals.fault_reported && self.refusals.held.is_none() {
            self.refusals.held = Some((move_id, self.now()));
        }
    }

    /// The firmware reported `fault`: it is what ends the program, not the refusals it
    /// causes. False when that fault was already told (from the status on reconnecting).
    pub(super) fn fault_reported(&mut self, fault: Fault) -> bool {
        let new = self.refusals.fault != Some(fault);
        self.refusals = Refusals {
            fault_reported: true,
            fault: Some(fault),
            held: None,
        };
        new
    }

    /// Whether a fault not yet cleared was reported in this session.
    pub(super) fn fault_heard(&self) -> bool {
        self.refusals.fault_reported
    }

    /// The firmware took a `ClearFault`: a later refusal needs explaining again.
    pub(super) fn faults_cleared(&mut self) {
        self.refusals.fault_reported = false;
        self.refusals.fault = None;
    }

    /// Reports a held refusal no fault came to explain.
    pub(super) fn release_held_refusal(&mut self, now: u64) {
        if let Some((move_id, since)) = self.refusals.held {
            if now.saturating_sub(since) >= HOLD_MS {
                self.refusals.held = None;
                self.emit(LinkEvent::Refused {
                    move_id,
                    reason: NakReason::BadState,
                });
            }
        }
    }
}
