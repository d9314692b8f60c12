//! The photos a scan replaced when it took a face again (its stickers in doubt, a stop darker or brighter): kept beside the one the scan was read from, as earlier takes, so a person fixing the light sees what the camera first saw.

use crate::daemon::docs::EarlierPhoto;
use crate::daemon::history::error::HistoryError;
use crate::daemon::history::rows;
use crate::daemon::history::store::{execute_locked, History};
use rusqlite::{params, Connection, OptionalExtension};
use std::path::PathBuf;

impl History {
    /// Before photo `attempt`-`face` of `run` is written again: its file, if it has one, is
    /// moved aside as its next earlier take and recorded (a rename: no disk space needed).
    pub(super) fn keep_earlier_take(
        &self,
        run: u64,
        key: i64,
        attempt: u32,
        face: char,
    ) -> Result<(), HistoryError> {
        let conn = self.lock()?;
        let doing = || format!("keeping the first take of photo {attempt}-{face} of run {run}");
        let recorded: Option<String> = conn
            .prepare_cached("SELECT path FROM images WHERE run = ?1 AND attempt = ?2 AND face = ?3")
            .and_then(|mut s| {
                s.query_row(params![key, attempt, face.to_string()], |row| row.get(0))
                    .optional()
            })
            .map_err(|e| HistoryError::sql(doing(), e))?;
        let Some(current) = recorded.filter(|p| rows::is_safe_relative(p)) else {
            return Ok(());
        };
        let takes: u32 = conn
            .prepare_cached(
                "SELECT COUNT(*) FROM retaken WHERE run = ?1 AND attempt = ?2 AND face = ?3",
            )
            .and_then(|mut s| s.query_row(params![key, attempt, face.to_string()], |r| r.get(0)))
            .map_err(|e| HistoryError::sql(doing(), e))?;
        let take = takes + 1;
        let earlier = rows::retaken_relative_path(run, attempt, face, take);
        let from = self.data_dir.join(&current);
        match std::fs::rename(&from, self.data_dir.join(&earlier)) {
            Ok(()) => {}
            // Its write had failed (and said so): nothing to keep.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(source) => {
                return Err(HistoryError::Io {
                    doing: "cannot keep the first take of",
                    path: from,
                    source,
                })
            }
        }
        execute_locked(
            &conn,
            run,
            doing,
            "INSERT OR REPLACE INTO retaken (run, attempt, face, take, path) \
             VALUES (?1, ?2, ?3, ?4, ?5)",
            params![key, attempt, face.to_string(), take, earlier],
        )
    }

    /// The file of an earlier take of a photo.
    pub fn retaken_path(
        &self,
        run: u64,
        attempt: u32,
        face: char,
        take: u32,
    ) -> Result<Option<PathBuf>, HistoryError> {
        self.photo_file(
            run,
            || format!("finding photo {attempt}-{face} take {take} of run {run}"),
            "SELECT path FROM retaken WHERE run = ?1 AND attempt = ?2 AND face = ?3 AND take = ?4",
            |key| {
                vec![
                    key.into(),
                    attempt.into(),
                    face.to_string().into(),
                    take.into(),
                ]
            },
        )
    }
}

/// The earlier takes of run `key`'s photos, by round, face (URFDLB) and take.
pub(super) fn of_run(
    conn: &Connection,
    key: i64,
    run: u64,
) -> Result<Vec<EarlierPhoto>, HistoryError> {
    rows::query_rows(
        conn,
        "SELECT attempt, face, take FROM retaken WHERE run = ?1 \
         ORDER BY attempt, instr('URFDLB', face), take",
        key,
        |row| {
            let cols = rows::Cols {
                row,
                run: key,
                table: "retaken",
            };
            let (attempt, face, take): (u32, String, u32) =
                (cols.get("attempt")?, cols.get("face")?, cols.get("take")?);
            let face = face.chars().next().unwrap_or('?');
            Ok(EarlierPhoto {
                face,
                attempt,
                take,
                url: rows::retaken_url(run, attempt, face, take),
            })
        },
    )
}
