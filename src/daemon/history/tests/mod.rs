//! Tests of the run history on real SQLite files in temporary directories, by concept, and the helpers they share: a history opened in a temporary directory, a run begun, a small photo.

mod calibrations;
mod errors;
mod interruptions;
mod journal;
mod photos;
mod runs;
mod schema;

use crate::daemon::cube_size::CubeSize;
use crate::daemon::docs::StartSource;
use crate::daemon::history::History;
use image::{Rgb, RgbImage};
use tempfile::TempDir;

fn open(dir: &TempDir) -> History {
    History::open(dir.path()).expect("open the history")
}

/// A run begun from the page, of a 3x3.
fn new_run(history: &History) -> u64 {
    (history.begin_run(StartSource::Web, "r", CubeSize::Three)).expect("a run begun")
}

fn photo(shade: u8) -> RgbImage {
    RgbImage::from_pixel(4, 3, Rgb([shade, 255 - shade, 7]))
}
