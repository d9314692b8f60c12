//! Streaming a whole program: queue every command, wait until each is reported done,
//! and stop at the first fault, refusal, e-stop or fatal link error.

use super::error::LinkError;
use super::events::LinkEvent;
use super::handle::LinkHandle;
use crate::robot::MotionGroup;
use firmware_protocol::message::{Fault, NakReason};

/// Why a program did not finish.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StreamError {
    #[error(
        "the firmware latched a fault after {done} of {total} commands had completed: {}",
        super::fault_words::fault_by_index(fault)
    )]
    Fault {
        fault: Fault,
        done: usize,
        total: usize,
    },
    #[error("the firmware refused {}: {}", move_id.map_or("a command".to_string(), |m| format!("move {m}")), super::fault_words::nak_in_words(*reason))]
    Refused {
        move_id: Option<u32>,
        reason: NakReason,
    },
    #[error("emergency stop after {done} of {total} commands had completed")]
    EStopped { done: usize, total: usize },
    /// An emergency stop asked for while the link was lost: nothing can confirm it (the link
    /// sends it the moment the port is back), and the robot may have run the commands queued.
    #[error("emergency stop asked while the link to the robot was lost, after {done} of {total} commands were heard done (the robot may have run those queued behind them; the stop goes out the moment the link is back)")]
    EStopUnreached { done: usize, total: usize },
    #[error(transparent)]
    Link(#[from] LinkError),
    #[error("stopped on request after {done} of {total} commands")]
    Stopped { done: usize, total: usize },
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
    progress: impl FnMut(usize, usize, &LinkEvent),
) -> Result<StreamOutcome, StreamError> {
    let never = std::future::pending();
    stream_gated(link, groups, (usize::MAX, &|| false, never), progress).await
}

/// Like [`stream_program`], but keeps at most `lookahead` commands queued beyond those done,
/// and once `stop_requested()` is true sends nothing more: the queued commands finish and the
/// program ends at a step boundary with [`StreamError::Stopped`]. `emergency` resolves once an
/// emergency stop is asked for: while the link is lost nothing can confirm it, so the wait for
/// the link ends there ([`StreamError::EStopUnreached`]); with the link up, the firmware's
/// confirmation ends the program.
pub async fn stream_gated(
    link: &mut LinkHandle,
    groups: &[MotionGroup],
    (lookahead, stop_requested, emergency): (
        usize,
        &(dyn Fn() -> bool + Sync),
        impl std::future::Future<Output = ()>,
    ),
    mut progress: impl FnMut(usize, usize, &LinkEvent),
) -> Result<StreamOutcome, StreamError> {
    let total = groups.len();
    let mut outcome = StreamOutcome::default();
    tokio::pin!(emergency);
    let (mut sent, mut stopping) = (0, false);
    loop {
        stopping = stopping || stop_requested();
        while !stopping && sent < total && sent - outcome.done < lookahead.max(1) {
            link.send(groups[sent])?;
            sent += 1;
        }
        if outcome.done == total {
            return Ok(outcome);
        }
        if stopping && outcome.done == sent {
            return Err(StreamError::Stopped {
                done: outcome.done,
                total,
            });
        }
        let link_lost = outcome.links_lost > outcome.links_restored;
        let next = tokio::select! {
            biased;
            next = link.next_event() => next,
            () = &mut emergency, if link_lost => {
                return Err(StreamError::EStopUnreached { done: outcome.done, total });
            }
        };
        let Some(event) = next else {
            return Err(LinkError::Closed.into());
        };
        match &event {
            LinkEvent::MoveDone { .. } => outcome.done += 1,
            LinkEvent::LinkLost { .. } => outcome.links_lost += 1,
            LinkEvent::LinkRestored { .. } => outcome.links_restored += 1,
            _ => {}
        }
        progress(outcome.done, total, &event);
        check_event(event, outcome.done, total)?;
    }
}

/// The error an event ends the program with, if any. However the firmware says its e-stop is
/// latched (confirming it, reporting the latch, or refusing a command for it: which comes
/// first is a race), the program ended by an emergency stop.
fn check_event(event: LinkEvent, done: usize, total: usize) -> Result<(), StreamError> {
    match event {
        LinkEvent::Fault(Fault::EStopLatched)
        | LinkEvent::Refused {
            reason: NakReason::EStopLatched,
            ..
        } => Err(StreamError::EStopped { done, total }),
        LinkEvent::Fault(fault) => Err(StreamError::Fault { fault, done, total }),
        LinkEvent::Refused { move_id, reason } => Err(StreamError::Refused { move_id, reason }),
        LinkEvent::EStopped { .. } => Err(StreamError::EStopped { done, total }),
        LinkEvent::Stopped { error } => Err(error.unwrap_or(LinkError::Closed).into()),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_way_the_firmware_says_its_e_stop_is_latched_ends_the_program_as_an_e_stop() {
        let latched = [
            LinkEvent::EStopped { cancelled: vec![] },
            LinkEvent::Fault(Fault::EStopLatched),
            LinkEvent::Refused {
                move_id: Some(1),
                reason: NakReason::EStopLatched,
            },
        ];
        for event in latched {
            let ended = check_event(event.clone(), 2, 5);
            assert_eq!(
                ended,
                Err(StreamError::EStopped { done: 2, total: 5 }),
                "{event:?}"
            );
        }
        let stall = check_event(LinkEvent::Fault(Fault::Stall { actuator: 1 }), 2, 5);
        assert!(matches!(stall, Err(StreamError::Fault { .. })), "{stall:?}");
        let full = LinkEvent::Refused {
            move_id: None,
            reason: NakReason::QueueFull,
        };
        assert!(matches!(
            check_event(full, 2, 5),
            Err(StreamError::Refused { .. })
        ));
    }
}
