//! Trapezoidal step ramps: when each step of a move happens, in integer µs.
//!
//! The ideal motion accelerates at `a` steps/s² up to `v` steps/s, cruises, and
//! decelerates at `a` to stop on the last step (a triangle when the move is too short
//! to reach `v`). Step `k` (1-based) is issued at the instant the ideal position
//! reaches `k`; the last step is the end of the move.

/// One move's ramp: `steps` steps at most `speed` steps/s, accelerating at `accel` steps/s².
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ramp {
    steps: u32,
    speed: u32,
    accel: u32,
    /// 10¹² / accel: `sqrt(2·s·c)` is the time in µs to cover `s` steps from rest.
    c: u64,
    /// Total time, µs.
    duration_us: u64,
    /// v²/(2a) in steps·µs: the cruise line is t = (s·10⁶ + offset) / v.
    cruise_offset: u64,
    /// Whether the move reaches `speed` (trapezoid) or not (triangle).
    cruises: bool,
}

const US_PER_S: u64 = 1_000_000;

impl Ramp {
    /// A ramp of `steps` steps; `speed` and `accel` must be at least 1 (a
    /// machine that [`crate::check_machine`] accepts guarantees it).
    pub fn new(steps: u32, speed: u32, accel: u32) -> Ramp {
        let speed = speed.max(1);
        let accel = accel.max(1);
        let c = (1_000_000_000_000 + u64::from(accel) / 2) / u64::from(accel);
        let (s, v, a) = (u64::from(steps), u64::from(speed), u64::from(accel));
        // Reaching full speed takes v²/(2a) steps; both ramps fit when a·n ≥ v².
        let cruises = a.saturating_mul(s) >= v * v;
        let cruise_offset = (v * v).saturating_mul(US_PER_S) / (2 * a);
        let duration_us = if cruises {
            // One division, so the end of the move is rounded once.
            (s * US_PER_S + 2 * cruise_offset) / v
        } else {
            // 2·sqrt(n/a), rounded once (in u128: 4·n·c may pass u64).
            let four_nc = 4 * u128::from(s) * u128::from(c);
            round_sqrt_u128(four_nc)
        };
        Ramp {
            steps,
            speed,
            accel,
            c,
            duration_us,
            cruise_offset,
            cruises,
        }
    }

    /// Steps in the move.
    pub const fn steps(&self) -> u32 {
        self.steps
    }

    /// Time from the start of the move to its last step, µs.
    pub const fn duration_us(&self) -> u64 {
        self.duration_us
    }

    /// Time from the start of the move to step `k` (1..=steps), µs.
    pub fn step_time_us(&self, k: u32) -> u64 {
        let k = u64::from(k.min(self.steps));
        let n = u64::from(self.steps);
        let (v, a) = (u64::from(self.speed), u64::from(self.accel));
        let from_rest = |s: u64| round_sqrt((2 * s).saturating_mul(self.c));
        if self.cruises {
            if (2 * a).saturating_mul(k) <= v * v {
                from_rest(k)
            } else if (2 * a).saturating_mul(n - k) <= v * v {
                self.duration_us - from_rest(n - k)
            } else {
                // On the cruise line s/v + v/(2a), tangent to both parabolas.
                (k * US_PER_S + self.cruise_offset) / v
            }
        } else if 2 * k <= n {
            from_rest(k)
        } else {
            self.duration_us - from_rest(n - k)
        }
    }
}

/// `sqrt(y)` rounded to the nearest integer.
fn round_sqrt(y: u64) -> u64 {
    let floor = y.isqrt();
    // sqrt(y) ≥ floor + ½  ⇔  y ≥ floor² + floor + ¼  ⇔  y > floor² + floor.
    floor + u64::from(y - floor * floor > floor)
}

fn round_sqrt_u128(y: u128) -> u64 {
    let floor = y.isqrt();
    (floor + u128::from(y - floor * floor > floor)).min(u128::from(u64::MAX)) as u64
}

/// The time in µs a move of `steps` takes with this speed and acceleration.
pub fn move_time_us(steps: u32, speed: u32, accel: u32) -> u64 {
    Ramp::new(steps, speed, accel).duration_us()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn last_step_ends_the_move() {
        for steps in [1, 2, 3, 10, 799, 800, 801, 5000] {
            let ramp = Ramp::new(steps, 9600, 160_000);
            assert_eq!(
                ramp.step_time_us(steps),
                ramp.duration_us(),
                "{steps} steps"
            );
        }
    }

    #[test]
    fn a_known_trapezoid() {
        // 1000 steps, 1000 steps/s, 2000 steps/s²: 0.5 s up, 0.5 s down, 0.5 s cruise
        // covering 1000 - 2·250 = 500 steps: 1.5 s.
        let ramp = Ramp::new(1000, 1000, 2000);
        assert_eq!(ramp.duration_us(), 1_500_000);
        assert_eq!(ramp.step_time_us(250), 500_000);
        assert_eq!(ramp.step_time_us(750), 1_000_000);
    }

    #[test]
    fn a_known_triangle() {
        // 100 steps at 1000 steps/s²: 50 steps up in sqrt(0.1) s, 50 down.
        let ramp = Ramp::new(100, 1_000_000, 1000);
        assert_eq!(ramp.duration_us(), 632_456); // 2·sqrt(0.1) s
        assert_eq!(ramp.step_time_us(50), 316_228); // sqrt(0.1) s
    }
}
