//! Run history and journal in SQLite (rusqlite, bundled): each run's times, photos (PNG files in the data directory, paths in the database), readings, facelets with confidence, solutions and programs, per-phase timings, outcome, and the last acknowledged move id as it happens.

mod calibrations;
mod endings;
mod error;
mod images;
mod interruptions;
mod photo_folders;
mod retaken;
mod retention;
mod rounds;
mod rows;
mod runs;
mod schema;
mod space;
mod store;
#[cfg(test)]
mod tests;

pub use error::HistoryError;
pub(crate) use error::{FINAL_OUTCOMES, WAITING};
pub(crate) use interruptions::{as_found_at_next_start, turns_made, WaitingRun};
pub(crate) use photo_folders::photo_folders;
pub(crate) use retention::file_size as photo_file_size;
pub use retention::Pruned;
pub(crate) use rounds::named as named_rounds;
pub(crate) use rows::{image_relative_path, retaken_relative_path};
pub use store::History;
#[cfg(test)]
use store::DATABASE_FILE;
