//! Streaming a whole program: queue every command, wait until each is reported done,
//! and stop at the first fault, refusal, e-stop or fatal link error.

use super::actuators::MotionGroup;
use super::error::LinkError;
use super::handle::{LinkEvent, LinkHandle};
use firmware_protocol::message::{Fault, NakReason};

/// Why a program did not finish.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StreamError {
    #[error("the firmware latched fault {fault:?} after {done} of {total} commands")]
    Fault {
        fault: Fault,
        done: usize,
        total: usize,
    },
    #[error("the firmware refused move {move_id:?} ({reason:?})")]
    Refused {
        move_id: Option<u32>,
        reason: NakReason,
    },
    #[error("emergency stop after {done} of {total} commands")]
    EStopped { done: usize, total: usize },
    #[error(transparent)]
    Link(#[from] LinkError),
    #[error("not done after {waited_ms} ms; firmware status: {status}")]
    TimedOut { waited_ms: u64, status: String },
}

/// How the program went.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StreamOutcome {
    pub done: usize,
    pub links_lost: usize,
    pub links_restored: usize,
}

/// Sends `groups` and waits until all are done; `progress(done, total, event)` sees
/// every event (for progress bars and logs).
pub async fn stream_program(
    link: &mut LinkHandle,
    groups: &[MotionGroup],
    mut progress: impl FnMut(usize, usize, &LinkEvent),
) -> Result<StreamOutcome, StreamError> {
    for group in groups {
        link.send(*group)?;
    }
    let total = groups.len();
    let mut outcome = StreamOutcome::default();
    while outcome.done < total {
        let Some(event) = link.next_event().await else {
            return Err(LinkError::Closed.into());
        };
        match &event {
            LinkEvent::MoveDone { .. } => outcome.done += 1,
            LinkEvent::LinkLost { .. } => outcome.links_lost += 1,
            LinkEvent::LinkRestored { .. } => outcome.links_restored += 1,
            _ => {}
        }
        progress(outcome.done, total, &event);
        match event {
            LinkEvent::Fault(fault) => {
                return Err(StreamError::Fault {
                    fault,
                    done: outcome.done,
                    total,
                })
            }
            LinkEvent::Refused { move_id, reason } => {
                return Err(StreamError::Refused { move_id, reason })
            }
            LinkEvent::EStopped { .. } => {
                return Err(StreamError::EStopped {
                    done: outcome.done,
                    total,
                })
            }
            LinkEvent::Stopped { error } => return Err(error.unwrap_or(LinkError::Closed).into()),
            _ => {}
        }
    }
    Ok(outcome)
}
