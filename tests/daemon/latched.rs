//! A daemon started on a robot that holds an emergency stop latched from before (a program
//! stopped by the e-stop button; a daemon restarted after an e-stop sees the same): it waits
//! e-stopped instead of retrying in vain, a Reset clears the latch at the next handshake and
//! the link opens. The robot is `cubed sim` in another process; its firmware core is the
//! witness that the latch was cleared (a later `cubed exec` runs without `--reset`).

use super::{finished, random, start, start_with, wait_until};
use crate::common::{cubed, start_sim, stderr};
use cubed::daemon::config::{CameraChoice, DaemonConfig, PortChoice};
use cubed::daemon::{DaemonState, EStopButtonDoc, LinkDoc, LinkState, StartSource};
use std::time::Duration;

/// The shipped config with its data in `dir`, on the robot at `link` (`cubed sim`) and with the
/// shipped photos as its camera (the simulated camera needs the simulated robot).
fn on_the_robot_at(dir: &std::path::Path, link: &std::path::Path) -> DaemonConfig {
    let mut config = super::config(&dir.join("data"), "", 0.0);
    config.port = PortChoice::Serial(link.to_path_buf());
    config.camera = CameraChoice::Dir(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/vision/photos/3x3x3-random-01"),
    );
    config
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_daemon_started_on_a_robot_latched_from_before_waits_for_reset_then_reaches_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (report, link) = (dir.path().join("report.json"), dir.path().join("robot"));
    let faults = "estop-at-move=2,estop-for=100ms";
    let mut sim = start_sim(&["--speed", "0", "--faults", faults], &report, &link);
    let port = link.to_string_lossy().into_owned();
    let stopped = cubed(&["exec", "--port", &port, "--moves", "R U"], None);
    assert_eq!(stopped.status.code(), Some(1), "{}", stderr(&stopped));
    // The button is let go (the latch stays): a Reset must not come while it is held.
    std::thread::sleep(Duration::from_millis(400));

    let daemon = start_with(&on_the_robot_at(dir.path(), &link)).await;
    let status = wait_until(&daemon.handle, "e-stopped", |s| {
        s.state == DaemonState::EStopped
    })
    .await;
    assert!(
        status.message.contains(
            "the robot holds the emergency stop latched from before the daemon reached it"
        ),
        "{}",
        status.message
    );
    assert!(status.message.contains("then reset"), "{}", status.message);
    let refused = (daemon.handle.start(StartSource::Web).await).expect_err("latched");
    assert!(refused.reason.contains("reset"), "{}", refused.reason);

    // Reset clears the latch at once (a fresh handshake that clears it first).
    daemon.handle.reset().await.expect("reset");
    assert_eq!(daemon.handle.status().state, DaemonState::Idle);
    daemon.shutdown().await;

    // The firmware itself no longer holds the latch: a program runs without --reset.
    let after = cubed(&["exec", "--port", &port, "--moves", "U F' F U'"], None);
    drop(sim.stdin.take());
    sim.wait().expect("the simulator exits");
    assert!(after.status.success(), "{}", stderr(&after));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reset_is_refused_while_the_e_stop_button_is_held_and_clears_once_it_is_let_go() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (report, link) = (dir.path().join("report.json"), dir.path().join("robot"));
    // Powered on with the button pressed; let go after 3 s.
    let faults = "estop-at-move=0,estop-for=3s";
    let mut sim = start_sim(&["--speed", "0", "--faults", faults], &report, &link);
    let daemon = start_with(&on_the_robot_at(dir.path(), &link)).await;
    wait_until(&daemon.handle, "e-stopped", |s| {
        s.state == DaemonState::EStopped
    })
    .await;
    let refused = daemon.handle.reset().await.expect_err("the button is held");
    assert!(
        refused.reason.contains("release the e-stop button"),
        "{}",
        refused.reason
    );
    let held = daemon.handle.status();
    assert_eq!(held.state, DaemonState::EStopped);
    // The status shows the button held, so a script can wait for its release.
    assert_eq!(held.link.state, LinkState::EStopHeld, "{:?}", held.link);
    assert_eq!(held.estop_button, Some(EStopButtonDoc::new(true)));
    // Let go: the status says so by itself (the robot's own report, read while the daemon
    // retries), the stop still latched; then one Reset clears it.
    let released = wait_until(&daemon.handle, "the button released", |s| {
        s.estop_button.as_ref().is_some_and(|b| !b.held)
    })
    .await;
    assert_eq!(
        released.state,
        DaemonState::EStopped,
        "{}",
        released.message
    );
    daemon.handle.reset().await.expect("reset once released");
    let after = daemon.handle.status();
    assert_eq!(after.state, DaemonState::Idle);
    assert_eq!(after.link, LinkDoc::open());
    assert_eq!(
        after.estop_button, None,
        "nothing left to say of the button"
    );
    daemon.shutdown().await;
    let after = cubed(
        &["exec", "--port", &link.to_string_lossy(), "--moves", "R R'"],
        None,
    );
    drop(sim.stdin.take());
    sim.wait().expect("the simulator exits");
    assert!(after.status.success(), "{}", stderr(&after));
}

/// A daemon started before its robot: the status says it cannot be reached, naming the port;
/// once the robot is plugged in (the simulator started) the status says it is reachable again
/// and the link is open, without a run to clear the old words. With an e-stop pressed
/// meanwhile, the stop is sent to the robot as soon as its link opens, and said so.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_robot_plugged_in_after_the_daemon_started_is_said_to_be_reachable() {
    for estop in [false, true] {
        let dir = tempfile::tempdir().expect("temp dir");
        let (report, link) = (dir.path().join("report.json"), dir.path().join("robot"));
        let daemon = start_with(&on_the_robot_at(dir.path(), &link)).await;
        let away = wait_until(&daemon.handle, "cannot reach", |s| {
            s.message.starts_with("cannot reach the robot")
        })
        .await;
        assert_eq!(away.link.state, LinkState::Unreachable, "{:?}", away.link);
        if estop {
            daemon.handle.estop().await.expect("estop");
            let stopped = daemon.handle.status();
            assert!(
                stopped.message.contains("cannot be reached now"),
                "{}",
                stopped.message
            );
        }
        let mut sim = start_sim(&["--speed", "0"], &report, &link);
        let back = wait_until(&daemon.handle, "the link open", |s| {
            s.link.state == LinkState::Open
        })
        .await;
        let said = if estop {
            "sent to the robot now that its link is open"
        } else {
            "reachable again"
        };
        assert!(back.message.contains(said), "{estop}: {}", back.message);
        if !estop {
            assert_eq!(daemon.handle.status().state, DaemonState::Idle);
        }
        daemon.shutdown().await;
        // The robot's own firmware is the witness that the stop went out: it holds it latched
        // and refuses a program until a reset.
        let port = link.to_string_lossy().into_owned();
        let after = cubed(&["exec", "--port", &port, "--moves", "R R'"], None);
        drop(sim.stdin.take());
        sim.wait().expect("the simulator exits");
        let latched = after.status.code() == Some(1) && stderr(&after).contains("emergency stop");
        assert_eq!(latched, estop, "{estop}: {}", stderr(&after));
    }
}

/// The robot's e-stop button pressed mid-run and held a while, with the link open all along:
/// the status shows it held, then released (the robot's own reports, read about twice a
/// second), the stop latched throughout; a Reset clears it and the button's line goes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_e_stop_buttons_level_is_shown_live_while_the_stop_is_latched() {
    let dir = tempfile::tempdir().expect("temp dir");
    // Held 30 s of the simulator's time: 3 s at ten times real time.
    let daemon = start(dir.path(), "estop-at-move=30,estop-for=30s", 10.0).await;
    daemon.sim.as_ref().expect("sim").load_cube(random(21));
    let run = daemon.handle.start(StartSource::Web).await.expect("start");
    let held = wait_until(&daemon.handle, "the button held", |s| {
        s.estop_button.as_ref().is_some_and(|b| b.held)
    })
    .await;
    assert_eq!(held.link.state, LinkState::Open, "{:?}", held.link);
    let end = finished(&daemon.handle, run).await;
    assert_eq!(end.state, DaemonState::EStopped, "{}", end.message);
    let released = wait_until(&daemon.handle, "the button released", |s| {
        s.estop_button.as_ref().is_some_and(|b| !b.held)
    })
    .await;
    assert_eq!(released.state, DaemonState::EStopped, "still latched");
    assert!(
        released
            .estop_button
            .expect("shown")
            .line
            .contains("until a Reset"),
        "the line says the stop is still latched"
    );
    daemon
        .handle
        .reset()
        .await
        .expect("reset, the button released");
    assert_eq!(daemon.handle.status().estop_button, None);
    daemon.shutdown().await;
}
