//! Link timing rules (retransmit, heartbeat, comms timeout) and a pure silence timer.
//!
//! Nothing here reads a clock: callers pass "now" as milliseconds from any monotonic
//! origin (`millis()` on a microcontroller, `Instant` since start on the host).

/// A sequenced frame not acknowledged this long after it was (re)sent is sent again.
pub const RETRANSMIT_TIMEOUT_MS: u64 = 100;
/// After this many retransmissions of the same frame without an ack, the sender
/// declares the link lost (about 2 s at [`RETRANSMIT_TIMEOUT_MS`]).
pub const MAX_RETRANSMISSIONS: u16 = 20;
/// The host sends a heartbeat (`QueryStatus`) whenever it has sent nothing for this long.
pub const HEARTBEAT_INTERVAL_MS: u64 = 500;
/// The firmware stops and latches `Fault::CommsTimeout` if it has received no valid
/// frame for this long while it is executing queued commands.
pub const COMMS_TIMEOUT_MS: u64 = 2_000;

/// Fires once `interval_ms` have passed since the last noted activity: the host's
/// heartbeat ([`SilenceTimer::heartbeat`]) and the firmware's comms watchdog
/// ([`SilenceTimer::comms_watchdog`]) are both this timer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SilenceTimer {
    interval_ms: u64,
    last_activity_ms: u64,
}

impl SilenceTimer {
    /// A timer of `interval_ms`, counting from `now_ms`.
    pub const fn new(interval_ms: u64, now_ms: u64) -> Self {
        SilenceTimer {
            interval_ms,
            last_activity_ms: now_ms,
        }
    }

    /// The host's heartbeat: due after [`HEARTBEAT_INTERVAL_MS`] without sending.
    pub const fn heartbeat(now_ms: u64) -> Self {
        Self::new(HEARTBEAT_INTERVAL_MS, now_ms)
    }

    /// The firmware's watchdog: expired after [`COMMS_TIMEOUT_MS`] without a valid frame.
    pub const fn comms_watchdog(now_ms: u64) -> Self {
        Self::new(COMMS_TIMEOUT_MS, now_ms)
    }

    /// Records activity at `now_ms` (a frame sent or received).
    pub fn note_activity(&mut self, now_ms: u64) {
        self.last_activity_ms = self.last_activity_ms.max(now_ms);
    }

    /// Milliseconds since the last activity (0 if the clock went backwards).
    pub const fn silent_for(&self, now_ms: u64) -> u64 {
        now_ms.saturating_sub(self.last_activity_ms)
    }

    /// Whether the interval has passed since the last activity.
    pub const fn expired(&self, now_ms: u64) -> bool {
        self.silent_for(now_ms) >= self.interval_ms
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heartbeat_fires_after_the_interval_of_silence() {
        let mut timer = SilenceTimer::heartbeat(1_000);
        assert!(!timer.expired(1_499));
        assert!(timer.expired(1_500));
        timer.note_activity(1_400);
        assert!(!timer.expired(1_500));
        assert!(timer.expired(1_900));
    }

    #[test]
    fn watchdog_ignores_a_clock_going_backwards() {
        let mut timer = SilenceTimer::comms_watchdog(5_000);
        timer.note_activity(4_000);
        assert_eq!(timer.silent_for(4_500), 0);
        assert!(timer.expired(7_000));
        assert!(!timer.expired(6_999));
    }

    #[test]
    fn retransmissions_span_about_the_comms_timeout() {
        assert_eq!(
            RETRANSMIT_TIMEOUT_MS * u64::from(MAX_RETRANSMISSIONS),
            COMMS_TIMEOUT_MS
        );
    }
}
