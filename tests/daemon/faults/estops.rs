//! The emergency stop in runs: latched until reset, pressed while the link is lost (said unreached, sent when the cable is back), and the robot's own button named as the cause.

use super::{interruptions_told, resume_to_solved};
use crate::daemon::{finished, is, random, start, wait_until};
use cubed::daemon::{DaemonEvent, DaemonState, LinkState, RefusalKind, StartSource};

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
