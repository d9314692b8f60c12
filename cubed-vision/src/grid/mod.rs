//! Where the stickers are in a photo and their colours: the grid found automatically (3x3 and 2x2) or given in a file, each sticker sampled robustly inside it, and the colour of a clipped sticker recovered from its rim. Pure.

pub(crate) mod blobs;
pub mod face_grid;
pub mod file;
pub mod finder;
pub(crate) mod highlight;
pub mod pocket;
#[cfg(test)]
mod pocket_in_a_frame_tests;
pub(crate) mod pocket_lattice;
pub mod pocket_sample;
pub(crate) mod pocket_verify;
pub mod sample;
pub(crate) mod search;
pub mod tilt;
