//! Runs stopped, slipped or restarted: stop at a step boundary or while photographing, a slipped turn solved again, a run waiting after a firmware restart, a resumed run scanning before it verifies.

use super::record_states;
use crate::daemon::{executing_with_done, finished, random, run_advice, start, wait_until};
use cubed::daemon::{DaemonState, RefusalKind, StartSource};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slipped_turn_is_seen_at_verification_and_solved_again() {
    let dir = tempfile::tempdir().expect("temp dir");
    let daemon = start(dir.path(), "slip-at-turn=4", 0.0).await;
    let sim = daemon.sim.clone().expect("sim");
    sim.load_cube(random(12));
    let run = daemon.handle.start(StartSource::Web).await.expect("start");
    let end = finished(&daemon.handle, run).await;
    assert_eq!(end.state, DaemonState::Done, "{}", end.message);
    assert!(sim.cube().is_solved());
    assert_eq!(sim.bench().slips, 1);
    let detail = daemon.handle.run(run).expect("history").expect("recorded");
    assert_eq!(detail.solutions.len(), 2, "solved again from what was seen");
    assert_eq!(
        detail.scans.len(),
        3,
        "scan, failed verification, verification"
    );
    daemon.shutdown().await;
}

/// A run stopped while photographing keeps the time of the part of the scan it ran.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_stopped_while_photographing_keeps_the_time_of_the_scan_so_far() {
    let dir = tempfile::tempdir().expect("temp dir");
    let daemon = start(dir.path(), "", 10.0).await;
    daemon.sim.as_ref().expect("sim").load_cube(random(14));
    let run = daemon.handle.start(StartSource::Web).await.expect("start");
    wait_until(&daemon.handle, "photographing", |s| {
        s.state == DaemonState::Scanning && !s.message.contains("homing")
    })
    .await;
    daemon.handle.stop().await.expect("stop");
    let end = finished(&daemon.handle, run).await;
    assert_eq!(end.state, DaemonState::Idle, "{}", end.message);
    let detail = daemon.handle.run(run).expect("history").expect("recorded");
    assert_eq!(detail.summary.outcome.as_deref(), Some("stopped"));
    let read = detail.scans.iter().any(|s| !s.readings.is_empty());
    assert!(!read, "stopped before a scan was read: {detail:?}");
    let scan = detail.steps.iter().find(|s| s.name == "scan");
    assert!(scan.is_some_and(|s| s.ms > 0.0), "{:?}", detail.steps);
    daemon.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stop_ends_the_run_at_a_step_boundary() {
    let dir = tempfile::tempdir().expect("temp dir");
    let daemon = start(dir.path(), "", 10.0).await;
    daemon.sim.as_ref().expect("sim").load_cube(random(13));
    let run = daemon.handle.start(StartSource::Web).await.expect("start");
    executing_with_done(&daemon.handle, 2).await;
    daemon.handle.stop().await.expect("stop");
    let end = finished(&daemon.handle, run).await;
    assert_eq!(end.state, DaemonState::Idle, "{}", end.message);
    let progress = end.progress.expect("progress");
    assert!(
        progress.commands_done < progress.commands,
        "stopped early: {progress:?}"
    );
    assert_eq!(progress.eta_ms, 0, "nothing left to wait for: {progress:?}");
    let detail = daemon.handle.run(run).expect("history").expect("recorded");
    assert_eq!(detail.summary.outcome.as_deref(), Some("stopped"));
    // The record counts the moves the page showed done, in moves as the page does, and keeps
    // the time of the part run.
    let turned = progress.moves_done as u32;
    assert_eq!(detail.summary.moves, Some(turned), "{:?}", detail.summary);
    let error = detail.summary.error.as_deref().unwrap_or_default();
    let said = format!("after {} of {} moves", progress.moves_done, progress.moves);
    assert!(error.contains(&said), "{said}: {error}");
    assert!(
        detail.steps.iter().any(|s| s.name == "execute"),
        "{:?}",
        detail.steps
    );
    let refused = daemon.handle.stop().await.expect_err("nothing to stop");
    assert_eq!(refused.kind, RefusalKind::Conflict);
    daemon.shutdown().await;
}

/// A run that waits after a firmware restart is recorded as waiting, not failed; abandoned with
/// Reset, it ends failed by the restart, and is announced so.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_waiting_after_a_restart_is_recorded_waiting_and_ends_failed_when_abandoned() {
    let dir = tempfile::tempdir().expect("temp dir");
    let daemon = start(dir.path(), "reboot-at=40", 10.0).await;
    daemon.sim.as_ref().expect("sim").load_cube(random(17));
    let run = daemon.handle.start(StartSource::Web).await.expect("start");
    let end = finished(&daemon.handle, run).await;
    assert_eq!(end.state, DaemonState::NeedsAttention, "{}", end.message);
    let outcome = |daemon: &cubed::daemon::RunningDaemon| {
        let detail = daemon.handle.run(run).expect("history").expect("recorded");
        (detail.summary.outcome, detail.summary.abandoned)
    };
    assert_eq!(outcome(&daemon), (Some("waiting".into()), false));
    let mut events = daemon.handle.subscribe();
    let stopped = super::recorded_end(&daemon.handle, run);
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    daemon.handle.reset().await.expect("reset");
    assert_eq!(super::announced(&mut events, run).await, "failed");
    assert_eq!(outcome(&daemon), (Some("failed".into()), true));
    // Its end is told as recorded: when it stopped, not when it was reset.
    let recorded = super::recorded_end(&daemon.handle, run);
    assert!(
        stopped.is_some() && recorded == stopped,
        "{stopped:?} then {recorded:?}"
    );
    assert_eq!(super::told_finished_at(&daemon.handle, run), recorded);
    daemon.shutdown().await;
}

/// After Resume the run finds the cube's state again (scanning), and verifies only after it
/// has executed a solution.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resumed_run_scans_before_it_verifies() {
    let dir = tempfile::tempdir().expect("temp dir");
    let daemon = start(dir.path(), "", 10.0).await;
    daemon.sim.as_ref().expect("sim").load_cube(random(15));
    let run = daemon.handle.start(StartSource::Web).await.expect("start");
    wait_until(&daemon.handle, "two moves done", |s| {
        s.state == DaemonState::Executing && s.progress.as_ref().is_some_and(|p| p.moves_done >= 2)
    })
    .await;
    daemon.handle.estop().await.expect("estop");
    // The first word after an e-stop must not send a person to Reset, which abandons the run.
    let latched = daemon.handle.status().message;
    assert!(latched.contains("Reset abandons it"), "{latched}");
    finished(&daemon.handle, run).await;
    let advice = run_advice(&daemon.handle).await;
    assert!(
        advice.message.contains("square the cube"),
        "{}",
        advice.message
    );
    // The moves the page showed done when the robot stopped.
    let before = advice.progress.as_ref().map_or(0, |p| p.moves_done) as u32;
    assert!(before >= 2, "{:?}", advice.progress);
    assert_eq!(
        advice.progress.as_ref().map(|p| p.eta_ms),
        Some(0),
        "e-stopped: no time left"
    );
    let states = record_states(&daemon);
    assert_eq!(daemon.handle.resume().await.expect("resume"), run);
    let end = finished(&daemon.handle, run).await;
    assert_eq!(end.state, DaemonState::Done, "{}", end.message);
    // The closing line and the record count the turns made before the e-stop and the whole
    // solution run after it; both parts of the execute stage are timed.
    let detail = daemon.handle.run(run).expect("history").expect("recorded");
    let last_solution = detail.solutions.last().expect("solved again").moves;
    let turned = before + last_solution;
    assert_eq!(detail.summary.moves, Some(turned), "{:?}", detail.summary);
    assert!(
        end.message.ends_with(&format!("({turned} moves)")),
        "{turned}: {}",
        end.message
    );
    let executes = detail.steps.iter().filter(|s| s.name == "execute").count();
    assert_eq!(executes, 2, "{:?}", detail.steps);
    let (seen, _) = states.lock().expect("states").clone();
    let first = |state| seen.iter().position(|s| *s == state);
    let (scanning, executing, verifying) = (
        first(DaemonState::Scanning),
        first(DaemonState::Executing),
        first(DaemonState::Verifying),
    );
    assert!(
        scanning.is_some() && scanning < executing && executing < verifying,
        "{seen:?}"
    );
    daemon.shutdown().await;
}

/// A turn slipped after a Resume: the log names the solve it failed as the history does
/// ("solve 2", though its round is the third: the resumption's scan was the second).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slip_after_a_resume_is_logged_with_the_solves_name_in_the_history() {
    let dir = tempfile::tempdir().expect("temp dir");
    let daemon = start(dir.path(), "slip-at-turn=12", 10.0).await;
    let sim = daemon.sim.clone().expect("sim");
    sim.load_cube(random(15));
    let mut said = daemon.handle.subscribe();
    let run = daemon.handle.start(StartSource::Web).await.expect("start");
    wait_until(&daemon.handle, "two moves done", |s| {
        s.state == DaemonState::Executing && s.progress.as_ref().is_some_and(|p| p.moves_done >= 2)
    })
    .await;
    daemon.handle.estop().await.expect("estop");
    finished(&daemon.handle, run).await;
    run_advice(&daemon.handle).await;
    let turned_before_resume = sim.bench().turns;
    assert!(turned_before_resume < 12, "{turned_before_resume} turns");
    assert_eq!(daemon.handle.resume().await.expect("resume"), run);
    let end = finished(&daemon.handle, run).await;
    assert_eq!(end.state, DaemonState::Done, "{}", end.message);
    assert_eq!(sim.bench().slips, 1);
    let detail = daemon.handle.run(run).expect("history").expect("recorded");
    let labels: Vec<&str> = detail.solutions.iter().map(|s| s.label.as_str()).collect();
    assert_eq!(labels, ["solve 1", "solve 2", "solve 3"]);
    let slipped = (crate::daemon::said_so_far(&mut said).into_iter())
        .find(|line| line.contains("is not solved after"))
        .expect("the slip is logged");
    assert!(slipped.contains("after solve 2 ("), "{slipped}");
    daemon.shutdown().await;
}
