//! Cube model: faces, stickers, cubies, moves, notation, validation and random cubes. Pure: no I/O.

pub(crate) mod cubie;
pub(crate) mod error;
pub(crate) mod face;
pub(crate) mod facelets;
pub(crate) mod geometry;
pub(crate) mod moves;
pub(crate) mod notation;
pub(crate) mod pieces;
pub mod random;

#[cfg(test)]
mod tests;

pub use cubie::CubieCube;
pub use error::CubeError;
pub(crate) use face::face_letters;
pub(crate) use face::faces_of;
pub use face::sticker_names;
pub use face::Face;
pub use face::Sticker;
pub use facelets::{ColourScheme, FaceOrder, FaceletCube};
pub use moves::Axis;
pub use moves::Move;
pub use moves::Rotation;
pub use moves::Turn;
pub(crate) use notation::format_moves;
pub use notation::parse_moves;
pub use notation::Notation;
pub use notation::NotationError;
pub use pieces::{Corner, Edge};

/// Reads and fully checks a facelet description: the cube, its colour scheme
/// and its cubie form, or the first thing that is wrong with it.
pub fn parse_cube(
    text: &str,
    order: FaceOrder,
    valid: Option<&[char]>,
) -> Result<(FaceletCube, ColourScheme, CubieCube), CubeError> {
    let (facelets, scheme) = FaceletCube::parse(text, order, valid)?;
    let cubies = CubieCube::from_facelets(&facelets)?;
    Ok((facelets, scheme, cubies))
}
