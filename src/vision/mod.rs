//! Vision: reading the cube's colours from camera images. `classify*`, `colour` and `palette` are pure; `camera` does the I/O.

pub(crate) mod assignment;
pub mod calibrate;
pub mod camera;
pub mod classify;
pub(crate) mod classify_pieces;
pub mod colour;
pub(crate) mod colour_difference;
pub mod evaluate;
pub mod grid_file;
pub mod grid_finder;
pub(crate) mod lighting;
pub mod palette;
pub mod perturb;
pub(crate) mod refine;
pub mod sample;
pub mod scan;
pub mod scan_file;
