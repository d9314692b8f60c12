//! The run history's photos: each face's PNG under the data directory, its row, and where its
//! stickers were found in it once it was read.

use crate::daemon::history::error::HistoryError;
use crate::daemon::history::rows;
use crate::daemon::history::store::History;
use image::RgbImage;
use rusqlite::{params, OptionalExtension};
use std::path::{Path, PathBuf};

impl History {
    /// Writes a photo as `{data_dir}/images/{run}/{attempt}-{face}.png` and records it; returns its URL path.
    pub fn save_image(
        &self,
        run: u64,
        attempt: u32,
        face: char,
        image: &RgbImage,
    ) -> Result<String, HistoryError> {
        rows::face_index(face).ok_or(HistoryError::BadFace(face))?;
        let id = self.existing_run(run)?;
        (self.keep_earlier_take(run, id, attempt, face)).map_err(|e| self.failed_write(run, e))?;
        let relative = rows::image_relative_path(run, attempt, face);
        let path = self.data_dir.join(&relative);
        cubed_files::atomic_file::write_atomically(&path, &encode_png(image, &path)?)
            .map_err(|source| HistoryError::Io {
                doing: "cannot write",
                path: path.clone(),
                source,
            })
            .map_err(|e| self.failed_write(run, e))?;
        self.execute_for_run(
            run,
            || format!("recording photo {attempt}-{face} of run {run}"),
            "INSERT OR REPLACE INTO images (run, attempt, face, path) VALUES (?1, ?2, ?3, ?4)",
            params![id, attempt, face.to_string(), relative],
        )?;
        Ok(rows::image_url(run, attempt, face))
    }

    /// Records where the stickers of photo `attempt`-`face` were found: `[left, top, right,
    /// bottom]`, fractions of the photo as shown, so the history's page draws what was read
    /// over them as the live page does.
    pub fn record_grid(
        &self,
        run: u64,
        attempt: u32,
        face: char,
        grid: [f32; 4],
    ) -> Result<(), HistoryError> {
        let id = self.existing_run(run)?;
        let recorded = self.execute_for_run(
            run,
            || format!("recording the grid of photo {attempt}-{face} of run {run}"),
            "UPDATE images SET grid = ?4 WHERE run = ?1 AND attempt = ?2 AND face = ?3",
            params![id, attempt, face.to_string(), rows::encode_grid(grid)],
        );
        match recorded {
            // The run exists but this photo was never recorded (its write failed, and said so).
            Err(HistoryError::UnknownRun(_)) => Ok(()),
            other => other,
        }
    }

    /// The file of a recorded photo.
    pub fn image_path(
        &self,
        run: u64,
        attempt: u32,
        face: char,
    ) -> Result<Option<PathBuf>, HistoryError> {
        self.photo_file(
            run,
            || format!("finding photo {attempt}-{face} of run {run}"),
            "SELECT path FROM images WHERE run = ?1 AND attempt = ?2 AND face = ?3",
            |key| vec![key.into(), attempt.into(), face.to_string().into()],
        )
    }

    /// The file `sql` (given the run's key by `params`) finds for a photo of `run`, checked to
    /// lie inside the data directory.
    pub(super) fn photo_file(
        &self,
        run: u64,
        doing: impl FnOnce() -> String,
        sql: &str,
        params: impl FnOnce(i64) -> Vec<rusqlite::types::Value>,
    ) -> Result<Option<PathBuf>, HistoryError> {
        let Ok(key) = i64::try_from(run) else {
            return Ok(None);
        };
        let conn = self.lock()?;
        let relative: Option<String> = conn
            .prepare_cached(sql)
            .and_then(|mut s| {
                s.query_row(rusqlite::params_from_iter(params(key)), |row| row.get(0))
                    .optional()
            })
            .map_err(|e| HistoryError::sql(doing(), e))?;
        match relative {
            Some(path) if !rows::is_safe_relative(&path) => Err(HistoryError::BadRow {
                run: key,
                column: "path".into(),
                message: format!("{path:?} is not a path inside the data directory"),
            }),
            relative => Ok(relative.map(|path| self.data_dir.join(path))),
        }
    }
}

/// The photo as PNG bytes (encoded in the optimised vision crate), an error naming `path`.
fn encode_png(image: &RgbImage, path: &Path) -> Result<Vec<u8>, HistoryError> {
    crate::vision::scan::photo::encode_png(image).map_err(|source| HistoryError::Image {
        path: path.to_path_buf(),
        source,
    })
}
