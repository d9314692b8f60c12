//! The daemon: a tokio task that owns the robot link and the camera, runs one run at a time through the stages in `run/pipeline.rs` (home → scan → classify → solve → plan → execute → verify), journals every run in SQLite (`history`), and answers requests from the web page, the CLI and the robot's button (`service`).

pub(crate) mod api;
pub(crate) mod board;
pub mod config;
pub(crate) mod cube_size;
mod data_lock;
pub(crate) mod docs;
pub mod dry_run;
pub(crate) mod history;
pub(crate) mod launch;
mod link_status;
pub(crate) mod rig;
pub(crate) mod run;
pub(crate) mod service;
mod three_solver;

pub use api::DaemonHandle;
pub use api::DaemonInbox;
pub use api::Refusal;
pub use api::RefusalKind;
pub(crate) use api::Request;
pub(crate) use data_lock::held_by_a_daemon;
pub use data_lock::DataLockError;
pub(crate) use docs::outcome_in_words;
pub use docs::EarlierPhoto;
pub use docs::InterruptionRecord;
pub use docs::PhotosPruned;
pub use docs::RunSummary;
pub use docs::SolutionRecord;
pub use docs::{
    DaemonEvent, DaemonState, EStopButtonDoc, LinkDoc, LinkState, RunDetail, ScanRecord,
    StartSource, StatusDoc,
};
pub use history::History;
pub use history::HistoryError;
pub use history::Pruned;
pub(crate) use launch::{check_before_tables, check_config_files};
pub use launch::{LaunchError, RunningDaemon};
pub use three_solver::ThreeSolver;
