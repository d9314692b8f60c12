//! 8-bit sequence numbers with wrap-around (serial number) arithmetic.

use core::fmt;

/// Most frames a sender may have unacknowledged at once. With 8-bit sequence numbers
/// (256 values) and a receiver that accepts only the next expected number, a window
/// of at most 128 keeps "already received" (up to `window` behind) and "not yet
/// received" (up to `window - 1` ahead) disjoint, so a duplicate is never taken as new.
pub const MAX_WINDOW: u8 = 128;

/// A sequence number. Adding past 255 wraps to 0; comparisons are only meaningful
/// between numbers less than 128 apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Seq(pub u8);

impl Seq {
    /// The first sequence number after a handshake.
    pub const ZERO: Seq = Seq(0);

    /// The number after this one, wrapping 255 → 0.
    pub const fn next(self) -> Seq {
        Seq(self.0.wrapping_add(1))
    }

    /// This number plus `count`, wrapping.
    pub const fn add(self, count: u8) -> Seq {
        Seq(self.0.wrapping_add(count))
    }

    /// How many steps forward from `self` reach `later` (0..=255, wrapping).
    pub const fn steps_to(self, later: Seq) -> u8 {
        later.0.wrapping_sub(self.0)
    }

    /// Whether `self` comes strictly before `other` in serial-number order
    /// (`other` is 1..=127 steps ahead).
    pub const fn is_before(self, other: Seq) -> bool {
        let steps = self.steps_to(other);
        steps != 0 && steps < 128
    }

    /// Whether `self` lies in the half-open range `[start, start + len)`, wrapping.
    pub const fn is_within(self, start: Seq, len: u8) -> bool {
        start.steps_to(self) < len
    }
}

impl fmt::Display for Seq {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn next_wraps_at_255() {
        assert_eq!(Seq(254).next(), Seq(255));
        assert_eq!(Seq(255).next(), Seq(0));
        assert_eq!(Seq(250).add(10), Seq(4));
    }

    #[test]
    fn steps_count_across_the_wrap() {
        assert_eq!(Seq(250).steps_to(Seq(4)), 10);
        assert_eq!(Seq(4).steps_to(Seq(250)), 246);
        assert_eq!(Seq(9).steps_to(Seq(9)), 0);
    }

    #[test]
    fn ordering_uses_half_the_range() {
        assert!(Seq(250).is_before(Seq(4)));
        assert!(!Seq(4).is_before(Seq(250)));
        assert!(Seq(0).is_before(Seq(127)));
        assert!(!Seq(0).is_before(Seq(128)));
        assert!(!Seq(7).is_before(Seq(7)));
    }

    #[test]
    fn within_a_wrapping_range() {
        assert!(Seq(254).is_within(Seq(250), 8));
        assert!(Seq(1).is_within(Seq(250), 8));
        assert!(!Seq(2).is_within(Seq(250), 8));
        assert!(!Seq(249).is_within(Seq(250), 8));
        assert!(!Seq(0).is_within(Seq(0), 0));
    }
}
