//! Link trouble during a run: shown on the board while the stages stream to the robot, and recorded in the history as an interruption the run came back from by itself.

use crate::daemon::board::StatusBoard;
use crate::daemon::docs::{LinkDoc, LinkState};
use crate::daemon::history::{History, HistoryError};
use crate::daemon::run::abort::AbortFlag;
use crate::daemon::run::context::RunContext;
use crate::daemon::run::record::history_fault;
use std::sync::Arc;

/// Link trouble during a run: shown on the board (`paused` while the port is lost, back to the
/// run's state once it returns) and recorded in the history as an interruption the run came
/// back from by itself ("link", resumed "automatic"; never resumed when the link did not return).
pub(crate) struct LinkNews {
    board: StatusBoard,
    history: Arc<History>,
    abort: Arc<AbortFlag>,
    run: u64,
    resume: crate::daemon::docs::DaemonState,
    /// A lost link was recorded and not yet its return (the run's `link_lost`).
    lost: Arc<std::sync::atomic::AtomicBool>,
}

impl LinkNews {
    /// News for `ctx`'s run, which goes back to `resume` once the link returns.
    pub(crate) fn new(ctx: &RunContext, resume: crate::daemon::docs::DaemonState) -> LinkNews {
        LinkNews {
            board: ctx.board.clone(),
            history: Arc::clone(&ctx.history),
            abort: Arc::clone(&ctx.abort),
            run: ctx.run,
            resume,
            lost: Arc::clone(&ctx.link_lost),
        }
    }

    /// Shows and records `event`.
    pub(crate) fn show(&self, event: &crate::link::LinkEvent) {
        use crate::link::LinkEvent;
        match event {
            LinkEvent::LinkLost { path, reason } => {
                let where_why = format!("on {}: {reason}", path.display());
                self.board.link(LinkDoc::down(LinkState::Lost, &where_why));
                let words = format!(
                    "robot link lost {where_why}; waiting for it to come back (the run resumes by itself)"
                );
                self.board
                    .set(crate::daemon::docs::DaemonState::Paused, words.clone());
                self.record_loss(&words);
            }
            LinkEvent::LinkRestored {
                completed_meanwhile,
                ..
            } => {
                self.board.link(LinkDoc::open());
                let at = self.board.now().progress.map_or(String::new(), |p| {
                    let done = p.commands_done + completed_meanwhile;
                    format!(" after {done} of {} commands", p.commands)
                });
                self.board
                    .set(self.resume, format!("robot link restored{at}; resuming"));
                if !self.lost.load(std::sync::atomic::Ordering::Relaxed) {
                    // The loss came while nobody showed link news (between stages).
                    self.record_loss("robot link lost; it came back and the run went on");
                }
                let recorded = self.history.record_resumption(self.run, "automatic");
                self.lost.store(false, std::sync::atomic::Ordering::Relaxed);
                self.note(recorded, "could not record the restored link");
            }
            LinkEvent::Button { .. } => {
                self.board.log("start button pressed during a run: ignored")
            }
            LinkEvent::EStopButton { held } => self.board.estop_button(Some(*held)),
            _ => {}
        }
    }

    fn record_loss(&self, words: &str) {
        let recorded = (self.history).record_interruption(self.run, "link", words, false);
        self.lost.store(true, std::sync::atomic::Ordering::Relaxed);
        self.note(recorded, "could not record the lost link");
    }

    fn note(&self, result: Result<(), HistoryError>, doing: &str) {
        if let Err(e) = result {
            history_fault(&self.board, &self.abort, doing, &e);
        }
    }
}
