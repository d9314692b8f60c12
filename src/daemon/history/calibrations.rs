//! Each calibration's result kept with its run (the palette it made, each colour's ΔE00 before and after, where it was saved, what to mend): read back with the run's record, and the newest for the page's Colours tab.

use crate::daemon::docs::{CalibrationDoc, LastCalibration};
use crate::daemon::history::error::HistoryError;
use crate::daemon::history::rows::{self, Cols};
use crate::daemon::history::store::{sql_id, History};
use cubed_core::error_chain::error_chain;
use rusqlite::{params, Connection, OptionalExtension};

/// The schema version that added the `calibrations` table: a history older than it, read
/// without migrating (`cubed history --data-dir`), has no calibrations kept.
const KEPT_SINCE: i64 = 7;

impl History {
    /// Keeps what calibration run `run` made (JSON text, as the page receives it).
    pub fn record_calibration(&self, run: u64, doc: &CalibrationDoc) -> Result<(), HistoryError> {
        let id = sql_id(run)?;
        let json = serde_json::to_string(doc).unwrap_or_default();
        self.execute_for_run(
            run,
            || format!("recording the calibration of run {run}"),
            "INSERT OR REPLACE INTO calibrations (run, doc) VALUES (?1, ?2)",
            params![id, json],
        )
    }

    /// The newest calibration that succeeded, with its run's number and end, if there is one.
    pub fn last_calibration(&self) -> Result<Option<LastCalibration>, HistoryError> {
        let conn = self.lock()?;
        if !kept_here(&conn)? {
            return Ok(None);
        }
        let failed = |e| HistoryError::sql("finding the last calibration".into(), e);
        let found: Option<(i64, Option<i64>, String)> = conn
            .prepare_cached(
                "SELECT c.run, r.finished_ms, c.doc FROM calibrations c JOIN runs r ON r.id = c.run \
                 ORDER BY c.run DESC LIMIT 1",
            )
            .and_then(|mut s| {
                s.query_row([], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)))
                    .optional()
            })
            .map_err(failed)?;
        let Some((run, finished_ms, json)) = found else {
            return Ok(None);
        };
        Ok(Some(LastCalibration {
            run: u64::try_from(run).unwrap_or(0),
            finished_ms,
            calibration: decoded(run, &json)?,
        }))
    }
}

/// What run `key` calibrated, if it was a calibration that succeeded.
pub(super) fn of_run(conn: &Connection, key: i64) -> Result<Option<CalibrationDoc>, HistoryError> {
    if !kept_here(conn)? {
        return Ok(None);
    }
    let docs = rows::query_rows(
        conn,
        "SELECT doc FROM calibrations WHERE run = ?1",
        key,
        |row| {
            let json: String = (Cols {
                row,
                run: key,
                table: "calibrations",
            })
            .get("doc")?;
            decoded(key, &json)
        },
    )?;
    Ok(docs.into_iter().next())
}

/// Whether this history's schema has the `calibrations` table.
fn kept_here(conn: &Connection) -> Result<bool, HistoryError> {
    let version: i64 = conn
        .query_row("PRAGMA user_version", [], |row| row.get(0))
        .map_err(|e| HistoryError::sql("reading the schema version".into(), e))?;
    Ok(version >= KEPT_SINCE)
}

/// A kept calibration's JSON, or the row it is bad in.
fn decoded(run: i64, json: &str) -> Result<CalibrationDoc, HistoryError> {
    serde_json::from_str(json).map_err(|e| HistoryError::BadRow {
        run,
        column: "calibrations.doc".into(),
        message: error_chain(&e),
    })
}
