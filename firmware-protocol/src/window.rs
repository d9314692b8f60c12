//! Sender-side retransmit window: unacked sequenced messages kept by seq, resent on timeout.

use crate::frame::{encode, Frame};
use crate::message::Message;
use crate::seq::{Seq, MAX_WINDOW};
use crate::timing::{MAX_RETRANSMISSIONS, RETRANSMIT_TIMEOUT_MS};
use crate::Error;

/// One unacknowledged message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Pending {
    message: Message,
    /// When it was last put on the wire; `None` = retransmit at the next poll.
    last_sent_ms: Option<u64>,
    retransmissions: u16,
}

/// Up to `N` unacknowledged sequenced messages (`N <= 128` is enforced by clamping
/// the usable window). It stores the messages, not their bytes, so that every
/// retransmission carries the sender's current cumulative ack.
///
/// Pure: the caller passes the time. Retransmission rule: a message whose last
/// transmission is at least [`RETRANSMIT_TIMEOUT_MS`] old is due; the oldest due
/// message is reported first, so a lost frame and everything after it go out again in
/// order (the receiver only accepts frames in order).
#[derive(Debug, Clone)]
pub struct TxWindow<const N: usize> {
    pending: [Option<Pending>; N],
    /// Index in `pending` of the oldest unacked message (seq `base`).
    head: usize,
    count: usize,
    base: Seq,
    limit: usize,
}

impl<const N: usize> Default for TxWindow<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> TxWindow<N> {
    /// An empty window whose next seq is 0, usable up to `min(N, 128)` messages.
    pub const fn new() -> Self {
        TxWindow {
            pending: [None; N],
            head: 0,
            count: 0,
            base: Seq::ZERO,
            limit: if N < MAX_WINDOW as usize {
                N
            } else {
                MAX_WINDOW as usize
            },
        }
    }

    /// Limits the window to what the peer accepts (e.g. `HelloReply::rx_window`).
    pub fn set_peer_window(&mut self, peer_window: u8) {
        self.limit = N.min(usize::from(peer_window.clamp(1, MAX_WINDOW)));
    }

    /// Forgets every pending message; the next seq is 0 (new session).
    pub fn reset(&mut self) {
        self.pending = [None; N];
        self.head = 0;
        self.count = 0;
        self.base = Seq::ZERO;
    }

    /// Sequence number the next sent message will get.
    pub fn next_seq(&self) -> Seq {
        self.base.add(self.count as u8)
    }

    /// Unacknowledged messages.
    pub const fn unacked(&self) -> usize {
        self.count
    }

    /// Whether another message may be sent now.
    pub const fn has_room(&self) -> bool {
        self.count < self.limit
    }

    /// Encodes `message` (which must be sequenced) with the next seq and `ack` into
    /// `out`, keeps it for retransmission, and returns the frame length.
    pub fn send(
        &mut self,
        message: &Message,
        ack: Seq,
        now_ms: u64,
        out: &mut [u8],
    ) -> Result<usize, Error> {
        if !message.is_sequenced() {
            return Err(Error::WrongSequencing {
                message_type: message.message_type().code(),
            });
        }
        if !self.has_room() {
            return Err(Error::WindowFull {
                unacked: self.count,
            });
        }
        let len = encode(&Frame::new(self.next_seq(), ack, *message), out)?;
        let slot = (self.head + self.count) % N;
        self.pending[slot] = Some(Pending {
            message: *message,
            last_sent_ms: Some(now_ms),
            retransmissions: 0,
        });
        self.count += 1;
        Ok(len)
    }

    /// Applies a cumulative ack (the peer's next expected seq): releases every message
    /// before it and returns how many. Acks outside `[oldest, next]` are stale or
    /// bogus and are ignored.
    pub fn on_ack(&mut self, ack: Seq) -> usize {
        let released = usize::from(self.base.steps_to(ack));
        if released > self.count {
            return 0;
        }
        for _ in 0..released {
            self.pending[self.head] = None;
            self.head = (self.head + 1) % N;
        }
        self.count -= released;
        self.base = ack;
        released
    }

    /// The oldest message due for retransmission at `now_ms`, if any.
    pub fn due_for_retransmit(&self, now_ms: u64) -> Option<Seq> {
        self.entries()
            .find(|(_, pending)| is_due(pending, now_ms))
            .map(|(seq, _)| seq)
    }

    /// Re-encodes message `seq` with the current `ack` into `out` and restarts its timer.
    pub fn retransmit(
        &mut self,
        seq: Seq,
        ack: Seq,
        now_ms: u64,
        out: &mut [u8],
    ) -> Result<usize, Error> {
        let pending = self
            .slot_of(seq)
            .and_then(|slot| self.pending[slot].as_mut())
            .ok_or(Error::BadValue {
                field: "seq",
                value: seq.0.into(),
            })?;
        let len = encode(&Frame::new(seq, ack, pending.message), out)?;
        pending.last_sent_ms = Some(now_ms);
        pending.retransmissions = pending.retransmissions.saturating_add(1);
        Ok(len)
    }

    /// Marks every pending message due now and starts its retransmission count afresh
    /// (after the serial port reopened, or a `Nak` showed the peer is listening): the
    /// retransmissions before say nothing about the link from now on, so they must not
    /// make [`TxWindow::stalled`] declare it lost.
    pub fn retransmit_all_now(&mut self) {
        for pending in self.pending.iter_mut().flatten() {
            pending.last_sent_ms = None;
            pending.retransmissions = 0;
        }
    }

    /// Whether the oldest message has been retransmitted [`MAX_RETRANSMISSIONS`] times
    /// without an ack: the link should be declared lost.
    pub fn stalled(&self) -> bool {
        self.entries()
            .next()
            .is_some_and(|(_, pending)| pending.retransmissions >= MAX_RETRANSMISSIONS)
    }

    /// The unacknowledged messages, oldest first (e.g. to journal what is in flight).
    pub fn unacked_messages(&self) -> impl Iterator<Item = (Seq, &Message)> + '_ {
        self.entries().map(|(seq, pending)| (seq, &pending.message))
    }

    fn entries(&self) -> impl Iterator<Item = (Seq, &Pending)> + '_ {
        (0..self.count).filter_map(move |offset| {
            let pending = self.pending[(self.head + offset) % N].as_ref()?;
            Some((self.base.add(offset as u8), pending))
        })
    }

    fn slot_of(&self, seq: Seq) -> Option<usize> {
        let offset = usize::from(self.base.steps_to(seq));
        (offset < self.count).then_some((self.head + offset) % N)
    }
}

fn is_due(pending: &Pending, now_ms: u64) -> bool {
    match pending.last_sent_ms {
        None => true,
        Some(sent) => now_ms.saturating_sub(sent) >= RETRANSMIT_TIMEOUT_MS,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frame::{decode_frame, MAX_WIRE_LEN};

    fn home(move_id: u32) -> Message {
        Message::Home {
            move_id,
            mask: 0x0FFF,
        }
    }

    fn send(window: &mut TxWindow<4>, move_id: u32, now: u64) -> Result<usize, Error> {
        let mut out = [0u8; MAX_WIRE_LEN];
        window.send(&home(move_id), Seq(0), now, &mut out)
    }

    #[test]
    fn sends_with_consecutive_seqs_until_full() {
        let mut window = TxWindow::<4>::new();
        for id in 0..4 {
            assert_eq!(window.next_seq(), Seq(id as u8));
            send(&mut window, id, 0).expect("room");
        }
        assert_eq!(
            send(&mut window, 9, 0),
            Err(Error::WindowFull { unacked: 4 })
        );
        assert_eq!(window.on_ack(Seq(2)), 2);
        assert_eq!(window.unacked(), 2);
        send(&mut window, 4, 0).expect("room after ack");
        assert_eq!(window.next_seq(), Seq(5));
    }

    #[test]
    fn unsequenced_messages_are_refused() {
        let mut window = TxWindow::<4>::new();
        let mut out = [0u8; MAX_WIRE_LEN];
        assert_eq!(
            window.send(&Message::Ping { nonce: 1 }, Seq(0), 0, &mut out),
            Err(Error::WrongSequencing { message_type: 0x07 })
        );
    }

    #[test]
    fn stale_and_future_acks_are_ignored() {
        let mut window = TxWindow::<4>::new();
        send(&mut window, 1, 0).expect("room");
        send(&mut window, 2, 0).expect("room");
        assert_eq!(window.on_ack(Seq(3)), 0, "acks a seq never sent");
        assert_eq!(window.on_ack(Seq(1)), 1);
        assert_eq!(window.on_ack(Seq(0)), 0, "stale");
        assert_eq!(window.on_ack(Seq(1)), 0, "repeat");
        assert_eq!(window.unacked(), 1);
    }

    #[test]
    fn retransmits_oldest_first_after_the_timeout() {
        let mut window = TxWindow::<4>::new();
        send(&mut window, 1, 1_000).expect("room");
        send(&mut window, 2, 1_050).expect("room");
        assert_eq!(window.due_for_retransmit(1_099), None);
        assert_eq!(window.due_for_retransmit(1_100), Some(Seq(0)));
        let mut out = [0u8; MAX_WIRE_LEN];
        let len = window
            .retransmit(Seq(0), Seq(7), 1_100, &mut out)
            .expect("resend");
        let frame = decode_frame(&out[..len]).expect("decodes");
        assert_eq!(frame.header.seq, Seq(0));
        assert_eq!(frame.header.ack, Seq(7), "carries the current ack");
        assert_eq!(frame.message, home(1));
        assert_eq!(window.due_for_retransmit(1_149), None);
        assert_eq!(window.due_for_retransmit(1_150), Some(Seq(1)));
    }

    /// Waits out the oldest message's timer and sends it again; returns the new time.
    fn resend_oldest(window: &mut TxWindow<4>, now: u64) -> u64 {
        let now = now + RETRANSMIT_TIMEOUT_MS;
        let seq = window.due_for_retransmit(now).expect("due");
        let mut out = [0u8; MAX_WIRE_LEN];
        window
            .retransmit(seq, Seq(0), now, &mut out)
            .expect("resend");
        now
    }

    #[test]
    fn stalls_after_max_retransmissions() {
        let mut window = TxWindow::<4>::new();
        send(&mut window, 1, 0).expect("room");
        let mut now = 0;
        for _ in 0..MAX_RETRANSMISSIONS {
            assert!(!window.stalled());
            now = resend_oldest(&mut window, now);
        }
        assert!(window.stalled());
        window.on_ack(Seq(1));
        assert!(!window.stalled());
    }

    #[test]
    fn retransmit_all_now_restarts_the_count_towards_stalled() {
        let mut window = TxWindow::<4>::new();
        send(&mut window, 1, 0).expect("room");
        let mut now = 0;
        for _ in 0..MAX_RETRANSMISSIONS {
            now = resend_oldest(&mut window, now);
        }
        assert!(window.stalled());
        window.retransmit_all_now();
        assert!(!window.stalled(), "a reopened port starts counting again");
        assert!(window.due_for_retransmit(now).is_some(), "due at once");
        for _ in 0..MAX_RETRANSMISSIONS - 1 {
            now = resend_oldest(&mut window, now);
            assert!(!window.stalled());
        }
        resend_oldest(&mut window, now);
        assert!(window.stalled(), "stalls again after the full count");
    }

    #[test]
    fn wraps_around_seq_255() {
        let mut window = TxWindow::<4>::new();
        for id in 0..300u32 {
            let seq = window.next_seq();
            assert_eq!(seq, Seq(id as u8));
            send(&mut window, id, 0).expect("room");
            assert_eq!(window.on_ack(seq.next()), 1);
        }
        send(&mut window, 300, 0).expect("room");
        send(&mut window, 301, 0).expect("room");
        let seqs: [Seq; 2] = [Seq(44), Seq(45)];
        assert!(window.unacked_messages().map(|(seq, _)| seq).eq(seqs));
    }

    #[test]
    fn peer_window_limits_the_room() {
        let mut window = TxWindow::<4>::new();
        window.set_peer_window(1);
        send(&mut window, 1, 0).expect("room");
        assert!(!window.has_room());
        window.retransmit_all_now();
        assert_eq!(window.due_for_retransmit(0), Some(Seq(0)));
        assert!(window
            .retransmit(Seq(3), Seq(0), 0, &mut [0u8; 64])
            .is_err());
    }
}
