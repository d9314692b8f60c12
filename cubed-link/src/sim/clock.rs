//! The simulated firmware's clock: µs that follow the wall clock scaled by the speed, and at
//! speed 0 jump ahead through motions. Never more than 1.5 s ahead of the host's last
//! valid frame unless the wall clock says the host really was silent that long, so the
//! firmware's 2 s comms watchdog means what it means on a robot.

/// How far the firmware's time may outrun the host's last valid frame, µs.
const HOST_LEAD_US: u64 = 1_500_000;

/// Virtual time against wall time.
#[derive(Debug, Clone)]
pub(super) struct VirtualClock {
    speed: f64,
    now_us: u64,
    wall_ms: u64,
    host_us: u64,
    host_wall_ms: u64,
}

impl VirtualClock {
    /// At virtual 0 at wall time `now_ms`.
    pub(super) fn new(speed: f64, now_ms: u64) -> VirtualClock {
        VirtualClock {
            speed,
            now_us: 0,
            wall_ms: now_ms,
            host_us: 0,
            host_wall_ms: now_ms,
        }
    }

    /// The firmware's time, µs.
    pub(super) fn now_us(&self) -> u64 {
        self.now_us
    }

    /// Whether the clock jumps ahead through motions (speed 0).
    pub(super) fn runs_ahead(&self) -> bool {
        self.speed <= 0.0
    }

    fn rate(&self) -> f64 {
        if self.runs_ahead() {
            1.0
        } else {
            self.speed
        }
    }

    /// The virtual time wall time `now_ms` brings (the wall time since the last call,
    /// scaled), capped by [`ahead_limit_us`](Self::ahead_limit_us).
    pub(super) fn target_us(&mut self, now_ms: u64) -> u64 {
        let wall = now_ms.saturating_sub(self.wall_ms);
        self.wall_ms = self.wall_ms.max(now_ms);
        let target = self.now_us + (wall as f64 * 1000.0 * self.rate()) as u64;
        target.min(self.ahead_limit_us(now_ms)).max(self.now_us)
    }

    /// The furthest the firmware's time may go at wall time `now_ms`.
    pub(super) fn ahead_limit_us(&self, now_ms: u64) -> u64 {
        let silent_us = now_ms.saturating_sub(self.host_wall_ms) * 1000;
        self.host_us + HOST_LEAD_US.max(silent_us)
    }

    /// A valid frame from the host arrived now (what feeds the firmware's watchdog).
    pub(super) fn heard_host(&mut self, now_ms: u64) {
        self.host_us = self.now_us;
        self.host_wall_ms = self.host_wall_ms.max(now_ms);
    }

    /// The simulator itself did not run for `gap_ms` of wall time (its thread was starved):
    /// the host's bytes of that while wait unread, so that while is not counted as the
    /// host's silence. A firmware on a chip hears every byte as it comes.
    pub(super) fn excuse_host(&mut self, gap_ms: u64) {
        self.host_wall_ms = self.host_wall_ms.saturating_add(gap_ms);
    }

    /// Moves to `at_us` (never back); returns the µs that passed.
    pub(super) fn set_now_us(&mut self, at_us: u64) -> u64 {
        let elapsed = at_us.saturating_sub(self.now_us);
        self.now_us += elapsed;
        elapsed
    }

    /// Wall ms until the firmware's time reaches `at_us` at this speed.
    pub(super) fn wall_ms_until(&self, at_us: u64, _now_ms: u64) -> u64 {
        let us = at_us.saturating_sub(self.now_us) as f64 / self.rate();
        (us / 1000.0).ceil() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_follows_the_wall_scaled_by_the_speed() {
        let mut clock = VirtualClock::new(10.0, 1000);
        clock.heard_host(1000);
        assert_eq!(clock.target_us(1100), 1_000_000);
        // Capped 1.5 s past the host's last frame…
        assert_eq!(clock.target_us(1300), 1_500_000);
        // …unless the host really was silent longer.
        clock.set_now_us(1_500_000);
        assert_eq!(clock.target_us(3100), 2_100_000);
    }

    #[test]
    fn a_starved_simulator_does_not_count_its_own_sleep_as_the_hosts_silence() {
        let mut clock = VirtualClock::new(1.0, 0);
        clock.heard_host(0);
        clock.excuse_host(2_500);
        // 2.6 s of wall time, 2.5 s of it the simulator asleep: capped 1.5 s past the
        // host's last frame, short of the firmware's 2 s watchdog…
        assert_eq!(clock.target_us(2_600), 1_500_000);
        clock.set_now_us(1_500_000);
        // …until the host has been silent past the watchdog while the simulator looked.
        assert_eq!(clock.target_us(4_600), 2_100_000);
    }
}
