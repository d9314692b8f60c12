//! Cube model: faces, stickers, cubies, moves, notation, validation and random cubes. Pure: no I/O.

pub mod cubie;
pub mod error;
pub mod face;
pub mod facelets;
pub mod geometry;
pub mod moves;
pub mod notation;
pub mod random;

#[cfg(test)]
mod tests;

pub use cubie::{Corner, CubieCube, Edge};
pub use error::CubeError;
pub use face::{Face, Sticker};
pub use facelets::{ColourScheme, FaceOrder, FaceletCube};
pub use moves::{Axis, Move, Rotation, Turn};
pub use notation::{format_moves, parse_moves, Notation, NotationError};

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
