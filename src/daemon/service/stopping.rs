//! Stopping: a Stop at the next step boundary, the emergency stop (at any time, latched, said as reached or not), and the daemon's own shutdown (stop at a step boundary, e-stop if it does not come, record, exit).

use super::{Service, SHUTDOWN_GRACE};
use crate::daemon::api::Refusal;
use crate::daemon::docs::{DaemonState, LinkDoc, LinkState};
use crate::daemon::run::abort::Abort;
use crate::daemon::run::error::{Ending, RunError};
use crate::daemon::run::interruption::NOT_REACHED;
use std::sync::Arc;

impl Service {
    pub(super) fn stop(&mut self) -> Result<(), Refusal> {
        match &self.active {
            Some(active) => {
                active.abort.request(Abort::Stop);
                self.board.update(|s| s.stopping = true);
                self.board.say(format!(
                    "stopping run {} at the next step boundary (a move under way finishes first)",
                    active.id
                ));
                Ok(())
            }
            None => Err(Refusal::conflict("no run is in progress")),
        }
    }

    /// Halts the motors now (whatever the state) and latches until reset.
    pub(super) fn emergency_stop(&mut self) {
        crate::metrics::estop(true);
        self.board
            .log("emergency stop asked (the page, `cubed estop` or the API)");
        if let Some(active) = &self.active {
            active.abort.request(Abort::EStop);
        }
        // With the link lost (a run paused for it) or never open, nothing confirms the stop.
        let handle = self.estop.get();
        let now = self.board.now();
        let unreachable = handle.is_none()
            || now.state == DaemonState::Paused
            || now.link.state != LinkState::Open;
        if let Some(h) = handle {
            let _ = h.emergency_stop();
        }
        if unreachable {
            // Sent the moment a link opens, in case the robot still moves (`service_idle.rs`).
            self.link_notes.estop_undelivered = true;
        }
        if unreachable && self.board.now().link.state == LinkState::Open {
            // The status's link must not claim the stop went out (`cubed estop` exits 1).
            self.board.link(LinkDoc::down(
                LinkState::Closed,
                "no link was open to send the emergency stop on",
            ));
        }
        // An e-stop between runs belongs to none: the status stops naming the last one, and
        // stops showing its photos and solution (the history keeps them).
        let between_runs = self.active.is_none() && self.waiting.is_none();
        if between_runs {
            self.board.update(|s| {
                s.forget_the_run();
                s.run = None;
            });
        }
        // "Reset" alone would throw away a run that can go on: say what each choice does.
        let halted = if unreachable {
            NOT_REACHED
        } else {
            "motors halted"
        };
        let words = match (self.active.as_ref().map(|a| a.id), self.waiting) {
            (Some(run), _) => format!(
                "EMERGENCY STOP: {halted}; run {run} is stopping, what to do next follows (Resume goes on with it once the robot is checked, Reset abandons it)"
            ),
            (None, Some(run)) => format!(
                "EMERGENCY STOP: {halted}; run {run} still waits: check the robot, then Resume (`cubed resume`) goes on with it, Reset abandons it"
            ),
            (None, None) => format!("EMERGENCY STOP: {halted}; check the robot, then reset"),
        };
        self.board.set(DaemonState::EStopped, words);
    }

    /// Stops a run at a step boundary (e-stop if it does not come), records it, closes the link.
    pub(super) async fn shut_down(mut self) {
        if let Some(active) = self.active.take() {
            self.board.say(format!(
                "shutting down: stopping run {} at the next step boundary",
                active.id
            ));
            active.abort.request(Abort::Stop);
            let abort = Arc::clone(&active.abort);
            let mut task = active.task;
            let outcome = match tokio::time::timeout(SHUTDOWN_GRACE, &mut task).await {
                Ok(Ok(end)) => {
                    self.rig = Some(end.rig);
                    end.outcome
                }
                Ok(Err(source)) => RunError::Task {
                    what: "run",
                    source,
                }
                .into(),
                Err(_) => {
                    abort.request(Abort::EStop);
                    if let Some(h) = self.estop.get() {
                        let _ = h.emergency_stop();
                    }
                    task.abort();
                    RunError::ShutdownTimedOut.into()
                }
            };
            let outcome = match outcome.ending() {
                Some(Ending::Stopped) => RunError::Shutdown.into(),
                _ => outcome,
            };
            let _ = self
                .history
                .finish_run(active.id, outcome.name(), outcome.error().as_deref());
            self.finished(active.id, outcome.name());
        }
        if let Some(rig) = self.rig.take() {
            rig.shutdown().await;
        }
        self.board
            .set(DaemonState::Idle, "the daemon has shut down");
    }
}
