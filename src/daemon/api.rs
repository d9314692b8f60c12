//! The daemon's public face, shared by the web layer and the CLI client: the requests it answers, why it refuses one, and the handle that sends requests to the daemon task.

use crate::daemon::docs::{
    CalibrationDoc, DaemonEvent, GuideDoc, LastCalibration, RunDetail, RunSummary, StartSource,
    StatusDoc,
};
use crate::daemon::history::{History, HistoryError};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::sync::Arc;
use tokio::sync::{broadcast, mpsc, oneshot, watch};

/// Why a request was not carried out; the web layer maps the kind to an HTTP status.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{reason}")]
pub struct Refusal {
    pub kind: RefusalKind,
    pub reason: String,
}

#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RefusalKind {
    /// The request does not fit the current state (HTTP 409).
    Conflict,
    /// The request itself is wrong (HTTP 400).
    BadRequest,
    /// The daemon is shutting down or broken (HTTP 503).
    Unavailable,
}

impl Refusal {
    pub fn conflict(reason: impl Into<String>) -> Refusal {
        Refusal {
            kind: RefusalKind::Conflict,
            reason: reason.into(),
        }
    }
    pub fn bad_request(reason: impl Into<String>) -> Refusal {
        Refusal {
            kind: RefusalKind::BadRequest,
            reason: reason.into(),
        }
    }
    pub fn unavailable(reason: impl Into<String>) -> Refusal {
        Refusal {
            kind: RefusalKind::Unavailable,
            reason: reason.into(),
        }
    }
}

/// A request to the daemon task, with where to send the answer.
#[derive(Debug)]
pub(crate) enum Request {
    Start {
        source: StartSource,
        reply: oneshot::Sender<Result<u64, Refusal>>,
    },
    /// Stop the run at the next step boundary (the move in progress finishes).
    Stop {
        reply: oneshot::Sender<Result<(), Refusal>>,
    },
    /// Emergency stop: motors halt at once; latched until `Reset`.
    EStop {
        reply: oneshot::Sender<Result<(), Refusal>>,
    },
    /// Clear a latched e-stop or fault (the robot is homed again); an interrupted run waiting
    /// for a person is abandoned.
    Reset {
        reply: oneshot::Sender<Result<(), Refusal>>,
    },
    /// Finish the interrupted run: re-home in a safe order, rescan, solve again; its id.
    Resume {
        reply: oneshot::Sender<Result<u64, Refusal>>,
    },
    /// Scan a solved cube and recalibrate the palette from it.
    Calibrate {
        reply: oneshot::Sender<Result<CalibrationDoc, Refusal>>,
    },
    /// Solve a cube typed by a person (guide mode); does not move the robot.
    Guide {
        facelets: String,
        reply: oneshot::Sender<Result<GuideDoc, Refusal>>,
    },
}

/// The daemon side of the channels behind a [`DaemonHandle`].
pub struct DaemonInbox {
    pub(crate) requests: mpsc::Receiver<Request>,
    pub status: watch::Sender<StatusDoc>,
    pub events: broadcast::Sender<DaemonEvent>,
    pub recent: RecentLog,
}

/// The last lines of the page's log, for a page that opens later (newest last).
#[derive(Clone, Default)]
pub struct RecentLog(Arc<std::sync::Mutex<std::collections::VecDeque<DaemonEvent>>>);

impl RecentLog {
    /// Lines kept (the page shows as many).
    pub const KEPT: usize = 24;

    /// Keeps `line` (a log line or a run's end), dropping the oldest beyond [`RecentLog::KEPT`].
    pub fn keep(&self, line: DaemonEvent) {
        if let Ok(mut lines) = self.0.lock() {
            lines.push_back(line);
            while lines.len() > Self::KEPT {
                lines.pop_front();
            }
        }
    }

    /// The lines kept, oldest first.
    pub fn lines(&self) -> Vec<DaemonEvent> {
        self.0
            .lock()
            .map(|l| l.iter().cloned().collect())
            .unwrap_or_default()
    }
}

/// How the web layer and tests talk to the running daemon. Cheap to clone.
#[derive(Clone)]
pub struct DaemonHandle {
    requests: mpsc::Sender<Request>,
    status: watch::Receiver<StatusDoc>,
    events: broadcast::Sender<DaemonEvent>,
    recent: RecentLog,
    history: Arc<History>,
}

impl DaemonHandle {
    /// A handle and the daemon's end of it.
    pub fn new(initial: StatusDoc, history: Arc<History>) -> (DaemonHandle, DaemonInbox) {
        let (request_tx, request_rx) = mpsc::channel(32);
        let (status_tx, status_rx) = watch::channel(initial);
        let (events, _) = broadcast::channel(256);
        let recent = RecentLog::default();
        let handle = DaemonHandle {
            requests: request_tx,
            status: status_rx,
            events: events.clone(),
            recent: recent.clone(),
            history,
        };
        let inbox = DaemonInbox {
            requests: request_rx,
            status: status_tx,
            events,
            recent,
        };
        (handle, inbox)
    }

    /// The status now.
    pub fn status(&self) -> StatusDoc {
        self.status.borrow().clone()
    }

    /// A receiver that sees every status change.
    pub fn watch_status(&self) -> watch::Receiver<StatusDoc> {
        self.status.clone()
    }

    /// The last lines of the log (oldest first), for a page that opens now.
    pub fn recent_log(&self) -> Vec<DaemonEvent> {
        self.recent.lines()
    }

    /// Events from now on (a slow reader that lags loses the oldest; resend the status then).
    pub fn subscribe(&self) -> broadcast::Receiver<DaemonEvent> {
        self.events.subscribe()
    }

    async fn ask<T>(
        &self,
        make: impl FnOnce(oneshot::Sender<Result<T, Refusal>>) -> Request,
    ) -> Result<T, Refusal> {
        let gone = || Refusal::unavailable("the daemon is shutting down");
        let (tx, rx) = oneshot::channel();
        self.requests.send(make(tx)).await.map_err(|_| gone())?;
        rx.await.map_err(|_| gone())?
    }

    /// Starts a run; its id, or why not (409 when one is running or the e-stop is latched).
    pub async fn start(&self, source: StartSource) -> Result<u64, Refusal> {
        self.ask(|reply| Request::Start { source, reply }).await
    }

    pub async fn stop(&self) -> Result<(), Refusal> {
        self.ask(|reply| Request::Stop { reply }).await
    }

    pub async fn estop(&self) -> Result<(), Refusal> {
        self.ask(|reply| Request::EStop { reply }).await
    }

    pub async fn reset(&self) -> Result<(), Refusal> {
        self.ask(|reply| Request::Reset { reply }).await
    }

    /// Resumes the interrupted run waiting for a person; its id (409 when none waits).
    pub async fn resume(&self) -> Result<u64, Refusal> {
        self.ask(|reply| Request::Resume { reply }).await
    }

    pub async fn calibrate(&self) -> Result<CalibrationDoc, Refusal> {
        self.ask(|reply| Request::Calibrate { reply }).await
    }

    pub async fn guide(&self, facelets: String) -> Result<GuideDoc, Refusal> {
        self.ask(|reply| Request::Guide { facelets, reply }).await
    }

    /// The newest `limit` runs older than run `before` (all when None), newest first.
    pub fn runs(&self, limit: usize, before: Option<u64>) -> Result<Vec<RunSummary>, HistoryError> {
        self.history.list_runs_before(limit, before)
    }

    pub fn run(&self, id: u64) -> Result<Option<RunDetail>, HistoryError> {
        self.history.run(id)
    }

    /// The newest calibration that succeeded, if there was one.
    pub fn last_calibration(&self) -> Result<Option<LastCalibration>, HistoryError> {
        self.history.last_calibration()
    }

    /// The file of one photo of a run, if it was recorded.
    pub fn image(
        &self,
        run: u64,
        attempt: u32,
        face: char,
    ) -> Result<Option<PathBuf>, HistoryError> {
        self.history.image_path(run, attempt, face)
    }

    /// The file of an earlier take of a photo, replaced when its face was taken again.
    pub fn earlier_image(
        &self,
        run: u64,
        (attempt, face, take): (u32, char, u32),
    ) -> Result<Option<PathBuf>, HistoryError> {
        self.history.retaken_path(run, attempt, face, take)
    }
}
