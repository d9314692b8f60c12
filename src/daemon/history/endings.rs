//! A run's ending written durably; an ending the disk refused kept and written once space returns; a run whose history could not be written recorded as stopped by that write.

use crate::daemon::history::error::known_outcome;
use crate::daemon::history::error::HistoryError;
use crate::daemon::history::store::{sql_id, History, RecordedEnding};
use crate::daemon::run::error::{history_stopped_run_by, HISTORY_STOPPED_RUN};
use rusqlite::params;

impl History {
    /// Writes a run's ending durably.
    pub(crate) fn write_ending(&self, ending: &RecordedEnding) -> Result<(), HistoryError> {
        let run = ending.run;
        let id = sql_id(run)?;
        let outcome = ending.outcome;
        self.execute_for_run_durably(
            run,
            || format!("finishing run {run} as {outcome:?}"),
            "UPDATE runs SET outcome = ?2, error = ?3, finished_ms = ?4, \
             moves = COALESCE(moves, 0) + ?5, last_acked_move = COALESCE(?6, last_acked_move) \
             WHERE id = ?1",
            params![
                id,
                outcome,
                ending.error,
                ending.finished_ms,
                ending.unjournaled.turns,
                ending.unjournaled.last_move_id
            ],
        )
    }

    /// Endings waiting for the disk to accept them.
    pub fn pending_endings(&self) -> usize {
        self.with_upkeep(|u| u.pending.len())
    }

    /// Writes the endings that could not be written before; the first failure is returned
    /// (and they are kept for the next try).
    pub fn retry_pending(&self) -> Result<(), HistoryError> {
        let waiting = self.with_upkeep(|u| std::mem::take(&mut u.pending));
        let mut result = Ok(());
        let mut still = Vec::new();
        for ending in waiting {
            match self.write_ending(&ending) {
                Ok(()) => {
                    tracing::warn!(
                        "run history: the ending of run {} ({}) is recorded now that it can be written",
                        ending.run,
                        ending.outcome
                    );
                    self.with_upkeep(|u| u.failed.remove(&ending.run));
                }
                Err(e) => {
                    if result.is_ok() {
                        result = Err(e);
                    }
                    still.push(ending);
                }
            }
        }
        self.with_upkeep(|u| {
            still.append(&mut u.pending);
            u.pending = still;
        });
        result
    }

    /// The ending to write for `run`: a run whose history could not be written is recorded
    /// as failed (it was stopped for that reason), with the write that failed.
    pub(crate) fn ending_with_failed_writes(
        &self,
        run: u64,
        outcome: &str,
        error: Option<&str>,
        finished_ms: i64,
    ) -> RecordedEnding {
        let (failed, unjournaled) =
            self.with_upkeep(|u| (u.failed.remove(&run), u.unjournaled.remove(&run)));
        let outcome = known_outcome(outcome).unwrap_or("failed");
        let (outcome, error) = match failed {
            None => (outcome, error.map(str::to_string)),
            Some(write) => {
                let said = history_stopped_run_by(&write);
                let outcome = if outcome == "stopped" {
                    "failed"
                } else {
                    outcome
                };
                // "stopped on request" would blame a person: the history stopped it.
                let error = match error {
                    Some(e) if !e.starts_with("stopped on request") && e != HISTORY_STOPPED_RUN => {
                        format!("{e}; {said}")
                    }
                    _ => said,
                };
                (outcome, Some(error))
            }
        };
        RecordedEnding {
            run,
            outcome,
            error,
            finished_ms,
            unjournaled: unjournaled.unwrap_or_default(),
        }
    }

    /// Keeps an ending that could not be written, to write it once space returns.
    pub(crate) fn keep_pending(&self, ending: RecordedEnding) {
        tracing::error!(
            "run history: the ending of run {} ({}) cannot be written now; it is kept and written once the disk accepts it",
            ending.run,
            ending.outcome
        );
        self.with_upkeep(|u| u.pending.push(ending));
    }
}
