//! The history's disk for real: a small tmpfs filled up mid-run (the run stops safely, its ending is recorded once space returns), a daemon started on a full disk (read-only, no crash), and photos pruned to `[history] keep_runs`. Mounting needs root: without it these tests say loudly that they did not run, and `CUBED_REQUIRE_DISK_TESTS=1` makes that a failure.

use super::{config, executing_with_done, finished, random, solver, wait_for_outcome, wait_until};
use cubed::daemon::config::{CubeSize, Retention};
use cubed::daemon::{DaemonState, RunningDaemon, StartSource};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A tmpfs of `mb` MB, unmounted when dropped.
struct SmallDisk {
    dir: tempfile::TempDir,
}

impl SmallDisk {
    fn mount(mb: u32) -> Option<SmallDisk> {
        let dir = tempfile::tempdir().expect("temp dir");
        let status = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={mb}m"), "tmpfs"])
            .arg(dir.path())
            .status();
        if status.is_ok_and(|s| s.success()) {
            return Some(SmallDisk { dir });
        }
        super::root_tests_not_run(
            "the disk-full tests: cannot mount a tmpfs here (they need root)",
        );
        None
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Writes a file until the disk refuses more; returns its path.
    fn fill(&self) -> PathBuf {
        let path = self.path().join("filler");
        let mut file = std::fs::File::create(&path).expect("filler");
        let block = vec![0x5a_u8; 64 * 1024];
        while file.write_all(&block).is_ok() {}
        let _ = file.write_all(&[0]);
        path
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(self.dir.path()).status();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_disk_filling_mid_run_stops_the_run_and_its_ending_is_recorded_once_space_returns() {
    let Some(disk) = SmallDisk::mount(32) else {
        return;
    };
    let data = disk.path().join("data");
    let daemon = RunningDaemon::start(&config(&data, "", 4.0), solver())
        .await
        .expect("starts");
    daemon.sim.as_ref().expect("sim").load_cube(random(41));
    let run = daemon.handle.start(StartSource::Web).await.expect("start");
    executing_with_done(&daemon.handle, 2).await;
    wait_until(&daemon.handle, "a face turned", |s| {
        s.progress.as_ref().is_some_and(|p| p.moves_done >= 1)
    })
    .await;
    let filler = disk.fill();
    wait_until(&daemon.handle, "the run ends", |s| {
        s.run == Some(run) && !s.state.is_busy()
    })
    .await;
    // The page says the run failed for its history, not that someone stopped it.
    let status = daemon.handle.status();
    let turned = status.progress.as_ref().map(|p| p.moves_done);
    assert_eq!(status.state, DaemonState::Faulted, "{}", status.message);
    assert!(
        status
            .message
            .contains("failed: the run history could not be written ("),
        "the write that failed is said: {}",
        status.message
    );
    assert!(
        status
            .message
            .contains("free space where the run history is kept"),
        "{}",
        status.message
    );
    std::fs::remove_file(&filler).expect("space returns");
    let detail = wait_for_outcome(&daemon.handle, run).await;
    assert_eq!(
        detail.summary.outcome.as_deref(),
        Some("failed"),
        "{detail:?}"
    );
    // Every turn made is counted, the one whose journaling the full disk refused too: the
    // record agrees with the turns the daemon saw acknowledged live.
    assert!(turned.is_some_and(|t| t >= 1), "{turned:?}");
    assert_eq!(
        detail.summary.moves.map(|m| m as usize),
        turned,
        "{detail:?}"
    );
    let error = detail.summary.error.unwrap_or_default();
    assert!(error.contains("could not be written"), "{error}");
    // With space back, the next run works.
    daemon.sim.as_ref().expect("sim").load_cube(random(42));
    let next = daemon.handle.start(StartSource::Web).await.expect("start");
    let end = finished(&daemon.handle, next).await;
    assert_eq!(end.state, DaemonState::Done, "{}", end.message);
    daemon.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_daemon_started_on_a_full_disk_runs_read_only_and_says_so() {
    let Some(disk) = SmallDisk::mount(16) else {
        return;
    };
    let data = disk.path().join("data");
    // A run left open (as by a crash) gives the start-up something it must write.
    {
        let history = cubed::daemon::History::open(&data).expect("history");
        history
            .begin_run(StartSource::Web, "four-arm", CubeSize::Three)
            .expect("a run");
    }
    let filler = disk.fill();
    let daemon = RunningDaemon::start(&config(&data, "", 0.0), solver())
        .await
        .expect("a full disk does not stop the daemon from starting");
    let notice = daemon.handle.status().notice.unwrap_or_default();
    assert!(notice.contains("read-only"), "{notice}");
    assert!(notice.contains(&data.display().to_string()), "{notice}");
    let message = daemon.handle.status().message;
    assert!(message.starts_with("not ready"), "{message}");
    assert!(
        daemon.handle.status().history_read_only,
        "`cubed status` exits 3 on it"
    );
    let refused = daemon.handle.start(StartSource::Web).await;
    let reason = refused
        .expect_err("a run cannot be recorded, so none starts")
        .reason;
    assert!(reason.starts_with("not ready: "), "{reason}");
    assert!(reason.contains(&data.display().to_string()), "{reason}");
    let old = daemon
        .handle
        .runs(10, None)
        .expect("the history is still readable");
    assert_eq!(old.len(), 1, "{old:?}");
    daemon.shutdown().await;
    std::fs::remove_file(&filler).expect("space returns");
    let daemon = RunningDaemon::start(&config(&data, "", 0.0), solver())
        .await
        .expect("restarts once space is back");
    daemon.sim.as_ref().expect("sim").load_cube(random(43));
    let run = daemon.handle.start(StartSource::Web).await.expect("start");
    let end = finished(&daemon.handle, run).await;
    assert_eq!(end.state, DaemonState::Done, "{}", end.message);
    daemon.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_disk_without_room_for_a_runs_photos_is_said_at_start_up_and_no_run_starts_until_there_is(
) {
    let Some(disk) = SmallDisk::mount(16) else {
        return;
    };
    let data = disk.path().join("data");
    // A history with nothing to write at start-up (no run left open), its log files kept
    // (as a reader keeps them) so that it opens, then the disk filled.
    let reader = cubed::daemon::History::open(&data).expect("history");
    let filler = disk.fill();
    let daemon = RunningDaemon::start(&config(&data, "", 0.0), solver())
        .await
        .expect("a full disk does not stop the daemon from starting");
    let status = daemon.handle.status();
    assert!(
        status.message.starts_with("not ready"),
        "{}",
        status.message
    );
    assert!(status.history_read_only, "`cubed status` exits 3 on it");
    let notice = status.notice.unwrap_or_default();
    assert!(
        notice.contains("MB free on the disk under")
            && notice.contains(&data.display().to_string()),
        "{notice}"
    );
    let refused = daemon.handle.start(StartSource::Web).await;
    let reason = refused.expect_err("no room for a run").reason;
    assert!(reason.contains("MB free"), "{reason}");
    assert!(daemon.handle.status().history_read_only);
    // Space comes back: the status says so by itself, and the next start runs, without a
    // restart.
    std::fs::remove_file(&filler).expect("space returns");
    let ready = wait_until(&daemon.handle, "room again", |s| !s.history_read_only).await;
    assert!(
        ready.message.starts_with("ready") && ready.notice.is_none(),
        "{ready:?}"
    );
    daemon.sim.as_ref().expect("sim").load_cube(random(44));
    let run = daemon.handle.start(StartSource::Web).await.expect("start");
    assert!(!daemon.handle.status().history_read_only);
    let end = finished(&daemon.handle, run).await;
    assert_eq!(end.state, DaemonState::Done, "{}", end.message);
    daemon.shutdown().await;
    drop(reader);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn photos_of_old_runs_are_pruned_to_keep_runs_and_their_records_stay() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut settings = config(dir.path(), "", 0.0);
    settings.retention = Retention {
        keep_runs: 2,
        max_photo_bytes: 1_000_000_000,
    };
    let daemon = RunningDaemon::start(&settings, solver())
        .await
        .expect("starts");
    let mut runs = Vec::new();
    for seed in 51..55 {
        daemon.sim.as_ref().expect("sim").load_cube(random(seed));
        let run = daemon.handle.start(StartSource::Web).await.expect("start");
        finished(&daemon.handle, run).await;
        runs.push(run);
    }
    // Witness: the photo directories on disk, counted apart from the database.
    let images = dir.path().join("images");
    let mut on_disk: Vec<u64> = std::fs::read_dir(&images)
        .expect("images dir")
        .flatten()
        .filter(|e| std::fs::read_dir(e.path()).is_ok_and(|mut d| d.next().is_some()))
        .filter_map(|e| e.file_name().to_str()?.parse().ok())
        .collect();
    on_disk.sort();
    assert_eq!(
        on_disk,
        runs[2..].to_vec(),
        "only the newest two keep photos"
    );
    for &run in &runs {
        let detail = daemon.handle.run(run).expect("history").expect("kept");
        assert_eq!(detail.summary.outcome.as_deref(), Some("solved"));
        let photos: usize = detail.scans.iter().map(|s| s.images.len()).sum();
        let kept = runs[2..].contains(&run);
        assert_eq!(photos > 0, kept, "run {run}");
        // A pruned run says so, with as many photos as a kept run has (six faces per scan).
        match (&detail.photos_pruned, kept) {
            (None, true) => {}
            (Some(p), false) => {
                assert_eq!(
                    p.photos as usize,
                    6 * detail.scans.len(),
                    "run {run}: {p:?}"
                );
                assert!(
                    p.at_ms >= detail.summary.finished_ms.unwrap_or(i64::MAX),
                    "{p:?}"
                );
            }
            (pruned, kept) => panic!("run {run}: kept {kept}, marked {pruned:?}"),
        }
    }
    // Asked for over HTTP, a pruned photo is said to be pruned, not merely missing.
    let (addr, server) = super::serve_web(&daemon).await;
    let (status, body) = super::http::get(addr, &format!("/api/runs/{}/images/0/U", runs[0])).await;
    let body = String::from_utf8_lossy(&body);
    assert_eq!(status, 404, "{body}");
    assert!(
        body.contains("photos were removed") && body.contains("keep_runs"),
        "{body}"
    );
    daemon.shutdown().await;
    let _ = server.await;
}
