//! A crash mid-run (the runtime torn down without any shutdown): the restarted daemon reports the interrupted run with its last journaled move and starts the next run with a fresh scan, never replaying old commands.

use super::{finished, random, start, wait_until};
use crate::common::runtime;
use cubed::daemon::{DaemonState, StartSource};

/// `cubed_runs_total{outcome="interrupted"}` in the daemon's metrics (process-wide).
fn interrupted_runs_counted() -> f64 {
    cubed::daemon::metrics::exposition()
        .lines()
        .find_map(|l| l.strip_prefix("cubed_runs_total{outcome=\"interrupted\"} "))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0.0)
}

#[test]
fn a_crash_mid_run_is_reported_at_restart_and_the_next_run_rescans() {
    let dir = tempfile::tempdir().expect("temp dir");
    let first = runtime();
    let (run, daemon) = first.block_on(async {
        let daemon = start(dir.path(), "", 10.0).await;
        daemon.sim.as_ref().expect("sim").load_cube(random(21));
        let run = daemon.handle.start(StartSource::Web).await.expect("start");
        wait_until(&daemon.handle, "some moves done", |s| {
            s.state == DaemonState::Executing
                && s.progress.as_ref().is_some_and(|p| p.commands_done >= 3)
        })
        .await;
        (run, daemon)
    });
    first.shutdown_background();
    drop(daemon);

    let second = runtime();
    second.block_on(async {
        let counted_before = interrupted_runs_counted();
        let daemon = start(dir.path(), "", 0.0).await;
        assert!(
            interrupted_runs_counted() > counted_before,
            "/metrics counts the run found interrupted"
        );
        let interrupted = daemon
            .interrupted
            .iter()
            .find(|r| r.id == run)
            .expect("reported");
        assert!(
            interrupted.last_acked_move.is_some(),
            "journal kept: {interrupted:?}"
        );
        let notice = daemon.handle.status().notice.expect("a notice");
        assert!(
            notice.contains(&format!("run {run}")) && notice.contains("interrupted"),
            "{notice}"
        );
        let old = daemon.handle.run(run).expect("history").expect("recorded");
        assert_eq!(old.summary.outcome.as_deref(), Some("interrupted"));
        daemon.sim.as_ref().expect("sim").load_cube(random(22));
        let next = daemon.handle.start(StartSource::Web).await.expect("start");
        assert!(next > run);
        let end = finished(&daemon.handle, next).await;
        assert_eq!(end.state, DaemonState::Done, "{}", end.message);
        let detail = daemon.handle.run(next).expect("history").expect("recorded");
        assert_eq!(detail.scans.len(), 2, "the new run scanned first");
        daemon.shutdown().await;
    });
}
