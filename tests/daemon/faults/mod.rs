//! Runs with trouble, one submodule per kind: the shared helpers (every state and status line seen, a run's interruptions, resuming to solved) and the daemon helpers the submodules name as `super::`.

use super::{announced, config, counted, finished, recorded_end, start_with, told_finished_at};
use cubed::daemon::{DaemonEvent, DaemonState};
use std::sync::{Arc, Mutex};

mod estops;
mod lost_link;
mod stops_and_resumes;

/// Every state the daemon passed through, and every status line it showed with the commands
/// done then.
pub(super) type Seen = Arc<Mutex<(Vec<DaemonState>, Vec<(String, Option<usize>)>)>>;

/// Records every state the daemon passes through and every status line.
pub(super) fn record_states(daemon: &cubed::daemon::RunningDaemon) -> Seen {
    let seen: Seen = Arc::default();
    let mut events = daemon.handle.subscribe();
    let sink = Arc::clone(&seen);
    tokio::spawn(async move {
        loop {
            match events.recv().await {
                Ok(DaemonEvent::Status(s)) => {
                    if let Ok(mut v) = sink.lock() {
                        if v.0.last() != Some(&s.state) {
                            v.0.push(s.state);
                        }
                        if v.1.last().map(|(said, _)| said) != Some(&s.message) {
                            let done = s.progress.as_ref().map(|p| p.commands_done);
                            v.1.push((s.message, done));
                        }
                    }
                }
                Ok(_) => {}
                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
                Err(_) => return,
            }
        }
    });
    seen
}

/// How each interruption of `run` ended (cause, by whom, whether the run waits on it).
pub(super) fn interruptions_told(
    daemon: &cubed::daemon::RunningDaemon,
    run: u64,
) -> Vec<(String, Option<String>, bool)> {
    let detail = daemon.handle.run(run).expect("history").expect("recorded");
    (detail.interruptions.iter())
        .map(|i| (i.cause.clone(), i.resumed_by.clone(), i.waiting))
        .collect()
}

/// Resumes `run`, which waits for a person: the same run goes on to verified solved.
pub(super) async fn resume_to_solved(daemon: &cubed::daemon::RunningDaemon, run: u64) {
    assert_eq!(
        daemon.handle.resume().await,
        Ok(run),
        "the same run goes on"
    );
    let solved = finished(&daemon.handle, run).await;
    assert_eq!(solved.state, DaemonState::Done, "{}", solved.message);
    assert!(daemon.sim.as_ref().expect("sim").cube().is_solved());
}
