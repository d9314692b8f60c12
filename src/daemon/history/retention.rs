//! Keeping the run history within its limits: old runs' photos pruned to `[history] keep_runs` / `max_photo_mb` after each run (the runs' records stay; photos no record names go by the same limits), and how much the photos weigh.

use crate::daemon::config::Retention;
use crate::daemon::docs::PhotosPruned;
use crate::daemon::history::error::HistoryError;
use crate::daemon::history::photo_folders::photo_folders;
use crate::daemon::history::rows::is_safe_relative;
use crate::daemon::history::store::{now_ms, sql_id, History, IMAGES_DIR};
use cubed_core::error_chain::error_chain;
use rusqlite::{params, Connection};
use std::collections::HashSet;
use std::path::Path;

/// What one pruning removed.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Pruned {
    pub runs: usize,
    /// Of those runs, the ones whose photos the history had no record of.
    pub unrecorded: usize,
    pub files: usize,
    pub bytes: u64,
}

impl History {
    /// Sets the photo limits (applied after every run and by [`History::prune_photos`]).
    pub fn set_retention(&self, retention: Retention) {
        self.with_upkeep(|u| u.retention = Some(retention));
    }

    /// Prunes after a run; a failure is logged (the run's outcome is already recorded).
    pub(crate) fn prune_after_run(&self) {
        match self.prune_photos() {
            Ok(p) if p.runs > 0 => tracing::info!(
                "run history: pruned the photos of {}{}: {} files, {:.1} MB",
                crate::words::count(p.runs, "old run", "old runs"),
                match p.unrecorded {
                    0 => String::new(),
                    n => format!(" ({n} of them with no record in the history)"),
                },
                p.files,
                p.bytes as f64 / 1e6
            ),
            Ok(_) => {}
            Err(e) => tracing::error!("run history: pruning old photos: {}", error_chain(&e)),
        }
    }

    /// Removes the photos of the oldest runs until the newest `keep_runs` runs with photos
    /// remain, within `max_photo_bytes` (the newest run's photos always stay). Photos on disk
    /// that no record names (a history removed beside them) count as their run's, and go
    /// by the same limits.
    pub fn prune_photos(&self) -> Result<Pruned, HistoryError> {
        let Some(retention) = self.with_upkeep(|u| u.retention) else {
            return Ok(Pruned::default());
        };
        let by_run = self.photos_on_disk_by_run()?;
        let (mut kept_runs, mut kept_bytes, mut over) = (0u32, 0u64, false);
        let mut pruned = Pruned::default();
        for (run, paths, recorded) in by_run {
            let bytes: u64 = paths.iter().map(|p| file_size(&self.data_dir, p)).sum();
            over = over
                || (kept_runs > 0
                    && (kept_runs >= retention.keep_runs
                        || kept_bytes + bytes > retention.max_photo_bytes));
            if !over {
                kept_runs += 1;
                kept_bytes += bytes;
                continue;
            }
            pruned.files += self.remove_photo_files(run, &paths)?;
            match recorded {
                true => self.forget_photos(run, paths.len())?,
                false => pruned.unrecorded += 1,
            }
            pruned.runs += 1;
            pruned.bytes += bytes;
        }
        Ok(pruned)
    }

    /// Each run folder holding photos that no record names, newest first, with those photos'
    /// relative paths. A run with any record is left to its records; only files named as the
    /// history names photos are taken (anything else a builder put there stays).
    fn unrecorded_photos(&self, recorded: &HashSet<u64>) -> Vec<(u64, Vec<String>)> {
        let mut runs = photo_folders(&self.data_dir);
        runs.retain(|(run, _)| !recorded.contains(run));
        runs
    }

    /// Each run with photos, recorded (true) or only on disk, newest first, with its photos'
    /// relative paths.
    fn photos_on_disk_by_run(&self) -> Result<Vec<(u64, Vec<String>, bool)>, HistoryError> {
        let recorded = self.photos_by_run()?;
        let runs: HashSet<u64> = recorded.iter().map(|(run, _)| *run).collect();
        let mut all: Vec<_> = (recorded.into_iter())
            .map(|(run, paths)| (run, paths, true))
            .chain(
                (self.unrecorded_photos(&runs).into_iter()).map(|(run, paths)| (run, paths, false)),
            )
            .collect();
        all.sort_by_key(|run| std::cmp::Reverse(run.0));
        Ok(all)
    }

    /// Each run with photos (taken again or not), newest first, with its photos' relative
    /// paths.
    pub(super) fn photos_by_run(&self) -> Result<Vec<(u64, Vec<String>)>, HistoryError> {
        let conn = self.lock()?;
        let doing = || "listing the photos of old runs".to_string();
        let mut statement = conn
            .prepare_cached(
                "SELECT run, path FROM images UNION ALL SELECT run, path FROM retaken \
                 ORDER BY run DESC",
            )
            .map_err(|e| HistoryError::sql(doing(), e))?;
        let rows = statement
            .query_map([], |row| {
                Ok((row.get::<_, i64>(0)?, row.get::<_, String>(1)?))
            })
            .map_err(|e| HistoryError::sql(doing(), e))?;
        let mut by_run: Vec<(u64, Vec<String>)> = Vec::new();
        for row in rows {
            let (run, path) = row.map_err(|e| HistoryError::sql(doing(), e))?;
            let run = u64::try_from(run).unwrap_or(0);
            match by_run.last_mut() {
                Some((last, paths)) if *last == run => paths.push(path),
                _ => by_run.push((run, vec![path])),
            }
        }
        Ok(by_run)
    }

    /// Deletes a run's photo files and then its folder if nothing else is left in it.
    fn remove_photo_files(&self, run: u64, paths: &[String]) -> Result<usize, HistoryError> {
        let mut removed = 0;
        for relative in paths.iter().filter(|p| is_safe_relative(p)) {
            let path = self.data_dir.join(relative);
            match std::fs::remove_file(&path) {
                Ok(()) => removed += 1,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(source) => {
                    return Err(HistoryError::Io {
                        doing: "cannot remove the old photo",
                        path,
                        source,
                    })
                }
            }
        }
        let _ = std::fs::remove_dir(self.data_dir.join(IMAGES_DIR).join(run.to_string()));
        Ok(removed)
    }

    /// Deletes a run's photo records and marks the run as pruned, in one transaction.
    fn forget_photos(&self, run: u64, photos: usize) -> Result<(), HistoryError> {
        let id = sql_id(run)?;
        let photos = i64::try_from(photos).unwrap_or(i64::MAX);
        let failed = |e| HistoryError::sql(format!("forgetting the photos of run {run}"), e);
        let conn = self.lock()?;
        let tx = conn.unchecked_transaction().map_err(failed)?;
        tx.execute("DELETE FROM images WHERE run = ?1", params![id])
            .map_err(failed)?;
        tx.execute("DELETE FROM retaken WHERE run = ?1", params![id])
            .map_err(failed)?;
        tx.execute(
            "UPDATE runs SET photos_pruned = COALESCE(photos_pruned, 0) + ?2, \
             photos_pruned_ms = ?3 WHERE id = ?1",
            params![id, photos, now_ms()],
        )
        .map_err(failed)?;
        tx.commit().map_err(failed)
    }
}

/// Whether (and when) a run's photos were pruned; `key` is the run's database id.
pub(crate) fn photos_pruned(
    conn: &Connection,
    key: i64,
) -> Result<Option<PhotosPruned>, HistoryError> {
    let failed =
        |e| HistoryError::sql(format!("reading whether run {key}'s photos were pruned"), e);
    let (photos, at_ms): (Option<i64>, Option<i64>) = conn
        .prepare_cached("SELECT photos_pruned, photos_pruned_ms FROM runs WHERE id = ?1")
        .and_then(|mut s| s.query_row(params![key], |row| Ok((row.get(0)?, row.get(1)?))))
        .map_err(failed)?;
    Ok(match (photos, at_ms) {
        (Some(photos), Some(at_ms)) => Some(PhotosPruned {
            photos: u32::try_from(photos).unwrap_or(u32::MAX),
            at_ms,
        }),
        _ => None,
    })
}

/// The size of a photo given relative to the data directory (0 if it is not there).
pub(crate) fn file_size(data_dir: &Path, relative: &str) -> u64 {
    if !is_safe_relative(relative) {
        return 0;
    }
    std::fs::metadata(data_dir.join(relative)).map_or(0, |m| m.len())
}
