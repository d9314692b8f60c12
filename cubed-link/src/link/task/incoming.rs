//! What the link task does with what the firmware sends: frames decoded, the session checked, notifications (moves done, faults, events), replies, refusals and `Status` (the e-stop confirmed, its switch's level told).

use super::{LinkTask, Stage, NAK_RESEND_SPACING_MS};
use crate::link::error::LinkError;
use crate::link::events::LinkEvent;
use firmware_protocol::message::{Event, Fault, FirmwareState, NakReason, Status};
use firmware_protocol::{HostInbound, HostPhase, Message};

impl LinkTask {
    pub(super) fn on_bytes(&mut self, bytes: &[u8]) -> Result<(), LinkError> {
        let mut frames = Vec::new();
        for decoded in self.decoder.feed(bytes) {
            match decoded {
                Ok(frame) => frames.push(frame),
                Err(firmware_protocol::Error::BadCrc { .. }) => {
                    crate::link::counted::crc_error(false)
                }
                Err(_) => {}
            }
        }
        for frame in frames {
            let unacked_before = self.link.unacked();
            let inbound = self.link.on_frame(&frame);
            if self.link.unacked() < unacked_before {
                self.last_progress = self.now();
            }
            match inbound {
                HostInbound::DeliverAndAck(message) => {
                    self.on_notification(message)?;
                    let mut out = [0u8; firmware_protocol::MAX_WIRE_LEN];
                    let len = self.link.ack(self.now(), &mut out)?;
                    self.outbox.extend_from_slice(&out[..len]);
                }
                HostInbound::AckOnly => {
                    let mut out = [0u8; firmware_protocol::MAX_WIRE_LEN];
                    let len = self.link.ack(self.now(), &mut out)?;
                    self.outbox.extend_from_slice(&out[..len]);
                }
                HostInbound::Deliver(message) => self.on_reply(message)?,
                HostInbound::Ignore => {}
            }
            self.confirm_clears();
            self.check_session()?;
        }
        Ok(())
    }

    fn check_session(&self) -> Result<(), LinkError> {
        let in_session = matches!(
            self.stage,
            Stage::Configuring { .. } | Stage::Running | Stage::Verifying { .. }
        );
        if in_session && self.link.phase() == HostPhase::NoSession {
            return Err(LinkError::FirmwareRebooted {
                path: self.path.clone(),
                cause: crate::link::error::RestartCause(self.boot_cause),
            });
        }
        Ok(())
    }

    fn on_notification(&mut self, message: Message) -> Result<(), LinkError> {
        match message {
            Message::ConfigureReply { checksum } => self.on_configure_reply(checksum)?,
            Message::MoveDone { move_id } => self.mark_done(move_id),
            Message::Event(Event::ButtonPressed { button }) => {
                self.emit(LinkEvent::Button { button })
            }
            // While configuring, the confirming `Status` says what is latched.
            Message::Event(Event::Fault(_)) if matches!(self.stage, Stage::Configuring { .. }) => {}
            Message::Event(Event::Fault(fault)) => self.on_fault(fault),
            _ => {}
        }
        Ok(())
    }

    /// A fault the firmware latched: it ends the program (the refusals it causes do not).
    pub(super) fn on_fault(&mut self, fault: Fault) {
        if !self.fault_reported(fault) {
            return;
        }
        if fault == Fault::EStopLatched {
            self.confirm_estop();
        }
        self.emit(LinkEvent::Fault(fault));
    }

    pub(super) fn mark_done(&mut self, move_id: u32) {
        if matches!(self.stage, Stage::Verifying { .. }) {
            self.done_before_restore.push(move_id);
            return;
        }
        self.highest_done = self.highest_done.max(move_id);
        if self.outstanding.remove(&move_id) {
            self.emit(LinkEvent::MoveDone {
                move_id,
                outstanding: self.outstanding.len(),
            });
        }
    }

    fn on_reply(&mut self, message: Message) -> Result<(), LinkError> {
        match message {
            Message::HelloReply(reply) => self.on_hello_reply(reply)?,
            Message::BoardInfo(info) => self.chip = Some(info),
            Message::Status(status) => self.on_status(status)?,
            Message::Nak { seq, reason } => self.on_nak(seq.0, reason)?,
            Message::ConfigureRefused { refusal, .. } => self.on_configure_refused(refusal)?,
            Message::Event(Event::Boot { cause }) => self.boot_cause = Some(cause),
            _ => {}
        }
        Ok(())
    }

    fn on_nak(&mut self, seq: u8, reason: NakReason) -> Result<(), LinkError> {
        // Before the firmware answers this session's Hello, a Nak refuses a frame of an
        // earlier session (the port's bytes arrive in order): this one sent nothing to
        // refuse yet, and its Hello goes out again anyway.
        if matches!(self.stage, Stage::Hello { .. }) {
            return Ok(());
        }
        if matches!(self.stage, Stage::Configuring { .. }) {
            if reason.consumes_seq() {
                return Err(self.configuring_refused(seq, reason));
            }
            self.handshake.naks += 1;
        }
        if reason.consumes_seq() {
            let move_id = self.seq_moves.remove(&seq);
            if let Some(id) = move_id {
                self.outstanding.remove(&id);
            }
            self.refused(move_id, reason);
            return Ok(());
        }
        let now = self.now();
        let early = matches!(
            reason,
            NakReason::OutOfOrder | NakReason::BadCrc | NakReason::BadFrame
        );
        if matches!(reason, NakReason::BadCrc) {
            crate::link::counted::crc_error(true);
        }
        if early && now.saturating_sub(self.last_nak_resend) >= NAK_RESEND_SPACING_MS {
            self.last_nak_resend = now;
            self.link.retransmit_all_now();
        }
        Ok(())
    }

    pub(super) fn on_status(&mut self, status: Status) -> Result<(), LinkError> {
        self.on_handshake_status(&status)?;
        for waiter in self.status_waiters.drain(..) {
            let _ = waiter.send(status);
        }
        if self.estop_last_sent.is_some() && status.state == FirmwareState::EStopped {
            self.confirm_estop();
        }
        self.tell_estop_switch(status.inputs.estop_held());
        if let Stage::Verifying { .. } = self.stage {
            self.verify_after_reconnect(&status)?;
        }
        Ok(())
    }
    /// Tells the e-stop switch's level when it changed since last told (in a session whose
    /// handshake is done: the handshake's own `Status` sets where it starts).
    pub(super) fn tell_estop_switch(&mut self, held: bool) {
        if !matches!(self.stage, Stage::Running) || self.estop_held == Some(held) {
            return;
        }
        self.estop_held = Some(held);
        self.emit(LinkEvent::EStopButton { held });
    }
}
