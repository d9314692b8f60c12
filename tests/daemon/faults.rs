//! Runs with trouble: an unplugged cable mid-run (paused, resumed, nothing repeated), a slipped turn (seen at verification, solved again), stop at a step boundary, the emergency stop latched until reset, and a resumed run that scans before it verifies.

use super::{executing_with_done, finished, is, random, run_advice, start, wait_until};
use cubed::daemon::{DaemonEvent, DaemonState, LinkState, RefusalKind, StartSource};
use std::sync::{Arc, Mutex};

/// Every state the daemon passed through, and every status line it showed with the commands
/// done then.
type Seen = Arc<Mutex<(Vec<DaemonState>, Vec<(String, Option<usize>)>)>>;

/// Records every state the daemon passes through and every status line.
fn record_states(daemon: &cubed::daemon::RunningDaemon) -> Seen {
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unplug_mid_run_pauses_it_and_it_resumes_to_solved() {
    let dir = tempfile::tempdir().expect("temp dir");
    let daemon = start(dir.path(), "unplug-at-move=30,unplug-for=300ms", 2.0).await;
    let sim = daemon.sim.clone().expect("sim");
    sim.load_cube(random(11));
    let states = record_states(&daemon);
    let run = daemon.handle.start(StartSource::Web).await.expect("start");
    let end = finished(&daemon.handle, run).await;
    assert_eq!(end.state, DaemonState::Done, "{}", end.message);
    assert!(sim.cube().is_solved());
    let (seen, said) = states.lock().expect("states").clone();
    assert!(
        seen.contains(&DaemonState::Paused),
        "never paused: {seen:?}"
    );
    // While the link is away nothing is said done; the restore counts the commands the robot
    // ran meanwhile (the one queued behind the unplug at least), not only those heard of.
    let at = |prefix: &str| said.iter().position(|(line, _)| line.starts_with(prefix));
    let (lost, restored) = (
        at("robot link lost").expect("lost"),
        at("robot link restored"),
    );
    let restored = restored.expect("restored");
    let away = &said[lost..restored];
    assert!(
        !away.iter().any(|(line, _)| line.starts_with("executing")),
        "{away:#?}"
    );
    let counted = said[restored].0.strip_prefix("robot link restored after ");
    let counted = counted.and_then(|after| after.split(' ').next()?.parse::<usize>().ok());
    assert!(counted > said[lost].1, "{said:#?}");
    let detail = daemon.handle.run(run).expect("history").expect("recorded");
    assert_eq!(detail.solutions.len(), 1, "resumed, not re-solved");
    let [lost] = &detail.interruptions[..] else {
        panic!("one lost link recorded: {:?}", detail.interruptions);
    };
    assert_eq!(lost.cause, "link");
    assert!(
        !lost.needs_person && lost.advice.contains("link lost"),
        "{lost:?}"
    );
    assert_eq!(lost.resumed_by.as_deref(), Some("automatic"));
    assert!(lost.resumed_ms >= Some(lost.at_ms), "{lost:?}");
    daemon.shutdown().await;
}

/// An e-stop while the cable is out cannot reach the robot: the status says so and what to
/// do, instead of "motors halted". The run ends e-stopped at once, recorded so in its history
/// while the cable is still out (a person who walks away finds it said); when the cable is back
/// the stop goes out, and Resume takes the run to solved.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_emergency_stop_while_the_link_is_lost_says_the_robot_was_not_reached() {
    let dir = tempfile::tempdir().expect("temp dir");
    // Cut with a face turn queued behind the command running (seen on the simulator's count).
    let daemon = start(dir.path(), "unplug-at-move=31,unplug-for=5s", 2.0).await;
    let sim = daemon.sim.clone().expect("sim");
    sim.load_cube(random(12));
    let turns_before = sim.bench().turns;
    let run = daemon.handle.start(StartSource::Web).await.expect("start");
    let paused = wait_until(&daemon.handle, "paused", is(DaemonState::Paused)).await;
    // The status says where the link stands, for a script as for a person.
    assert_eq!(paused.link.state, LinkState::Lost, "{:?}", paused.link);
    daemon.handle.estop().await.expect("estop");
    let status = daemon.handle.status();
    assert_eq!(status.state, DaemonState::EStopped, "{}", status.message);
    assert!(
        status.message.contains("cannot be reached") && status.message.contains("cut its power"),
        "{}",
        status.message
    );
    assert!(
        !status.message.contains("motors halted"),
        "{}",
        status.message
    );
    let end = finished(&daemon.handle, run).await;
    let made_before = end.progress.as_ref().map(|p| p.moves_done);
    assert_eq!(
        end.link.state,
        LinkState::Lost,
        "the run ended only once the cable was back: {:?}",
        end.link
    );
    assert_eq!(end.state, DaemonState::EStopped, "{}", end.message);
    for words in ["cannot be reached", "cut its power", "press Resume"] {
        assert!(end.message.contains(words), "{words}: {}", end.message);
    }
    let told = interruptions_told(&daemon, run);
    let link_lost = ("link".to_string(), None, false);
    assert_eq!(told, [link_lost, ("estop".into(), None, true)]);
    // The cable goes back in: the stop goes out and is said so; the run still waits for
    // Resume, which takes it to solved.
    let back = wait_until(&daemon.handle, "the stop sent", |s| {
        s.message
            .contains("sent to the robot now that its link is open")
    })
    .await;
    assert_eq!(back.link.state, LinkState::Open, "{:?}", back.link);
    assert!(back.message.contains("still waits"), "{}", back.message);
    assert_eq!(daemon.handle.status().resumable, Some(run));
    // The turns the robot made meanwhile (its queue ran on while the cable was out) are the
    // run's too: its record counts what the simulator's own mechanics turned.
    let turned = sim.bench().turns - turns_before;
    assert!(
        made_before < Some(turned as usize),
        "a turn made meanwhile: {made_before:?} of {turned}"
    );
    let recorded = wait_for_moves(&daemon, run, turned).await;
    assert_eq!(
        recorded,
        Some(turned as u32),
        "the run's moves against the robot's turns"
    );
    // The status moves on just after the record (the record is written first, durably).
    let shown = wait_until(&daemon.handle, "the progress shown", |s| {
        s.progress
            .as_ref()
            .is_some_and(|p| p.moves_done as u64 == turned)
    })
    .await;
    let progress = shown.progress.expect("progress");
    assert_eq!(progress.moves_done as u64, turned, "{progress:?}");
    // The log numbers the command as the run counts its program's commands.
    let said: Vec<String> = (daemon.handle.recent_log().into_iter())
        .filter_map(|event| match event {
            DaemonEvent::Log { message, .. } => Some(message),
            _ => None,
        })
        .filter(|m| m.contains("while its link was lost"))
        .collect();
    let of = format!(" of {} (", progress.commands);
    assert!(
        !said.is_empty() && said.iter().all(|m| m.contains(&of)),
        "{of}: {said:#?}"
    );
    resume_to_solved(&daemon, run).await;
    daemon.shutdown().await;
}

/// The face turns `run`'s record counts, once they reach `turned` (or after 5 s).
async fn wait_for_moves(
    daemon: &cubed::daemon::RunningDaemon,
    run: u64,
    turned: u64,
) -> Option<u32> {
    let moves = || {
        daemon
            .handle
            .run(run)
            .expect("history")
            .expect("recorded")
            .summary
            .moves
    };
    for _ in 0..100 {
        if moves() >= Some(turned as u32) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    moves()
}

/// How each interruption of `run` ended (cause, by whom, whether the run waits on it).
fn interruptions_told(
    daemon: &cubed::daemon::RunningDaemon,
    run: u64,
) -> Vec<(String, Option<String>, bool)> {
    let detail = daemon.handle.run(run).expect("history").expect("recorded");
    (detail.interruptions.iter())
        .map(|i| (i.cause.clone(), i.resumed_by.clone(), i.waiting))
        .collect()
}

/// Resumes `run`, which waits for a person: the same run goes on to verified solved.
async fn resume_to_solved(daemon: &cubed::daemon::RunningDaemon, run: u64) {
    assert_eq!(
        daemon.handle.resume().await,
        Ok(run),
        "the same run goes on"
    );
    let solved = finished(&daemon.handle, run).await;
    assert_eq!(solved.state, DaemonState::Done, "{}", solved.message);
    assert!(daemon.sim.as_ref().expect("sim").cube().is_solved());
}

/// A cable that stays out longer than `[robot] reconnect_secs`: the run fails saying so, its
/// lost link is recorded as never resumed, and nothing waits for a person after a restart.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_link_that_never_comes_back_fails_the_run_and_leaves_nothing_waiting() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut config = super::config(dir.path(), "unplug-at-move=30,unplug-for=20s", 2.0);
    config.reconnect = std::time::Duration::from_secs(1);
    let daemon = super::start_with(&config).await;
    daemon.sim.as_ref().expect("sim").load_cube(random(14));
    let run = daemon.handle.start(StartSource::Web).await.expect("start");
    let end = finished(&daemon.handle, run).await;
    assert_eq!(end.state, DaemonState::Faulted, "{}", end.message);
    assert!(
        end.message.contains("did not come back within 1.0 s"),
        "{}",
        end.message
    );
    assert!(
        end.message
            .ends_with("start a new run (`cubed start`, or the page's Start)"),
        "what next: {}",
        end.message
    );
    let detail = daemon.handle.run(run).expect("history").expect("recorded");
    let [lost] = &detail.interruptions[..] else {
        panic!("one lost link recorded: {:?}", detail.interruptions);
    };
    assert_eq!((lost.cause.as_str(), lost.resumed_ms), ("link", None));
    // Faulted, and the status still says the robot is away and why.
    let away = daemon.handle.status().link;
    assert!(
        matches!(away.state, LinkState::Lost | LinkState::Unreachable) && away.problem.is_some(),
        "{away:?}"
    );
    daemon.shutdown().await;
    let again = super::start_with(&config).await;
    let status = again.handle.status();
    assert!(
        matches!(status.state, DaemonState::Idle | DaemonState::Faulted),
        "nothing waits after a restart: {status:?}"
    );
    again.shutdown().await;
}

/// An e-stop pressed while a run waits for a cable that stays out longer than the run waits:
/// the run ends e-stopped at once and waits for a person; the link gives up, and when the cable
/// is back the idle daemon's reconnect sends the stop, the run still waiting, and a new start
/// is refused until the stop is reset.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_e_stop_while_the_cable_stays_out_is_sent_when_it_is_back_and_the_run_waits() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut config = super::config(dir.path(), "unplug-at-move=30,unplug-for=6s", 2.0);
    config.reconnect = std::time::Duration::from_secs(2);
    let daemon = super::start_with(&config).await;
    daemon.sim.as_ref().expect("sim").load_cube(random(15));
    let run = daemon.handle.start(StartSource::Web).await.expect("start");
    wait_until(&daemon.handle, "paused", is(DaemonState::Paused)).await;
    daemon.handle.estop().await.expect("estop");
    let end = finished(&daemon.handle, run).await;
    assert_eq!(end.state, DaemonState::EStopped, "{}", end.message);
    assert_eq!(end.resumable, Some(run), "{}", end.message);
    let sent = wait_until(&daemon.handle, "the stop sent", |s| {
        s.message
            .contains("sent to the robot now that its link is open")
    })
    .await;
    assert_eq!(sent.link.state, LinkState::Open, "{:?}", sent.link);
    assert_eq!(sent.state, DaemonState::EStopped, "{}", sent.message);
    assert_eq!(sent.resumable, Some(run), "{}", sent.message);
    let refused = (daemon.handle.start(StartSource::Web).await).expect_err("latched");
    assert!(refused.reason.contains("reset"), "{}", refused.reason);
    daemon.shutdown().await;
}

/// A cable pulled while the robot homes at the start of a run (back while it still homes, or
/// only once it photographs): the run waits for it, goes on by itself and ends solved, with
/// one lost link recorded and resumed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unplug_while_homing_is_waited_for_and_recorded() {
    for at in [3, 5] {
        let dir = tempfile::tempdir().expect("temp dir");
        let faults = format!("unplug-at-move={at},unplug-for=300ms");
        let daemon = start(dir.path(), &faults, 2.0).await;
        daemon.sim.as_ref().expect("sim").load_cube(random(16));
        let run = daemon.handle.start(StartSource::Web).await.expect("start");
        let end = finished(&daemon.handle, run).await;
        assert_eq!(end.state, DaemonState::Done, "{at}: {}", end.message);
        let detail = daemon.handle.run(run).expect("history").expect("recorded");
        let [lost] = &detail.interruptions[..] else {
            panic!("{at}: one lost link recorded: {:?}", detail.interruptions);
        };
        assert_eq!(
            (lost.cause.as_str(), lost.resumed_by.as_deref()),
            ("link", Some("automatic")),
            "{at}"
        );
        daemon.shutdown().await;
    }
}

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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_emergency_stop_latches_until_reset() {
    let dir = tempfile::tempdir().expect("temp dir");
    let daemon = start(dir.path(), "", 10.0).await;
    daemon.sim.as_ref().expect("sim").load_cube(random(14));
    let run = daemon.handle.start(StartSource::Web).await.expect("start");
    wait_until(&daemon.handle, "executing", is(DaemonState::Executing)).await;
    daemon.handle.estop().await.expect("estop");
    let end = finished(&daemon.handle, run).await;
    assert_eq!(end.state, DaemonState::EStopped, "{}", end.message);
    assert!(!end.message.contains("button"), "{}", end.message);
    let detail = daemon.handle.run(run).expect("history").expect("recorded");
    assert_eq!(detail.summary.outcome.as_deref(), Some("estopped"));
    let refused = daemon
        .handle
        .start(StartSource::Web)
        .await
        .expect_err("latched");
    assert_eq!(refused.kind, RefusalKind::Conflict);
    assert!(refused.reason.contains("reset"), "{}", refused.reason);
    daemon.handle.reset().await.expect("reset");
    assert_eq!(daemon.handle.status().state, DaemonState::Idle);
    // An e-stop with no run: Resume and Start both send the person to Reset.
    daemon.handle.estop().await.expect("estop");
    let refused = daemon.handle.resume().await.expect_err("nothing waits");
    assert!(
        refused
            .reason
            .contains("reset the emergency stop, then start"),
        "{}",
        refused.reason
    );
    daemon.shutdown().await;
}

/// The robot's own e-stop button mid-run (nobody asked the daemon): the run waits e-stopped
/// and the advice, shown and recorded, names the button and its wiring; one asked for on the
/// page (above) does not.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_robots_own_e_stop_button_is_named_as_the_cause() {
    let dir = tempfile::tempdir().expect("temp dir");
    // Pressed for a moment only: released by the time a person resets.
    let daemon = start(dir.path(), "estop-at-move=40,estop-for=1ms", 10.0).await;
    daemon.sim.as_ref().expect("sim").load_cube(random(16));
    let counted_before = robot_estops_counted();
    let run = daemon.handle.start(StartSource::Web).await.expect("start");
    let end = finished(&daemon.handle, run).await;
    assert_eq!(end.state, DaemonState::EStopped, "{}", end.message);
    assert!(
        end.message.contains("the robot's e-stop button"),
        "{}",
        end.message
    );
    let detail = daemon.handle.run(run).expect("history").expect("recorded");
    let [pressed] = &detail.interruptions[..] else {
        panic!("one e-stop recorded: {:?}", detail.interruptions);
    };
    assert_eq!(pressed.cause, "estop");
    assert!(pressed.advice.contains("wire is loose"), "{pressed:?}");
    // Counted by its source (the registry is process-wide: at least this one).
    assert!(
        robot_estops_counted() > counted_before,
        "the robot's e-stop is counted"
    );
    // Abandoned: over now, and announced so.
    let mut events = daemon.handle.subscribe();
    daemon
        .handle
        .reset()
        .await
        .expect("reset, the button released");
    assert_eq!(super::announced(&mut events, run).await, "estopped");
    daemon.shutdown().await;
}

/// `cubed_estops_total{source="robot"}` in the daemon's metrics.
fn robot_estops_counted() -> f64 {
    super::counted("cubed_estops_total{source=\"robot\"}")
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

/// A configured port that is no serial port (`/dev/null`): the status says so naming
/// `[robot] port`, and a start is refused at once rather than failing a run a moment later.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_port_that_is_no_serial_port_is_named_and_a_start_is_refused() {
    use cubed::daemon::config::{CameraChoice, PortChoice};
    let dir = tempfile::tempdir().expect("temp dir");
    let mut config = super::config(dir.path(), "", 0.0);
    config.port = PortChoice::Serial("/dev/null".into());
    let photos = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/vision/photos/3x3x3-random-01");
    config.camera = CameraChoice::Dir(photos);
    let daemon = super::start_with(&config).await;
    let said = |s: &str| s.contains("[robot] port") && s.contains("not a serial port");
    let idle = wait_until(&daemon.handle, "the port is named", |s| said(&s.message)).await;
    assert!(
        idle.message.starts_with("cannot reach the robot"),
        "{}",
        idle.message
    );
    assert_eq!(idle.link.state, LinkState::Unreachable, "{:?}", idle.link);
    assert!(
        idle.link.problem.as_deref().is_some_and(said),
        "{:?}",
        idle.link
    );
    let refusal = daemon
        .handle
        .start(StartSource::Web)
        .await
        .expect_err("no robot to run");
    assert_eq!(refusal.kind, RefusalKind::Unavailable, "{}", refusal.reason);
    assert!(said(&refusal.reason), "{}", refusal.reason);
    let runs = daemon.handle.runs(10, None).expect("history");
    assert!(runs.is_empty(), "no run is recorded: {runs:?}");
    daemon.shutdown().await;
}

/// A cable pulled while idle: a start is refused while the link is lost (a run would only
/// wait for it in homing), and taken once the link is back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_start_while_the_idle_link_is_lost_is_refused_until_it_is_back() {
    let dir = tempfile::tempdir().expect("temp dir");
    let daemon = start(dir.path(), "unplug-for=2s", 0.0).await;
    let sim = daemon.sim.clone().expect("sim");
    sim.load_cube(random(17));
    wait_until(&daemon.handle, "link open", |s| {
        s.link.state == LinkState::Open
    })
    .await;
    sim.unplug();
    wait_until(&daemon.handle, "link lost", |s| {
        s.link.state == LinkState::Lost
    })
    .await;
    let refused = daemon
        .handle
        .start(StartSource::Web)
        .await
        .expect_err("lost");
    assert!(
        refused.reason.contains("link is lost"),
        "{}",
        refused.reason
    );
    wait_until(&daemon.handle, "link back", |s| {
        s.link.state == LinkState::Open
    })
    .await;
    let run = daemon.handle.start(StartSource::Web).await.expect("start");
    let end = finished(&daemon.handle, run).await;
    assert_eq!(end.state, DaemonState::Done, "{}", end.message);
    daemon.shutdown().await;
}

/// A cable pulled, and the robot restarted before it is back (its power cycled too): the
/// lost link's record ends when it comes back, to a restarted firmware, and the run waits
/// for Resume on the restart, a move having been cut.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_link_that_comes_back_to_a_restarted_robot_ends_its_record_and_waits() {
    let dir = tempfile::tempdir().expect("temp dir");
    let daemon = start(dir.path(), "unplug-at-move=30,unplug-for=2s", 2.0).await;
    let sim = daemon.sim.clone().expect("sim");
    sim.load_cube(random(12));
    let run = daemon.handle.start(StartSource::Web).await.expect("start");
    wait_until(&daemon.handle, "paused", is(DaemonState::Paused)).await;
    sim.reboot();
    let end = finished(&daemon.handle, run).await;
    assert_eq!(end.state, DaemonState::NeedsAttention, "{}", end.message);
    let told = interruptions_told(&daemon, run);
    let link_back = ("link".to_string(), Some("rebooted".to_string()), false);
    assert_eq!(told, [link_back, ("reboot".into(), None, true)]);
    let detail = daemon.handle.run(run).expect("history").expect("recorded");
    assert!(
        detail.interruptions[0].resumed_ms.is_some(),
        "when it came back"
    );
    resume_to_solved(&daemon, run).await;
    daemon.shutdown().await;
}
