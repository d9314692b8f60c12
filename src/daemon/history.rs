//! Run history and journal in SQLite (rusqlite, bundled): each run's times, photos (PNG files in the data directory, paths in the database), readings, facelets with confidence, solutions and programs, per-phase timings, outcome, and the last acknowledged move id as it happens.

use super::api::{RunDetail, RunSummary, StartSource};
use super::cube_size::CubeSize;
use super::history_rows::{self as rows, query_rows, query_summaries, SUMMARY_COLUMNS};
use super::history_schema::open_database;
use rusqlite::{params, Connection, Params};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};
use std::time::{SystemTime, UNIX_EPOCH};

/// The database file in the data directory.
pub(crate) const DATABASE_FILE: &str = "cubed.sqlite";
/// The photo directory in the data directory.
pub(crate) const IMAGES_DIR: &str = "images";

/// Outcomes a run may end with.
pub(crate) const OUTCOMES: [&str; 8] = [
    "solved",
    "already_solved",
    "calibrated",
    "refused",
    "failed",
    "stopped",
    "estopped",
    "interrupted",
];

/// Why the history could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum HistoryError {
    #[error("run history {path}: {message}")]
    Open { path: PathBuf, message: String },
    #[error("run history {path} has schema version {found}, newer than this cubed understands ({supported}); it was left untouched: use a newer cubed or another data directory")]
    NewerSchema {
        path: PathBuf,
        found: i64,
        supported: i64,
    },
    #[error("run history: {doing}")]
    Sql {
        doing: String,
        source: rusqlite::Error,
    },
    #[error("run history: {doing} {path}")]
    Io {
        doing: &'static str,
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("run history: cannot encode the photo {path} as PNG")]
    Image {
        path: PathBuf,
        source: image::ImageError,
    },
    #[error("run history: run {run} has a bad {column}: {message}")]
    BadRow {
        run: i64,
        column: String,
        message: String,
    },
    #[error("run history: there is no run {0}")]
    UnknownRun(u64),
    #[error("run history: {0:?} is not a cube face (one of URFDLB)")]
    BadFace(char),
    #[error("run history: {0:?} is not a run outcome (one of {OUTCOMES:?})")]
    BadOutcome(String),
    #[error("run history: step {name:?} of run {run} has a duration of {ms} ms")]
    BadDuration { run: u64, name: String, ms: f64 },
    #[error("run history: unusable after a panic while it was being written")]
    Poisoned,
}

impl HistoryError {
    pub(super) fn sql(doing: String, source: rusqlite::Error) -> HistoryError {
        HistoryError::Sql { doing, source }
    }
}

/// The run history of one data directory.
pub struct History {
    pub(super) data_dir: PathBuf,
    pub(super) conn: Mutex<Connection>,
    /// Runs with larger ids were begun by this process, so they are never taken as interrupted.
    last_run_before_open: i64,
    /// Photo retention and what could not be written yet (`history_retention.rs`).
    pub(super) upkeep: Mutex<super::history_retention::Upkeep>,
}

impl History {
    /// Opens (creating if needed) `{data_dir}/cubed.sqlite` and `{data_dir}/images/`.
    pub fn open(data_dir: &Path) -> Result<History, HistoryError> {
        let images = data_dir.join(IMAGES_DIR);
        std::fs::create_dir_all(&images).map_err(|source| HistoryError::Io {
            doing: "cannot create the directory",
            path: images,
            source,
        })?;
        let conn = open_database(&data_dir.join(DATABASE_FILE))?;
        let last_run_before_open = conn
            .query_row("SELECT COALESCE(MAX(id), 0) FROM runs", [], |row| {
                row.get(0)
            })
            .map_err(|e| HistoryError::sql("finding the newest run".into(), e))?;
        Ok(History {
            data_dir: data_dir.to_path_buf(),
            conn: Mutex::new(conn),
            last_run_before_open,
            upkeep: Mutex::default(),
        })
    }

    /// Opens `{data_dir}/cubed.sqlite` for reading only, without writing anything beside it
    /// (SQLite's `immutable`): for a data directory on a full disk, so the history can still
    /// be shown; every write is refused.
    pub fn open_read_only(data_dir: &Path) -> Result<History, HistoryError> {
        let path = data_dir.join(DATABASE_FILE);
        let failed = |e: rusqlite::Error| HistoryError::Open {
            path: path.clone(),
            message: format!(
                "cannot open it read-only: {}",
                crate::error_chain::error_chain(&e)
            ),
        };
        let uri = format!("file:{}?immutable=1", path.display());
        let flags =
            rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_URI;
        let conn = Connection::open_with_flags(uri, flags).map_err(failed)?;
        let last_run_before_open = conn
            .query_row("SELECT COALESCE(MAX(id), 0) FROM runs", [], |row| {
                row.get(0)
            })
            .map_err(failed)?;
        Ok(History {
            data_dir: data_dir.to_path_buf(),
            conn: Mutex::new(conn),
            last_run_before_open,
            upkeep: Mutex::default(),
        })
    }

    /// Records a new run (no outcome yet) and returns its id.
    pub fn begin_run(
        &self,
        source: StartSource,
        robot: &str,
        cube: CubeSize,
    ) -> Result<u64, HistoryError> {
        // Endings that could not be written (disk full) first: a new run only once they are.
        self.retry_pending()?;
        let failed = |e| HistoryError::sql("beginning a run".into(), e);
        let conn = self.lock()?;
        let id = conn
            .prepare_cached(
                "INSERT INTO runs (started_ms, source, robot, cube) VALUES (?1, ?2, ?3, ?4)",
            )
            .and_then(|mut s| s.insert(params![now_ms(), source.as_str(), robot, cube.name()]))
            .map_err(failed)?;
        u64::try_from(id).map_err(|_| HistoryError::BadRow {
            run: id,
            column: "runs.id".into(),
            message: "negative run id".into(),
        })
    }

    /// Records a scan: readings (URFDLB sRGB), the classified facelets and confidences, or the error.
    pub fn record_scan(
        &self,
        run: u64,
        attempt: u32,
        readings: Option<&[[u8; 3]]>,
        facelets: Option<&str>,
        confidence: &[f32],
        error: Option<&str>,
    ) -> Result<(), HistoryError> {
        let id = sql_id(run)?;
        let readings = readings.map(rows::encode_readings);
        let confidence = rows::encode_confidence(confidence);
        self.execute_for_run(
            run,
            || format!("recording scan {attempt} of run {run}"),
            "INSERT OR REPLACE INTO scans (run, attempt, readings, facelets, confidence, error) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![id, attempt, readings, facelets, confidence, error],
        )
    }

    /// Records a solution and its gripper program (JSON).
    pub fn record_solution(
        &self,
        run: u64,
        attempt: u32,
        solution: &str,
        moves: u32,
        program: &serde_json::Value,
        planned_ms: u32,
    ) -> Result<(), HistoryError> {
        let id = sql_id(run)?;
        self.execute_for_run(
            run,
            || format!("recording solution {attempt} of run {run}"),
            "INSERT OR REPLACE INTO solutions (run, attempt, solution, moves, program, planned_ms) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![id, attempt, solution, moves, program.to_string(), planned_ms],
        )
    }

    /// Records how long a phase took.
    pub fn record_step(
        &self,
        run: u64,
        name: &str,
        attempt: u32,
        started_ms: i64,
        ms: f64,
    ) -> Result<(), HistoryError> {
        if !ms.is_finite() {
            let name = name.to_string();
            return Err(HistoryError::BadDuration { run, name, ms });
        }
        let id = sql_id(run)?;
        self.execute_for_run(
            run,
            || format!("recording step {name:?} of run {run}"),
            "INSERT INTO steps (run, name, attempt, started_ms, ms) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![id, name, attempt, started_ms, ms],
        )
    }

    /// Journals the firmware's id of a command it acknowledged as done and the face `turns` that
    /// command completed, added to the run's `moves` (durable before returning: after a crash
    /// the run's turns are known to the command).
    pub fn journal_ack(&self, run: u64, move_id: u32, turns: u32) -> Result<(), HistoryError> {
        let id = sql_id(run)?;
        self.execute_for_run_durably(
            run,
            || format!("journaling acknowledged move {move_id} of run {run}"),
            "UPDATE runs SET last_acked_move = ?2, moves = COALESCE(moves, 0) + ?3 WHERE id = ?1",
            params![id, move_id, turns],
        )
    }

    /// Adds face turns to the run's count without waiting for the disk (the journal's cost
    /// is measured against it).
    #[cfg(test)]
    pub(crate) fn add_moves(&self, run: u64, moves: u32) -> Result<(), HistoryError> {
        let id = sql_id(run)?;
        self.execute_for_run(
            run,
            || format!("adding {moves} moves to run {run}"),
            "UPDATE runs SET moves = COALESCE(moves, 0) + ?2 WHERE id = ?1",
            params![id, moves],
        )
    }

    /// Ends a run with its outcome ("solved", "already_solved", "refused", "failed", "stopped", "estopped"),
    /// durably (a power cut right after must not turn a solved run into an interrupted one).
    pub fn finish_run(
        &self,
        run: u64,
        outcome: &str,
        error: Option<&str>,
    ) -> Result<(), HistoryError> {
        if !OUTCOMES.contains(&outcome) {
            return Err(HistoryError::BadOutcome(outcome.to_string()));
        }
        let _ = self.retry_pending();
        let ending = self.ending_with_failed_writes(run, outcome, error, now_ms());
        let written = self.write_ending(&ending);
        if written.is_err() {
            self.keep_pending(ending);
        } else {
            self.prune_after_run();
        }
        written
    }

    /// Writes a run's ending durably.
    pub(super) fn write_ending(
        &self,
        ending: &super::history_retention::Ending,
    ) -> Result<(), HistoryError> {
        let run = ending.run;
        let id = sql_id(run)?;
        let outcome = ending.outcome;
        self.execute_for_run_durably(
            run,
            || format!("finishing run {run} as {outcome:?}"),
            "UPDATE runs SET outcome = ?2, error = ?3, finished_ms = ?4, \
             moves = COALESCE(moves, 0) WHERE id = ?1",
            params![id, outcome, ending.error, ending.finished_ms],
        )
    }

    /// The newest `limit` runs, newest first.
    pub fn list_runs(&self, limit: usize) -> Result<Vec<RunSummary>, HistoryError> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let conn = self.lock()?;
        query_summaries(
            &conn,
            &format!("SELECT {SUMMARY_COLUMNS} FROM runs ORDER BY id DESC LIMIT ?1"),
            params![limit],
        )
    }

    /// Everything recorded of one run.
    pub fn run(&self, id: u64) -> Result<Option<RunDetail>, HistoryError> {
        let Ok(key) = i64::try_from(id) else {
            return Ok(None);
        };
        let conn = self.lock()?;
        let sql = format!("SELECT {SUMMARY_COLUMNS} FROM runs WHERE id = ?1");
        let Some(summary) = query_summaries(&conn, &sql, params![key])?.pop() else {
            return Ok(None);
        };
        let scans = query_rows(
            &conn,
            "SELECT attempt, readings, facelets, confidence, error FROM scans WHERE run = ?1",
            key,
            |row| rows::scan(row, key),
        )?;
        let photos = query_rows(
            &conn,
            "SELECT attempt, face, grid FROM images WHERE run = ?1",
            key,
            |row| rows::photo(row, id),
        )?;
        let solutions = query_rows(
            &conn,
            "SELECT attempt, solution, moves, program, planned_ms FROM solutions \
             WHERE run = ?1 ORDER BY attempt",
            key,
            |row| rows::solution(row, key),
        )?;
        let steps = query_rows(
            &conn,
            "SELECT name, attempt, started_ms, ms FROM steps WHERE run = ?1 ORDER BY id",
            key,
            |row| rows::step(row, key),
        )?;
        let interruptions = interruptions::of_run(&conn, key)?;
        Ok(Some(RunDetail {
            summary,
            scans: rows::assemble_scans(scans, photos),
            solutions,
            steps,
            interruptions,
            photos_pruned: super::history_retention::photos_pruned(&conn, key)?,
        }))
    }

    pub(super) fn lock(&self) -> Result<MutexGuard<'_, Connection>, HistoryError> {
        self.conn.lock().map_err(|_| HistoryError::Poisoned)
    }

    /// The database key of a run that exists.
    fn existing_run(&self, run: u64) -> Result<i64, HistoryError> {
        let id = sql_id(run)?;
        let conn = self.lock()?;
        let found = conn
            .prepare_cached("SELECT 1 FROM runs WHERE id = ?1")
            .and_then(|mut s| s.exists(params![id]))
            .map_err(|e| HistoryError::sql(format!("finding run {run}"), e))?;
        found.then_some(id).ok_or(HistoryError::UnknownRun(run))
    }

    fn execute_for_run<P: Params>(
        &self,
        run: u64,
        doing: impl FnOnce() -> String,
        sql: &str,
        params: P,
    ) -> Result<(), HistoryError> {
        let conn = self.lock()?;
        execute_locked(&conn, run, doing, sql, params).map_err(|e| self.failed_write(run, e))
    }

    /// As [`Self::execute_for_run`], with the commit's write-ahead log fsynced before returning.
    fn execute_for_run_durably<P: Params>(
        &self,
        run: u64,
        doing: impl FnOnce() -> String,
        sql: &str,
        params: P,
    ) -> Result<(), HistoryError> {
        let conn = self.lock()?;
        set_synchronous(&conn, "FULL")?;
        let written = execute_locked(&conn, run, doing, sql, params);
        let restored = set_synchronous(&conn, "NORMAL");
        written.and(restored).map_err(|e| self.failed_write(run, e))
    }
}

#[path = "history_images.rs"]
mod images;
#[path = "history_interruptions.rs"]
mod interruptions;
pub(crate) use interruptions::turns_made;
pub(crate) use interruptions::WaitingRun;

/// Runs one cached statement that writes a row of `run`; no such run is [`HistoryError::UnknownRun`].
fn execute_locked<P: Params>(
    conn: &Connection,
    run: u64,
    doing: impl FnOnce() -> String,
    sql: &str,
    params: P,
) -> Result<(), HistoryError> {
    match conn.prepare_cached(sql).and_then(|mut s| s.execute(params)) {
        Ok(0) => Err(HistoryError::UnknownRun(run)),
        Ok(_) => Ok(()),
        Err(e) if is_foreign_key_failure(&e) => Err(HistoryError::UnknownRun(run)),
        Err(e) => Err(HistoryError::sql(doing(), e)),
    }
}

fn is_foreign_key_failure(e: &rusqlite::Error) -> bool {
    matches!(e, rusqlite::Error::SqliteFailure(f, _)
        if f.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_FOREIGNKEY)
}

/// FULL makes the next commit fsync the write-ahead log before it returns.
fn set_synchronous(conn: &Connection, level: &str) -> Result<(), HistoryError> {
    let sql = if level == "FULL" {
        "PRAGMA synchronous = FULL"
    } else {
        "PRAGMA synchronous = NORMAL"
    };
    conn.prepare_cached(sql)
        .and_then(|mut s| s.execute([]))
        .map(|_| ())
        .map_err(|e| HistoryError::sql(format!("setting synchronous = {level}"), e))
}

/// A run id as the database stores it; ids beyond i64 cannot exist.
pub(super) fn sql_id(run: u64) -> Result<i64, HistoryError> {
    i64::try_from(run).map_err(|_| HistoryError::UnknownRun(run))
}

pub(super) fn now_ms() -> i64 {
    let since_epoch = SystemTime::now().duration_since(UNIX_EPOCH);
    since_epoch.map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}
