//! Run history and journal in SQLite (rusqlite, bundled): each run's times, photos (PNG files in the data directory, paths in the database), readings, facelets with confidence, solutions and programs, per-phase timings, outcome, and the last acknowledged move id as it happens.

use super::api::{RunDetail, RunSummary, StartSource};
use image::RgbImage;
use std::path::{Path, PathBuf};

/// Why the history could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum HistoryError {
    #[error("run history {path}: {message}")]
    Open { path: PathBuf, message: String },
}

/// The run history of one data directory.
pub struct History {}

impl History {
    /// Opens (creating if needed) `{data_dir}/cubed.sqlite` and `{data_dir}/images/`.
    pub fn open(data_dir: &Path) -> Result<History, HistoryError> {
        todo!("{}", data_dir.display())
    }

    /// Records a new run (no outcome yet) and returns its id.
    pub fn begin_run(&self, source: StartSource, robot: &str) -> Result<u64, HistoryError> {
        todo!("{source:?} {robot}")
    }

    /// Writes a photo as `{data_dir}/images/{run}/{attempt}-{face}.png` and records it; returns its URL path.
    pub fn save_image(
        &self,
        run: u64,
        attempt: u32,
        face: char,
        image: &RgbImage,
    ) -> Result<String, HistoryError> {
        todo!("{run} {attempt} {face} {}", image.width())
    }

    /// Records a scan: readings (URFDLB sRGB), the classified facelets and confidences, or the error.
    pub fn record_scan(
        &self,
        run: u64,
        attempt: u32,
        readings: Option<&[[u8; 3]; 54]>,
        facelets: Option<&str>,
        confidence: &[f32],
        error: Option<&str>,
    ) -> Result<(), HistoryError> {
        todo!("{run} {attempt} {readings:?} {facelets:?} {confidence:?} {error:?}")
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
        todo!("{run} {attempt} {solution} {moves} {program} {planned_ms}")
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
        todo!("{run} {name} {attempt} {started_ms} {ms}")
    }

    /// Journals the last move id the firmware acknowledged as done (durable before returning).
    pub fn journal_ack(&self, run: u64, move_id: u32) -> Result<(), HistoryError> {
        todo!("{run} {move_id}")
    }

    /// Adds executed face turns to the run's count.
    pub fn add_moves(&self, run: u64, moves: u32) -> Result<(), HistoryError> {
        todo!("{run} {moves}")
    }

    /// Ends a run with its outcome ("solved", "already_solved", "refused", "failed", "stopped", "estopped").
    pub fn finish_run(
        &self,
        run: u64,
        outcome: &str,
        error: Option<&str>,
    ) -> Result<(), HistoryError> {
        todo!("{run} {outcome} {error:?}")
    }

    /// Runs left without an outcome by a crash or power loss: marks them "interrupted" and returns them.
    pub fn take_interrupted(&self) -> Result<Vec<RunSummary>, HistoryError> {
        todo!()
    }

    /// The newest `limit` runs, newest first.
    pub fn list_runs(&self, limit: usize) -> Result<Vec<RunSummary>, HistoryError> {
        todo!("{limit}")
    }

    /// Everything recorded of one run.
    pub fn run(&self, id: u64) -> Result<Option<RunDetail>, HistoryError> {
        todo!("{id}")
    }

    /// The file of a recorded photo.
    pub fn image_path(
        &self,
        run: u64,
        attempt: u32,
        face: char,
    ) -> Result<Option<PathBuf>, HistoryError> {
        todo!("{run} {attempt} {face}")
    }
}
