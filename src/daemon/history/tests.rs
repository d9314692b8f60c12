//! Tests of the run history on real SQLite files in temporary directories: round trip, journal durability across a real crash, reopening, refusing foreign or newer files, photos.

use crate::daemon::cube_size::CubeSize;
use crate::daemon::docs::StartSource;
use crate::daemon::history::{History, HistoryError, DATABASE_FILE};
use image::{Rgb, RgbImage};
use serde_json::json;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;
use tempfile::TempDir;

const FACES: &str = "URFDLB";
/// Set for the child process of [`journal_survives_a_crash`]: the data directory to crash in.
const CRASH_DIR_VAR: &str = "CUBED_HISTORY_TEST_CRASH_DIR";

fn open(dir: &TempDir) -> History {
    History::open(dir.path()).expect("open the history")
}

fn photo(shade: u8) -> RgbImage {
    RgbImage::from_pixel(4, 3, Rgb([shade, 255 - shade, 7]))
}

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

/// Runs only as the child process of [`journal_survives_a_crash`], which sets the variable.
#[test]
#[ignore = "the crashing child of journal_survives_a_crash"]
fn crash_child() {
    let Some(dir) = std::env::var_os(CRASH_DIR_VAR) else {
        return;
    };
    let history = History::open(Path::new(&dir)).unwrap();
    let run = history
        .begin_run(StartSource::Button, "r", CubeSize::Three)
        .unwrap();
    for move_id in 1..=41 {
        history.journal_ack(run, move_id, 1).unwrap();
    }
    std::process::abort();
}

#[test]
fn journal_survives_a_crash() {
    let dir = TempDir::new().unwrap();
    // The child's test name, wherever this module stands (the path without the crate's name).
    let (_, module) = module_path!().split_once("::").expect("a module path");
    let child = format!("{module}::crash_child");
    let status = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", &child, "--ignored"])
        .env(CRASH_DIR_VAR, dir.path())
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(!status.success(), "the child must have aborted: {status}");

    // Read as `cubed history --data-dir` reads it, before any daemon opens it again: the
    // crashed run is there (it is only in the write-ahead log).
    let read_only = History::open_read_only(dir.path()).unwrap();
    let seen = read_only.list_runs(10).unwrap();
    assert_eq!(seen.len(), 1, "the crashed run, read without a writer");
    drop(read_only);

    let history = open(&dir);
    let interrupted = history.take_interrupted().unwrap();
    assert_eq!(interrupted.len(), 1);
    assert_eq!(interrupted[0].last_acked_move, Some(41));
    assert_eq!(
        interrupted[0].moves,
        Some(41),
        "the turns journaled with each ack"
    );
    assert_eq!(interrupted[0].outcome.as_deref(), Some("interrupted"));
    let error = interrupted[0].error.as_deref().unwrap();
    assert!(error.contains("after 41 face turns"), "{error}");
    assert_eq!(history.list_runs(1).unwrap(), interrupted);
    assert!(history.take_interrupted().unwrap().is_empty());
}

/// A run that ended waiting for a person still waits at the next open; one the daemon
/// crashed during does not, even with an interruption recorded as the crash came.
#[test]
fn only_a_run_that_ended_waiting_for_a_person_waits_after_a_reopen() {
    let dir = TempDir::new().unwrap();
    let run = {
        let history = open(&dir);
        let run = history
            .begin_run(StartSource::Web, "r", CubeSize::Three)
            .unwrap();
        let advice = "square the cube, press Resume";
        history
            .record_interruption(run, "estop", advice, true)
            .unwrap();
        history.finish_run(run, "estopped", Some("e-stop")).unwrap();
        run
    };
    let history = open(&dir);
    assert!(history.take_interrupted().unwrap().is_empty());
    let waiting = history.waiting_for_person().unwrap().expect("still waits");
    assert_eq!((waiting.run, waiting.cause.as_str()), (run, "estop"));
    drop(history);

    let crashed = {
        let history = open(&dir);
        history.record_resumption(run, "person").unwrap();
        let crashed = history
            .begin_run(StartSource::Web, "r", CubeSize::Three)
            .unwrap();
        history
            .record_interruption(crashed, "reboot", "square it", true)
            .unwrap();
        crashed
    };
    let history = open(&dir);
    let interrupted = history.take_interrupted().unwrap();
    assert_eq!(interrupted.first().map(|r| r.id), Some(crashed));
    assert!(history.waiting_for_person().unwrap().is_none());
}

/// The record shows the interruption a run waits on as waiting, until Resume (or a Reset), and
/// no earlier one; a run started since is another run, and an automatic one never waits.
#[test]
fn the_interruption_a_run_waits_on_is_shown_waiting_until_resumed() {
    let dir = TempDir::new().unwrap();
    let history = open(&dir);
    let waiting = |run: u64| -> Vec<bool> {
        let detail = history.run(run).unwrap().expect("recorded");
        detail.interruptions.iter().map(|i| i.waiting).collect()
    };
    let run = history
        .begin_run(StartSource::Web, "r", CubeSize::Three)
        .unwrap();
    history
        .record_interruption(run, "reboot", "goes on by itself", false)
        .unwrap();
    history.record_resumption(run, "automatic").unwrap();
    history
        .record_interruption(run, "estop", "square the cube, press Resume", true)
        .unwrap();
    assert_eq!(waiting(run), [false, false], "the run's task has not ended");
    history.finish_run(run, "estopped", Some("e-stop")).unwrap();
    assert_eq!(waiting(run), [false, true]);
    history.reopen_run(run).unwrap();
    history.record_resumption(run, "person").unwrap();
    assert_eq!(waiting(run), [false, false]);

    history
        .record_interruption(run, "fault", "clear it, press Resume", true)
        .unwrap();
    history.finish_run(run, "failed", Some("stall")).unwrap();
    assert_eq!(waiting(run), [false, false, true]);
    let next = history
        .begin_run(StartSource::Web, "r", CubeSize::Three)
        .unwrap();
    assert_eq!(
        waiting(run),
        [false, false, false],
        "run {next} began since"
    );
}

#[test]
fn dropped_history_leaves_the_run_interrupted_once() {
    let dir = TempDir::new().unwrap();
    let (acked, unacked) = {
        let history = open(&dir);
        let acked = history
            .begin_run(StartSource::Web, "r", CubeSize::Three)
            .unwrap();
        history.journal_ack(acked, 7, 1).unwrap();
        let unacked = history
            .begin_run(StartSource::Web, "r", CubeSize::Three)
            .unwrap();
        (acked, unacked)
    };
    let history = open(&dir);
    let live = history
        .begin_run(StartSource::Web, "r", CubeSize::Three)
        .unwrap();
    let interrupted = history.take_interrupted().unwrap();
    let found: Vec<(u64, Option<u32>)> = interrupted
        .iter()
        .map(|r| (r.id, r.last_acked_move))
        .collect();
    assert_eq!(found, [(acked, Some(7)), (unacked, None)]);
    // A run that turned nothing made 0 moves, as an ended one says (not an unknown count),
    // here and as read back.
    let moves: Vec<Option<u32>> = interrupted.iter().map(|r| r.moves).collect();
    assert_eq!(moves, [Some(1), Some(0)]);
    let read_back = history.run(unacked).unwrap().unwrap().summary.moves;
    assert_eq!(read_back, Some(0));
    let error = interrupted[1].error.as_deref().unwrap();
    assert_eq!(
        error,
        "the daemon stopped during this run (crash or power loss) before the robot \
         acknowledged any command; the cube state is unknown, so the next run rescans it"
    );
    assert!(history.take_interrupted().unwrap().is_empty());
    let live = history.run(live).unwrap().unwrap();
    assert_eq!(
        live.summary.outcome, None,
        "a run of this process is not taken"
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
    let next = history
        .begin_run(StartSource::Web, "r", CubeSize::Three)
        .unwrap();
    assert!(runs.iter().all(|r| r.id < next), "ids are never reused");
}

#[test]
fn a_garbage_file_is_refused_naming_it() {
    let dir = TempDir::new().unwrap();
    let path = dir.path().join(DATABASE_FILE);
    let garbage =
        b"this is not a database, just some text that fills more than a header ".repeat(20);
    std::fs::write(&path, &garbage).unwrap();
    let error = History::open(dir.path()).err().expect("refused");
    assert!(matches!(error, HistoryError::Open { .. }), "{error:?}");
    let message = error.to_string();
    assert!(message.contains(&path.display().to_string()), "{message}");
    assert!(message.contains("not an SQLite database"), "{message}");
    assert_eq!(std::fs::read(&path).unwrap(), garbage);
}

#[test]
fn a_version_2_history_gains_the_cube_of_each_new_run_and_keeps_its_old_runs() {
    let dir = TempDir::new().unwrap();
    let path = dir.path().join(DATABASE_FILE);
    {
        // The runs, images and interruptions tables as version 2 wrote them, typed here
        // independently of the migrations.
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch(
            "CREATE TABLE runs (id INTEGER PRIMARY KEY AUTOINCREMENT, started_ms INTEGER NOT NULL,
                 finished_ms INTEGER, source TEXT NOT NULL, robot TEXT NOT NULL, outcome TEXT,
                 error TEXT, moves INTEGER, last_acked_move INTEGER);
             CREATE TABLE images (run INTEGER NOT NULL REFERENCES runs (id),
                 attempt INTEGER NOT NULL, face TEXT NOT NULL, path TEXT NOT NULL,
                 PRIMARY KEY (run, attempt, face)) WITHOUT ROWID;
             CREATE TABLE interruptions (id INTEGER PRIMARY KEY, run INTEGER NOT NULL,
                 at_ms INTEGER NOT NULL, cause TEXT NOT NULL, advice TEXT NOT NULL,
                 needs_person INTEGER NOT NULL, resumed_ms INTEGER, resumed_by TEXT);
             INSERT INTO runs (started_ms, finished_ms, source, robot, outcome, moves)
                 VALUES (1000, 2000, 'web', 'four-arm', 'solved', 21);
             INSERT INTO images VALUES (1, 0, 'U', 'images/1/0-U.png');
             PRAGMA user_version = 2;",
        )
        .unwrap();
    }
    let history = History::open(dir.path()).expect("a version 2 history opens");
    let pocket = history
        .begin_run(StartSource::Web, "four-arm", CubeSize::Two)
        .unwrap();
    let runs = history.list_runs(10).unwrap();
    assert_eq!(runs.len(), 2);
    assert_eq!((runs[0].id, runs[0].cube.as_deref()), (pocket, Some("2x2")));
    assert_eq!(runs[1].cube, None);
    assert_eq!(runs[1].moves, Some(21));
    // The old photo has no sticker box; a new one gets its own.
    history.save_image(pocket, 0, 'F', &photo(3)).unwrap();
    history
        .record_grid(pocket, 0, 'F', [0.25, 0.125, 0.75, 0.875])
        .unwrap();
    let conn = rusqlite::Connection::open(&path).unwrap();
    let grids: Vec<Option<String>> = conn
        .prepare("SELECT grid FROM images ORDER BY run")
        .unwrap()
        .query_map([], |row| row.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(grids, [None, Some("[0.25,0.125,0.75,0.875]".to_string())]);
}

#[test]
fn a_grid_for_a_photo_never_recorded_is_no_error_and_a_broken_one_is_named() {
    let dir = TempDir::new().unwrap();
    let history = open(&dir);
    let run = history
        .begin_run(StartSource::Web, "four-arm", CubeSize::Three)
        .unwrap();
    history
        .record_grid(run, 0, 'U', [0.1, 0.1, 0.9, 0.9])
        .unwrap();
    let unknown = history.record_grid(run + 1, 0, 'U', [0.1, 0.1, 0.9, 0.9]);
    assert!(
        matches!(unknown, Err(HistoryError::UnknownRun(_))),
        "{unknown:?}"
    );
    history.save_image(run, 0, 'U', &photo(3)).unwrap();
    history
        .record_grid(run, 0, 'U', [0.1, 0.2, 0.9, 0.8])
        .unwrap();
    let kept = history.run(run).unwrap().expect("recorded");
    assert_eq!(kept.scans[0].images[0].grid, Some([0.1, 0.2, 0.9, 0.8]));
    let conn = rusqlite::Connection::open(dir.path().join(DATABASE_FILE)).unwrap();
    conn.execute("UPDATE images SET grid = '[0.9, 0.1, 0.1, 0.9]'", [])
        .unwrap();
    let error = history.run(run).expect_err("a box inside out");
    assert!(error.to_string().contains("images.grid"), "{error}");
}

#[test]
fn a_newer_schema_is_refused_untouched() {
    let dir = TempDir::new().unwrap();
    let path = dir.path().join(DATABASE_FILE);
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch(
            "CREATE TABLE future (x); INSERT INTO future VALUES (1); PRAGMA user_version = 99;",
        )
        .unwrap();
    }
    let before = std::fs::read(&path).unwrap();
    let error = History::open(dir.path()).err().expect("refused");
    assert!(
        matches!(error, HistoryError::NewerSchema { found: 99, .. }),
        "{error:?}"
    );
    assert!(error.to_string().contains(&path.display().to_string()));
    assert_eq!(std::fs::read(&path).unwrap(), before);
    assert!(!dir.path().join("cubed.sqlite-wal").exists());
}

#[test]
fn another_programs_database_is_refused() {
    let dir = TempDir::new().unwrap();
    let path = dir.path().join(DATABASE_FILE);
    rusqlite::Connection::open(&path)
        .unwrap()
        .execute_batch("CREATE TABLE runs (name TEXT);")
        .unwrap();
    let error = History::open(dir.path()).err().expect("refused");
    assert!(
        error.to_string().contains("not a cubed run history"),
        "{error}"
    );
}

#[test]
fn a_photo_taken_again_replaces_it_atomically_and_keeps_the_earlier_takes() {
    let dir = TempDir::new().unwrap();
    let history = open(&dir);
    let run = history
        .begin_run(StartSource::Web, "r", CubeSize::Three)
        .unwrap();
    history.save_image(run, 0, 'U', &photo(1)).unwrap();
    history.save_image(run, 0, 'U', &photo(100)).unwrap();
    history.save_image(run, 0, 'U', &photo(200)).unwrap();
    let path = history.image_path(run, 0, 'U').unwrap().expect("recorded");
    assert_eq!(path, dir.path().join(format!("images/{run}/0-U.png")));
    let saved = image::open(&path).unwrap().to_rgb8();
    assert_eq!(saved, photo(200));
    let files = std::fs::read_dir(path.parent().unwrap()).unwrap().count();
    assert_eq!(
        files, 3,
        "the photo and its two earlier takes, no temporary file"
    );
    for (take, value) in [(1, 1), (2, 100)] {
        let earlier = history
            .retaken_path(run, 0, 'U', take)
            .unwrap()
            .expect("kept");
        assert_eq!(image::open(&earlier).unwrap().to_rgb8(), photo(value));
    }
    let detail = history.run(run).unwrap().unwrap();
    assert_eq!(detail.scans[0].images.len(), 1);
    let takes: Vec<(char, u32, &str)> = (detail.scans[0].earlier.iter())
        .map(|p| (p.face, p.take, p.url.as_str()))
        .collect();
    let url = |take| format!("/api/runs/{run}/images/0/U/{take}");
    assert_eq!(
        takes,
        [('U', 1, url(1).as_str()), ('U', 2, url(2).as_str())]
    );
    // Pruned with the run's photos.
    history.set_retention(crate::daemon::config::Retention {
        keep_runs: 1,
        max_photo_bytes: 1,
    });
    let next = (history.begin_run(StartSource::Web, "r", CubeSize::Three)).unwrap();
    history.save_image(next, 0, 'U', &photo(5)).unwrap();
    let pruned = history.prune_photos().unwrap();
    assert_eq!((pruned.runs, pruned.files), (1, 3), "{pruned:?}");
    assert_eq!(history.retaken_path(run, 0, 'U', 1).unwrap(), None);
}

#[test]
fn unknown_photos_and_runs_are_reported() {
    let dir = TempDir::new().unwrap();
    let history = open(&dir);
    let run = history
        .begin_run(StartSource::Web, "r", CubeSize::Three)
        .unwrap();
    history.save_image(run, 0, 'U', &photo(1)).unwrap();
    assert_eq!(history.image_path(run, 0, 'R').unwrap(), None);
    assert_eq!(history.image_path(run, 1, 'U').unwrap(), None);
    assert_eq!(history.image_path(run + 1, 0, 'U').unwrap(), None);
    assert_eq!(history.image_path(u64::MAX, 0, 'U').unwrap(), None);
    let missing = run + 1;
    assert!(
        matches!(history.journal_ack(missing, 1, 0), Err(HistoryError::UnknownRun(r)) if r == missing)
    );
    assert!(matches!(
        history.save_image(missing, 0, 'U', &photo(1)),
        Err(HistoryError::UnknownRun(_))
    ));
    assert!(matches!(
        history.record_scan(missing, 0, None, None, &[], None),
        Err(HistoryError::UnknownRun(_))
    ));
    assert!(matches!(
        history.save_image(run, 0, 'X', &photo(1)),
        Err(HistoryError::BadFace('X'))
    ));
    assert!(matches!(
        history.finish_run(run, "won", None),
        Err(HistoryError::BadOutcome(_))
    ));
    assert!(matches!(
        history.record_step(run, "scan", 0, 0, f64::NAN),
        Err(HistoryError::BadDuration { .. })
    ));
}

#[test]
fn a_bad_column_is_an_error_naming_run_and_column() {
    let dir = TempDir::new().unwrap();
    let history = open(&dir);
    let run = history
        .begin_run(StartSource::Web, "r", CubeSize::Three)
        .unwrap();
    history
        .record_scan(run, 0, None, None, &[1.0], None)
        .unwrap();
    let conn = rusqlite::Connection::open(dir.path().join(DATABASE_FILE)).unwrap();
    conn.execute(
        "UPDATE scans SET confidence = '[1.0,' WHERE run = ?1",
        [run as i64],
    )
    .unwrap();
    let error = history.run(run).expect_err("bad JSON is an error");
    assert!(
        matches!(&error, HistoryError::BadRow { column, .. } if column == "scans.confidence"),
        "{error:?}"
    );
    assert!(error.to_string().contains(&format!("run {run}")), "{error}");
}

#[test]
fn shared_between_threads_every_write_lands() {
    let dir = TempDir::new().unwrap();
    let history = Arc::new(open(&dir));
    let threads: Vec<_> = (0..4)
        .map(|_| {
            let history = Arc::clone(&history);
            std::thread::spawn(move || {
                let run = history
                    .begin_run(StartSource::Web, "r", CubeSize::Three)
                    .unwrap();
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

/// Prints the cost of one durable journal write (no timing assertion: machines differ).
#[test]
fn journal_ack_cost() {
    let dir = TempDir::new().unwrap();
    let history = open(&dir);
    let run = history
        .begin_run(StartSource::Web, "r", CubeSize::Three)
        .unwrap();
    let durable = percentiles((1..=1000).map(|move_id| {
        let start = Instant::now();
        history.journal_ack(run, move_id, 1).unwrap();
        start.elapsed()
    }));
    // The same one-row update at synchronous = NORMAL: what the fsync costs.
    let unsynced = percentiles((1..=1000).map(|_| {
        let start = Instant::now();
        history.add_moves(run, 1).unwrap();
        start.elapsed()
    }));
    println!("journal_ack over 1000 calls (µs): {durable}; add_moves, not fsynced: {unsynced}");
    let summary = &history.list_runs(1).unwrap()[0];
    assert_eq!(summary.last_acked_move, Some(1000));
    assert_eq!(
        summary.moves,
        Some(2000),
        "one turn journaled with each ack, one added after"
    );
}

fn percentiles(times: impl Iterator<Item = std::time::Duration>) -> String {
    let mut micros: Vec<f64> = times.map(|t| t.as_secs_f64() * 1e6).collect();
    micros.sort_by(f64::total_cmp);
    let at = |q: f64| micros[((micros.len() - 1) as f64 * q) as usize];
    format!(
        "median {:.0}, p90 {:.0}, max {:.0}",
        at(0.5),
        at(0.9),
        at(1.0)
    )
}

/// An acknowledged command the disk refused to journal (here the database made read-only for
/// that write) still counts: its turns and id are written with the run's ending.
#[test]
fn turns_the_disk_refused_to_journal_are_written_with_the_ending() {
    let dir = TempDir::new().unwrap();
    let history = open(&dir);
    let run = (history.begin_run(StartSource::Web, "two-gripper", CubeSize::Three)).unwrap();
    history.journal_ack(run, 1, 1).unwrap();
    let refuse_writes = |on: bool| {
        let conn = history.lock().unwrap();
        conn.pragma_update(None, "query_only", on).unwrap();
    };
    refuse_writes(true);
    assert!(
        history.journal_ack(run, 2, 1).is_err(),
        "the write is refused"
    );
    assert!(history.journal_ack(run, 3, 0).is_err());
    refuse_writes(false);
    history.finish_run(run, "failed", Some("history")).unwrap();
    let summary = history.run(run).unwrap().expect("recorded").summary;
    assert_eq!((summary.moves, summary.last_acked_move), (Some(2), Some(3)));
    // One refused, then a later one journaled: that one is the last acknowledged.
    let run = (history.begin_run(StartSource::Web, "two-gripper", CubeSize::Three)).unwrap();
    refuse_writes(true);
    assert!(history.journal_ack(run, 4, 1).is_err());
    refuse_writes(false);
    history.journal_ack(run, 5, 1).unwrap();
    history.finish_run(run, "failed", Some("history")).unwrap();
    let summary = history.run(run).unwrap().expect("recorded").summary;
    assert_eq!((summary.moves, summary.last_acked_move), (Some(2), Some(5)));
}
