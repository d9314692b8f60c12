//! Vision: reading the cube's colours from camera images (`pocket_*`: the 2x2). `classify*`, `colour`, `palette` and `recapture` are pure; `camera` does the I/O.

pub(crate) mod assignment;
pub mod calibrate;
pub mod camera;
pub mod classify;
pub(crate) mod classify_pieces;
pub mod colour;
pub(crate) mod colour_difference;
pub mod evaluate;
pub mod evaluate_recapture;
pub(crate) mod face_consistency;
pub mod grid_file;
pub mod grid_finder;
pub(crate) mod lighting;
pub mod palette;
pub mod perturb;
pub mod perturb_photo;
pub mod pocket_classify;
pub mod pocket_evaluate;
pub mod pocket_grid;
pub mod pocket_sample;
pub mod recapture;
pub(crate) mod refine;
pub mod sample;
pub mod scan;
pub mod scan_file;
pub mod sim_evaluate;
