//! `cubed dry-run`'s engine: N random cubes (3x3 or 2x2, as the daemon is configured) loaded into the simulated robot one after another, each run started through the daemon's own handle, awaited, and checked against the simulator's truth.

use crate::daemon::api::RefusalKind;
use crate::daemon::config::CubeSize;
use crate::daemon::docs::{DaemonState, StartSource};
use crate::daemon::launch::RunningDaemon;
use crate::daemon::launch::{random_of_size, solved_of_size};
use cubed_core::cube::ColourScheme;
use cubed_core::pocket::PocketFacelets;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::time::Duration;

/// What happened to one cube.
#[derive(Clone, Debug, PartialEq)]
pub struct CubeResult {
    pub run: u64,
    /// The cube loaded (URFDLB letters: 54, or 24 for a 2x2).
    pub scramble: String,
    pub outcome: String,
    pub error: Option<String>,
    pub moves: u32,
    /// Solutions computed (1 + re-solves after a slipped turn).
    pub solves: usize,
    /// Times the cube was photographed (the first scan, re-captures, verifications): the run's
    /// recorded scan steps.
    pub scans: usize,
    /// Planned robot time of the motions streamed, and the simulator's own count, ms.
    pub planned_ms: u64,
    pub simulated_ms: u64,
    /// Times the run went to `paused` (robot link lost and restored).
    pub link_losses: usize,
    /// Times it stopped to wait for a person (an e-stop, a fault, a firmware restart during a
    /// move), and of those the times the dry run pressed Resume, as a person would.
    pub interruptions: usize,
    pub resumes: usize,
    /// An e-stop latched before the run (the button pressed while idle, or at power-on) that
    /// the dry run reset first, as a person would.
    pub latch_reset: bool,
    /// The simulator's own cube is solved at the end, whatever the daemon said (an unverified
    /// run's cube may be).
    pub sim_solved: bool,
}

impl CubeResult {
    /// The daemon said solved and the simulator agrees.
    pub fn verified(&self) -> bool {
        self.sim_solved && self.outcome == "solved"
    }
}

/// Why the dry run could not go on.
#[derive(Debug, thiserror::Error)]
pub enum DryRunError {
    #[error("the daemon has no simulated robot (dry runs need [robot] port = \"sim\")")]
    NoSimulator,
    #[error("cube {index}: the daemon refused to start: {reason}")]
    Refused { index: usize, reason: String },
    #[error("cube {index}: run {run} did not finish within {secs} s (state {})", state.name())]
    TimedOut {
        index: usize,
        run: u64,
        secs: u64,
        state: DaemonState,
    },
    #[error("cube {index}: run {run} could not be resumed: {reason}")]
    ResumeRefused {
        index: usize,
        run: u64,
        reason: ResumeProblem,
    },
    #[error("run history")]
    History(#[from] crate::daemon::history::HistoryError),
}

/// Why pressing Resume (or Reset) did not take the run on.
#[derive(Debug, thiserror::Error)]
pub enum ResumeProblem {
    /// The daemon refused the button, in its own words.
    #[error(transparent)]
    Refused(#[from] crate::daemon::api::Refusal),
    /// The daemon went on with another run than the interrupted one.
    #[error("Resume went on with run {resumed}, not {interrupted}")]
    OtherRun { resumed: u64, interrupted: u64 },
}

/// How many cubes, from which seed, and how patient the dry run is.
#[derive(Clone, Copy, Debug)]
pub struct DryRunSettings {
    pub cubes: usize,
    pub seed: u64,
    /// Longest one cube may take, its resumptions included.
    pub per_cube: Duration,
    /// Interruptions (an e-stop, a fault, a firmware restart during a move) resumed per cube,
    /// as a person pressing Resume would once the robot may move; 0 leaves the run interrupted.
    pub resumes: usize,
}

/// The run's record once its outcome is in the history (the state may say so a moment before,
/// e.g. an e-stop is shown at once while the run winds down). Gives up after 30 s.
pub async fn wait_recorded(
    handle: &crate::daemon::api::DaemonHandle,
    run: u64,
) -> Result<Option<crate::daemon::docs::RunDetail>, crate::daemon::history::HistoryError> {
    for _ in 0..1500 {
        let detail = handle.run(run)?;
        if detail.as_ref().is_none_or(|d| d.summary.outcome.is_some()) {
            return Ok(detail);
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    handle.run(run)
}

/// Solves `settings.cubes` random cubes one after another; `each` sees every result.
pub async fn dry_run(
    daemon: &RunningDaemon,
    settings: DryRunSettings,
    mut each: impl FnMut(usize, &CubeResult),
) -> Result<Vec<CubeResult>, DryRunError> {
    let sim = daemon.sim.as_ref().ok_or(DryRunError::NoSimulator)?;
    let mut rng = ChaCha8Rng::seed_from_u64(settings.seed);
    let mut results = Vec::new();
    for index in 1..=settings.cubes {
        let size = daemon.cube_size;
        let cube = random_of_size(size, &mut rng);
        sim.load_cube(cube);
        let (planned_before, simulated_before) = (daemon.planned_motion_ms(), sim.bench().robot_ms);
        let mut status = daemon.handle.watch_status();
        let refused = |reason| DryRunError::Refused { index, reason };
        let (run, latch_reset) = match daemon.handle.start(StartSource::DryRun).await {
            Ok(run) => (run, false),
            Err(_) if settings.resumes > 0 && latched_while_idle(daemon) => {
                press_until_accepted(|| daemon.handle.reset())
                    .await
                    .map_err(|r| refused(r.reason))?;
                let run = (daemon.handle.start(StartSource::DryRun).await)
                    .map_err(|r| refused(r.reason))?;
                (run, true)
            }
            Err(r) => return Err(refused(r.reason)),
        };
        let mut ended = Followed::default();
        let finished = tokio::time::timeout(
            settings.per_cube,
            follow_run(daemon, &mut status, run, settings.resumes, &mut ended),
        )
        .await;
        match finished {
            Err(_) => {
                return Err(DryRunError::TimedOut {
                    index,
                    run,
                    secs: settings.per_cube.as_secs(),
                    state: daemon.handle.status().state,
                })
            }
            Ok(Err(reason)) => {
                return Err(DryRunError::ResumeRefused { index, run, reason });
            }
            Ok(Ok(())) => {}
        }
        let detail = wait_recorded(&daemon.handle, run).await?;
        let summary = detail.as_ref().map(|d| d.summary.clone());
        let outcome = summary
            .as_ref()
            .and_then(|s| s.outcome.clone())
            .unwrap_or_else(|| "unknown".into());
        let truly_solved = solved_of_size(size, &sim.cube());
        let result = CubeResult {
            run,
            scramble: match size {
                CubeSize::Three => cube.to_symbols(&ColourScheme::default()),
                CubeSize::Two => PocketFacelets::from_3x3(&cube).to_string(),
            },
            sim_solved: truly_solved,
            error: summary.as_ref().and_then(|s| s.error.clone()),
            moves: summary.as_ref().and_then(|s| s.moves).unwrap_or(0),
            solves: detail.as_ref().map_or(0, |d| d.solutions.len()),
            scans: detail.as_ref().map_or(0, |d| {
                d.steps.iter().filter(|step| step.name == "scan").count()
            }),
            planned_ms: daemon.planned_motion_ms() - planned_before,
            simulated_ms: sim.bench().robot_ms - simulated_before,
            link_losses: ended.link_losses,
            interruptions: ended.interruptions,
            resumes: ended.resumes,
            latch_reset,
            outcome,
        };
        each(index, &result);
        let left_waiting = result.interruptions > result.resumes && !result.verified();
        results.push(result);
        if left_waiting {
            // The run waits for a person the dry run may not be: the next start would be
            // refused, and Reset would abandon the run it was asked to leave as it is.
            break;
        }
    }
    Ok(results)
}

/// The daemon holds an e-stop latched with no run waiting for it (pressed while idle or at
/// power-on: the status then names no run).
fn latched_while_idle(daemon: &RunningDaemon) -> bool {
    let status = daemon.handle.status();
    status.state == DaemonState::EStopped && status.run.is_none()
}

/// What following one run counted.
#[derive(Default)]
struct Followed {
    link_losses: usize,
    interruptions: usize,
    resumes: usize,
}

/// Follows `run` until it ends; an interruption that waits for a person is resumed while
/// `resumes` allow. Errs with the daemon's reason when it will not resume.
async fn follow_run(
    daemon: &RunningDaemon,
    status: &mut tokio::sync::watch::Receiver<crate::daemon::docs::StatusDoc>,
    run: u64,
    resumes: usize,
    ended: &mut Followed,
) -> Result<(), ResumeProblem> {
    let mut last_state = DaemonState::Scanning;
    loop {
        let (state, this_run) = {
            let s = status.borrow_and_update();
            (s.state, s.run)
        };
        if state == DaemonState::Paused && last_state != DaemonState::Paused {
            ended.link_losses += 1;
        }
        last_state = state;
        if this_run == Some(run) && !state.is_busy() {
            ended.interruptions += usize::from(state.waits_for_a_person());
            if !(state.waits_for_a_person() && ended.resumes < resumes) {
                return Ok(());
            }
            // The interruption's record first, so the history shows it before the resumption.
            let detail = wait_recorded(&daemon.handle, run).await.ok().flatten();
            if detail.and_then(|d| d.summary.outcome).as_deref() == Some("solved") {
                // The e-stop came as the run ended solved: only the latch is left to clear.
                return Ok(press_until_accepted(|| daemon.handle.reset()).await?);
            }
            match press_until_accepted(|| daemon.handle.resume()).await? {
                resumed if resumed == run => ended.resumes += 1,
                other => {
                    return Err(ResumeProblem::OtherRun {
                        resumed: other,
                        interrupted: run,
                    })
                }
            }
            continue;
        }
        if status.changed().await.is_err() {
            return Ok(());
        }
    }
}

/// How long the dry run keeps pressing Resume while the daemon says the robot may not move yet.
const RESUME_PATIENCE: Duration = Duration::from_secs(60);

/// Presses a button (Resume, Reset) as a person would, again while the daemon refuses it for
/// the state it is in (the robot's e-stop button still held: the simulator releases it after
/// `estop-for`).
async fn press_until_accepted<T, F>(press: impl Fn() -> F) -> Result<T, crate::daemon::api::Refusal>
where
    F: std::future::Future<Output = Result<T, crate::daemon::api::Refusal>>,
{
    let step = Duration::from_millis(100);
    let mut waited = Duration::ZERO;
    loop {
        match press().await {
            Ok(answer) => return Ok(answer),
            Err(refusal) if refusal.kind == RefusalKind::Conflict && waited < RESUME_PATIENCE => {
                tokio::time::sleep(step).await;
                waited += step;
            }
            Err(refusal) => return Err(refusal),
        }
    }
}
