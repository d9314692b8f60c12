//! How a run ended and what the daemon's state becomes.

use crate::daemon::docs::DaemonState;
use crate::daemon::run::abort::Abort;
use crate::daemon::run::error::{Ending, RunError};
use crate::daemon::run::interruption::Interruption;
use cubed_core::error_chain::error_chain;
use std::sync::Arc;

/// How a run ended.
#[derive(Clone, Debug)]
pub(crate) enum Outcome {
    /// Verified solved after `moves` face turns.
    Solved { moves: u32 },
    /// The scan found a solved cube; nothing was moved.
    AlreadySolved,
    /// The palette was recalibrated from a scan of a solved cube.
    Calibrated,
    /// Ended early: the error says why and whether the run was refused, failed, stopped or
    /// e-stopped.
    Ended(Arc<RunError>),
    /// Stopped part-way by `error`; waits for a person to Resume (or Reset).
    Interrupted {
        interruption: Interruption,
        error: Arc<RunError>,
    },
}

impl From<RunError> for Outcome {
    fn from(error: RunError) -> Outcome {
        Outcome::Ended(Arc::new(error))
    }
}

impl Outcome {
    /// The name recorded in the run history.
    pub(crate) fn name(&self) -> &'static str {
        match self {
            Outcome::Solved { .. } => "solved",
            Outcome::AlreadySolved => "already_solved",
            Outcome::Calibrated => "calibrated",
            // Waiting for a person: after an e-stop (its latch, as the page shows it), or a
            // fault or a firmware restart; not over, whatever stopped it.
            Outcome::Interrupted { interruption, .. } if interruption.is_estop() => "estopped",
            Outcome::Interrupted { .. } => crate::daemon::history::WAITING,
            Outcome::Ended(e) => match e.ending() {
                Ending::Refused => "refused",
                Ending::Unverified => "unverified",
                Ending::Failed => "failed",
                Ending::Stopped => "stopped",
                Ending::EStopped => "estopped",
            },
        }
    }

    /// How a run that ended early ended (refused, failed, stopped, e-stopped).
    pub(crate) fn ending(&self) -> Option<Ending> {
        match self {
            Outcome::Ended(e) | Outcome::Interrupted { error: e, .. } => Some(e.ending()),
            _ => None,
        }
    }

    /// The reason with its causes, for the history's error column. A firmware restart is
    /// named as one: the link it closed under the run is only how it showed.
    pub(crate) fn error(&self) -> Option<String> {
        match self {
            Outcome::Interrupted {
                interruption: Interruption::Reboot { in_doubt },
                error,
            } => Some(match error.as_ref() {
                RunError::Stream { what, .. } => format!(
                    "while {what}: the robot's firmware restarted {}",
                    if *in_doubt {
                        "during a move"
                    } else {
                        "between moves"
                    }
                ),
                other => error_chain(other),
            }),
            Outcome::Ended(e) | Outcome::Interrupted { error: e, .. } => {
                Some(error_chain(e.as_ref()))
            }
            _ => None,
        }
    }

    /// The interruption the run waits on, if it waits for a person.
    pub(crate) fn waiting(&self) -> Option<&Interruption> {
        match self {
            Outcome::Interrupted { interruption, .. } => Some(interruption),
            _ => None,
        }
    }

    /// The daemon's state after the run.
    pub(crate) fn state(&self) -> DaemonState {
        match self {
            Outcome::Solved { .. } | Outcome::AlreadySolved => DaemonState::Done,
            Outcome::Calibrated => DaemonState::Idle,
            Outcome::Interrupted { interruption, .. } if interruption.is_estop() => {
                DaemonState::EStopped
            }
            Outcome::Interrupted { .. } => DaemonState::NeedsAttention,
            Outcome::Ended(e) => match e.ending() {
                Ending::Refused | Ending::Unverified | Ending::Failed => DaemonState::Faulted,
                Ending::Stopped => DaemonState::Idle,
                Ending::EStopped => DaemonState::EStopped,
            },
        }
    }

    /// One sentence for the page; `failed_write` is the history write that failed during the
    /// run, if one did (a full disk), said where the run stopped for it.
    pub(crate) fn message(&self, run: u64, failed_write: Option<&str>) -> String {
        match self {
            Outcome::Solved { moves } => format!("run {run}: solved and verified ({moves} moves)"),
            Outcome::AlreadySolved => {
                format!("run {run}: the cube is already solved; nothing to do")
            }
            Outcome::Calibrated => format!("run {run}: palette calibrated"),
            Outcome::Interrupted { interruption, .. } => {
                format!("run {run}: {}", interruption.advice())
            }
            Outcome::Ended(e) => {
                let why = match (e.as_ref(), failed_write) {
                    (RunError::Aborted(Abort::History), Some(write)) => {
                        crate::daemon::run::error::history_stopped_run_by(write)
                    }
                    _ => error_chain(e.as_ref()),
                };
                match e.ending() {
                    Ending::Refused => format!("run {run} refused: {why}"),
                    Ending::Unverified => format!(
                        "run {run} unverified: {why}; look at the cube: if it is solved, take it out; if not, start a new run (`cubed start`, or the page's Start), which scans it first"
                    ),
                    Ending::Failed => format!(
                        "run {run} failed: {why}; {}start a new run (`cubed start`, or the page's Start)",
                        what_to_check(e)
                    ),
                    Ending::Stopped => format!("run {run} stopped: {why}"),
                    Ending::EStopped => {
                        format!("run {run}: emergency stop ({why}); reset to continue")
                    }
                }
            }
        }
    }
}

/// What a person should look at before starting again after a run that failed with `e`,
/// ending "then " (empty when the error says it).
fn what_to_check(e: &RunError) -> &'static str {
    match e {
        RunError::Photo { .. } => "check the camera ([camera] source), then ",
        RunError::Aborted(Abort::History) => {
            "free space where the run history is kept (`cubed config show` names the data directory), then "
        }
        RunError::Unchanged { .. } => "",
        _ => "check the robot, then ",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::{LinkError, StreamError};

    #[test]
    fn a_firmware_restart_is_recorded_as_one_not_as_the_closed_link() {
        let error = Arc::new(RunError::Stream {
            what: "executing the solution",
            source: StreamError::Link(LinkError::Closed),
        });
        let outcome = Outcome::Interrupted {
            interruption: Interruption::Reboot { in_doubt: true },
            error: Arc::clone(&error),
        };
        assert_eq!(
            outcome.error().as_deref(),
            Some("while executing the solution: the robot's firmware restarted during a move")
        );
        // Anything else keeps its own words.
        let ended = Outcome::Ended(error);
        assert_eq!(
            ended.error().as_deref(),
            Some("while executing the solution: the link task has stopped")
        );
    }
}
