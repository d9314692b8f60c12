//! The 2x2 pocket cube: its 24 stickers, input formats (incl. the old 2x2 solver's letters), validation, corner model, complete distance tables in HTM and QTM and the optimal solver. Pure: no I/O.
//!
//! Shared with the 3x3: faces, colour schemes, face orders, moves and both
//! notations (`crate::cube`), and the corner geometry. Its own: everything that
//! follows from having no centres and no edges.

pub(crate) mod coord;
pub(crate) mod error;
pub(crate) mod facelets;
pub(crate) mod model;
pub mod program;
pub(crate) mod solver;
pub mod stickers;
pub(crate) mod tables;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod witness;

pub use error::PocketError;
pub use facelets::{PocketFacelets, PocketFormat};
pub use model::PocketCube;
pub use solver::{length_in, PocketSolver};
pub use stickers::PocketSticker;
pub use tables::POCKET_FORMAT_VERSION;
pub use tables::{Metric, PocketTables};

use crate::cube::ColourScheme;
use rand::{Rng, RngExt};

/// Reads and fully checks a 2x2 description: its stickers, colour scheme and pieces,
/// or the first thing that is wrong with it.
pub fn parse_pocket(
    text: &str,
    format: PocketFormat,
    valid: Option<&[char]>,
) -> Result<(PocketFacelets, ColourScheme, PocketCube), PocketError> {
    let (facelets, scheme) = PocketFacelets::parse(text, format, valid)?;
    let cube = PocketCube::from_facelets(&facelets, &scheme)?;
    Ok((facelets, scheme, cube))
}

/// The pocket cube's positions, its DLB corner fixed (a robot's floor counts against them).
pub const POSITIONS: usize = coord::STATES;

/// A pocket cube drawn uniformly from all 3,674,160 states.
pub fn random_pocket<R: Rng>(rng: &mut R) -> PocketCube {
    coord::cube_of_index(rng.random_range(0..coord::STATES))
}
