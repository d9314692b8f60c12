//! The data directory as a service owns it: one daemon per directory (a second one is refused and leaves the first one's live run alone), and a palette calibrated into it while the daemon runs read at the next start.

use super::{config, executing_with_done, finished, random, solver};
use cubed::daemon::{DaemonState, LaunchError, RunningDaemon, StartSource};
use std::path::Path;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_daemon_on_the_same_data_dir_is_refused_and_the_live_run_goes_on() {
    let dir = tempfile::tempdir().expect("temp dir");
    let first = RunningDaemon::start(&config(dir.path(), "", 10.0), solver())
        .await
        .expect("the first daemon starts");
    first.sim.as_ref().expect("sim").load_cube(random(31));
    let run = first.handle.start(StartSource::Web).await.expect("start");
    executing_with_done(&first.handle, 2).await;

    let second = RunningDaemon::start(&config(dir.path(), "", 0.0), solver()).await;
    let Err(error) = second else {
        panic!("a second daemon started on the same data directory");
    };
    assert!(matches!(error, LaunchError::Locked(_)), "{error:?}");
    let text = error.to_string();
    assert!(text.contains(&dir.path().display().to_string()), "{text}");
    assert!(
        text.contains(&format!("pid {}", std::process::id())),
        "{text}"
    );
    // A separately written witness: the kernel's own flock on the lock file is taken.
    let file = std::fs::File::open(dir.path().join("cubed.lock")).expect("lock file");
    let witness = nix::fcntl::Flock::lock(file, nix::fcntl::FlockArg::LockExclusiveNonblock);
    assert!(witness.is_err(), "the lock file is not locked");

    let end = finished(&first.handle, run).await;
    assert_eq!(end.state, DaemonState::Done, "{}", end.message);
    let detail = first.handle.run(run).expect("history").expect("recorded");
    assert_eq!(detail.summary.outcome.as_deref(), Some("solved"));
    first.shutdown().await;
    RunningDaemon::start(&config(dir.path(), "", 0.0), solver())
        .await
        .expect("the directory is free once the first daemon has stopped")
        .shutdown()
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_palette_calibrated_into_the_data_dir_while_running_is_read_at_the_next_start() {
    let dir = tempfile::tempdir().expect("temp dir");
    let daemon = RunningDaemon::start(&config(dir.path(), "", 0.0), solver())
        .await
        .expect("starts");
    let white = |daemon: &RunningDaemon| {
        let palette = daemon.handle.status().palette;
        palette
            .iter()
            .find(|c| c.name == "white")
            .map(|c| c.rgb.clone())
    };
    assert_eq!(
        white(&daemon).as_deref(),
        Some("#ebebeb"),
        "the shipped palette"
    );
    // As `cubed calibrate --output DATA_DIR/palette.toml` writes it: white a little darker.
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("config/palette.toml");
    let shipped = std::fs::read_to_string(shipped).expect("shipped palette");
    let calibrated = dir.path().join("palette.toml");
    let darker = shipped.replace("srgb = [235, 235, 235]", "srgb = [225, 226, 227]");
    std::fs::write(&calibrated, &darker).expect("written");
    daemon.sim.as_ref().expect("sim").load_cube(random(32));
    let run = daemon.handle.start(StartSource::Web).await.expect("start");
    assert_eq!(white(&daemon).as_deref(), Some("#e1e2e3"), "read again");
    let end = finished(&daemon.handle, run).await;
    assert_eq!(end.state, DaemonState::Done, "{}", end.message);
    // One that does not load: the start is refused, naming it, and nothing moves.
    std::fs::write(&calibrated, "[[colour]]\nname = 3\n").expect("written");
    let refused = daemon.handle.start(StartSource::Web).await;
    let reason = refused.expect_err("a broken palette").reason;
    assert!(
        reason.contains("calibrated palette") && reason.contains("palette.toml"),
        "{reason}"
    );
    daemon.shutdown().await;
}
