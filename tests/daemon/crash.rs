//! A crash mid-run (the runtime torn down without any shutdown): the restarted daemon reports the interrupted run with its last journaled move and starts the next run with a fresh scan, never replaying old commands. A run waiting for a person after an e-stop still waits after a restart.

use super::{executing_with_done, finished, random, start, wait_until};
use crate::common::runtime;
use cubed::daemon::{DaemonState, StartSource};

/// `cubed_runs_total{outcome="interrupted"}` in the daemon's metrics (process-wide).
fn interrupted_runs_counted() -> f64 {
    super::counted("cubed_runs_total{outcome=\"interrupted\"}")
}

#[test]
fn a_crash_mid_run_is_reported_at_restart_and_the_next_run_rescans() {
    let dir = tempfile::tempdir().expect("temp dir");
    let first = runtime();
    let (run, daemon) = first.block_on(async {
        let daemon = start(dir.path(), "", 10.0).await;
        daemon.sim.as_ref().expect("sim").load_cube(random(21));
        let run = daemon.handle.start(StartSource::Web).await.expect("start");
        executing_with_done(&daemon.handle, 3).await;
        (run, daemon)
    });
    let history = |dir: &std::path::Path| {
        let args = [
            "history",
            "--data-dir",
            dir.to_str().expect("utf-8"),
            "--json",
        ];
        let out = crate::common::cubed(&args, None);
        assert!(out.status.success(), "{}", crate::common::stderr(&out));
        let runs: Vec<cubed::daemon::RunSummary> =
            serde_json::from_slice(&out.stdout).expect("runs as JSON");
        runs.into_iter().find(|r| r.id == run).expect("listed")
    };
    assert_eq!(
        history(dir.path()).outcome,
        None,
        "running, its daemon there"
    );
    first.shutdown_background();
    drop(daemon);
    // Read with no daemon on the directory: not running, but as the next start records it.
    let found = history(dir.path());
    assert_eq!(found.outcome.as_deref(), Some("interrupted"), "{found:?}");
    let why = found.error.unwrap_or_default();
    assert!(why.contains("at the daemon's next start"), "{why}");

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
        // A page or script that connects now is told the run's end among the recent messages.
        let told = daemon.handle.recent_log().into_iter().any(|e| {
            matches!(e, cubed::daemon::DaemonEvent::RunFinished { run: r, ref outcome, .. }
                if r == run && outcome == "interrupted")
        });
        assert!(told, "{:?}", daemon.handle.recent_log());
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

/// A run e-stopped and waiting for a person when the daemon is stopped still waits after the
/// restart (a restart squares no half-turned layer): a start is refused, Resume finishes it.
#[test]
fn a_run_waiting_after_an_e_stop_still_waits_after_a_restart_and_resume_finishes_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    runtime().block_on(async {
        let daemon = start(dir.path(), "", 10.0).await;
        let sim = daemon.sim.clone().expect("sim");
        sim.load_cube(random(23));
        let run = daemon.handle.start(StartSource::Web).await.expect("start");
        executing_with_done(&daemon.handle, 3).await;
        daemon.handle.estop().await.expect("e-stop");
        wait_until(&daemon.handle, "the run's advice", |s| {
            s.message.contains("press Resume")
        })
        .await;
        // The run waits: the log says so in words, and does not call it finished.
        let recent = daemon.handle.recent_log();
        let said = |words: &str| {
            recent.iter().any(|line| {
                matches!(line, cubed::daemon::DaemonEvent::Log { message, .. } if message.contains(words))
            })
        };
        assert!(said(&format!("run {run} stopped part-way (e-stopped): it waits for you")), "{recent:?}");
        let announced_finished = (recent.iter())
            .any(|l| matches!(l, cubed::daemon::DaemonEvent::RunFinished { run: r, .. } if *r == run));
        assert!(!announced_finished, "{recent:?}");
        let cube = sim.cube();
        daemon.shutdown().await;

        let daemon = start(dir.path(), "", 10.0).await;
        let status = daemon.handle.status();
        assert_eq!(status.state, DaemonState::EStopped, "{}", status.message);
        assert_eq!(status.run, Some(run));
        assert!(
            status.message.contains("press Resume"),
            "{}",
            status.message
        );
        // The log says so too (the page opened now shows it, as does the daemon's own log).
        let logged = daemon.handle.recent_log().into_iter().any(|line| {
            matches!(line, cubed::daemon::DaemonEvent::Log { message, .. }
                if message.contains(&format!("run {run} was interrupted before the daemon restarted")))
        });
        assert!(logged, "{:?}", daemon.handle.recent_log());
        let refused = daemon.handle.start(StartSource::Web).await;
        assert!(
            refused
                .as_ref()
                .is_err_and(|r| r.reason.contains("waits for you")),
            "{refused:?}"
        );
        let sim = daemon.sim.clone().expect("sim");
        sim.load_cube(cube);
        assert_eq!(
            daemon.handle.resume().await,
            Ok(run),
            "the same run goes on"
        );
        let end = finished(&daemon.handle, run).await;
        assert_eq!(end.state, DaemonState::Done, "{}", end.message);
        assert!(sim.cube().is_solved(), "the cube is not solved");
        let detail = daemon.handle.run(run).expect("history").expect("recorded");
        let resumed: Vec<_> = (detail.interruptions.iter())
            .map(|i| (i.cause.as_str(), i.resumed_by.as_deref()))
            .collect();
        assert_eq!(resumed, [("estop", Some("person"))]);
        // Its end is told with the time its record has (the run began in the daemon before).
        let told = super::told_finished_at(&daemon.handle, run);
        let recorded = super::recorded_end(&daemon.handle, run);
        assert!(told.is_some() && told == recorded, "{told:?} against {recorded:?}");
        daemon.shutdown().await;
    });
}
