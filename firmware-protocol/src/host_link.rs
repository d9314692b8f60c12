//! Host end of a session: handshake, retransmit window, queue credits, notification
//! duplicate filtering and heartbeat. Pure: the caller passes the time.
//!
//! Queue credits: the firmware's free command-queue slots as of the latest ack it
//! sent (`Ack::free_slots`, or `queue_depth - Status::queue_used`), minus the queued
//! commands sent since. This never overestimates; a lost `Ack` can only leave it low
//! until the next `Ack` or `Status`, which [`HostLink::heartbeat_due`] then asks for.

use crate::frame::{encode, Frame, PROTOCOL_VERSION};
use crate::message::{Event, FirmwareState, HelloReply, Message, NakReason};
use crate::rx::{RxTracker, RxVerdict};
use crate::seq::{Seq, MAX_WINDOW};
use crate::timing::{SilenceTimer, RETRANSMIT_TIMEOUT_MS};
use crate::window::TxWindow;
use crate::Error;

/// `free_slots` value the host puts in its own `Ack`s (it has no command queue).
pub const HOST_FREE_SLOTS: u8 = 0xFF;

/// Where the handshake stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HostPhase {
    /// No session: before the first `Hello`, or the firmware rebooted (`Event::Boot`,
    /// `Nak NoSession`). Send `Hello`, then `Configure`, `Home`, and rescan.
    NoSession,
    /// `Hello` sent, waiting for `HelloReply` (resend `Hello` after 100 ms).
    AwaitingHelloReply,
    /// Versions match: sequenced messages may be sent.
    Established,
    /// The firmware speaks another protocol version: refuse to run.
    VersionMismatch {
        /// The firmware's protocol version.
        firmware: u8,
    },
}

/// What the host must do with a received frame (see [`HostLink::on_frame`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HostInbound {
    /// Act on this message (a reply, `Ack`, `Nak`, or `Event::Boot`).
    Deliver(Message),
    /// A new notification, in order: act on it, then send [`HostLink::ack`].
    DeliverAndAck(Message),
    /// A notification already delivered: send [`HostLink::ack`] only.
    AckOnly,
    /// Nothing to do (stale, out of order, before the handshake, or host-only type).
    Ignore,
}

/// The host's side of the link. `N` is the retransmit window capacity; the usable
/// window is `min(N, HelloReply::rx_window)`.
#[derive(Debug, Clone)]
pub struct HostLink<const N: usize> {
    tx: TxWindow<N>,
    rx: RxTracker,
    phase: HostPhase,
    /// Firmware's free queue slots as of the latest ack it sent.
    free_slots: u8,
    queue_depth: u8,
    /// A `ConfigureReply` arrived in this session.
    configured: bool,
    heartbeat: SilenceTimer,
}

impl<const N: usize> HostLink<N> {
    /// A link with no session.
    pub const fn new(now_ms: u64) -> Self {
        HostLink {
            tx: TxWindow::new(),
            rx: RxTracker::new(MAX_WINDOW),
            phase: HostPhase::NoSession,
            free_slots: 0,
            queue_depth: 0,
            configured: false,
            heartbeat: SilenceTimer::heartbeat(now_ms),
        }
    }

    /// Handshake state.
    pub const fn phase(&self) -> HostPhase {
        self.phase
    }

    /// Starts (or restarts) a session: forgets every unacked frame and encodes a
    /// `Hello` into `out`. Send it again if no `HelloReply` comes within 100 ms.
    pub fn start_handshake(&mut self, now_ms: u64, out: &mut [u8]) -> Result<usize, Error> {
        let hello = Message::Hello {
            protocol_version: PROTOCOL_VERSION,
        };
        self.send(&hello, now_ms, out)
    }

    /// Encodes `message` into `out`. Sequenced messages need an established session,
    /// room in the window and, if queued (`Home`, `Motion`, `Dwell`), a queue credit;
    /// they are kept for retransmission. Sending `Hello` restarts the handshake.
    pub fn send(&mut self, message: &Message, now_ms: u64, out: &mut [u8]) -> Result<usize, Error> {
        if matches!(message, Message::Hello { .. }) {
            self.tx.reset();
            self.rx.reset();
            self.configured = false;
            self.phase = HostPhase::AwaitingHelloReply;
        }
        let len = if message.is_sequenced() {
            self.check_can_send(message)?;
            self.tx.send(message, self.rx.ack(), now_ms, out)?
        } else {
            encode(&Frame::unsequenced(self.rx.ack(), *message), out)?
        };
        self.heartbeat.note_activity(now_ms);
        Ok(len)
    }

    /// Encodes the host's `Ack` (cumulative ack in the header) into `out`.
    pub fn ack(&mut self, now_ms: u64, out: &mut [u8]) -> Result<usize, Error> {
        let ack = Message::Ack {
            free_slots: HOST_FREE_SLOTS,
        };
        self.send(&ack, now_ms, out)
    }

    /// Whether [`HostLink::send`] would accept `message` now.
    pub fn check_can_send(&self, message: &Message) -> Result<(), Error> {
        if !message.is_sequenced() {
            return Ok(());
        }
        if self.phase != HostPhase::Established {
            return Err(Error::NoSession);
        }
        if !self.tx.has_room() {
            return Err(Error::WindowFull {
                unacked: self.tx.unacked(),
            });
        }
        if message.is_queued() && self.queue_credits() == 0 {
            return Err(Error::NoQueueSpace);
        }
        Ok(())
    }

    /// Applies a decoded frame from the firmware and says what to do with it.
    pub fn on_frame(&mut self, frame: &Frame) -> HostInbound {
        let message = frame.message;
        if !message.message_type().sent_by_firmware() {
            return HostInbound::Ignore;
        }
        if let Message::HelloReply(reply) = message {
            return self.on_hello_reply(frame.header.version, &reply);
        }
        if self.phase != HostPhase::Established {
            // Sequenced frames before the HelloReply belong to the previous session.
            if message.is_sequenced() {
                return HostInbound::Ignore;
            }
            return HostInbound::Deliver(message);
        }
        self.apply_ack(frame);
        self.note_session_loss(&message);
        match self.rx.classify(frame) {
            RxVerdict::Unsequenced => HostInbound::Deliver(message),
            RxVerdict::New => {
                self.rx.accept();
                self.configured |= matches!(message, Message::ConfigureReply { .. });
                HostInbound::DeliverAndAck(message)
            }
            RxVerdict::Duplicate => HostInbound::AckOnly,
            RxVerdict::OutOfOrder | RxVerdict::OutOfWindow => HostInbound::Ignore,
        }
    }

    /// The oldest sequenced message due for retransmission.
    pub fn due_for_retransmit(&self, now_ms: u64) -> Option<Seq> {
        self.tx.due_for_retransmit(now_ms)
    }

    /// Re-encodes message `seq` (with the current ack) into `out`.
    pub fn retransmit(&mut self, seq: Seq, now_ms: u64, out: &mut [u8]) -> Result<usize, Error> {
        let len = self.tx.retransmit(seq, self.rx.ack(), now_ms, out)?;
        self.heartbeat.note_activity(now_ms);
        Ok(len)
    }

    /// Marks every unacked message due now and restarts its count towards
    /// [`HostLink::stalled`] (e.g. after the serial port reopened).
    pub fn retransmit_all_now(&mut self) {
        self.tx.retransmit_all_now();
    }

    /// Whether the heartbeat, a `QueryStatus`, should be sent now: the session is up
    /// and nothing was sent for
    /// [`HEARTBEAT_INTERVAL_MS`](crate::timing::HEARTBEAT_INTERVAL_MS) — or already after
    /// [`RETRANSMIT_TIMEOUT_MS`] when the queue credits are exhausted with no queued
    /// command in flight, because then only the `Status` reply (or an `Ack` that may
    /// have been lost) can free credits again.
    pub fn heartbeat_due(&self, now_ms: u64) -> bool {
        if self.phase != HostPhase::Established {
            return false;
        }
        let starved = self.queue_credits() == 0 && self.queued_in_flight() == 0;
        self.heartbeat.expired(now_ms)
            || (starved && self.heartbeat.silent_for(now_ms) >= RETRANSMIT_TIMEOUT_MS)
    }

    /// Whether the oldest unacked message went unanswered through every retransmission:
    /// the link is lost.
    pub fn stalled(&self) -> bool {
        self.tx.stalled()
    }

    /// Queued commands that may be sent now without overflowing the firmware's queue.
    pub fn queue_credits(&self) -> u8 {
        self.free_slots.saturating_sub(self.queued_in_flight())
    }

    /// Unacked sequenced messages, oldest first (e.g. to journal what is in flight).
    pub fn unacked_messages(&self) -> impl Iterator<Item = (Seq, &Message)> + '_ {
        self.tx.unacked_messages()
    }

    /// Number of unacked sequenced messages.
    pub const fn unacked(&self) -> usize {
        self.tx.unacked()
    }

    fn on_hello_reply(&mut self, header_version: u8, reply: &HelloReply) -> HostInbound {
        if self.phase != HostPhase::AwaitingHelloReply {
            return HostInbound::Ignore;
        }
        let firmware = reply.protocol_version;
        if firmware != PROTOCOL_VERSION || header_version != PROTOCOL_VERSION {
            self.phase = HostPhase::VersionMismatch { firmware };
        } else {
            self.phase = HostPhase::Established;
            self.tx.set_peer_window(reply.rx_window);
            self.queue_depth = reply.queue_depth;
            self.free_slots = reply.queue_depth;
        }
        HostInbound::Deliver(Message::HelloReply(*reply))
    }

    /// Releases acked messages and updates the firmware's free-slot count: every
    /// queued command the ack covers now holds a slot; `Ack` and `Status` then say
    /// exactly how many slots are free as of that ack.
    fn apply_ack(&mut self, frame: &Frame) {
        let queued_before = self.queued_in_flight();
        self.tx.on_ack(frame.header.ack);
        let accepted = queued_before - self.queued_in_flight();
        self.free_slots = self.free_slots.saturating_sub(accepted);
        match frame.message {
            Message::Ack { free_slots } => self.free_slots = free_slots,
            Message::Status(status) => {
                self.free_slots = self.queue_depth.saturating_sub(status.queue_used)
            }
            _ => {}
        }
    }

    /// A reboot shows as `Event::Boot`, `Nak NoSession`, or a `Status` saying
    /// Unconfigured after this session's `Configure` was accepted.
    fn note_session_loss(&mut self, message: &Message) {
        let lost = match message {
            Message::Event(Event::Boot { .. }) => true,
            Message::Nak { reason, .. } => *reason == NakReason::NoSession,
            Message::Status(status) => {
                self.configured && status.state == FirmwareState::Unconfigured
            }
            _ => false,
        };
        if lost {
            self.phase = HostPhase::NoSession;
        }
    }

    fn queued_in_flight(&self) -> u8 {
        let count = self
            .tx
            .unacked_messages()
            .filter(|(_, message)| message.is_queued())
            .count();
        count.min(usize::from(u8::MAX)) as u8
    }
}
