//! How a run ended, what the daemon's state becomes, and the abort flag a run checks between steps.

use super::api::DaemonState;
use std::sync::atomic::{AtomicU8, Ordering};

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Verified solved after `moves` face turns.
    Solved { moves: u32 },
    /// The scan found a solved cube; nothing was moved.
    AlreadySolved,
    /// The palette was recalibrated from a scan of a solved cube.
    Calibrated,
    /// The cube could not be read (or is impossible); the reason says what to fix.
    Refused(String),
    /// Something went wrong (robot fault, link, planning, still unsolved after the retries).
    Failed(String),
    /// Stopped on request (or by shutdown) at a step boundary.
    Stopped(String),
    /// Emergency stop.
    EStopped(String),
}

impl Outcome {
    /// The name recorded in the run history.
    pub fn name(&self) -> &'static str {
        match self {
            Outcome::Solved { .. } => "solved",
            Outcome::AlreadySolved => "already_solved",
            Outcome::Calibrated => "calibrated",
            Outcome::Refused(_) => "refused",
            Outcome::Failed(_) => "failed",
            Outcome::Stopped(_) => "stopped",
            Outcome::EStopped(_) => "estopped",
        }
    }

    /// The reason, for the history's error column.
    pub fn error(&self) -> Option<&str> {
        match self {
            Outcome::Refused(r)
            | Outcome::Failed(r)
            | Outcome::Stopped(r)
            | Outcome::EStopped(r) => Some(r),
            _ => None,
        }
    }

    /// The daemon's state after the run.
    pub fn state(&self) -> DaemonState {
        match self {
            Outcome::Solved { .. } | Outcome::AlreadySolved => DaemonState::Done,
            Outcome::Calibrated => DaemonState::Idle,
            Outcome::Refused(_) | Outcome::Failed(_) => DaemonState::Faulted,
            Outcome::Stopped(_) => DaemonState::Idle,
            Outcome::EStopped(_) => DaemonState::EStopped,
        }
    }

    /// One sentence for the page.
    pub fn message(&self, run: u64) -> String {
        match self {
            Outcome::Solved { moves } => format!("run {run}: solved and verified ({moves} moves)"),
            Outcome::AlreadySolved => {
                format!("run {run}: the cube is already solved; nothing to do")
            }
            Outcome::Calibrated => format!("run {run}: palette calibrated"),
            Outcome::Refused(r) => format!("run {run} refused: {r}"),
            Outcome::Failed(r) => format!("run {run} failed: {r}"),
            Outcome::Stopped(r) => format!("run {run} stopped: {r}"),
            Outcome::EStopped(r) => format!("run {run}: emergency stop ({r}); reset to continue"),
        }
    }
}

/// What the run has been asked to do besides carry on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Abort {
    Stop,
    EStop,
}

/// Set by the service, read by the run at step boundaries.
#[derive(Debug, Default)]
pub struct AbortFlag(AtomicU8);

impl AbortFlag {
    pub fn request(&self, abort: Abort) {
        let code = match abort {
            Abort::Stop => 1,
            Abort::EStop => 2,
        };
        self.0.fetch_max(code, Ordering::SeqCst);
    }

    pub fn requested(&self) -> Option<Abort> {
        match self.0.load(Ordering::SeqCst) {
            0 => None,
            1 => Some(Abort::Stop),
            _ => Some(Abort::EStop),
        }
    }

    /// The outcome to end the run with, if it must end now.
    pub fn check(&self) -> Result<(), Outcome> {
        match self.requested() {
            None => Ok(()),
            Some(Abort::Stop) => Err(Outcome::Stopped("stopped on request".into())),
            Some(Abort::EStop) => Err(Outcome::EStopped("emergency stop requested".into())),
        }
    }
}
