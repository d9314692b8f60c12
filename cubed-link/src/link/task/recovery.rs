//! Recovery paths of the link task: losing the port, reopening it, checking the firmware
//! kept the session, and the emergency stop.

use super::{LinkTask, Stage};
use crate::link::error::LinkError;
use crate::link::events::LinkEvent;
use firmware_protocol::message::{Fault, FaultFlags, FirmwareState, Status};
use firmware_protocol::timing::RETRANSMIT_TIMEOUT_MS;
use firmware_protocol::Message;
use std::collections::BTreeSet;

impl LinkTask {
    pub(super) fn lose(&mut self, reason: String) {
        if self.port.is_none() {
            return;
        }
        self.port = None;
        self.decoder.reset();
        let now = self.now();
        if matches!(self.stage, Stage::Running | Stage::Verifying { .. }) {
            let since = match self.stage {
                Stage::Verifying { since, .. } => since,
                _ => now,
            };
            self.stage = Stage::Reconnecting {
                since,
                last_try: now,
            };
        }
        self.emit(LinkEvent::LinkLost {
            path: self.path.clone(),
            reason,
        });
    }

    pub(super) fn try_reconnect(
        &mut self,
        now: u64,
        since: u64,
        last_try: u64,
    ) -> Result<(), LinkError> {
        if now.saturating_sub(since) > self.settings.reconnect_timeout.as_millis() as u64 {
            return Err(LinkError::PortGone {
                path: self.path.clone(),
                waited_ms: now.saturating_sub(since),
            });
        }
        if now.saturating_sub(last_try) < self.settings.reconnect_poll.as_millis() as u64 {
            return Ok(());
        }
        self.stage = Stage::Reconnecting {
            since,
            last_try: now,
        };
        if self.open_port().is_ok() {
            self.stage = Stage::Verifying {
                since,
                attempt: now,
                last_query: 0,
            };
            self.outbox.push(0);
        }
        Ok(())
    }

    pub(super) fn on_verifying_timers(
        &mut self,
        now: u64,
        since: u64,
        attempt: u64,
        last_query: u64,
    ) -> Result<(), LinkError> {
        if now.saturating_sub(attempt) > self.settings.verify_timeout.as_millis() as u64 {
            self.lose("no Status from the firmware after reopening".into());
            return Ok(());
        }
        if now.saturating_sub(last_query) >= RETRANSMIT_TIMEOUT_MS {
            self.emit_frame(&Message::QueryStatus)?;
            self.stage = Stage::Verifying {
                since,
                attempt,
                last_query: now,
            };
        }
        Ok(())
    }

    /// After reopening: the same firmware session (configured, same checksum) resumes and is
    /// reported restored; then the moves it completed meanwhile (by its Status, or reported
    /// before the Status came); unacked frames go out again at once.
    pub(super) fn verify_after_reconnect(&mut self, status: &Status) -> Result<(), LinkError> {
        if status.state == FirmwareState::Unconfigured {
            return Err(LinkError::FirmwareRebooted {
                path: self.path.clone(),
                cause: crate::link::RestartCause(self.boot_cause),
            });
        }
        if status.config_checksum != self.checksum {
            return Err(LinkError::ConfigMismatch {
                path: self.path.clone(),
                expected: self.checksum,
                found: status.config_checksum,
            });
        }
        let last = status.last_completed_move_id;
        let reported = std::mem::take(&mut self.done_before_restore);
        // A session that has sent no move finds the firmware as its handshake did (an
        // earlier session's last move, the same boot): ours, with nothing to account for.
        let untouched = self.highest_sent == 0 && last == self.done_at_handshake;
        if !untouched && (last < self.highest_done || last > self.highest_sent) {
            return Err(LinkError::NotOurSession {
                path: self.path.clone(),
                reported: last,
                done: self.highest_done,
                sent: self.highest_sent,
            });
        }
        let in_flight: BTreeSet<u32> = self.seq_moves.values().copied().collect();
        let done: Vec<u32> = self
            .outstanding
            .iter()
            .copied()
            .filter(|&id| id <= last && in_flight.contains(&id) || reported.contains(&id))
            .collect();
        self.stage = Stage::Running;
        self.link.retransmit_all_now();
        self.last_progress = self.clock.now_ms();
        // The restore first: a program that ends on the news it brings has seen it.
        self.emit(LinkEvent::LinkRestored {
            path: self.path.clone(),
            last_completed_move_id: last,
            completed_meanwhile: done.len(),
        });
        for id in done {
            self.mark_done(id);
        }
        if let Some(fault) = self.latched_while_away(status) {
            self.on_fault(fault);
        }
        Ok(())
    }

    /// A fault the firmware latched while the line was out and that this session has not
    /// heard: the status read on reconnecting shows it at once, where the firmware's report
    /// of it, retried, may come after the refusals of the commands sent again (on the
    /// emulated Pico, slowed by a busy machine, it came too late, and the program ended on
    /// "not allowed in its current state"). Those that name no actuator can be told from the
    /// status alone: the host's silence while the firmware held commands (the usual one: a
    /// cable out past the firmware's watchdog), an e-stop not this session's, the supply. A
    /// stalled or limited actuator's report carries its index; it comes as before.
    fn latched_while_away(&self, status: &Status) -> Option<Fault> {
        if self.fault_heard() {
            return None;
        }
        let latched = |mask| status.faults.any(mask);
        if latched(FaultFlags::ESTOP) && self.estop_last_sent.is_none() {
            Some(Fault::EStopLatched)
        } else if latched(FaultFlags::COMMS_TIMEOUT) {
            Some(Fault::CommsTimeout)
        } else if latched(FaultFlags::BROWN_OUT) {
            Some(Fault::BrownOut)
        } else {
            None
        }
    }

    pub(super) fn start_estop(&mut self) {
        let _ = self.emit_frame(&Message::EmergencyStop);
        let _ = self.emit_frame(&Message::QueryStatus);
        self.estop_last_sent = Some(self.now());
        self.pending.clear();
        // A clear not yet sent is overtaken by this e-stop: it is over, unsent.
        for message in std::mem::take(&mut self.pending_control) {
            if message == Message::ClearFault {
                self.emit(LinkEvent::FaultCleared);
            }
        }
    }

    /// Remembers the ClearFault just sent, to report when the firmware has taken it.
    pub(super) fn clear_sent(&mut self) {
        if let Some((seq, _)) = self.link.unacked_messages().last() {
            self.clears_unacked.push(seq.0);
        }
    }

    /// Reports each ClearFault the firmware has acknowledged: the firmware reports in order,
    /// so whatever it reported before the acknowledgement predates the clear.
    pub(super) fn confirm_clears(&mut self) {
        if self.clears_unacked.is_empty() {
            return;
        }
        let unacked: Vec<u8> = self.link.unacked_messages().map(|(seq, _)| seq.0).collect();
        let before = self.clears_unacked.len();
        self.clears_unacked.retain(|seq| unacked.contains(seq));
        for _ in self.clears_unacked.len()..before {
            self.faults_cleared();
            self.emit(LinkEvent::FaultCleared);
        }
    }

    pub(super) fn repeat_estop(&mut self, now: u64) -> Result<(), LinkError> {
        if let Some(last) = self.estop_last_sent {
            if now.saturating_sub(last) >= RETRANSMIT_TIMEOUT_MS {
                self.emit_frame(&Message::EmergencyStop)?;
                self.emit_frame(&Message::QueryStatus)?;
                self.estop_last_sent = Some(now);
            }
        }
        Ok(())
    }

    pub(super) fn confirm_estop(&mut self) {
        if self.estop_last_sent.take().is_some() {
            let cancelled = std::mem::take(&mut self.outstanding).into_iter().collect();
            self.emit(LinkEvent::EStopped { cancelled });
        }
    }
}
