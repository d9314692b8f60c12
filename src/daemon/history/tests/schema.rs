//! Files that are not a current history: garbage, another program's database and a newer schema refused untouched; a version 2 history migrated, its old runs kept.

use super::photo;
use crate::daemon::cube_size::CubeSize;
use crate::daemon::docs::StartSource;
use crate::daemon::history::{History, HistoryError, DATABASE_FILE};
use tempfile::TempDir;

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
