//! The service between runs: the robot link kept open (reopened every few seconds while the robot is away), and what its events mean while no run is going (the start button, an e-stop or fault latched on the robot, the link lost).

use super::{Job, Service, RECONNECT_IDLE};
use crate::daemon::board::StatusBoard;
use crate::daemon::docs::{DaemonState, LinkDoc, LinkState, StartSource};
use crate::daemon::rig::{ConfirmedMeanwhile, Rig};
use crate::link::LatchedBefore;
use crate::link::LinkEvent;
use cubed_core::error_chain::error_chain;
use firmware_protocol::message::Fault;

impl Service {
    pub(super) async fn on_idle_event(&mut self, event: Option<LinkEvent>) {
        match event {
            Some(LinkEvent::Button { button: 0 }) if self.waiting.is_some() => {
                if let Err(refusal) = self.resume().await {
                    self.board.log(format!("start button: {refusal}"));
                }
            }
            Some(LinkEvent::Button { button: 0 }) => {
                if let Err(refusal) = self.start(StartSource::Button, Job::Solve).await {
                    self.board.log(format!("start button: {refusal}"));
                }
            }
            Some(LinkEvent::Button { button }) => {
                self.board.log(format!("button {button} pressed"))
            }
            Some(LinkEvent::LinkLost { path, reason }) => {
                let where_why = format!("on {}: {reason}", path.display());
                self.board.link(LinkDoc::down(LinkState::Lost, &where_why));
                self.tell(format!("robot link lost {where_why}; reconnecting"))
            }
            Some(LinkEvent::LinkRestored { .. }) => {
                let estop = std::mem::take(&mut self.link_notes.estop_undelivered);
                match (estop, &self.rig) {
                    (true, Some(rig)) => {
                        (self.board).link_open_saying(deliver_estop(rig, &self.board))
                    }
                    _ => {
                        self.board.link(LinkDoc::open());
                        self.tell("robot link restored");
                    }
                }
            }
            Some(LinkEvent::Fault(Fault::EStopLatched)) | Some(LinkEvent::EStopped { .. }) => {
                if self.board.now().state != DaemonState::EStopped {
                    crate::metrics::estop(false);
                    self.board.set(
                        DaemonState::EStopped,
                        "the robot's emergency stop is latched; check the robot, then reset",
                    );
                }
            }
            Some(LinkEvent::EStopButton { held }) => self.board.estop_button(Some(held)),
            Some(LinkEvent::Fault(fault)) => {
                crate::metrics::fault(&fault);
                let words = self.rig.as_ref().map_or_else(
                    || crate::link::fault_words::fault_by_index(&fault),
                    |rig| rig.fault_words(&fault),
                );
                self.board.set(
                    DaemonState::Faulted,
                    format!("the robot reported a fault while idle: {words}; reset to continue"),
                );
            }
            Some(LinkEvent::Stopped { error }) => {
                if let Some(rig) = self.rig.as_mut() {
                    rig.drop_link().await;
                }
                let why = match error {
                    // Between runs nothing is interrupted: the next start homes and scans anyway.
                    Some(crate::link::LinkError::FirmwareRebooted { path, cause }) => {
                        format!("the firmware on {} restarted{cause}", path.display())
                    }
                    Some(e) => error_chain(&e),
                    None => "closed".to_string(),
                };
                self.board.link(LinkDoc::down(LinkState::Closed, &why));
                self.tell(format!(
                    "robot link ended ({why}); it is reopened at the next start"
                ));
            }
            Some(LinkEvent::MoveDone { move_id, .. }) => self.journal_meanwhile(move_id),
            Some(other) => tracing::debug!("idle link event {other:?}"),
            None => {
                if let Some(rig) = self.rig.as_mut() {
                    rig.drop_link().await;
                }
            }
        }
    }

    fn tell(&self, news: impl Into<String>) {
        tell(&self.board, news);
    }

    /// A command the robot finished while its link was lost, reported now that it is back,
    /// after its run ended without hearing of it (an e-stop that could not reach the robot):
    /// its face turns are journaled into that run, and its progress shown moves on.
    fn journal_meanwhile(&mut self, move_id: u32) {
        let Some(done) = self.rig.as_mut().and_then(|r| r.confirm_meanwhile(move_id)) else {
            return tracing::debug!("idle: move {move_id} done, no run's");
        };
        let ConfirmedMeanwhile { run, command, of } = done;
        if let Err(e) = self.history.journal_ack(run, move_id, command.turns) {
            let why = error_chain(&e);
            return (self.board).log(format!("run {run}: could not journal command {} of {of}, which the robot finished while its link was lost: {why}", command.number));
        }
        let mut made = None;
        self.board.update(|s| match s.progress.as_mut() {
            Some(p) if s.run == Some(run) => {
                p.moves_done += command.turns as usize;
                p.commands_done += 1;
                made = Some((p.moves_done, p.moves));
            }
            _ => {}
        });
        let made = made.map_or(String::new(), |(done, of)| {
            format!("; {done} of {of} moves made")
        });
        let turned = crate::words::count(command.turns, "face turn", "face turns");
        self.board.log(format!(
            "run {run}: the robot finished command {} of {of} ({turned}) while its link was lost, queued before it: recorded{made}",
            command.number
        ));
    }
}

/// News of the link while idle: the status line, unless it says what a person must do
/// (an e-stop, a fault, a failed run, a run waiting to be resumed); then only the page's log.
fn tell(board: &StatusBoard, news: impl Into<String>) {
    if person_told(board) {
        board.log(news);
    } else {
        board.say(news);
    }
}

/// Whether the status says what a person must do (a run waiting for a person leaves the
/// daemon e-stopped or needing attention): news then goes to the log only.
fn person_told(board: &StatusBoard) -> bool {
    matches!(
        board.now().state,
        DaemonState::EStopped | DaemonState::Faulted | DaemonState::NeedsAttention
    )
}

/// The robot holds a fault or an e-stop latched from before the link opened (a daemon
/// restarted after an e-stop, the button pressed meanwhile): the daemon waits, e-stopped or
/// faulted, for a person to check the robot and reset, which clears it at the next handshake.
fn latched_before(board: &StatusBoard, latched: LatchedBefore, words: &str) {
    let state = if latched.estop() {
        DaemonState::EStopped
    } else {
        DaemonState::Faulted
    };
    let now = board.now().state;
    if now == state {
        return;
    }
    if now == DaemonState::EStopped {
        // An e-stop asked here stays latched (Start refused) whatever else the robot holds:
        // the Reset it waits for clears both.
        board.log(format!(
            "{words} (the Reset the emergency stop waits for clears it too)"
        ));
        return;
    }
    let message = if latched.clear_refused {
        format!("{words}; then reset again (the page's Reset or `cubed reset`)")
    } else {
        format!(
            "the robot holds {} latched from before the daemon reached it: check the robot, then reset (the page's Reset or `cubed reset`)",
            latched.what()
        )
    };
    board.log(words.to_string());
    board.set(state, message);
}

/// Whether `why` is the emergency stop that a Reset or Resume found its button still held for
/// (not news, and not "from before this session").
fn still_held(board: &StatusBoard, why: &crate::daemon::rig::Unreachable) -> bool {
    board.now().link.state == LinkState::EStopHeld && why.latched.is_some_and(|l| l.estop())
}

/// Sends the e-stop asked for while no link was open, now that one is (the robot may still
/// move: a program queued before the link was lost); the words that say so, with what the run
/// still waiting, if one is, asks of a person.
fn deliver_estop(rig: &Rig, board: &StatusBoard) -> String {
    let sent = rig.estop_slot().get().map(|h| h.emergency_stop());
    let what = match sent {
        Some(Ok(())) => "sent to the robot now that its link is open",
        _ => "the robot's link is open now, but the stop could not be sent on it",
    };
    let next = match board.now().resumable {
        Some(run) => format!("run {run} still waits: check the robot (square the cube if a layer may be half turned), then Resume (`cubed resume`) goes on with it, Reset abandons it"),
        None => "check the robot, then reset (`cubed reset`, or the page's Reset)".to_string(),
    };
    format!("EMERGENCY STOP: {what}; {next}")
}

/// What the idle link owes the status and the robot.
#[derive(Debug, Default)]
pub(super) struct LinkNotes {
    /// The last failure to open the link (said once, not every retry).
    pub last_error: Option<String>,
    /// An e-stop was asked while no link was open to send it on: it goes out on the next.
    pub estop_undelivered: bool,
}

/// The next link event while idle; with no link, tries to open one every few seconds
/// (so the robot's start button works as soon as the robot is there).
pub(super) async fn idle_event(
    rig: &mut Option<Rig>,
    board: &StatusBoard,
    notes: &mut LinkNotes,
) -> Option<LinkEvent> {
    let Some(rig) = rig else {
        return std::future::pending().await;
    };
    let last_error = &mut notes.last_error;
    while !rig.connected() {
        match rig.reach().await {
            Ok(()) => {
                // The link shown open with the words said of it, in one update (a watcher saw
                // the link open beside "cannot reach the robot").
                let stop = std::mem::take(&mut notes.estop_undelivered);
                let stop = stop.then(|| deliver_estop(rig, board));
                let was_away = last_error.take().is_some();
                // The status said the robot could not be reached: now it says otherwise.
                let reachable = "robot link open: the robot is reachable again";
                match (stop, was_away && !person_told(board)) {
                    (Some(words), _) => board.link_open_saying(words),
                    (None, true) => board.link_open_saying(reachable),
                    (None, false) => {
                        board.link(LinkDoc::open());
                        board.log(if was_away {
                            reachable
                        } else {
                            "robot link open"
                        });
                    }
                }
            }
            Err(why) if still_held(board, &why) => {
                // The e-stop a Reset found held is still latched: the status keeps saying so
                // (the firmware says no more until a person resets again), and whether the
                // button is still down.
                if let Some(held) = why.latched.and_then(|l| l.estop_held) {
                    board.estop_button(Some(held));
                }
                *last_error = Some(why.words);
                tokio::time::sleep(RECONNECT_IDLE).await;
            }
            Err(why) => {
                board.link(why.link());
                if let Some(latched) = why.latched {
                    latched_before(board, latched, &why.words);
                    board.estop_button(latched.estop_held.filter(|_| latched.estop()));
                } else if last_error.as_deref() != Some(why.words.as_str()) {
                    tell(
                        board,
                        format!(
                            "cannot reach the robot: {} (retrying every {} s)",
                            why.words,
                            RECONNECT_IDLE.as_secs()
                        ),
                    );
                }
                *last_error = Some(why.words);
                tokio::time::sleep(RECONNECT_IDLE).await;
            }
        }
    }
    rig.next_idle_event().await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::daemon::api::DaemonHandle;
    use crate::daemon::history::History;
    use firmware_protocol::message::FaultFlags;

    fn board() -> (StatusBoard, tempfile::TempDir) {
        let dir = tempfile::tempdir().expect("temp dir");
        let history = std::sync::Arc::new(History::open(dir.path()).expect("history"));
        let (_handle, inbox) = DaemonHandle::new(crate::web::scripted::idle_status(), history);
        (StatusBoard::new(&inbox), dir)
    }

    fn latched(flags: u8) -> LatchedBefore {
        LatchedBefore {
            faults: Some(FaultFlags(flags)),
            clear_refused: false,
            estop_held: None,
        }
    }

    #[test]
    fn a_fault_found_latched_never_lifts_an_e_stop_asked_here() {
        let (board, _dir) = board();
        board.set(DaemonState::EStopped, "EMERGENCY STOP: asked");
        latched_before(&board, latched(FaultFlags::COMMS_TIMEOUT), "comms");
        let now = board.now();
        assert_eq!(now.state, DaemonState::EStopped, "{}", now.message);
        assert_eq!(now.message, "EMERGENCY STOP: asked");
    }

    #[test]
    fn a_fault_found_latched_while_idle_waits_for_a_reset() {
        let (board, _dir) = board();
        latched_before(&board, latched(FaultFlags::STALL), "stalled");
        assert_eq!(board.now().state, DaemonState::Faulted);
        latched_before(&board, latched(FaultFlags::ESTOP), "e-stop");
        assert_eq!(board.now().state, DaemonState::EStopped);
    }
}
