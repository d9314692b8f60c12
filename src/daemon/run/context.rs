//! What a run task carries: the rig, the history, the status board, the abort flag and the run's settings; plus the small helpers every phase uses (timing, recording without losing the run).

use crate::daemon::board::StatusBoard;
use crate::daemon::cube_size::RunCube;
use crate::daemon::docs::{LinkDoc, LinkState};
use crate::daemon::history::{History, HistoryError};
use crate::daemon::rig::Rig;
use crate::daemon::run::abort::AbortFlag;
use cubed_core::error_chain::error_chain;
use std::sync::Arc;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

/// Settings of a run, from the config.
#[derive(Clone, Debug)]
pub(crate) struct RunSettings {
    pub min_confidence: f32,
    pub recaptures: u32,
    pub max_solves: u32,
    pub solve_budget: cubed_core::solver::Budget,
    /// A 3x3, or a 2x2 with its solver.
    pub cube: RunCube,
}

/// A run in progress.
pub(crate) struct RunContext {
    pub rig: Rig,
    pub history: Arc<History>,
    pub board: StatusBoard,
    pub abort: Arc<AbortFlag>,
    pub settings: RunSettings,
    pub run: u64,
    /// Whether the scans now check a solve the robot has just done (after a resume the first
    /// scan only finds the cube's state again).
    pub verifying: bool,
    /// A lost robot link is recorded and its return not yet (shared by the stages' link news:
    /// a cable pulled while homing may come back while scanning).
    pub link_lost: Arc<std::sync::atomic::AtomicBool>,
}

/// Unix time in ms.
pub(crate) fn unix_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// The phases of a run that are timed (the history's phase rows, the metrics' `phase` label).
pub(crate) const PHASES: [&str; 4] = ["scan", "classify", "solve", "execute"];

/// A phase being timed for the history.
pub(crate) struct Phase {
    name: &'static str,
    attempt: u32,
    started_ms: i64,
    began: Instant,
}

impl Phase {
    pub(crate) fn begin(name: &'static str, attempt: u32) -> Phase {
        debug_assert!(PHASES.contains(&name), "{name} is listed in PHASES");
        Phase {
            name,
            attempt,
            started_ms: unix_ms(),
            began: Instant::now(),
        }
    }

    /// Records the phase's duration.
    pub(crate) fn end(self, ctx: &RunContext) {
        let ms = self.began.elapsed().as_secs_f64() * 1000.0;
        crate::metrics::phase(self.name, ms);
        let recorded =
            ctx.history
                .record_step(ctx.run, self.name, self.attempt, self.started_ms, ms);
        ctx.note(recorded);
    }
}

impl RunContext {
    /// A history write that failed is a fault: logged as an error, and the run stops at the
    /// next step boundary (never mid-move); the history records why once it can be written.
    pub(crate) fn note<T>(&self, result: Result<T, HistoryError>) -> Option<T> {
        match result {
            Ok(v) => Some(v),
            Err(e) => {
                history_fault(
                    &self.board,
                    &self.abort,
                    "could not record in the run history",
                    &e,
                );
                None
            }
        }
    }
}

/// A failed history write during a run: an ERROR in the log, a line on the page, and the run
/// asked to stop at the next step boundary.
pub(crate) fn history_fault(
    board: &StatusBoard,
    abort: &AbortFlag,
    doing: &str,
    error: &HistoryError,
) {
    let words = format!(
        "{doing}: {}; stopping the run at the next step boundary",
        error_chain(error)
    );
    tracing::error!("run history: {words}");
    board.log(words);
    abort.request(crate::daemon::run::abort::Abort::History);
}

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
