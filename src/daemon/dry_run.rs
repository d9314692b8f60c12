//! `cubed dry-run`'s engine: N random cubes (3x3 or 2x2, as the daemon is configured) loaded into the simulated robot one after another, each run started through the daemon's own handle, awaited, and checked against the simulator's truth.

use super::api::{DaemonState, StartSource};
use super::config::CubeSize;
use super::launch::RunningDaemon;
use super::launch::{random_of_size, solved_of_size};
use crate::cube::ColourScheme;
use crate::pocket::PocketFacelets;
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
    /// The daemon said solved and the simulator agrees.
    pub verified: bool,
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
    #[error("run history")]
    History(#[from] super::history::HistoryError),
}

/// The run's record once its outcome is in the history (the state may say so a moment before,
/// e.g. an e-stop is shown at once while the run winds down). Gives up after 30 s.
pub async fn wait_recorded(
    handle: &super::api::DaemonHandle,
    run: u64,
) -> Result<Option<super::api::RunDetail>, super::history::HistoryError> {
    for _ in 0..1500 {
        let detail = handle.run(run)?;
        if detail.as_ref().is_none_or(|d| d.summary.outcome.is_some()) {
            return Ok(detail);
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    handle.run(run)
}

/// Solves `cubes` random cubes (from `seed`) one after another; `each` sees every result.
pub async fn dry_run(
    daemon: &RunningDaemon,
    cubes: usize,
    seed: u64,
    per_cube: Duration,
    mut each: impl FnMut(usize, &CubeResult),
) -> Result<Vec<CubeResult>, DryRunError> {
    let sim = daemon.sim.as_ref().ok_or(DryRunError::NoSimulator)?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut results = Vec::new();
    for index in 1..=cubes {
        let size = daemon.cube_size;
        let cube = random_of_size(size, &mut rng);
        sim.load_cube(cube);
        let (planned_before, simulated_before) = (daemon.planned_motion_ms(), sim.bench().robot_ms);
        let mut status = daemon.handle.watch_status();
        let run = daemon
            .handle
            .start(StartSource::DryRun)
            .await
            .map_err(|r| DryRunError::Refused {
                index,
                reason: r.reason,
            })?;
        let mut link_losses = 0;
        let mut last_state = DaemonState::Scanning;
        let finished = tokio::time::timeout(per_cube, async {
            loop {
                let (state, this_run) = {
                    let s = status.borrow_and_update();
                    (s.state, s.run)
                };
                if state == DaemonState::Paused && last_state != DaemonState::Paused {
                    link_losses += 1;
                }
                last_state = state;
                if this_run == Some(run) && !state.is_busy() {
                    return;
                }
                if status.changed().await.is_err() {
                    return;
                }
            }
        })
        .await;
        if finished.is_err() {
            return Err(DryRunError::TimedOut {
                index,
                run,
                secs: per_cube.as_secs(),
                state: daemon.handle.status().state,
            });
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
            verified: truly_solved && (outcome == "solved"),
            error: summary.as_ref().and_then(|s| s.error.clone()),
            moves: summary.as_ref().and_then(|s| s.moves).unwrap_or(0),
            solves: detail.as_ref().map_or(0, |d| d.solutions.len()),
            scans: detail.as_ref().map_or(0, |d| {
                d.steps.iter().filter(|step| step.name == "scan").count()
            }),
            planned_ms: daemon.planned_motion_ms() - planned_before,
            simulated_ms: sim.bench().robot_ms - simulated_before,
            link_losses,
            outcome,
        };
        each(index, &result);
        results.push(result);
    }
    Ok(results)
}
