//! Each run's record as it happens: begun, its scans, solution and step timings, the journal of acknowledged moves, its ending; and the runs read back as summaries and details.

use crate::daemon::cube_size::CubeSize;
use crate::daemon::docs::{RunDetail, RunSummary, StartSource};
use crate::daemon::history::error::known_outcome;
use crate::daemon::history::error::HistoryError;
use crate::daemon::history::interruptions;
use crate::daemon::history::retention::photos_pruned;
use crate::daemon::history::rows::{self, query_rows, query_summaries, SUMMARY_COLUMNS};
use crate::daemon::history::store::{now_ms, sql_id, History};
use rusqlite::params;

impl History {
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
    /// A command the disk refused to journal is kept and written with the run's ending.
    pub fn journal_ack(&self, run: u64, move_id: u32, turns: u32) -> Result<(), HistoryError> {
        let id = sql_id(run)?;
        let journaled = self.execute_for_run_durably(
            run,
            || format!("journaling acknowledged move {move_id} of run {run}"),
            "UPDATE runs SET last_acked_move = ?2, moves = COALESCE(moves, 0) + ?3 WHERE id = ?1",
            params![id, move_id, turns],
        );
        self.with_upkeep(|u| match journaled {
            Err(_) => {
                let kept = u.unjournaled.entry(run).or_default();
                kept.last_move_id = Some(move_id);
                kept.turns += turns;
            }
            // A later command journaled is the last acknowledged one.
            Ok(()) => {
                if let Some(kept) = u.unjournaled.get_mut(&run) {
                    kept.last_move_id = None;
                }
            }
        });
        journaled
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
        if known_outcome(outcome).is_none() {
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

    /// The newest `limit` runs, newest first.
    pub fn list_runs(&self, limit: usize) -> Result<Vec<RunSummary>, HistoryError> {
        self.list_runs_before(limit, None)
    }

    /// The newest `limit` runs older than run `before` (all runs when None), newest first: the
    /// next page of a list is the runs before its last.
    pub fn list_runs_before(
        &self,
        limit: usize,
        before: Option<u64>,
    ) -> Result<Vec<RunSummary>, HistoryError> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let before = before.map_or(i64::MAX, |id| i64::try_from(id).unwrap_or(i64::MAX));
        let conn = self.lock()?;
        query_summaries(
            &conn,
            &format!("SELECT {SUMMARY_COLUMNS} FROM runs WHERE id < ?2 ORDER BY id DESC LIMIT ?1"),
            params![limit, before],
        )
    }

    /// One run's summary, as the list gives it.
    pub fn summary(&self, id: u64) -> Result<Option<RunSummary>, HistoryError> {
        let Ok(key) = i64::try_from(id) else {
            return Ok(None);
        };
        summary_of(&*self.lock()?, key)
    }

    /// Everything recorded of one run.
    pub fn run(&self, id: u64) -> Result<Option<RunDetail>, HistoryError> {
        let Ok(key) = i64::try_from(id) else {
            return Ok(None);
        };
        let conn = self.lock()?;
        let Some(summary) = summary_of(&conn, key)? else {
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
        let mut scans = rows::assemble_scans(scans, photos);
        for earlier in super::retaken::of_run(&conn, key, id)? {
            if let Some(scan) = scans.iter_mut().find(|s| s.attempt == earlier.attempt) {
                scan.earlier.push(earlier);
            }
        }
        Ok(Some(super::rounds::named(RunDetail {
            summary,
            scans,
            solutions,
            steps,
            interruptions,
            photos_pruned: photos_pruned(&conn, key)?,
            calibration: super::calibrations::of_run(&conn, key)?,
        })))
    }
}

/// The summary of the run whose key is `key`, if there is one.
fn summary_of(conn: &rusqlite::Connection, key: i64) -> Result<Option<RunSummary>, HistoryError> {
    let sql = format!("SELECT {SUMMARY_COLUMNS} FROM runs WHERE id = ?1");
    Ok(query_summaries(conn, &sql, params![key])?.pop())
}
