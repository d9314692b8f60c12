//! The run history's store: the `History` handle on one data directory's SQLite file, its lock, the statements that write a run's rows, and the writes that failed during a run (a full disk), kept to be named in its ending.

use crate::daemon::config::Retention;
use crate::daemon::history::error::HistoryError;
use crate::daemon::history::photo_folders::run_folder;
use crate::daemon::history::schema::open_database;
use cubed_core::error_chain::error_chain;
use rusqlite::{params, Connection, Params};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};
use std::time::{SystemTime, UNIX_EPOCH};

/// The database file in the data directory.
pub(crate) const DATABASE_FILE: &str = "cubed.sqlite";
pub(crate) use crate::daemon::history::photo_folders::IMAGES_DIR;

/// The highest run number among the photo folders in `images` (`images/7/…`), if any.
fn highest_photo_folder(images: &Path) -> Option<i64> {
    let entries = std::fs::read_dir(images).ok()?;
    (entries.flatten())
        .filter(|entry| entry.file_type().is_ok_and(|t| t.is_dir()))
        .filter_map(|entry| run_folder(entry.file_name().to_str()?))
        .filter_map(|run| i64::try_from(run).ok())
        .max()
}

/// Numbers new runs above every photo folder on disk: a history lost or emptied (the file
/// removed, a backup restored) would otherwise start again at run 1 and write the new run's
/// photos over the old run 1's. The folders are kept, and said.
fn number_above_kept_photos(conn: &Connection, images: &Path) -> Result<(), HistoryError> {
    let Some(highest) = highest_photo_folder(images) else {
        return Ok(());
    };
    let failed = |e| HistoryError::sql("numbering runs above the photos kept".into(), e);
    let numbered: i64 = conn
        .query_row(
            "SELECT MAX(COALESCE((SELECT MAX(id) FROM runs), 0), \
                    COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'runs'), 0))",
            [],
            |row| row.get(0),
        )
        .map_err(failed)?;
    if highest <= numbered {
        return Ok(());
    }
    tracing::warn!(
        "{} holds photos of runs up to {highest}, beyond the newest run its history numbers ({numbered}): a history removed, emptied or restored from before? The photos are kept, within [history]'s photo limits like any run's (the oldest go first); new runs are numbered from {}",
        images.display(),
        highest + 1
    );
    conn.execute("DELETE FROM sqlite_sequence WHERE name = 'runs'", [])
        .and_then(|_| {
            conn.execute(
                "INSERT INTO sqlite_sequence (name, seq) VALUES ('runs', ?1)",
                params![highest],
            )
        })
        .map_err(failed)?;
    Ok(())
}

/// The run history of one data directory.
pub struct History {
    pub(super) data_dir: PathBuf,
    pub(super) conn: Mutex<Connection>,
    /// Runs with larger ids were begun by this process, so they are never taken as interrupted.
    pub(super) last_run_before_open: i64,
    /// Photo retention and what could not be written yet (`history_retention.rs`).
    pub(super) upkeep: Mutex<Upkeep>,
}

impl History {
    /// The data directory this history keeps its database and photos in.
    pub(crate) fn data_dir(&self) -> &Path {
        &self.data_dir
    }

    /// The first write that failed during `run`, if one did and its ending is not written yet.
    pub(crate) fn first_failed_write(&self, run: u64) -> Option<String> {
        self.with_upkeep(|u| u.failed.get(&run).cloned())
    }

    /// Notes the first failed write of `run` (it becomes part of the run's ending) and gives
    /// the error back.
    pub(crate) fn failed_write(&self, run: u64, error: HistoryError) -> HistoryError {
        if !matches!(error, HistoryError::UnknownRun(_)) {
            let words = error_chain(&error);
            self.with_upkeep(|u| {
                u.failed.entry(run).or_insert(words);
            });
        }
        error
    }

    pub(crate) fn with_upkeep<T>(&self, f: impl FnOnce(&mut Upkeep) -> T) -> T {
        let mut guard = self
            .upkeep
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        f(&mut guard)
    }

    /// Opens (creating if needed) `{data_dir}/cubed.sqlite` and `{data_dir}/images/`.
    pub fn open(data_dir: &Path) -> Result<History, HistoryError> {
        let images = data_dir.join(IMAGES_DIR);
        std::fs::create_dir_all(&images).map_err(|source| HistoryError::Io {
            doing: "cannot create the directory",
            path: images.clone(),
            source,
        })?;
        let conn = open_database(&data_dir.join(DATABASE_FILE))?;
        number_above_kept_photos(&conn, &images)?;
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

    /// Opens `{data_dir}/cubed.sqlite` for reading only: with what its write-ahead log holds
    /// (the newest runs, while a daemon writes them or after one crashed), else, where even
    /// that cannot be read (a data directory on a full disk), the main file as it is, writing
    /// nothing beside it (SQLite's `immutable`). Every write is refused.
    pub fn open_read_only(data_dir: &Path) -> Result<History, HistoryError> {
        let path = data_dir.join(DATABASE_FILE);
        let not_here = |missing: &str| HistoryError::Open {
            path: path.clone(),
            message: format!(
                "{missing}: is {} the daemon's data directory? (`cubed config show` names it)",
                data_dir.display()
            ),
        };
        match std::fs::metadata(&path) {
            // Emptied (or made by a daemon that wrote nothing yet): no runs to read.
            Ok(found) if found.is_file() && found.len() == 0 => {
                return Err(not_here("an empty file, with no runs in it"))
            }
            Ok(found) if found.is_file() => {}
            Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied => {
                let owner = cubed_files::owner::another_owner(data_dir)
                    .unwrap_or_else(|| "the daemon's user".into());
                return Err(HistoryError::Open {
                    path: path.clone(),
                    message: format!(
                        "this user may not read it ({dir} belongs to '{owner}'): read it as that \
                         user (sudo -u {owner} cubed history --data-dir {dir}), or ask the running \
                         daemon (cubed history)",
                        dir = data_dir.display()
                    ),
                });
            }
            _ if data_dir.is_file() => {
                return Err(HistoryError::Open {
                    path: data_dir.to_path_buf(),
                    message: "a file, not a directory: give the daemon's data directory (`cubed config show` names it)".into(),
                })
            }
            _ if !data_dir.is_dir() => return Err(not_here("no such directory")),
            _ => return Err(not_here("no run history here")),
        }
        let failed = |e: rusqlite::Error| HistoryError::Open {
            path: path.clone(),
            message: format!(
                "cannot open it read-only: {}",
                cubed_core::error_chain::error_chain(&e)
            ),
        };
        let newest_run = |uri: String| {
            let flags =
                rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_URI;
            let conn = Connection::open_with_flags(uri, flags)?;
            let newest: i64 =
                conn.query_row("SELECT COALESCE(MAX(id), 0) FROM runs", [], |row| {
                    row.get(0)
                })?;
            Ok::<_, rusqlite::Error>((conn, newest))
        };
        let (conn, last_run_before_open) = newest_run(format!("file:{}", path.display()))
            .or_else(|_| newest_run(format!("file:{}?immutable=1", path.display())))
            .map_err(failed)?;
        Ok(History {
            data_dir: data_dir.to_path_buf(),
            conn: Mutex::new(conn),
            last_run_before_open,
            upkeep: Mutex::default(),
        })
    }

    pub(crate) fn lock(&self) -> Result<MutexGuard<'_, Connection>, HistoryError> {
        self.conn.lock().map_err(|_| HistoryError::Poisoned)
    }

    /// The database key of a run that exists.
    pub(crate) fn existing_run(&self, run: u64) -> Result<i64, HistoryError> {
        let id = sql_id(run)?;
        let conn = self.lock()?;
        let found = conn
            .prepare_cached("SELECT 1 FROM runs WHERE id = ?1")
            .and_then(|mut s| s.exists(params![id]))
            .map_err(|e| HistoryError::sql(format!("finding run {run}"), e))?;
        found.then_some(id).ok_or(HistoryError::UnknownRun(run))
    }

    pub(crate) fn execute_for_run<P: Params>(
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
    pub(crate) fn execute_for_run_durably<P: Params>(
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

/// Runs one cached statement that writes a row of `run`; no such run is [`HistoryError::UnknownRun`].
pub(crate) fn execute_locked<P: Params>(
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

pub(crate) fn is_foreign_key_failure(e: &rusqlite::Error) -> bool {
    matches!(e, rusqlite::Error::SqliteFailure(f, _)
        if f.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_FOREIGNKEY)
}

/// FULL makes the next commit fsync the write-ahead log before it returns.
pub(crate) fn set_synchronous(conn: &Connection, level: &str) -> Result<(), HistoryError> {
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
pub(crate) fn sql_id(run: u64) -> Result<i64, HistoryError> {
    i64::try_from(run).map_err(|_| HistoryError::UnknownRun(run))
}

pub(crate) fn now_ms() -> i64 {
    let since_epoch = SystemTime::now().duration_since(UNIX_EPOCH);
    since_epoch.map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// A run's ending, as it is written.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct RecordedEnding {
    pub run: u64,
    pub outcome: &'static str,
    pub error: Option<String>,
    pub finished_ms: i64,
    /// Acknowledged commands the disk refused to journal: written with the ending.
    pub unjournaled: Unjournaled,
}

/// Acknowledged commands of a run whose journaling the disk refused: the last one's id and
/// the face turns they completed, so that the run's `moves` still count every turn it made.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Unjournaled {
    pub last_move_id: Option<u32>,
    pub turns: u32,
}

/// What the history keeps besides the database: its limits and what is not written yet.
#[derive(Debug, Default)]
pub(crate) struct Upkeep {
    /// None: photos are never pruned (a history opened without a configuration).
    pub(super) retention: Option<Retention>,
    /// The first write that failed in each run not yet ended.
    pub(super) failed: HashMap<u64, String>,
    /// Endings that could not be written yet, oldest first.
    pub(super) pending: Vec<RecordedEnding>,
    /// Per run not yet ended, what the disk refused to journal.
    pub(super) unjournaled: HashMap<u64, Unjournaled>,
}
