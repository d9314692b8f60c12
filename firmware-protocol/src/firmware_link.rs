//! Firmware end of a session: handshake, duplicate filtering, cumulative acks,
//! reliable notifications and the comms watchdog. Pure: the caller passes the time.

use crate::frame::{encode, Frame, PROTOCOL_VERSION};
use crate::message::{Message, NakReason};
use crate::rx::{RxTracker, RxVerdict};
use crate::seq::Seq;
use crate::timing::SilenceTimer;
use crate::window::TxWindow;
use crate::Error;

/// What the firmware must do with a received frame (see [`FirmwareLink::on_frame`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Inbound {
    /// Act on this message now, exactly once:
    /// - `Hello`: stop, flush the queue, reply `HelloReply` (always, even when the
    ///   versions differ; the session starts only if they match);
    /// - `QueryStatus` → `Status`, `Ping` → `Pong`, `EmergencyStop` → stop, latch, `Ack`;
    /// - a sequenced command just accepted in order: run or queue it and send an
    ///   `Ack`, or refuse it with a `Nak` whose reason consumes the seq
    ///   (`BadState`, `EStopLatched`, `InvalidCommand`).
    Execute(Message),
    /// A retransmission of a command already accepted: do not run it again; send an `Ack`.
    Duplicate,
    /// Not accepted and not consumed: send `Nak { seq, reason }`; the host retransmits.
    Refuse {
        /// Seq to put in the `Nak`.
        seq: Seq,
        /// Reason to put in the `Nak`.
        reason: NakReason,
    },
    /// Nothing to do: a host `Ack`/`Nak` (already applied) or a firmware-only message.
    Ignore,
}

/// The firmware's side of the link. `N` is the notification window: how many
/// sequenced notifications (`ConfigureReply`, `MoveDone`, `Event`) may await the
/// host's ack; it should be at least the queue depth plus 2.
#[derive(Debug, Clone)]
pub struct FirmwareLink<const N: usize> {
    rx: RxTracker,
    tx: TxWindow<N>,
    in_session: bool,
    watchdog: SilenceTimer,
}

impl<const N: usize> FirmwareLink<N> {
    /// A link with no session yet (as after boot). `rx_window` is the most unacked
    /// frames the host may send (announce it in `HelloReply::rx_window`).
    pub const fn new(rx_window: u8, now_ms: u64) -> Self {
        FirmwareLink {
            rx: RxTracker::new(rx_window),
            tx: TxWindow::new(),
            in_session: false,
            watchdog: SilenceTimer::comms_watchdog(now_ms),
        }
    }

    /// Whether a `Hello` of this protocol version started a session.
    pub const fn in_session(&self) -> bool {
        self.in_session
    }

    /// The cumulative ack this side sends: the next seq expected from the host.
    pub const fn ack_seq(&self) -> Seq {
        self.rx.ack()
    }

    /// The host window this link enforces.
    pub const fn rx_window(&self) -> u8 {
        self.rx.window()
    }

    /// Classifies a decoded frame and updates the link state. `queue_free` is the
    /// number of free command-queue slots right now.
    pub fn on_frame(&mut self, frame: &Frame, queue_free: u8, now_ms: u64) -> Inbound {
        self.watchdog.note_activity(now_ms);
        let message = frame.message;
        if !message.message_type().sent_by_host() {
            return Inbound::Ignore;
        }
        if let Message::Hello { protocol_version } = message {
            self.start_session(
                frame.header.version == PROTOCOL_VERSION && protocol_version == PROTOCOL_VERSION,
            );
            return Inbound::Execute(message);
        }
        if self.in_session {
            self.tx.on_ack(frame.header.ack);
        }
        match self.rx.classify(frame) {
            RxVerdict::Unsequenced => match message {
                Message::Ack { .. } | Message::Nak { .. } => Inbound::Ignore,
                _ => Inbound::Execute(message),
            },
            _ if !self.in_session => refuse(frame.header.seq, NakReason::NoSession),
            RxVerdict::New if message.is_queued() && queue_free == 0 => {
                refuse(frame.header.seq, NakReason::QueueFull)
            }
            RxVerdict::New => {
                self.rx.accept();
                Inbound::Execute(message)
            }
            RxVerdict::Duplicate => Inbound::Duplicate,
            RxVerdict::OutOfOrder => refuse(self.rx.ack(), NakReason::OutOfOrder),
            RxVerdict::OutOfWindow => refuse(frame.header.seq, NakReason::OutOfWindow),
        }
    }

    /// The `Nak` to send for bytes that did not decode into a frame.
    pub fn nak_for_decode_error(&self, error: &Error) -> Message {
        Message::Nak {
            seq: self.rx.ack(),
            reason: NakReason::for_decode_error(error),
        }
    }

    /// Encodes `message` into `out`: sequenced notifications get the next seq and are
    /// kept for retransmission (they need a session: [`Error::NoSession`] otherwise);
    /// unsequenced ones (replies, `Ack`, `Nak`, `Event::Boot`) get seq 0.
    pub fn send(&mut self, message: &Message, now_ms: u64, out: &mut [u8]) -> Result<usize, Error> {
        if !message.is_sequenced() {
            return self.send_unsequenced(message, out);
        }
        if !self.in_session {
            return Err(Error::NoSession);
        }
        self.tx.send(message, self.rx.ack(), now_ms, out)
    }

    /// Encodes an `Ack` announcing `free_slots` free command-queue slots.
    pub fn ack(&self, free_slots: u8, out: &mut [u8]) -> Result<usize, Error> {
        self.send_unsequenced(&Message::Ack { free_slots }, out)
    }

    /// Encodes an unsequenced message (seq 0, current ack) into `out`.
    pub fn send_unsequenced(&self, message: &Message, out: &mut [u8]) -> Result<usize, Error> {
        if message.is_sequenced() {
            return Err(Error::WrongSequencing {
                message_type: message.message_type().code(),
            });
        }
        encode(&Frame::unsequenced(self.rx.ack(), *message), out)
    }

    /// The oldest notification due for retransmission.
    pub fn due_for_retransmit(&self, now_ms: u64) -> Option<Seq> {
        self.tx.due_for_retransmit(now_ms)
    }

    /// Re-encodes notification `seq` (with the current ack) into `out`.
    pub fn retransmit(&mut self, seq: Seq, now_ms: u64, out: &mut [u8]) -> Result<usize, Error> {
        self.tx.retransmit(seq, self.rx.ack(), now_ms, out)
    }

    /// Notifications not yet acknowledged by the host.
    pub const fn unacked_notifications(&self) -> usize {
        self.tx.unacked()
    }

    /// Whether no valid frame arrived for `COMMS_TIMEOUT_MS`. While executing queued
    /// commands this means: stop and latch `Fault::CommsTimeout`.
    pub const fn comms_timed_out(&self, now_ms: u64) -> bool {
        self.watchdog.expired(now_ms)
    }

    fn start_session(&mut self, versions_match: bool) {
        self.rx.reset();
        self.tx.reset();
        self.in_session = versions_match;
    }
}

fn refuse(seq: Seq, reason: NakReason) -> Inbound {
    Inbound::Refuse { seq, reason }
}
