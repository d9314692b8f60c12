//! The daemon: a tokio task that owns the robot link and the camera, runs scan → solve → execute → verify one run at a time, journals every run in SQLite, and answers requests from the web page, the CLI and the robot's button.

pub mod api;
pub mod board;
pub mod config;
pub mod context;
pub mod dry_run;
pub mod history;
mod history_rows;
mod history_schema;
#[cfg(test)]
mod history_tests;
pub mod launch;
pub mod outcome;
pub mod rig;
pub mod run;
pub mod scanning;
pub mod service;
pub mod tasks;

pub use api::{
    DaemonEvent, DaemonHandle, DaemonInbox, DaemonState, Refusal, RefusalKind, Request, RunDetail,
    RunSummary, StartSource, StatusDoc,
};
pub use history::{History, HistoryError};
pub use launch::{LaunchError, RunningDaemon};
