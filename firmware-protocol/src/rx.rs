//! Receiver-side sequence tracking: new, duplicate, out-of-order or out-of-window.

use crate::frame::Frame;
use crate::seq::{Seq, MAX_WINDOW};

/// What a received frame is, relative to the next expected sequence number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RxVerdict {
    /// An unsequenced message: no sequence bookkeeping applies.
    Unsequenced,
    /// The next expected frame. Call [`RxTracker::accept`] if it is taken (it then
    /// must be acted on exactly once), or leave it to be retransmitted.
    New,
    /// Already accepted (1..=window behind): must not be acted on again, but acked.
    Duplicate,
    /// Ahead of the next expected frame (1..window-1 ahead): one before it was lost.
    OutOfOrder,
    /// Neither a recent duplicate nor inside the window ahead: the peers disagree
    /// about the sequence (e.g. a reboot went unnoticed).
    OutOfWindow,
}

/// Tracks the next expected sequence number from one peer. The peer must never have
/// more than `window` frames unacknowledged, and `window <= MAX_WINDOW`, so a
/// duplicate can never be mistaken for a new frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RxTracker {
    expected: Seq,
    window: u8,
}

impl RxTracker {
    /// A tracker expecting seq 0, for a peer sending at most `window` unacked frames
    /// (clamped to 1..=[`MAX_WINDOW`]).
    pub const fn new(window: u8) -> Self {
        let window = if window == 0 {
            1
        } else if window > MAX_WINDOW {
            MAX_WINDOW
        } else {
            window
        };
        RxTracker {
            expected: Seq::ZERO,
            window,
        }
    }

    /// Expect seq 0 again (new session).
    pub fn reset(&mut self) {
        self.expected = Seq::ZERO;
    }

    /// The cumulative ack to send: the next expected seq.
    pub const fn ack(&self) -> Seq {
        self.expected
    }

    /// The window this tracker assumes.
    pub const fn window(&self) -> u8 {
        self.window
    }

    /// Classifies a received frame.
    pub fn classify(&self, frame: &Frame) -> RxVerdict {
        if frame.message.is_sequenced() {
            self.classify_seq(frame.header.seq)
        } else {
            RxVerdict::Unsequenced
        }
    }

    /// Classifies the sequence number of a sequenced frame.
    pub const fn classify_seq(&self, seq: Seq) -> RxVerdict {
        let ahead = self.expected.steps_to(seq);
        let behind = seq.steps_to(self.expected);
        if ahead == 0 {
            RxVerdict::New
        } else if behind <= self.window {
            RxVerdict::Duplicate
        } else if ahead < self.window {
            RxVerdict::OutOfOrder
        } else {
            RxVerdict::OutOfWindow
        }
    }

    /// Takes the expected frame: the next expected seq moves on by one.
    pub fn accept(&mut self) {
        self.expected = self.expected.next();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tracker_at(expected: u8, window: u8) -> RxTracker {
        let mut tracker = RxTracker::new(window);
        tracker.expected = Seq(expected);
        tracker
    }

    #[test]
    fn classifies_around_the_expected_seq() {
        let tracker = tracker_at(10, 8);
        assert_eq!(tracker.classify_seq(Seq(10)), RxVerdict::New);
        assert_eq!(tracker.classify_seq(Seq(9)), RxVerdict::Duplicate);
        assert_eq!(tracker.classify_seq(Seq(2)), RxVerdict::Duplicate);
        assert_eq!(tracker.classify_seq(Seq(1)), RxVerdict::OutOfWindow);
        assert_eq!(tracker.classify_seq(Seq(11)), RxVerdict::OutOfOrder);
        assert_eq!(tracker.classify_seq(Seq(17)), RxVerdict::OutOfOrder);
        assert_eq!(tracker.classify_seq(Seq(18)), RxVerdict::OutOfWindow);
    }

    #[test]
    fn classifies_across_the_wrap() {
        let tracker = tracker_at(2, 8);
        assert_eq!(tracker.classify_seq(Seq(250)), RxVerdict::Duplicate);
        assert_eq!(tracker.classify_seq(Seq(255)), RxVerdict::Duplicate);
        assert_eq!(tracker.classify_seq(Seq(249)), RxVerdict::OutOfWindow);
        assert_eq!(tracker.classify_seq(Seq(9)), RxVerdict::OutOfOrder);
    }

    #[test]
    fn accept_wraps_255_to_0() {
        let mut tracker = tracker_at(255, 4);
        tracker.accept();
        assert_eq!(tracker.ack(), Seq(0));
        assert_eq!(tracker.classify_seq(Seq(255)), RxVerdict::Duplicate);
    }

    #[test]
    fn full_window_never_confuses_old_and_new() {
        for expected in 0..=255u8 {
            let tracker = tracker_at(expected, MAX_WINDOW);
            for seq in 0..=255u8 {
                let verdict = tracker.classify_seq(Seq(seq));
                let behind = Seq(seq).steps_to(Seq(expected));
                let is_old = (1..=MAX_WINDOW).contains(&behind);
                assert_eq!(verdict == RxVerdict::Duplicate, is_old, "{expected} {seq}");
                assert_ne!(verdict, RxVerdict::OutOfWindow, "no gap at window 128");
            }
        }
    }

    #[test]
    fn window_is_clamped() {
        assert_eq!(RxTracker::new(0).window(), 1);
        assert_eq!(RxTracker::new(200).window(), MAX_WINDOW);
    }
}
