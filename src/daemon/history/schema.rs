//! The run history's SQLite file: opening it, its pragmas, and the versioned schema (`PRAGMA user_version`) with its migrations.

use crate::daemon::history::error::HistoryError;
use cubed_core::error_chain::error_chain;
use rusqlite::{Connection, TransactionBehavior};
use std::path::Path;
use std::time::Duration;

/// Schema version this build writes, and the newest it can read.
pub(crate) const SCHEMA_VERSION: i64 = 7;

/// `MIGRATIONS[v]` takes the schema from version `v` to `v + 1`; append, never edit.
const MIGRATIONS: [&str; SCHEMA_VERSION as usize] = [
    SCHEMA_V1, SCHEMA_V2, SCHEMA_V3, SCHEMA_V4, SCHEMA_V5, SCHEMA_V6, SCHEMA_V7,
];

/// Version 1. Ids grow monotonically (AUTOINCREMENT), so "newest first" never depends on the
/// wall clock. Readings are 162 bytes (54 × RGB; 72 for a 2x2); confidences and programs are JSON text.
const SCHEMA_V1: &str = "
CREATE TABLE runs (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    started_ms      INTEGER NOT NULL,
    finished_ms     INTEGER,
    source          TEXT    NOT NULL,
    robot           TEXT    NOT NULL,
    outcome         TEXT,
    error           TEXT,
    moves           INTEGER,
    last_acked_move INTEGER
);
CREATE INDEX runs_unfinished ON runs (id) WHERE outcome IS NULL;
CREATE TABLE images (
    run     INTEGER NOT NULL REFERENCES runs (id),
    attempt INTEGER NOT NULL,
    face    TEXT    NOT NULL,
    path    TEXT    NOT NULL,
    PRIMARY KEY (run, attempt, face)
) WITHOUT ROWID;
CREATE TABLE scans (
    run        INTEGER NOT NULL REFERENCES runs (id),
    attempt    INTEGER NOT NULL,
    readings   BLOB,
    facelets   TEXT,
    confidence TEXT    NOT NULL,
    error      TEXT,
    PRIMARY KEY (run, attempt)
) WITHOUT ROWID;
CREATE TABLE solutions (
    run        INTEGER NOT NULL REFERENCES runs (id),
    attempt    INTEGER NOT NULL,
    solution   TEXT    NOT NULL,
    moves      INTEGER NOT NULL,
    program    TEXT    NOT NULL,
    planned_ms INTEGER NOT NULL,
    PRIMARY KEY (run, attempt)
) WITHOUT ROWID;
CREATE TABLE steps (
    id         INTEGER PRIMARY KEY,
    run        INTEGER NOT NULL REFERENCES runs (id),
    name       TEXT    NOT NULL,
    attempt    INTEGER NOT NULL,
    started_ms INTEGER NOT NULL,
    ms         REAL    NOT NULL
);
CREATE INDEX steps_by_run ON steps (run, id);
";

/// Version 2: each interruption of a run (e-stop, fault, firmware reboot) and how it went on.
const SCHEMA_V2: &str = "
CREATE TABLE interruptions (
    id           INTEGER PRIMARY KEY,
    run          INTEGER NOT NULL REFERENCES runs (id),
    at_ms        INTEGER NOT NULL,
    cause        TEXT    NOT NULL,
    advice       TEXT    NOT NULL,
    needs_person INTEGER NOT NULL,
    resumed_ms   INTEGER,
    resumed_by   TEXT
);
CREATE INDEX interruptions_by_run ON interruptions (run, id);
";

/// Version 3: the cube each run was for ("3x3" or "2x2"; NULL for runs recorded before).
const SCHEMA_V3: &str = "
ALTER TABLE runs ADD COLUMN cube TEXT;
";

/// Version 4: where each photo's stickers were found, `[left, top, right, bottom]` as JSON
/// fractions of the photo as shown (NULL until it is read, and for photos recorded before).
const SCHEMA_V4: &str = "
ALTER TABLE images ADD COLUMN grid TEXT;
";

/// Version 5: how many of a run's photos were pruned to keep the history within its limits,
/// and when (NULL for a run whose photos were never pruned).
const SCHEMA_V5: &str = "
ALTER TABLE runs ADD COLUMN photos_pruned INTEGER;
ALTER TABLE runs ADD COLUMN photos_pruned_ms INTEGER;
";

/// Version 6: the photos a scan replaced when it took a face again (its stickers in doubt, a
/// stop darker or brighter): take 1 is the face's first photo, and so on; `images` keeps the
/// one the scan was read from.
const SCHEMA_V6: &str = "
CREATE TABLE retaken (
    run     INTEGER NOT NULL REFERENCES runs (id),
    attempt INTEGER NOT NULL,
    face    TEXT    NOT NULL,
    take    INTEGER NOT NULL,
    path    TEXT    NOT NULL,
    PRIMARY KEY (run, attempt, face, take)
) WITHOUT ROWID;
";

/// Version 7: what each calibration that succeeded made (its palette, each colour's ΔE00
/// before and after, where it was saved, what to mend), as the JSON the page receives.
const SCHEMA_V7: &str = "
CREATE TABLE calibrations (
    run INTEGER PRIMARY KEY REFERENCES runs (id),
    doc TEXT    NOT NULL
);
";

/// Opens `path`, refusing files that are not a cubed history of a version this build knows,
/// before anything is written to them; then sets the pragmas and migrates to [`SCHEMA_VERSION`].
pub(crate) fn open_database(path: &Path) -> Result<Connection, HistoryError> {
    let failed = |e: rusqlite::Error| open_error(path, e);
    let mut conn = Connection::open(path).map_err(failed)?;
    // SQLite opens a file this user may not write read-only, without a word: every run would
    // then fail to be recorded, blamed on the disk.
    if conn.is_readonly(rusqlite::MAIN_DB).map_err(failed)? {
        return Err(not_writable(path));
    }
    conn.busy_timeout(Duration::from_secs(5)).map_err(failed)?;
    let found = schema_version(&conn).map_err(failed)?;
    refuse_foreign(path, &conn, found)?;
    configure(&conn).map_err(failed)?;
    if found < SCHEMA_VERSION {
        migrate(path, &mut conn)?;
    }
    Ok(conn)
}

fn schema_version(conn: &Connection) -> rusqlite::Result<i64> {
    conn.query_row("PRAGMA user_version", [], |row| row.get(0))
}

/// A newer schema, or a non-empty database that is not ours: left untouched.
fn refuse_foreign(path: &Path, conn: &Connection, found: i64) -> Result<(), HistoryError> {
    if found > SCHEMA_VERSION {
        return Err(HistoryError::NewerSchema {
            path: path.to_path_buf(),
            found,
            supported: SCHEMA_VERSION,
        });
    }
    let tables: i64 = conn
        .query_row("SELECT count(*) FROM sqlite_schema", [], |row| row.get(0))
        .map_err(|e| open_error(path, e))?;
    if found == 0 && tables > 0 {
        return Err(HistoryError::Open {
            path: path.to_path_buf(),
            message: "is an SQLite database but not a cubed run history (it has tables and no \
                      schema version); it was left untouched"
                .into(),
        });
    }
    Ok(())
}

/// WAL so web readers never block the daemon; NORMAL sync except where the journal asks for FULL.
fn configure(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch(
        "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;",
    )
}

/// Applies the missing migrations in one transaction (another process may be migrating too).
fn migrate(path: &Path, conn: &mut Connection) -> Result<(), HistoryError> {
    let failed = |e: rusqlite::Error| open_error(path, e);
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(failed)?;
    let found = schema_version(&tx).map_err(failed)?;
    refuse_foreign(path, &tx, found)?;
    for migration in MIGRATIONS.iter().skip(found.max(0) as usize) {
        tx.execute_batch(migration).map_err(failed)?;
    }
    tx.pragma_update(None, "user_version", SCHEMA_VERSION)
        .map_err(failed)?;
    tx.commit().map_err(failed)
}

fn open_error(path: &Path, e: rusqlite::Error) -> HistoryError {
    let not_a_database = e.sqlite_error_code() == Some(rusqlite::ErrorCode::NotADatabase);
    let message = if not_a_database {
        format!(
            "is not an SQLite database ({}); move it aside to start a new run history",
            error_chain(&e)
        )
    } else {
        format!("cannot open or set up the run history: {}", error_chain(&e))
    };
    HistoryError::Open {
        path: path.to_path_buf(),
        message,
    }
}

/// The history file is there but this user may not write it (left by a daemon run as root).
fn not_writable(path: &Path) -> HistoryError {
    let dir = path.parent().unwrap_or(path).display();
    let message = match cubed_files::owner::another_owner(path) {
        Some(owner) => format!(
            "this user may not write it (it belongs to '{owner}'): if a daemon was run as \
             '{owner}' by mistake, give the folder back: sudo chown -R {}: {dir}",
            cubed_files::owner::this_user()
        ),
        None => "this user may not write it (its permissions, or a read-only file system)".into(),
    };
    HistoryError::NotWritable {
        path: path.to_path_buf(),
        message,
    }
}
