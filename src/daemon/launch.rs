//! Starting and stopping the whole daemon in-process: history opened (interrupted runs reported), rig set up, the service task spawned; used by `cubed run`, `cubed dry-run` and the tests.

use crate::daemon::api::DaemonHandle;
use crate::daemon::board::{palette_doc, StatusBoard};
use crate::daemon::config::{CubeSize, DaemonConfig};
use crate::daemon::cube_size::RunCube;
use crate::daemon::data_lock::{DataDirLock, DataLockError};
use crate::daemon::docs::{DaemonEvent, DaemonState, LinkDoc, RunSummary, StatusDoc};
use crate::daemon::history::{History, HistoryError, WaitingRun};
use crate::daemon::rig::{Rig, RigError, SimControls};
use crate::daemon::run::context::RunSettings;
use crate::daemon::service::{Service, NOT_READY_FOR_HISTORY};
use crate::daemon::ThreeSolver;
use cubed_core::cube::random::random_cube;
use cubed_core::cube::FaceletCube;
use cubed_core::error_chain::error_chain;
use cubed_core::pocket::{random_pocket, PocketFacelets};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;
use tokio::sync::watch;
use tokio::task::JoinHandle;

/// Why the daemon did not start.
#[derive(Debug, thiserror::Error)]
pub enum LaunchError {
    #[error(transparent)]
    Locked(#[from] DataLockError),
    #[error(transparent)]
    History(#[from] HistoryError),
    #[error(transparent)]
    Rig(#[from] RigError),
}

impl LaunchError {
    /// Whether a configuration file is at fault (its robot design or palette), not the machine.
    pub fn is_config(&self) -> bool {
        matches!(self, LaunchError::Rig(e) if e.is_config())
    }

    /// Whether starting again cannot help until a person mends something: a configuration
    /// file at fault, or a data directory that is a file or another user's (`cubed run` exits
    /// 2 on it, which the service is not restarted after).
    pub fn waits_for_a_person(&self) -> bool {
        self.is_config() || matches!(self, LaunchError::Locked(e) if e.waits_for_a_person())
    }

    /// Whether the data directory is another user's, which this one cannot write (the
    /// service's, seen by a person checking the configuration).
    pub fn is_another_users_data_dir(&self) -> bool {
        matches!(
            self,
            LaunchError::Locked(
                DataLockError::NotYours { .. } | DataLockError::RootInAnothersFolder { .. }
            )
        )
    }
}

/// Loads the robot design and palette `config` names, and lists a `dir:` camera's folder, as a
/// start would, without opening the robot, a webcam or the data directory (`cubed config show`).
pub(crate) fn check_config_files(config: &DaemonConfig) -> Result<(), LaunchError> {
    crate::daemon::rig::check_port_could_be_one(config)?;
    crate::daemon::rig::ConfigFiles::load(config)?;
    check_camera_source(config)?;
    // Last: another user's data directory is only a note to `cubed config show`.
    crate::daemon::data_lock::check_usable(&config.data_dir)?;
    Ok(())
}

/// A `dir:` camera's folder listed; a webcam refused by a build without one.
fn check_camera_source(config: &DaemonConfig) -> Result<(), LaunchError> {
    match &config.camera {
        crate::daemon::config::CameraChoice::Dir(dir) => {
            crate::daemon::rig::open_camera_folder(dir)?;
        }
        crate::daemon::config::CameraChoice::Usb(_) if !cfg!(feature = "camera") => {
            return Err(crate::daemon::rig::RigError::NoCameraSupport.into());
        }
        _ => {}
    }
    Ok(())
}

/// What a start would refuse that is known before the solver's tables are loaded (or built,
/// for a minute on a Pi): of what `cubed config show` checks, whatever only a person can mend
/// (a `[robot] port` that can never be a serial port; a design that cannot be read, or cannot
/// hold the configured cube; a palette that cannot be read; a `dir:` camera's folder that is
/// not there; a data directory that is a file or another user's folder).
pub(crate) fn check_before_tables(config: &DaemonConfig) -> Result<(), LaunchError> {
    match check_config_files(config) {
        Err(e) if e.waits_for_a_person() => Err(e),
        _ => Ok(()),
    }
}

/// A daemon running on the current tokio runtime.
pub struct RunningDaemon {
    pub handle: DaemonHandle,
    /// The simulated robot's bench, when the config says `sim`.
    pub sim: Option<SimControls>,
    /// Runs a crash or power loss interrupted, reported once at start.
    pub interrupted: Vec<RunSummary>,
    shutdown: watch::Sender<bool>,
    /// Set once the service has stopped (its run recorded and its end told): the web server
    /// serves until then, so that a page or script hears how the run ended.
    stopped: watch::Sender<bool>,
    task: JoinHandle<()>,
    /// Retries endings a full disk refused; holds the history until it ends.
    retry: JoinHandle<()>,
    planned_motion: Arc<std::sync::atomic::AtomicU64>,
    /// The cube the daemon solves (`[run] cube_size`).
    pub cube_size: CubeSize,
    /// Held while the daemon runs: no second daemon touches this data directory.
    _lock: DataDirLock,
}

impl RunningDaemon {
    /// Opens the history, sets up the robot and camera, and starts serving requests.
    pub async fn start(
        config: &DaemonConfig,
        solver: impl Into<ThreeSolver>,
    ) -> Result<RunningDaemon, LaunchError> {
        // Taken before the history is opened: a second daemon must not mark the first
        // one's live run interrupted.
        let lock = DataDirLock::acquire(&config.data_dir)?;
        // A full disk must not make the service crash-loop: it starts read-only (runs are
        // refused until the history can be written again) and says why.
        let (history, unwritable) = match History::open(&config.data_dir) {
            Ok(history) => (history, None),
            Err(e) => match History::open_read_only(&config.data_dir) {
                Ok(history) => (history, Some(e)),
                Err(_) => return Err(e.into()),
            },
        };
        let history = Arc::new(history);
        history.set_retention(config.retention);
        let opened_read_only = unwritable.is_some();
        let (interrupted, read_only) = match (unwritable, history.take_interrupted()) {
            (Some(e), _) => (Vec::new(), Some(read_only_notice(config, &e, true))),
            (None, Ok(runs)) => (runs, None),
            (None, Err(e)) => (Vec::new(), Some(read_only_notice(config, &e, false))),
        };
        if read_only.is_none() {
            history.prune_after_run();
        }
        // A disk with no room for a run's photos: a run would fail part-way.
        let read_only = read_only.or_else(|| {
            (history.room_for_a_run().err()).map(|e| read_only_notice(config, &e, false))
        });
        let waiting = waiting_for_person(&history, read_only.is_none());
        let mut rig = Rig::new(config, solver.into()).await?;
        // Open the link now so the robot's start button works at once (a robot that is
        // not there yet is retried by the service while idle).
        let link = match rig.reach().await {
            Ok(()) => LinkDoc::open(),
            Err(why) => {
                tracing::warn!("robot link not open yet: {}", why.words);
                why.link()
            }
        };
        let sim = rig.sim.as_ref().map(|s| s.controls.clone());
        if let Some(Ok(mut scene)) = sim.as_ref().map(|s| s.scene.lock()) {
            // The simulated camera draws a 2x2's faces as 2x2 grids.
            scene.pocket = config.cube_size == CubeSize::Two;
        }
        let planned_motion = Arc::clone(&rig.planned_motion_ms);
        let notice = read_only
            .clone()
            .or_else(|| interrupted_notice(&interrupted));
        if let Some(n) = &notice {
            tracing::warn!("{n}");
        }
        let ready = format!(
            "ready: robot {} on {}, {}, {} cube",
            rig.model.name,
            port_name(config),
            rig.camera_name,
            config.cube_size.name()
        );
        let waiting_said = (waiting.as_ref()).map(|w| still_waiting(w, &history, config.cube_size));
        let (state, message) = match waiting_said.clone() {
            Some(said) => said,
            // Starts are refused while the history cannot be written: not ready, and why.
            None => match &read_only {
                Some(_) => (DaemonState::Idle, NOT_READY_FOR_HISTORY.to_string()),
                None => (DaemonState::Idle, ready),
            },
        };
        let initial = StatusDoc {
            state,
            run: waiting
                .as_ref()
                .map(|w| w.run)
                .or(interrupted.first().map(|r| r.id)),
            resumable: waiting.as_ref().map(|w| w.run),
            message,
            progress: None,
            facelets: None,
            facelets_guessed: false,
            facelets_unread: false,
            calibrating_run: false,
            solution: Vec::new(),
            photos: Vec::new(),
            notice,
            robot: rig.model.name.clone(),
            camera: rig.camera_name.clone(),
            cube_size: config.cube_size.name().to_string(),
            palette: palette_doc(&rig.palette),
            link,
            estop_button: None,
            history_read_only: read_only.is_some(),
            actions_need_token: config.token.is_some(),
            min_confidence: config.min_confidence,
            stopping: false,
        };
        let (handle, inbox) = DaemonHandle::new(initial, Arc::clone(&history));
        let board = StatusBoard::new(&inbox);
        if let Some((_, message)) = waiting_said {
            // Said in the log too: the status alone would leave no line of it.
            board.log(message);
        }
        let settings = RunSettings {
            min_confidence: config.min_confidence,
            recaptures: config.recaptures,
            max_solves: config.max_solves,
            solve_budget: config.solve_budget,
            cube: RunCube::for_size(config.cube_size).await,
        };
        crate::metrics::daemon_started(&crate::metrics::KnownSeries {
            outcomes: &crate::daemon::history::FINAL_OUTCOMES,
            phases: &crate::daemon::run::record::PHASES,
            actuators: rig.map.configs.len(),
        });
        for run in &interrupted {
            // Found ended by a crash or power loss: counted now, as the daemon records it, and
            // its end told among the recent lines a page or script that connects is sent first.
            board.finished(run.id, "interrupted", Some(run));
        }
        let waiting = waiting.map(|w| w.run);
        let read_only = read_only.filter(|_| opened_read_only);
        let service = Service::new(inbox, board, Arc::clone(&history), settings, rig, waiting)
            .refusing_runs(read_only);
        let (shutdown, shutdown_rx) = watch::channel(false);
        let retry = tokio::spawn(retry_pending_endings(history, shutdown.subscribe()));
        let task = tokio::spawn(service.serve(shutdown_rx));
        Ok(RunningDaemon {
            handle,
            sim,
            interrupted,
            shutdown,
            stopped: watch::channel(false).0,
            task,
            retry,
            planned_motion,
            cube_size: config.cube_size,
            _lock: lock,
        })
    }

    /// Planned robot time of every motion streamed so far, ms.
    pub fn planned_motion_ms(&self) -> u64 {
        self.planned_motion
            .load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Stops a run at a step boundary, records it, closes the link, the simulator and the
    /// history, then frees the data directory.
    pub async fn shutdown(self) {
        let _ = self.shutdown.send(true);
        let _ = self.task.await;
        self.stopped.send_replace(true);
        let _ = self.retry.await;
    }

    /// A future that resolves once the daemon has shut down (for the web server, which serves
    /// while a run is stopped and recorded, so that its end reaches the event stream).
    pub fn shutdown_signal(&self) -> impl std::future::Future<Output = ()> + Send + 'static {
        let mut rx = self.stopped.subscribe();
        async move {
            let _ = rx.wait_for(|&s| s).await;
        }
    }

    /// With the simulated robot: a simulated person puts a new random cube (from `seed`) in
    /// now and after every run that ends with the cube solved, so `cubed run` always has work,
    /// and a solved cube when calibration is asked for.
    pub fn keep_scrambling(&self, seed: u64) {
        let Some(sim) = self.sim.clone() else { return };
        if let Ok(mut bench) = sim.bench.lock() {
            bench.solved_for_calibration = true;
        }
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let size = self.cube_size;
        sim.load_cube(random_of_size(size, &mut rng));
        let mut events = self.handle.subscribe();
        tokio::spawn(async move {
            loop {
                match events.recv().await {
                    // An interrupted run is not over: resumed, it verifies this same cube.
                    Ok(DaemonEvent::RunFinished { outcome, .. })
                        if RUN_IS_OVER.contains(&outcome.as_str())
                            && solved_of_size(size, &sim.cube()) =>
                    {
                        sim.load_cube(random_of_size(size, &mut rng));
                    }
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
                    _ => {}
                }
            }
        });
    }

    /// Asks for shutdown without waiting.
    pub fn request_shutdown(&self) {
        let _ = self.shutdown.send(true);
    }
}

/// A uniformly random cube of `size` as the simulator holds it (a 2x2 in a 3x3's corners).
pub(crate) fn random_of_size(size: CubeSize, rng: &mut ChaCha8Rng) -> FaceletCube {
    match size {
        CubeSize::Three => random_cube(rng).to_facelets(),
        CubeSize::Two => random_pocket(rng).to_facelets().to_3x3(),
    }
}

/// Whether the simulator's cube is solved as a cube of `size` (a 2x2: its corners only).
pub(crate) fn solved_of_size(size: CubeSize, cube: &FaceletCube) -> bool {
    match size {
        CubeSize::Three => cube.is_solved(),
        CubeSize::Two => PocketFacelets::from_3x3(cube).is_solved(),
    }
}

/// How often endings a full disk refused are tried again.
const PENDING_RETRY: std::time::Duration = std::time::Duration::from_secs(5);

/// Writes the endings a full disk refused as soon as it takes them (checked every few
/// seconds while any wait), until shutdown.
async fn retry_pending_endings(history: Arc<History>, mut shutdown: watch::Receiver<bool>) {
    loop {
        tokio::select! {
            _ = shutdown.wait_for(|&s| s) => return,
            _ = tokio::time::sleep(PENDING_RETRY) => {}
        }
        if history.pending_endings() > 0 {
            let history = Arc::clone(&history);
            let _ = tokio::task::spawn_blocking(move || history.retry_pending()).await;
        }
    }
}

/// What to tell the user when the history cannot be written at start-up.
fn read_only_notice(config: &DaemonConfig, error: &HistoryError, until_restart: bool) -> String {
    let until = match (error, until_restart) {
        (HistoryError::NotWritable { .. }, _) => {
            " until that is put right and the daemon restarted"
        }
        // Nothing to do with room: a newer cubed wrote it, and the error says what to do.
        (HistoryError::NewerSchema { .. }, _) => "",
        (_, true) => " until space is freed there and the daemon restarted (a full disk?)",
        (_, false) => " until space is freed there (a full disk?)",
    };
    let words = format!(
        "the run history in {} cannot be written ({}): started read-only, runs are refused{until}",
        config.data_dir.display(),
        error_chain(error)
    );
    tracing::error!("{words}");
    words
}

fn port_name(config: &DaemonConfig) -> String {
    match &config.port {
        crate::daemon::config::PortChoice::Sim => "the simulator".into(),
        crate::daemon::config::PortChoice::Serial(p) => p.display().to_string(),
    }
}

/// The run that waited for a person when the daemon last stopped: it still does (a restart
/// does not square a half-turned layer nor clear what blocked a motor).
fn waiting_for_person(history: &History, writable: bool) -> Option<WaitingRun> {
    if !writable {
        return None;
    }
    history.waiting_for_person().unwrap_or_else(|e| {
        tracing::warn!("{}", error_chain(&e));
        None
    })
}

/// The state and message of a daemon that starts with run `w` waiting for a person.
/// A run that began on another size of cube than this daemon's (`ours`) is told to be resumed
/// by a daemon of its size, not here, where Resume is refused.
fn still_waiting(w: &WaitingRun, history: &History, ours: CubeSize) -> (DaemonState, String) {
    let state = if w.cause == "estop" {
        DaemonState::EStopped
    } else {
        DaemonState::NeedsAttention
    };
    let theirs = (history.summary(w.run).ok().flatten())
        .and_then(|s| s.cube)
        .filter(|theirs| theirs != ours.name());
    let message = match theirs {
        Some(theirs) => format!(
            "run {} was interrupted before the daemon restarted and still waits for you, but it began on a {theirs} and this daemon now runs a {} ([run] cube_size): to resume it, restart the daemon with the size it began with; or Reset to abandon it",
            w.run,
            ours.name()
        ),
        None => format!(
            "run {} was interrupted before the daemon restarted and still waits for you: {}",
            w.run, w.advice
        ),
    };
    (state, message)
}

/// The outcomes after which a simulated person takes the solved cube out.
const RUN_IS_OVER: [&str; 3] = ["solved", "already_solved", "calibrated"];

/// What to tell the user about runs a crash interrupted.
fn interrupted_notice(runs: &[RunSummary]) -> Option<String> {
    let ids: Vec<String> = runs.iter().map(|r| r.id.to_string()).collect();
    let last = runs.first()?;
    let at = crate::daemon::history::turns_made(last);
    let all = match ids.len() {
        1 => String::new(),
        _ => format!(
            " Runs the daemon stopped during, newest first: {}.",
            ids.join(", ")
        ),
    };
    Some(format!(
        "run {} was interrupted: the daemon stopped during it {at}. The cube's state is unknown, so the next start rescans it.{all}",
        last.id
    ))
}
