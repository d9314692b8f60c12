//! The daemon: a tokio task that owns the robot link and the camera, runs one run at a time through the stages in `pipeline.rs` (home → scan → classify → solve → plan → execute → verify), journals every run in SQLite, and answers requests from the web page, the CLI and the robot's button.

mod abort;
pub(crate) mod api;
pub(crate) mod board;
pub(crate) mod capture;
pub mod config;
mod config_camera;
pub mod config_search;
pub(crate) mod context;
mod cube_kind;
pub mod cube_size;
mod data_lock;
pub mod dry_run;
mod execute;
pub(crate) mod history;
mod history_retention;
mod history_rows;
mod history_schema;
#[cfg(test)]
mod history_tests;
pub(crate) mod interruption;
pub(crate) mod launch;
mod link_status;
pub mod metrics;
pub(crate) mod outcome;
mod pipeline;
pub(crate) mod rig;
mod run_error;
pub(crate) mod scanning;
pub(crate) mod service;
pub(crate) mod tasks;

pub use api::{
    DaemonEvent, DaemonHandle, DaemonInbox, DaemonState, InterruptionRecord, LinkDoc, LinkState,
    PhotosPruned, Refusal, RefusalKind, Request, RunDetail, RunSummary, ScanRecord, StartSource,
    StatusDoc,
};
pub use data_lock::{DataDirLock, DataLockError};
pub use history::{History, HistoryError};
pub use history_retention::Pruned;
pub use launch::{check_config_files, LaunchError, RunningDaemon};
pub use run_error::{Ending, RunError};
