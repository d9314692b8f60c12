//! The status board: the one place the daemon's status document is changed; every change is pushed to watchers (the web page) as an event, and logged with `tracing`.

use crate::daemon::api::DaemonInbox;
use crate::daemon::api::RecentLog;
use crate::daemon::docs::{
    DaemonEvent, DaemonState, EStopButtonDoc, LinkDoc, LinkState, PaletteColourDoc,
};
use crate::daemon::docs::{RunSummary, StatusDoc};
use cubed_vision::light::palette::Palette;
use tokio::sync::{broadcast, watch};

/// Shared by the service loop and the run task.
#[derive(Clone)]
pub(crate) struct StatusBoard {
    status: std::sync::Arc<watch::Sender<StatusDoc>>,
    events: broadcast::Sender<DaemonEvent>,
    recent: RecentLog,
}

impl StatusBoard {
    pub(crate) fn new(inbox: &DaemonInbox) -> StatusBoard {
        StatusBoard {
            status: std::sync::Arc::new(inbox.status.clone()),
            events: inbox.events.clone(),
            recent: inbox.recent.clone(),
        }
    }

    /// Changes the status and pushes it.
    pub(crate) fn update(&self, change: impl FnOnce(&mut StatusDoc)) {
        self.status.send_modify(change);
        let doc = self.status.borrow().clone();
        let _ = self.events.send(DaemonEvent::Status(doc));
    }

    /// A new state and message.
    pub(crate) fn set(&self, state: DaemonState, message: impl Into<String>) {
        let message = message.into();
        tracing::info!(?state, "{message}");
        self.update(|s| {
            s.state = state;
            s.message = message;
        });
    }

    /// A message in the current state.
    pub(crate) fn say(&self, message: impl Into<String>) {
        let message = message.into();
        tracing::info!("{message}");
        self.update(|s| s.message = message);
    }

    /// A line for the page's log.
    pub(crate) fn log(&self, message: impl Into<String>) {
        let message = message.into();
        tracing::info!("{message}");
        let line = DaemonEvent::Log {
            message,
            at_ms: now_ms(),
        };
        self.recent.keep(line.clone());
        let _ = self.events.send(line);
    }

    /// A run task has stopped part-way and the run waits for a person: not finished, so the
    /// log says so instead (the metrics count it when it is resumed to its end, or abandoned).
    pub(crate) fn waits(&self, run: u64, outcome: &str) {
        let words = crate::daemon::docs::outcome_in_words(outcome);
        self.log(format!(
            "run {run} stopped part-way ({words}): it waits for you (Resume goes on with it, Reset abandons it)"
        ));
    }

    /// A run is over: counted in the metrics and told as `run_finished`, with its start and end
    /// as `recorded` in the history (a run resumed after a restart began in another process; an
    /// abandoned one ended when it stopped, not at the Reset), or now when the history has
    /// none.
    pub(crate) fn finished(&self, run: u64, outcome: &str, recorded: Option<&RunSummary>) {
        let span = recorded.and_then(|r| Some((r.started_ms, r.finished_ms?)));
        let seconds = span.map(|(start, end)| (end - start).max(0) as f64 / 1000.0);
        crate::metrics::run_finished(run, outcome, seconds);
        let at_ms = span.map_or_else(now_ms, |(_, end)| u64::try_from(end).unwrap_or(0));
        let event = DaemonEvent::RunFinished {
            run,
            outcome: outcome.to_string(),
            at_ms,
            abandoned: recorded.is_some_and(|r| r.abandoned),
        };
        // A page opened later shows it among the last lines too.
        self.recent.keep(event.clone());
        let _ = self.events.send(event);
    }

    /// The robot's link as last seen; pushed only when it changed. A link that is not open
    /// cannot say the e-stop button's level: it is forgotten, except when the link closed
    /// because the robot would not clear its stop with the button held.
    pub(crate) fn link(&self, link: LinkDoc) {
        if self.status.borrow().link == link {
            return;
        }
        tracing::info!("{}", link.line);
        self.update(|s| shown_link(s, link));
    }

    /// The link open, and `message` said with it in one update: a watcher never sees the
    /// link open beside words from before it opened, nor such words beside the old link.
    pub(crate) fn link_open_saying(&self, message: impl Into<String>) {
        let message = message.into();
        tracing::info!("robot link open: {message}");
        self.update(|s| {
            shown_link(s, LinkDoc::open());
            s.message = message;
        });
    }

    /// The e-stop button's level as the robot reported it (`None`: nothing to show, e.g.
    /// after a clear the robot took, which it takes only with the button released); logged
    /// when it changed.
    pub(crate) fn estop_button(&self, held: Option<bool>) {
        let doc = held.map(EStopButtonDoc::new);
        if self.status.borrow().estop_button == doc {
            return;
        }
        if let Some(doc) = &doc {
            self.log(doc.line.clone());
        }
        self.update(|s| s.estop_button = doc);
    }

    /// Whether runs are refused because the history cannot be written now.
    pub(crate) fn history_refused(&self) -> bool {
        self.status.borrow().history_read_only
    }

    pub(crate) fn now(&self) -> StatusDoc {
        self.status.borrow().clone()
    }
}

/// `#rrggbb`.
pub(crate) fn hex(rgb: [u8; 3]) -> String {
    format!("#{:02x}{:02x}{:02x}", rgb[0], rgb[1], rgb[2])
}

/// The palette as the page shows it.
pub(crate) fn palette_doc(palette: &Palette) -> Vec<PaletteColourDoc> {
    palette
        .colours
        .iter()
        .map(|c| PaletteColourDoc {
            name: c.name.clone(),
            symbol: c.symbol,
            face: c.home.letter(),
            rgb: hex(c.reference.to_rgb()),
        })
        .collect()
}

/// Now, in ms since the Unix epoch (0 on a clock set before it).
fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// `link` as the status shows it, with the e-stop button's level it allows.
fn shown_link(s: &mut StatusDoc, link: LinkDoc) {
    s.estop_button = match link.state {
        LinkState::Open => s.estop_button.take(),
        LinkState::EStopHeld => Some(EStopButtonDoc::new(true)),
        _ => None,
    };
    s.link = link;
}
