//! One servo (jaw) channel at run time: the commanded side and when its travel ends.

use crate::pins::Pins;
use firmware_protocol::message::Servo;

/// A servo channel's run-time state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServoChannel {
    hw: Servo,
    index: u8,
    /// Commanded side: `None` until first commanded after boot.
    closed: Option<bool>,
    busy_until: Option<u64>,
}

impl ServoChannel {
    /// A channel with no pulse commanded yet.
    pub const fn new(hw: Servo, index: u8) -> Self {
        ServoChannel {
            hw,
            index,
            closed: None,
            busy_until: None,
        }
    }

    /// Position for `Status`: 1 closed, 0 open (or never commanded).
    pub fn position(&self) -> i64 {
        i64::from(self.closed == Some(true))
    }

    /// Whether the servo is still travelling at `now_us`.
    pub fn busy(&self, now_us: u64) -> bool {
        self.busy_until.is_some_and(|until| until > now_us)
    }

    /// When the travel ends, if it is under way.
    pub fn next_deadline(&self) -> Option<u64> {
        self.busy_until
    }

    /// Forgets a finished travel.
    pub fn service(&mut self, now_us: u64) {
        if self.busy_until.is_some_and(|until| until <= now_us) {
            self.busy_until = None;
        }
    }

    /// Commands a side, waited for `side_ms` (the design's time that way; never less than
    /// the servo's own travel). Already there: nothing moves. Returns the travel time, µs.
    pub fn command(
        &mut self,
        closed: bool,
        side_ms: u16,
        now_us: u64,
        pins: &mut impl Pins,
    ) -> u64 {
        if self.closed == Some(closed) && self.busy_until.is_none() {
            return 0;
        }
        self.closed = Some(closed);
        pins.set_servo(self.index, self.hw.pulse_us(closed));
        let travel_us = u64::from(self.hw.travel_ms.max(side_ms)) * 1000;
        self.busy_until = Some(now_us + travel_us);
        travel_us
    }

    /// Stops waiting for the travel (e-stop): the pulse stays, the servo holds.
    pub fn halt(&mut self) {
        self.busy_until = None;
    }
}
