//! Whether the disk under the run history has room for one more run: its photos (as many bytes as the newest run's, or about what a run's photos take before there is one) and its rows.

use crate::daemon::history::error::HistoryError;
use crate::daemon::history::retention::file_size;
use crate::daemon::history::store::History;
use std::path::Path;

/// What a run's photos take before any run has photos to go by (the simulated camera's,
/// about 7 MB).
const PHOTOS_BEFORE_ANY_RUN: u64 = 8 << 20;
/// Room for a run's rows and the database's log.
const ROWS: u64 = 1 << 20;

impl History {
    /// Err when the disk under the data directory has less room than a run needs: a run
    /// started there would fail part-way, when its photos could not be written.
    pub(crate) fn room_for_a_run(&self) -> Result<(), HistoryError> {
        let Some(free) = free_bytes(&self.data_dir) else {
            return Ok(());
        };
        let newest = (self.photos_by_run().ok()).and_then(|runs| runs.into_iter().next());
        let photos = newest
            .map(|(_, paths)| (paths.iter()).map(|p| file_size(&self.data_dir, p)).sum())
            .filter(|&bytes: &u64| bytes > 0)
            .unwrap_or(PHOTOS_BEFORE_ANY_RUN);
        let need = photos + ROWS;
        match free < need {
            true => Err(HistoryError::NoRoom {
                path: self.data_dir.clone(),
                free_mb: free as f64 / 1e6,
                need_mb: need as f64 / 1e6,
            }),
            false => Ok(()),
        }
    }
}

/// Bytes an unprivileged writer may still write on the file system holding `dir`.
fn free_bytes(dir: &Path) -> Option<u64> {
    let stats = nix::sys::statvfs::statvfs(dir).ok()?;
    Some(stats.blocks_available() as u64 * stats.fragment_size() as u64)
}
