//! The daemon task: one run at a time, requests answered with 409 when they do not fit the state, the robot's start button, e-stop at any time, and a safe shutdown (stop at a step boundary, record, exit).

mod calibration;
pub(crate) mod tasks;

use crate::daemon::api::{DaemonInbox, Refusal, Request};
use crate::daemon::board::StatusBoard;
use crate::daemon::cube_size::RunCube;
use crate::daemon::docs::CalibrationDoc;
use crate::daemon::docs::{DaemonState, LinkState, StartSource};
use crate::daemon::history::History;
use crate::daemon::rig::EStopSlot;
use crate::daemon::rig::Rig;
use crate::daemon::run::abort::AbortFlag;
use crate::daemon::run::context::{RunContext, RunSettings};
use crate::daemon::run::error::RunError;
use crate::daemon::run::interruption::Interruption;
use crate::daemon::run::outcome::Outcome;
use crate::daemon::service::calibration::calibrate_run;
use crate::daemon::service::tasks::guide;
use cubed_core::error_chain::error_chain;
use idle::LinkNotes;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{oneshot, watch};
use tokio::task::{JoinError, JoinHandle};

/// The status while runs are refused because the history cannot be written.
/// How often a daemon short of room for a run's history looks again.
const ROOM_CHECK_EVERY: Duration = Duration::from_secs(5);

pub(crate) const NOT_READY_FOR_HISTORY: &str = "not ready: runs are refused until the run history can be written (the notice says where and why)";

/// How long a shutdown waits for the run to reach a step boundary before it e-stops.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(20);
/// How often an idle daemon without a robot link tries to open it.
const RECONNECT_IDLE: Duration = Duration::from_secs(3);

/// What a started task does.
enum Job {
    Solve,
    /// Go on with an interrupted run (re-home, rescan, solve again).
    Resume,
    Calibrate(CalibrationReply),
}

/// The reply a calibration owes.
type CalibrationReply = oneshot::Sender<Result<CalibrationDoc, Refusal>>;

/// What a run task hands back when it ends.
struct RunEnd {
    rig: Rig,
    outcome: Outcome,
    /// A calibration's palette when it succeeded (a failed one is refused with the
    /// outcome's message). The answer is sent only after the run is recorded, so a
    /// start asked for right after it is not refused as "in progress".
    calibration: Option<CalibrationDoc>,
}

struct ActiveRun {
    id: u64,
    abort: Arc<AbortFlag>,
    task: JoinHandle<RunEnd>,
    calibration_reply: Option<CalibrationReply>,
}

/// The daemon's state between requests.
pub(crate) struct Service {
    pub inbox: DaemonInbox,
    pub board: StatusBoard,
    pub history: Arc<History>,
    pub settings: RunSettings,
    pub rig: Option<Rig>,
    /// The e-stop of the link in use (kept outside the rig, which a run takes away).
    estop: EStopSlot,
    active: Option<ActiveRun>,
    /// What the idle link owes: the last failure to open it, an e-stop not yet sent.
    link_notes: LinkNotes,
    /// The interrupted run waiting for a person to resume it (or reset to abandon it).
    waiting: Option<u64>,
    /// Why every run is refused: the history was opened read-only (a full disk at start-up).
    read_only: Option<String>,
}

impl Service {
    pub(crate) fn new(
        inbox: DaemonInbox,
        board: StatusBoard,
        history: Arc<History>,
        settings: RunSettings,
        rig: Rig,
        waiting: Option<u64>,
    ) -> Service {
        Service {
            inbox,
            board,
            history,
            settings,
            estop: rig.estop_slot(),
            rig: Some(rig),
            active: None,
            link_notes: LinkNotes::default(),
            waiting,
            read_only: None,
        }
    }

    /// A service that refuses every run, saying `why` (the history opened read-only).
    pub(crate) fn refusing_runs(self, why: Option<String>) -> Service {
        Service {
            read_only: why,
            ..self
        }
    }

    /// Serves until `shutdown` turns true (or every handle is dropped).
    pub(crate) async fn serve(mut self, mut shutdown: watch::Receiver<bool>) {
        let mut room_check = tokio::time::interval(ROOM_CHECK_EVERY);
        room_check.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            let idle = self.active.is_none();
            let short_of_room = self.read_only.is_none() && self.board.history_refused();
            tokio::select! {
                request = self.inbox.requests.recv() => match request {
                    Some(r) => self.on_request(r).await,
                    None => break,
                },
                finished = wait_run(&mut self.active) => self.on_finished(finished).await,
                event = idle_event(&mut self.rig, &self.board, &mut self.link_notes), if idle => self.on_idle_event(event).await,
                _ = room_check.tick(), if idle && short_of_room => self.check_room_again(),
                _ = async { let _ = shutdown.wait_for(|&s| s).await; } => break,
            }
        }
        self.shut_down().await;
    }

    async fn on_request(&mut self, request: Request) {
        match request {
            Request::Start { source, reply } => {
                let _ = reply.send(self.start(source, Job::Solve).await);
            }
            Request::Stop { reply } => {
                let _ = reply.send(self.stop());
            }
            Request::EStop { reply } => {
                self.emergency_stop();
                let _ = reply.send(Ok(()));
            }
            Request::Reset { reply } => {
                let _ = reply.send(self.reset().await);
            }
            Request::Resume { reply } => {
                let _ = reply.send(self.resume().await);
            }
            Request::Calibrate { reply } => {
                if let Some(refusal) = self.start_refusal() {
                    let _ = reply.send(Err(refusal));
                    return;
                }
                self.simulated_person_loads_a_solved_cube();
                // Refused (the robot unreachable, the history full): said to the one who
                // asked, as a start's refusal is.
                match self.begin(StartSource::Calibration).await {
                    Ok((id, rig)) => self.launch(id, rig, Job::Calibrate(reply)),
                    Err(refusal) => {
                        let _ = reply.send(Err(refusal));
                    }
                }
            }
            Request::Guide { facelets, reply } => {
                let solver = self.rig.as_ref().map(|r| r.solver.clone());
                let pocket = match &self.settings.cube {
                    RunCube::Pocket(solver) => Some(Arc::clone(solver)),
                    RunCube::Three => None,
                };
                tokio::spawn(async move {
                    let answer = match solver {
                        Some(solver) => guide(solver, pocket, facelets).await,
                        None => Err(Refusal::conflict(
                            "the solver is busy with a run; try again when it ends",
                        )),
                    };
                    let _ = reply.send(answer);
                });
            }
        }
    }

    /// On the simulator, a simulated person who calibrates puts a solved cube in first.
    fn simulated_person_loads_a_solved_cube(&self) {
        let Some(sim) = self.rig.as_ref().and_then(|r| r.sim.as_ref()) else {
            return;
        };
        let calibrates = sim.controls.bench().solved_for_calibration;
        if calibrates {
            sim.controls
                .load_cube(cubed_core::cube::FaceletCube::default());
        }
    }

    /// Why a run cannot start now, if it cannot.
    fn start_refusal(&self) -> Option<Refusal> {
        if let Some(why) = &self.read_only {
            return Some(Refusal::unavailable(format!("not ready: {why}")));
        }
        let status = self.board.now();
        if let Some(active) = &self.active {
            return Some(Refusal::conflict(format!(
                "run {} is in progress ({}); stop it first",
                active.id,
                status.state.name()
            )));
        }
        if let Some(run) = self.waiting {
            return Some(Refusal::conflict(format!(
                "run {run} was interrupted ({}) and waits for you: resume it (cubed resume, or the page's Resume), or reset to abandon it; `cubed status` says what happened",
                status.state.name()
            )));
        }
        if status.state == DaemonState::EStopped {
            return Some(Refusal::conflict(
                "the emergency stop is latched: check the robot, then reset (cubed reset, or the page's Reset)",
            ));
        }
        if status.link.state == LinkState::Lost {
            // A run would wait for the link in homing and end with whatever became of it.
            return Some(Refusal::conflict(format!(
                "the robot's link is lost ({}); start again once it is back (`cubed status` says)",
                status.link.problem.as_deref().unwrap_or("reconnecting")
            )));
        }
        None
    }

    async fn start(&mut self, source: StartSource, job: Job) -> Result<u64, Refusal> {
        let (id, rig) = self.begin(source).await?;
        self.launch(id, rig, job);
        Ok(id)
    }

    /// A new run `source` asked for, recorded and shown, with the rig it takes; or why none
    /// can start now (the rig kept).
    async fn begin(&mut self, source: StartSource) -> Result<(u64, Rig), Refusal> {
        if let Some(refusal) = self.start_refusal() {
            return Err(refusal);
        }
        let after_fault = self.board.now().state == DaemonState::Faulted;
        let Some(mut rig) = self.rig.take() else {
            return Err(Refusal::unavailable("the robot is not available"));
        };
        if after_fault {
            // Pressing start after a failed run acknowledges it: clear a fault the firmware
            // may have latched; the robot is homed before it moves again.
            rig.clear_fault();
        }
        // A robot that cannot be reached is said now, not by a run that fails a moment later.
        if let Err(why) = rig.reach().await {
            self.board.link(why.link());
            self.rig = Some(rig);
            return Err(Refusal::unavailable(format!(
                "cannot reach the robot: {}",
                why.words
            )));
        }
        match rig.refresh_palette() {
            Ok(None) => {}
            Ok(Some(words)) => {
                let palette = crate::daemon::board::palette_doc(&rig.palette);
                self.board.update(|s| s.palette = palette);
                self.board.log(words);
            }
            Err(e) => {
                self.rig = Some(rig);
                return Err(Refusal::unavailable(error_chain(&e)));
            }
        }
        let size = self.settings.cube.size();
        let recorded = (self.history.room_for_a_run())
            .and_then(|()| self.history.begin_run(source, &rig.model.name, size));
        let id = match recorded {
            Ok(id) => id,
            Err(e) => {
                self.rig = Some(rig);
                let words = format!(
                    "cannot record a new run: {}; free space where the run history is kept ({}), then start again",
                    error_chain(&e),
                    self.history.data_dir().display()
                );
                // Said by the status too (`cubed status` exits 3), not only to this request.
                self.board.update(|s| {
                    s.history_read_only = true;
                    s.notice = Some(words.clone());
                    s.message = NOT_READY_FOR_HISTORY.to_string();
                });
                return Err(Refusal::unavailable(words));
            }
        };
        crate::metrics::run_started(id);
        self.board.update(|s| {
            s.state = DaemonState::Scanning;
            s.message = format!("run {id} starting");
            s.notice = None;
            // A run was recorded: the history takes writes again.
            s.history_read_only = false;
            s.forget_the_run();
            s.run = Some(id);
            s.calibrating_run = source == StartSource::Calibration;
        });
        self.board
            .log(format!("run {id} started ({})", source.as_str()));
        Ok((id, rig))
    }

    /// Runs `job` as run `id` in a task of its own, with the rig.
    fn launch(&mut self, id: u64, rig: Rig, job: Job) {
        let abort = Arc::new(AbortFlag::default());
        let mut ctx = RunContext {
            rig,
            history: Arc::clone(&self.history),
            board: self.board.clone(),
            abort: Arc::clone(&abort),
            settings: self.settings.clone(),
            run: id,
            link_lost: Arc::default(),
            read_at: None,
        };
        let (calibration_reply, resuming) = match job {
            Job::Solve => (None, false),
            Job::Resume => (None, true),
            Job::Calibrate(reply) => (Some(reply), false),
        };
        let calibrating = calibration_reply.is_some();
        let task = tokio::spawn(async move {
            let mut calibration = None;
            let outcome = if calibrating {
                match calibrate_run(&mut ctx).await {
                    Ok(doc) => {
                        calibration = Some(doc);
                        Outcome::Calibrated
                    }
                    Err(error) => Outcome::from(error),
                }
            } else if resuming {
                crate::daemon::run::pipeline::resume(&mut ctx).await
            } else {
                crate::daemon::run::pipeline::run(&mut ctx).await
            };
            RunEnd {
                rig: ctx.rig,
                outcome,
                calibration,
            }
        });
        self.active = Some(ActiveRun {
            id,
            abort,
            task,
            calibration_reply,
        });
    }

    async fn on_finished(&mut self, finished: Result<RunEnd, JoinError>) {
        let Some(mut active) = self.active.take() else {
            return;
        };
        let (rig, outcome, calibration) = match finished {
            Ok(end) => (Some(end.rig), end.outcome, end.calibration),
            Err(panic) => (None, RunError::Panicked(panic).into(), None),
        };
        if let Some(rig) = rig {
            self.rig = Some(rig);
        }
        // Taken before the ending is written, which clears it.
        let failed_write = self.history.first_failed_write(active.id);
        let recorded =
            self.history
                .finish_run(active.id, outcome.name(), outcome.error().as_deref());
        if let Err(e) = recorded {
            self.board.log(format!(
                "could not record the end of run {}: {}",
                active.id,
                error_chain(&e)
            ));
        }
        if let Some(interruption) = outcome.waiting() {
            self.set_waiting(Some(active.id));
            if matches!(interruption, Interruption::EStop { by_robot: true, .. }) {
                // Nobody asked the daemon for it: the robot's own switch or firmware.
                crate::metrics::estop(false);
            }
        }
        let latched = self.board.now().state == DaemonState::EStopped;
        let state = if latched {
            DaemonState::EStopped
        } else {
            outcome.state()
        };
        let mut message = outcome.message(active.id, failed_write.as_deref());
        if latched && outcome.state() != DaemonState::EStopped {
            // The run ended another way, but the e-stop pressed meanwhile is still latched:
            // Start is refused until it is reset.
            message.push_str("; the emergency stop pressed meanwhile is still latched: reset it first (`cubed reset`, or the page's Reset)");
        }
        self.board.update(|s| s.stopping = false);
        let over = outcome.waiting().is_none();
        if !over {
            // Said before the status, which a watcher may take as the end of the story.
            self.board.waits(active.id, outcome.name());
        }
        self.board.set(state, message);
        if over {
            self.finished(active.id, outcome.name());
        }
        if let Some(reply) = active.calibration_reply.take() {
            let answer = calibration.ok_or_else(|| {
                Refusal::conflict(outcome.message(active.id, failed_write.as_deref()))
            });
            let _ = reply.send(answer);
        }
    }

    /// Run `run` is over: counted and told with its times as the history recorded them.
    fn finished(&self, run: u64, outcome: &str) {
        let recorded = self.history.summary(run).ok().flatten();
        self.board.finished(run, outcome, recorded.as_ref());
    }

    /// Runs were refused for want of room on the history's disk: once there is room again,
    /// the status says so (it is not only the next start that finds out).
    fn check_room_again(&mut self) {
        if self.history.room_for_a_run().is_err() {
            return;
        }
        self.board.update(|s| {
            s.history_read_only = false;
            s.notice = None;
            s.message = "ready: the run history has room again".to_string();
        });
        self.board
            .log("the run history's disk has room for a run again: starts are taken");
    }

    /// The run waiting for a person (or none), kept in the status too: what Resume would take.
    fn set_waiting(&mut self, run: Option<u64>) {
        self.waiting = run;
        self.board.update(|s| s.resumable = run);
    }
}

mod recovery;

mod stopping;

mod idle;
use idle::idle_event;

/// Waits for the active run to end (never, when there is none).
async fn wait_run(active: &mut Option<ActiveRun>) -> Result<RunEnd, JoinError> {
    match active {
        Some(run) => (&mut run.task).await,
        None => std::future::pending().await,
    }
}
