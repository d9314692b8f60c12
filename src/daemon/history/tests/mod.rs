//! Tests of the run history on real SQLite files in temporary directories, by concept, and the helpers they share: a history opened in a temporary directory, a small photo.

mod errors;
mod interruptions;
mod journal;
mod photos;
mod runs;
mod schema;

use crate::daemon::history::History;
use image::{Rgb, RgbImage};
use tempfile::TempDir;

fn open(dir: &TempDir) -> History {
    History::open(dir.path()).expect("open the history")
}

fn photo(shade: u8) -> RgbImage {
    RgbImage::from_pixel(4, 3, Rgb([shade, 255 - shade, 7]))
}
