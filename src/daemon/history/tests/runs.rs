//! Runs recorded and read back: everything a run records round-trips, lists newest first and by page, a reader alongside the daemon, reopening, writers on several threads.

use super::{new_run, open, photo};
use crate::daemon::cube_size::CubeSize;
use crate::daemon::docs::StartSource;
use crate::daemon::history::{History, DATABASE_FILE};
use serde_json::json;
use std::sync::Arc;
use tempfile::TempDir;

const FACES: &str = "URFDLB";

fn readings() -> [[u8; 3]; 54] {
    std::array::from_fn(|i| [i as u8, (i * 2) as u8, (255 - i) as u8])
}

fn solved_facelets() -> String {
    FACES
        .chars()
        .flat_map(|f| std::iter::repeat_n(f, 9))
        .collect()
}

#[test]
fn round_trip_returns_everything_recorded() {
    let dir = TempDir::new().unwrap();
    let history = open(&dir);
    let run = history
        .begin_run(StartSource::Web, "two-gripper", CubeSize::Three)
        .unwrap();
    for face in FACES.chars() {
        let url = history.save_image(run, 0, face, &photo(10)).unwrap();
        assert_eq!(url, format!("/api/runs/{run}/images/0/{face}"));
    }
    history.save_image(run, 1, 'F', &photo(20)).unwrap();
    let mut confidence: Vec<f32> = (0..54).map(|i| i as f32 / 4.0).collect();
    confidence[4] = f32::INFINITY;
    let facelets = solved_facelets();
    history
        .record_scan(
            run,
            0,
            Some(&readings()),
            Some(&facelets),
            &confidence,
            None,
        )
        .unwrap();
    history
        .record_scan(run, 1, None, None, &[], Some("no grid found"))
        .unwrap();
    let program = json!({"commands": [{"id": 1, "action": "grip"}], "ms": 1234});
    history
        .record_solution(run, 0, "R U R'", 3, &program, 1234)
        .unwrap();
    history.record_step(run, "scan", 0, 1_000, 812.5).unwrap();
    history.record_step(run, "solve", 0, 1_900, 3.25).unwrap();
    for move_id in 1..=9 {
        // Every third command completes a face turn.
        history
            .journal_ack(run, move_id, u32::from(move_id % 3 == 0))
            .unwrap();
    }
    history
        .finish_run(run, "failed", Some("verify failed"))
        .unwrap();

    let detail = history.run(run).unwrap().expect("the run is recorded");
    let summary = &detail.summary;
    assert_eq!(summary.id, run);
    assert_eq!(summary.source, "web");
    assert_eq!(summary.cube.as_deref(), Some("3x3"));
    assert_eq!(summary.outcome.as_deref(), Some("failed"));
    assert_eq!(summary.error.as_deref(), Some("verify failed"));
    assert_eq!(summary.moves, Some(3));
    assert_eq!(summary.last_acked_move, Some(9));
    assert!(summary.finished_ms.is_some_and(|f| f >= summary.started_ms));

    assert_eq!(detail.scans.len(), 2);
    let first = &detail.scans[0];
    assert_eq!(first.readings, readings().to_vec());
    assert_eq!(first.facelets.as_deref(), Some(facelets.as_str()));
    assert_eq!(first.confidence, confidence);
    let faces: String = first.images.iter().map(|p| p.face).collect();
    assert_eq!(faces, FACES);
    let front = &first.images[2];
    assert_eq!(front.url, format!("/api/runs/{run}/images/0/F"));
    assert_eq!(front.stickers.len(), 9);
    assert_eq!(front.stickers[0].symbol, 'F');
    assert_eq!(front.stickers[0].rgb, "#1224ed"); // sticker 18
    assert_eq!(front.stickers[0].confidence, 4.5);
    assert_eq!(first.images[0].stickers[4].confidence, f32::INFINITY);

    let rescan = &detail.scans[1];
    assert_eq!(rescan.error.as_deref(), Some("no grid found"));
    assert!(rescan.readings.is_empty() && rescan.facelets.is_none());
    assert_eq!(rescan.images.len(), 1);
    assert!(rescan.images[0].stickers.is_empty());

    assert_eq!(detail.solutions.len(), 1);
    assert_eq!(detail.solutions[0].solution, "R U R'");
    assert_eq!(detail.solutions[0].moves, 3);
    assert_eq!(detail.solutions[0].program, program);
    assert_eq!(detail.solutions[0].planned_ms, 1234);
    let steps: Vec<(&str, i64, f64)> = detail
        .steps
        .iter()
        .map(|s| (s.name.as_str(), s.started_ms, s.ms))
        .collect();
    assert_eq!(steps, [("scan", 1_000, 812.5), ("solve", 1_900, 3.25)]);
}

#[test]
fn a_reader_sees_every_run_a_daemon_has_written_while_it_runs() {
    let dir = TempDir::new().unwrap();
    let history = open(&dir);
    let ids: Vec<u64> = (0..3)
        .map(|_| (history.begin_run(StartSource::Cli, "r", CubeSize::Three)).unwrap())
        .collect();
    let reader = History::open_read_only(dir.path()).unwrap();
    let listed: Vec<u64> = reader.list_runs(10).unwrap().iter().map(|r| r.id).collect();
    assert_eq!(listed, [ids[2], ids[1], ids[0]]);
    let wal = dir.path().join(format!("{DATABASE_FILE}-wal"));
    assert!(wal.exists(), "the runs are in the write-ahead log");
}

#[test]
fn list_runs_is_newest_first_and_limited() {
    let dir = TempDir::new().unwrap();
    let history = open(&dir);
    let ids: Vec<u64> = (0..4)
        .map(|_| {
            history
                .begin_run(StartSource::Cli, "r", CubeSize::Three)
                .unwrap()
        })
        .collect();
    let listed: Vec<u64> = history.list_runs(3).unwrap().iter().map(|r| r.id).collect();
    assert_eq!(listed, [ids[3], ids[2], ids[1]]);
    assert_eq!(history.list_runs(100).unwrap().len(), 4);
    assert!(history.list_runs(0).unwrap().is_empty());
    assert!(history.run(999).unwrap().is_none());
    // Pages: each the runs before the last of the page before, until none are left.
    let mut paged = Vec::new();
    let mut before = None;
    loop {
        let page = history.list_runs_before(3, before).unwrap();
        let Some(last) = page.last() else { break };
        before = Some(last.id);
        paged.extend(page.iter().map(|r| r.id));
    }
    assert_eq!(paged, [ids[3], ids[2], ids[1], ids[0]]);
    assert_eq!(
        history.list_runs_before(10, Some(u64::MAX)).unwrap().len(),
        4
    );
}

#[test]
fn reopening_keeps_all_runs() {
    let dir = TempDir::new().unwrap();
    {
        let history = open(&dir);
        for _ in 0..3 {
            let run = history
                .begin_run(StartSource::DryRun, "r", CubeSize::Three)
                .unwrap();
            history.finish_run(run, "solved", None).unwrap();
        }
    }
    let history = open(&dir);
    let runs = history.list_runs(10).unwrap();
    assert_eq!(runs.len(), 3);
    assert!(runs.iter().all(|r| r.outcome.as_deref() == Some("solved")));
    assert!(runs
        .iter()
        .all(|r| r.source == "dry_run" && r.moves == Some(0)));
    let next = new_run(&history);
    assert!(runs.iter().all(|r| r.id < next), "ids are never reused");
}

#[test]
fn shared_between_threads_every_write_lands() {
    let dir = TempDir::new().unwrap();
    let history = Arc::new(open(&dir));
    let threads: Vec<_> = (0..4)
        .map(|_| {
            let history = Arc::clone(&history);
            std::thread::spawn(move || {
                let run = new_run(&history);
                for move_id in 1..=20 {
                    history.journal_ack(run, move_id, 1).unwrap();
                    history.list_runs(5).unwrap();
                }
                history.finish_run(run, "solved", None).unwrap();
            })
        })
        .collect();
    for thread in threads {
        thread.join().unwrap();
    }
    let runs = history.list_runs(10).unwrap();
    assert_eq!(runs.len(), 4);
    assert!(runs.iter().all(|r| r.last_acked_move == Some(20)));
}
