//! A command the firmware refused for its state while running, held until the firmware
//! says which fault latched: its `Event Fault` is a notification, retransmitted until
//! acknowledged, while the refusal comes at once, so after a lost stretch of line (or a
//! reopened port) the refusal of a later command can overtake the fault that caused it.

use super::LinkTask;
use crate::link::events::LinkEvent;
use firmware_protocol::message::NakReason;
use firmware_protocol::timing::RETRANSMIT_TIMEOUT_MS;

/// How long a refusal waits for the fault that explains it: five of the firmware's
/// retransmissions. A refusal no fault explains (an actuator not homed) is then reported.
pub(super) const HOLD_MS: u64 = 5 * RETRANSMIT_TIMEOUT_MS;

/// The first command refused for the firmware's state, and when.
#[derive(Debug, Clone, Copy)]
pub(crate) struct HeldRefusal {
    move_id: Option<u32>,
    since: u64,
}

impl LinkTask {
    /// Holds a refusal for the firmware's state (one held is enough: the program ends
    /// on it or on the fault); other refusals are reported at once.
    pub(super) fn refused(&mut self, move_id: Option<u32>, reason: NakReason) {
        if reason != NakReason::BadState {
            return self.emit(LinkEvent::Refused { move_id, reason });
        }
        let since = self.now();
        self.held_refusal
            .get_or_insert(HeldRefusal { move_id, since });
    }

    /// The fault came: it is what ends the program, not the refusal it caused.
    pub(super) fn fault_explains_refusal(&mut self) {
        self.held_refusal = None;
    }

    /// Reports a held refusal no fault came to explain.
    pub(super) fn release_held_refusal(&mut self, now: u64) {
        if let Some(held) = self.held_refusal {
            if now.saturating_sub(held.since) >= HOLD_MS {
                self.held_refusal = None;
                self.emit(LinkEvent::Refused {
                    move_id: held.move_id,
                    reason: NakReason::BadState,
                });
            }
        }
    }
}
