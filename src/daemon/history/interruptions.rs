//! The run history's record of interruptions: when a run was stopped part-way (e-stop, fault,
//! firmware reboot), what the person was told, and when and by whom it was resumed; and
//! reopening a run that goes on after its interruption was recorded as its end; runs a crash
//! or power loss left without an outcome.

use crate::daemon::docs::{InterruptionRecord, RunSummary};
use crate::daemon::history::error::HistoryError;
use crate::daemon::history::rows;
use crate::daemon::history::rows::{query_summaries, SUMMARY_COLUMNS};
use crate::daemon::history::store::{execute_locked, now_ms, sql_id, History};
use rusqlite::{params, Connection, OptionalExtension, Row, TransactionBehavior};

/// A run that waits for a person to resume it (or reset to abandon it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WaitingRun {
    pub run: u64,
    /// "estop", "fault" or "reboot".
    pub cause: String,
    /// What the person was told.
    pub advice: String,
}

impl History {
    /// Runs left without an outcome by a crash or power loss: marks them "interrupted" and returns them.
    ///
    /// Runs begun since this `History` was opened are still live and never taken.
    pub fn take_interrupted(&self) -> Result<Vec<RunSummary>, HistoryError> {
        let doing = || "marking interrupted runs".to_string();
        let mut conn = self.lock()?;
        let tx = conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(|e| HistoryError::sql(doing(), e))?;
        let mut runs = query_summaries(
            &tx,
            &format!(
                "SELECT {SUMMARY_COLUMNS} FROM runs WHERE outcome IS NULL AND id <= ?1 ORDER BY id"
            ),
            params![self.last_run_before_open],
        )?;
        for run in &mut runs {
            mark_interrupted(&tx, run)?;
        }
        tx.commit().map_err(|e| HistoryError::sql(doing(), e))?;
        Ok(runs)
    }

    /// The run that waited for a person (an e-stop, a fault) when the daemon last stopped, if
    /// nobody has resumed or abandoned it: only the newest run before this `History` was
    /// opened can be waiting. A run the daemon crashed during (its outcome `interrupted`) is
    /// not waiting, even if it had recorded an interruption as the crash came: the next
    /// start rescans, as the crash notice says.
    pub fn waiting_for_person(&self) -> Result<Option<WaitingRun>, HistoryError> {
        let conn = self.lock()?;
        conn.query_row(
            &format!(
                "SELECT i.run, i.cause, i.advice FROM interruptions i JOIN runs r ON r.id = i.run \
                 WHERE {WAITS} AND i.run = (SELECT MAX(id) FROM runs WHERE id <= ?1) \
                 ORDER BY i.id DESC LIMIT 1"
            ),
            params![self.last_run_before_open],
            |row| {
                Ok(WaitingRun {
                    run: row.get::<_, i64>(0)?.unsigned_abs(),
                    cause: row.get(1)?,
                    advice: row.get(2)?,
                })
            },
        )
        .optional()
        .map_err(|e| HistoryError::sql("finding a run that waits for a person".into(), e))
    }

    /// The outcome `run` ends with now that it was abandoned (Reset) while it waited: a run
    /// that waited after a fault or a firmware restart ("waiting") is recorded as failed by it;
    /// an e-stopped one stays e-stopped.
    pub fn settle_abandoned(&self, run: u64) -> Result<String, HistoryError> {
        let id = sql_id(run)?;
        let conn = self.lock()?;
        let doing = || format!("recording how abandoned run {run} ended");
        conn.execute(
            "UPDATE runs SET outcome = 'failed' WHERE id = ?1 AND outcome = 'waiting'",
            params![id],
        )
        .map_err(|e| HistoryError::sql(doing(), e))?;
        conn.query_row(
            "SELECT outcome FROM runs WHERE id = ?1",
            params![id],
            |row| row.get::<_, Option<String>>(0),
        )
        .optional()
        .map_err(|e| HistoryError::sql(doing(), e))
        .map(|outcome| outcome.flatten().unwrap_or_else(|| "failed".to_string()))
    }

    /// Records that `run` was interrupted; `advice` says what the person was told.
    pub fn record_interruption(
        &self,
        run: u64,
        cause: &str,
        advice: &str,
        needs_person: bool,
    ) -> Result<(), HistoryError> {
        let id = sql_id(run)?;
        let conn = self.lock()?;
        execute_locked(
            &conn,
            run,
            || format!("recording an interruption of run {run}"),
            "INSERT INTO interruptions (run, at_ms, cause, advice, needs_person) \
             VALUES (?1, ?2, ?3, ?4, ?5)",
            params![id, now_ms(), cause, advice, needs_person],
        )
    }

    /// Records how the latest interruption of `run` ended: "person" or "automatic" (it goes
    /// on), or "abandoned" (reset instead).
    pub fn record_resumption(&self, run: u64, by: &str) -> Result<(), HistoryError> {
        let id = sql_id(run)?;
        let conn = self.lock()?;
        execute_locked(
            &conn,
            run,
            || format!("recording the resumption of run {run}"),
            "UPDATE interruptions SET resumed_ms = ?2, resumed_by = ?3 \
             WHERE id = (SELECT MAX(id) FROM interruptions WHERE run = ?1 AND resumed_by IS NULL)",
            params![id, now_ms(), by],
        )
    }

    /// Takes back the end recorded for `run` (it goes on after an interruption).
    pub fn reopen_run(&self, run: u64) -> Result<(), HistoryError> {
        let id = sql_id(run)?;
        let conn = self.lock()?;
        execute_locked(
            &conn,
            run,
            || format!("reopening run {run}"),
            "UPDATE runs SET outcome = NULL, error = NULL, finished_ms = NULL WHERE id = ?1",
            params![id],
        )
    }

    /// The first scan attempt number `run` has not used (a resumed run scans again).
    pub fn next_attempt(&self, run: u64) -> Result<u32, HistoryError> {
        let id = sql_id(run)?;
        let conn = self.lock()?;
        conn.query_row(
            "SELECT MAX(COALESCE((SELECT MAX(attempt) FROM scans WHERE run = ?1), -1), \
                        COALESCE((SELECT MAX(attempt) FROM solutions WHERE run = ?1), -1), \
                        COALESCE((SELECT MAX(attempt) FROM steps WHERE run = ?1), -1)) + 1",
            params![id],
            |row| row.get(0),
        )
        .map_err(|e| HistoryError::sql(format!("finding the next scan of run {run}"), e))
    }
}

/// An interruption `i` of run `r` that a person must see to, which nobody has yet, of a run
/// whose task has ended (a run the daemon crashed during, `interrupted`, rescans instead).
const WAITS: &str = "i.needs_person = 1 AND i.resumed_by IS NULL AND r.outcome IS NOT NULL \
                     AND r.outcome <> 'interrupted'";

/// The interruptions of run `key`, oldest first; the run waits on the latest when it [`WAITS`]
/// and the run is the newest (a run started since is another).
pub(super) fn of_run(conn: &Connection, key: i64) -> Result<Vec<InterruptionRecord>, HistoryError> {
    rows::query_rows(
        conn,
        &format!(
            "SELECT i.at_ms, i.cause, i.advice, i.needs_person, i.resumed_ms, i.resumed_by, \
             ({WAITS} AND i.id = (SELECT MAX(id) FROM interruptions WHERE run = i.run) \
             AND i.run = (SELECT MAX(id) FROM runs)) AS waiting \
             FROM interruptions i JOIN runs r ON r.id = i.run WHERE i.run = ?1 ORDER BY i.id"
        ),
        key,
        |row| interruption(row, key),
    )
}

fn interruption(row: &Row<'_>, run: i64) -> Result<InterruptionRecord, HistoryError> {
    let cols = rows::Cols {
        row,
        run,
        table: "interruptions",
    };
    Ok(InterruptionRecord {
        at_ms: cols.get("at_ms")?,
        cause: cols.get("cause")?,
        advice: cols.get("advice")?,
        needs_person: cols.get("needs_person")?,
        resumed_ms: cols.get("resumed_ms")?,
        resumed_by: cols.get("resumed_by")?,
        waiting: cols.get("waiting")?,
    })
}

/// How far a run had got, in face turns, with the firmware's id of its last acknowledged
/// command: "after 12 face turns (the firmware's last acknowledged command was move id 40)".
pub(crate) fn turns_made(run: &RunSummary) -> String {
    match run.last_acked_move {
        None => "before the robot acknowledged any command".into(),
        Some(id) => format!(
            "after {} face turns (the firmware's last acknowledged command was move id {id})",
            run.moves.unwrap_or(0)
        ),
    }
}

/// Why a run the daemon stopped during has no outcome of its own.
fn stopped_during(run: &RunSummary) -> String {
    format!(
        "the daemon stopped during this run (crash or power loss) {}; \
         the cube state is unknown, so the next run rescans it",
        turns_made(run)
    )
}

/// A run left without an outcome, read while no daemon holds the data directory: shown as
/// the daemon's next start will record it (nothing is written).
pub(crate) fn as_found_at_next_start(run: &mut RunSummary) {
    if run.outcome.is_none() {
        run.error = Some(format!(
            "{} (recorded so at the daemon's next start)",
            stopped_during(run)
        ));
        run.outcome = Some("interrupted".into());
    }
}

fn mark_interrupted(conn: &Connection, run: &mut RunSummary) -> Result<(), HistoryError> {
    let error = stopped_during(run);
    conn.execute(
        "UPDATE runs SET outcome = 'interrupted', error = ?2, moves = COALESCE(moves, 0) WHERE id = ?1",
        params![run.id as i64, error],
    )
    .map_err(|e| HistoryError::sql(format!("marking run {} interrupted", run.id), e))?;
    run.outcome = Some("interrupted".into());
    run.error = Some(error);
    run.moves = Some(run.moves.unwrap_or(0));
    Ok(())
}
