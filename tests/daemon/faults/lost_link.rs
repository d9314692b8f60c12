//! Runs and a lost link: an unplug mid-run or while homing waited for and resumed, a cable that never comes back, a start refused while the link is lost or the port is no serial port, a link back to a restarted robot.

use super::{interruptions_told, record_states, resume_to_solved};
use crate::daemon::{finished, is, random, start, wait_until};
use cubed::daemon::{DaemonState, LinkState, RefusalKind, StartSource};

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

/// A configured port that is no serial port (`/dev/null`): the status says so naming
/// `[robot] port`, and a start or a calibration is refused at once rather than failing a run
/// a moment later.
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
    // A calibration is refused for the same reason, not as a daemon shutting down.
    let refusal = daemon.handle.calibrate().await.expect_err("no robot");
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
