//! The abort flag: the service asks a run to stop or e-stop, and the run checks it at step boundaries.

use std::sync::atomic::{AtomicU8, Ordering};

/// What the run has been asked to do besides carry on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Abort {
    /// A person asked the run to stop.
    Stop,
    /// The run history could not be written: the run stops, and has failed.
    History,
    EStop,
}

/// Set by the service, read by the run at step boundaries.
#[derive(Debug, Default)]
pub struct AbortFlag(AtomicU8);

impl AbortFlag {
    pub fn request(&self, abort: Abort) {
        let code = match abort {
            Abort::Stop => 1,
            Abort::History => 2,
            Abort::EStop => 3,
        };
        self.0.fetch_max(code, Ordering::SeqCst);
    }

    pub fn requested(&self) -> Option<Abort> {
        match self.0.load(Ordering::SeqCst) {
            0 => None,
            1 => Some(Abort::Stop),
            2 => Some(Abort::History),
            _ => Some(Abort::EStop),
        }
    }
}
