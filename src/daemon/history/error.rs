//! Why the run history could not be read or written: each error names the file, the run or the column.

use std::path::PathBuf;

/// The outcomes a run is over with, as the metrics count runs.
pub(crate) const FINAL_OUTCOMES: [&str; 9] = [
    "solved",
    "already_solved",
    "calibrated",
    "refused",
    "unverified",
    "failed",
    "stopped",
    "estopped",
    "interrupted",
];

/// The outcome of a run that waits for a person after a fault or a firmware restart: not over
/// (counted when it is resumed to its end, or abandoned).
pub(crate) const WAITING: &str = "waiting";

/// `outcome` as the history stores it, if it is one a run may have.
pub(crate) fn known_outcome(outcome: &str) -> Option<&'static str> {
    (FINAL_OUTCOMES.iter().copied())
        .chain([WAITING])
        .find(|o| *o == outcome)
}

/// Why the history could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum HistoryError {
    #[error("run history {path}: {message}")]
    Open { path: PathBuf, message: String },
    /// There, but this user may not write it (permissions, not room).
    #[error("run history {path}: {message}")]
    NotWritable { path: PathBuf, message: String },
    #[error("run history {path} has schema version {found}, newer than this cubed understands ({supported}); it was left untouched: use a newer cubed or another data directory")]
    NewerSchema {
        path: PathBuf,
        found: i64,
        supported: i64,
    },
    #[error("run history: {doing}")]
    Sql {
        doing: String,
        source: rusqlite::Error,
    },
    #[error("run history: {doing} {path}")]
    Io {
        doing: &'static str,
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("run history: cannot encode the photo {path} as PNG")]
    Image {
        path: PathBuf,
        source: image::ImageError,
    },
    #[error("run history: run {run} has a bad {column}: {message}")]
    BadRow {
        run: i64,
        column: String,
        message: String,
    },
    #[error("run history: there is no run {0}")]
    UnknownRun(u64),
    #[error("run history: only {free_mb:.1} MB free on the disk under {path}, and a run needs about {need_mb:.1} MB (its photos, as large as the last run's, and its records)")]
    NoRoom {
        path: PathBuf,
        free_mb: f64,
        need_mb: f64,
    },
    #[error("run history: {0:?} is not a cube face (one of URFDLB)")]
    BadFace(char),
    #[error("run history: {0:?} is not a run outcome (one of {FINAL_OUTCOMES:?}, or {WAITING:?})")]
    BadOutcome(String),
    #[error("run history: step {name:?} of run {run} has a duration of {ms} ms")]
    BadDuration { run: u64, name: String, ms: f64 },
    #[error("run history: unusable after a panic while it was being written")]
    Poisoned,
}

impl HistoryError {
    pub(crate) fn sql(doing: String, source: rusqlite::Error) -> HistoryError {
        HistoryError::Sql { doing, source }
    }
}
