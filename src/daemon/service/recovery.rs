//! The service's way back from an interruption: Resume goes on with the interrupted run (fault
//! cleared, re-homed in a safe order, rescanned, solved again), Reset abandons it; both are
//! recorded in the run history.

use super::idle::LinkNotes;
use super::{Job, Service};
use crate::daemon::api::Refusal;
use crate::daemon::board::StatusBoard;
use crate::daemon::docs::{DaemonState, LinkDoc};
use crate::daemon::rig::Rig;
use cubed_core::error_chain::error_chain;

impl Service {
    /// Clears a latched e-stop or fault; an interrupted run waiting for a person is abandoned.
    pub(super) async fn reset(&mut self) -> Result<(), Refusal> {
        let status = self.board.now();
        if let Some(active) = &self.active {
            // Just after an e-stop the run is still winding down: Reset is a moment early.
            return Err(Refusal::conflict(match status.state {
                DaemonState::EStopped => format!(
                    "run {} is still stopping after the emergency stop; reset again in a moment (`cubed status` says when it waits)",
                    active.id
                ),
                _ => "a run is in progress; stop it first".to_string(),
            }));
        }
        let resettable = matches!(
            status.state,
            DaemonState::EStopped | DaemonState::Faulted | DaemonState::NeedsAttention
        );
        if !resettable {
            return Err(Refusal::conflict(format!(
                "nothing to reset: no emergency stop or fault is latched (state: {})",
                status.state.name()
            )));
        }
        if let Some(rig) = self.rig.as_mut() {
            clear_latch(rig, &self.board, &mut self.link_notes).await?;
            if rig.connected() {
                self.board
                    .log("robot link open: the robot's e-stop or fault is cleared");
            }
        }
        let abandoned = self.waiting;
        if let Some(run) = abandoned {
            self.set_waiting(None);
            if let Err(e) = self.history.record_resumption(run, "abandoned") {
                self.board.log(format!(
                    "could not record that run {run} was abandoned: {}",
                    error_chain(&e)
                ));
            }
            // Over now: a run that waited after a fault or a restart ends failed by it.
            let outcome = match self.history.settle_abandoned(run) {
                Ok(outcome) => outcome,
                Err(e) => {
                    self.board.log(format!(
                        "could not record how run {run} ended: {}",
                        error_chain(&e)
                    ));
                    "failed".to_string()
                }
            };
            self.finished(run, &outcome);
        }
        let reached = self.rig.as_ref().is_none_or(|rig| rig.connected());
        let mut words = if reached {
            "reset: the robot will be homed at the next start".to_string()
        } else {
            "reset: the robot cannot be reached now; what it holds latched is cleared as soon as it is, and it is homed at the next start".to_string()
        };
        if let Some(run) = abandoned {
            // The run stopped part-way: what it said of the cube still holds.
            words.push_str(&format!(
                "; run {run} is abandoned: if a layer may be half turned, square the cube before starting"
            ));
        }
        self.board.set(DaemonState::Idle, words);
        Ok(())
    }

    /// Goes on with the interrupted run: the fault is cleared, the robot re-homed in a safe
    /// order, the cube rescanned and solved again.
    pub(super) async fn resume(&mut self) -> Result<u64, Refusal> {
        if let Some(active) = &self.active {
            return Err(Refusal::conflict(format!(
                "run {} is in progress; nothing to resume",
                active.id
            )));
        }
        let Some(id) = self.waiting else {
            let next = match self.board.now().state {
                DaemonState::EStopped => "reset the emergency stop, then start a new run",
                _ => "start a new run",
            };
            return Err(Refusal::conflict(format!(
                "no interrupted run waits to be resumed; {next}"
            )));
        };
        self.same_cube_as(id)?;
        let Some(mut rig) = self.rig.take() else {
            return Err(Refusal::unavailable("the robot is not available"));
        };
        if let Err(refused) = clear_latch(&mut rig, &self.board, &mut self.link_notes).await {
            self.rig = Some(rig);
            return Err(refused);
        }
        if let Err(e) = self.history.reopen_run(id) {
            self.rig = Some(rig);
            return Err(Refusal::unavailable(format!(
                "cannot record the resumption of run {id}: {}",
                error_chain(&e)
            )));
        }
        if let Err(e) = self.history.record_resumption(id, "person") {
            self.board.log(format!(
                "could not record the resumption of run {id}: {}",
                error_chain(&e)
            ));
        }
        self.waiting = None;
        self.board.update(|s| {
            s.resumable = None;
            s.state = DaemonState::Scanning;
            s.message = format!(
                "run {id} resuming: re-homing the robot in a safe order, then scanning the cube again"
            );
            s.progress = None;
        });
        self.board.log(format!("run {id} resumed"));
        self.launch(id, rig, Job::Resume);
        Ok(id)
    }
}

impl Service {
    /// Refuses to resume run `id` on another size of cube than it began with (`[run]
    /// cube_size` changed since): its record, scans and solution are of that size.
    fn same_cube_as(&self, id: u64) -> Result<(), Refusal> {
        let ours = self.settings.cube.size().name();
        let recorded = match self.history.summary(id) {
            Ok(summary) => summary.and_then(|s| s.cube),
            Err(e) => {
                return Err(Refusal::unavailable(format!(
                    "cannot read run {id}'s record: {}",
                    error_chain(&e)
                )))
            }
        };
        match recorded {
            Some(theirs) if theirs != ours => Err(Refusal::conflict(format!(
                "run {id} began on a {theirs}, and this daemon now runs a {ours} ([run] cube_size): restart it with the size the run began with to resume it, or reset to abandon it"
            ))),
            _ => Ok(()),
        }
    }
}

/// Clears what the robot holds latched by a fresh handshake; the refusal when its e-stop button
/// is still held. A link that opened is shown open, and the last "cannot reach" forgotten; an
/// e-stop not yet sent is not sent any more (the person resetting has checked the robot).
async fn clear_latch(
    rig: &mut Rig,
    board: &StatusBoard,
    notes: &mut LinkNotes,
) -> Result<(), Refusal> {
    rig.clear_latch_now()
        .await
        .map_err(|why| still_pressed(board, why))?;
    notes.estop_undelivered = false;
    // Cleared: the robot took it, so its button is released; nothing more to show.
    board.estop_button(None);
    if rig.connected() {
        notes.last_error = None;
        board.link(LinkDoc::open());
    }
    Ok(())
}

/// The refusal of a Reset or Resume the firmware would not clear: its e-stop input is active
/// (shown in the status too, so a script can wait for the button's release).
fn still_pressed(board: &StatusBoard, why: crate::daemon::rig::Unreachable) -> Refusal {
    board.link(why.link());
    Refusal::conflict(format!(
        "not cleared: {}; then reset or resume again",
        why.words
    ))
}
