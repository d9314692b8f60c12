//! Time for the link and the simulator: a clock trait so tests can run on tokio's paused clock.

/// A monotonic millisecond clock.
pub trait Clock: Send + Sync + 'static {
    /// Milliseconds since an arbitrary origin; never goes backwards.
    fn now_ms(&self) -> u64;
}

/// The tokio clock: real time, or virtual time in tests that call `tokio::time::pause()`.
#[derive(Debug, Clone, Copy)]
pub struct TokioClock {
    origin: tokio::time::Instant,
}

impl TokioClock {
    /// A clock whose origin is now.
    pub fn new() -> TokioClock {
        TokioClock {
            origin: tokio::time::Instant::now(),
        }
    }
}

impl Default for TokioClock {
    fn default() -> Self {
        Self::new()
    }
}

impl Clock for TokioClock {
    fn now_ms(&self) -> u64 {
        self.origin.elapsed().as_millis() as u64
    }
}
