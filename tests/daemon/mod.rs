//! The daemon against the simulated robot (a real pty) and camera, with a real SQLite history: runs started by the button and the handle, faults, stop, e-stop, a crash and restart, bad configs.

mod calibration;
mod cli;
mod crash;
mod data_dir;
mod disk;
mod faults;
mod http;
mod lamp;
mod latched;
mod metrics;
pub mod pocket;
mod recovery;
mod runs;
mod staged;

use cubed::cube::random::random_cube;
use cubed::cube::FaceletCube;
use cubed::daemon::config::{load_config, DaemonConfig};
use cubed::daemon::dry_run::wait_recorded;
use cubed::daemon::{DaemonHandle, DaemonState, RunningDaemon, StatusDoc};
use cubed::solver::{Solver, Tables};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::path::Path;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

/// The solver on small tables (built once per test binary).
pub fn solver() -> Arc<Solver> {
    static TABLES: OnceLock<Arc<Tables>> = OnceLock::new();
    Arc::new(Solver::new(
        TABLES.get_or_init(|| Arc::new(Tables::small())).clone(),
    ))
}

/// The shipped config with the data in `dir`, the given faults and simulator speed.
pub fn config(dir: &Path, faults: &str, speed: f64) -> DaemonConfig {
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("config/cubed.toml");
    let mut config = load_config(&shipped).expect("the shipped config loads");
    config.data_dir = dir.to_path_buf();
    config.sim.faults = faults.to_string();
    config.sim.speed = speed;
    config.solve_budget = cubed::solver::Budget::Time(Duration::from_millis(50));
    config
}

/// Serves the daemon's page and API on a free loopback port until the daemon shuts down.
pub async fn serve_web(
    daemon: &RunningDaemon,
) -> (
    std::net::SocketAddr,
    tokio::task::JoinHandle<Result<(), cubed::web::WebError>>,
) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a free port");
    let addr = listener.local_addr().expect("address");
    let settings = cubed::web::WebSettings {
        bind: addr,
        token: None,
    };
    let server = tokio::spawn(cubed::web::serve(
        listener,
        daemon.handle.clone(),
        settings,
        daemon.shutdown_signal(),
    ));
    (addr, server)
}

pub async fn start(dir: &Path, faults: &str, speed: f64) -> RunningDaemon {
    start_with(&config(dir, faults, speed)).await
}

/// The daemon started with `config` (on the simulator, with the test solver).
pub async fn start_with(config: &DaemonConfig) -> RunningDaemon {
    RunningDaemon::start(config, solver())
        .await
        .expect("the daemon starts on the simulator")
}

pub fn random(seed: u64) -> FaceletCube {
    random_cube(&mut ChaCha8Rng::seed_from_u64(seed)).to_facelets()
}

/// Waits (up to 120 s) until the status satisfies `done`; panics with the last status otherwise.
pub async fn wait_until(
    handle: &DaemonHandle,
    what: &str,
    done: impl Fn(&StatusDoc) -> bool,
) -> StatusDoc {
    let mut status = handle.watch_status();
    let waited = tokio::time::timeout(Duration::from_secs(120), async {
        loop {
            let now = status.borrow_and_update().clone();
            if done(&now) {
                return now;
            }
            if status.changed().await.is_err() {
                return now;
            }
        }
    })
    .await;
    match waited {
        Ok(s) if done(&s) => s,
        Ok(s) => panic!("{what}: the daemon stopped; last status {s:?}"),
        Err(_) => panic!("{what}: not within 120 s; status {:?}", handle.status()),
    }
}

/// Waits for an interrupted run's advice ("… press Resume"): the e-stop latches at once, and
/// the run's own advice follows once its end is recorded.
pub async fn run_advice(handle: &DaemonHandle) -> StatusDoc {
    wait_until(handle, "the run's advice", |s| {
        s.message.contains("press Resume")
    })
    .await
}

/// Waits until the daemon is executing a program with at least `done` commands done.
pub async fn executing_with_done(handle: &DaemonHandle, done: usize) -> StatusDoc {
    wait_until(handle, &format!("{done} commands done"), |s| {
        s.state == DaemonState::Executing
            && s.progress.as_ref().is_some_and(|p| p.commands_done >= done)
    })
    .await
}

/// Waits until run `run` has ended and its outcome is recorded.
pub async fn finished(handle: &DaemonHandle, run: u64) -> StatusDoc {
    wait_until(handle, &format!("run {run} ends"), |s| {
        s.run == Some(run) && !s.state.is_busy()
    })
    .await;
    let detail = wait_recorded(handle, run).await.expect("history");
    assert!(
        detail.is_some_and(|d| d.summary.outcome.is_some()),
        "run {run}: no outcome recorded"
    );
    // The outcome is recorded a moment before the status shows the run's end (an e-stop's
    // words stand until then). The service answers requests in turn, so the answer to one
    // comes after the end is shown: a Stop with no run in progress, refused, changes nothing.
    let barrier = handle.stop().await;
    assert!(barrier.is_err(), "run {run}: still in progress");
    handle.status()
}

/// Waits (up to 60 s) until run `run`'s outcome is in the history, e.g. once a full disk
/// takes it again.
pub async fn wait_for_outcome(handle: &DaemonHandle, run: u64) -> cubed::daemon::RunDetail {
    let waited = tokio::time::timeout(Duration::from_secs(60), async {
        loop {
            if let Ok(Some(detail)) = handle.run(run) {
                if detail.summary.outcome.is_some() {
                    return detail;
                }
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await;
    waited.unwrap_or_else(|_| panic!("run {run}: no outcome recorded within 60 s"))
}

pub fn is(state: DaemonState) -> impl Fn(&StatusDoc) -> bool {
    move |s| s.state == state
}

/// Every status message and log line the daemon has said on `said` so far.
pub fn said_so_far(
    said: &mut tokio::sync::broadcast::Receiver<cubed::daemon::DaemonEvent>,
) -> Vec<String> {
    use cubed::daemon::DaemonEvent;
    use tokio::sync::broadcast::error::TryRecvError;
    let mut messages = Vec::new();
    loop {
        match said.try_recv() {
            Ok(DaemonEvent::Status(status)) => messages.push(status.message),
            Ok(DaemonEvent::Log { message, .. }) => messages.push(message),
            Ok(_) | Err(TryRecvError::Lagged(_)) => {}
            Err(_) => return messages,
        }
    }
}

/// How many times run `run` photographed the cube (scans, re-captures and verifications), from
/// its recorded steps.
pub fn scans_photographed(handle: &DaemonHandle, run: u64) -> usize {
    let detail = handle.run(run).expect("history").expect("recorded");
    detail.steps.iter().filter(|s| s.name == "scan").count()
}

/// Whether the daemon said that face U had a hand in front and was photographed again.
pub fn named_the_hand(messages: &[String]) -> bool {
    messages
        .iter()
        .any(|m| m.contains("face U") && m.contains("a hand?") && m.contains("again"))
}

/// The outcome `run` is announced over with on `events` (the `run_finished` a script waits
/// on), within 120 s.
pub async fn announced(
    events: &mut tokio::sync::broadcast::Receiver<cubed::daemon::DaemonEvent>,
    run: u64,
) -> String {
    use tokio::sync::broadcast::error::RecvError;
    let wait = async {
        loop {
            match events.recv().await {
                Ok(cubed::daemon::DaemonEvent::RunFinished {
                    run: r, outcome, ..
                }) if r == run => return outcome,
                Ok(_) | Err(RecvError::Lagged(_)) => {}
                Err(RecvError::Closed) => panic!("no end announced for run {run}: events closed"),
            }
        }
    };
    (tokio::time::timeout(Duration::from_secs(120), wait).await)
        .unwrap_or_else(|_| panic!("run {run}'s end was not announced"))
}

/// The value of the metrics series `series` (`cubed_estops_total{source="robot"}`) in this
/// process's registry (0 when absent).
pub fn counted(series: &str) -> f64 {
    cubed::metrics::exposition()
        .lines()
        .find_map(|l| l.strip_prefix(series)?.strip_prefix(' '))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0.0)
}

/// Run `run`'s summary as the history recorded it.
pub fn recorded(handle: &DaemonHandle, run: u64) -> cubed::daemon::RunSummary {
    handle.run(run).expect("history").expect("recorded").summary
}

/// When the `run_finished` among the recent messages says `run` ended.
pub fn told_finished_at(handle: &DaemonHandle, run: u64) -> Option<u64> {
    handle.recent_log().into_iter().find_map(|line| match line {
        cubed::daemon::DaemonEvent::RunFinished { run: r, at_ms, .. } if r == run => Some(at_ms),
        _ => None,
    })
}

/// Run `run`'s recorded end, as the events give times (ms since the epoch).
pub fn recorded_end(handle: &DaemonHandle, run: u64) -> Option<u64> {
    recorded(handle, run)
        .finished_ms
        .and_then(|ms| u64::try_from(ms).ok())
}

/// Says loudly that a test that needs root cannot run here; fails where CI requires it
/// (`CUBED_REQUIRE_DISK_TESTS`).
pub fn root_tests_not_run(message: &str) {
    crate::common::not_checked(message, Some("CUBED_REQUIRE_DISK_TESTS"));
}
