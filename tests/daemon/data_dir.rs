//! The data directory as a service owns it: one daemon per directory (a second one is refused and leaves the first one's live run alone).

use super::{config, executing_with_done, finished, random, solver};
use cubed::daemon::{DaemonState, LaunchError, RunningDaemon, StartSource};

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
