//! The pocket cube as pieces: eight corners with permutation and twist, the DLB corner fixed in place (3,674,160 states), conversions to and from stickers, and the piece-level checks.

use super::error::PocketError;
use super::facelets::{corner_piece, PocketFacelets};
use super::stickers::{corner_stickers, sticker_list, PocketSticker};
use crate::cube::cubie::turn_cubies;
use crate::cube::pieces::corner_colours;
use crate::cube::{ColourScheme, Corner, Face, Move, Turn};

/// The corner that never moves: faces U, R and F are turned, never D, L or B.
pub(crate) const FIXED: Corner = Corner::DBL;

/// Corner permutation and twist. `cp[i]` is the piece at position `i` (3x3 corner
/// numbering), `co[i]` its twist (0..3); the DLB corner is always in place, untwisted.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct PocketCube {
    pub cp: [u8; 8],
    pub co: [u8; 8],
}

impl Default for PocketCube {
    /// The solved cube.
    fn default() -> Self {
        PocketCube {
            cp: std::array::from_fn(|i| i as u8),
            co: [0; 8],
        }
    }
}

impl PocketCube {
    /// True for the solved cube.
    pub fn is_solved(&self) -> bool {
        *self == PocketCube::default()
    }

    /// The cube after a face turn. A turn of D, L or B moves the fixed corner;
    /// the result is then seen again from the fixed corner (the same cube, held
    /// differently).
    pub fn turn(&self, t: Turn) -> PocketCube {
        if matches!(t.face, Face::U | Face::R | Face::F) {
            return self.multiply_corners(t);
        }
        self.apply_all(&[Move::Turn(t)])
    }

    /// The cube after a sequence of turns and rotations (a rotation changes
    /// which layer the later turns name), seen again from the fixed corner.
    pub fn apply_all(&self, moves: &[Move]) -> PocketCube {
        let moved = self.to_facelets().apply_all(moves);
        match PocketCube::read(&moved.relabel_by_fixed_corner()) {
            Ok(c) => c,
            Err(_) => unreachable!("turns and rotations of a cube give a cube"),
        }
    }

    fn multiply_corners(&self, t: Turn) -> PocketCube {
        let b = &turn_cubies()[t.index()];
        let mut r = PocketCube::default();
        for i in 0..8 {
            let from = b.cp[i] as usize;
            r.cp[i] = self.cp[from];
            r.co[i] = (self.co[from] + b.co[i]) % 3;
        }
        r
    }

    /// Reads the pieces from stickers (faces already named, as the parser does):
    /// every corner a real piece, none twice, total twist 0. `scheme` only
    /// names the colours in errors.
    pub fn from_facelets(
        f: &PocketFacelets,
        scheme: &ColourScheme,
    ) -> Result<PocketCube, PocketError> {
        let mut c = PocketCube::default();
        let mut seen: [Option<Corner>; 8] = [None; 8];
        for pos in Corner::ALL {
            let stickers = corner_stickers(pos);
            let colours = stickers.map(|s| f.stickers[s.0]);
            let named = || colours.iter().map(|f| scheme.symbols[f.index()]).collect();
            let (piece, twist) =
                corner_piece(colours).ok_or_else(|| PocketError::ImpossibleCorner {
                    position: pos,
                    stickers: sticker_list(&stickers),
                    colours: named(),
                    reading: reading(scheme),
                    mirrored: crate::cube::pieces::some_corner_has(colours),
                })?;
            if let Some(first) = seen[piece as usize] {
                return Err(PocketError::DuplicateCorner {
                    colours: corner_colours(piece as usize)
                        .iter()
                        .map(|f| scheme.symbols[f.index()])
                        .collect(),
                    first,
                    second: pos,
                });
            }
            seen[piece as usize] = Some(pos);
            c.cp[pos as usize] = piece;
            c.co[pos as usize] = twist;
        }
        check_twist(&c)?;
        Ok(c)
    }

    /// `from_facelets` with the faces' own letters as colours.
    pub fn read(f: &PocketFacelets) -> Result<PocketCube, PocketError> {
        PocketCube::from_facelets(f, &ColourScheme::default())
    }

    /// The stickers of this cube.
    pub fn to_facelets(&self) -> PocketFacelets {
        let mut f = PocketFacelets::default();
        for pos in Corner::ALL {
            let stickers = corner_stickers(pos);
            let colours = corner_colours(self.cp[pos as usize] as usize);
            let twist = self.co[pos as usize] as usize;
            for (n, colour) in colours.into_iter().enumerate() {
                f.stickers[stickers[(n + twist) % 3].0] = colour;
            }
        }
        f
    }
}

/// How the faces were named, for an impossible corner: the DLB corner's colours.
fn reading(scheme: &ColourScheme) -> String {
    let [d, b, l] = [Face::D, Face::B, Face::L].map(|f| scheme.symbols[f.index()]);
    format!(" when the DLB corner names D '{d}', B '{b}' and L '{l}'")
}

/// Total twist must be 0 mod 3; the error names the twisted corner where only one is off.
fn check_twist(c: &PocketCube) -> Result<(), PocketError> {
    let twist = c.co.iter().map(|&o| o as u32).sum::<u32>() % 3;
    if twist == 0 {
        return Ok(());
    }
    let twisted: Vec<PocketSticker> = (Corner::ALL.into_iter())
        .filter(|&pos| c.co[pos as usize] != 0)
        .map(|pos| corner_stickers(pos)[c.co[pos as usize] as usize])
        .collect();
    // Only where a single corner is off its up/down colour can the stickers tell which.
    Err(PocketError::Twist {
        twist: twist as u8,
        only: (twisted.len() == 1).then(|| sticker_list(&twisted)),
    })
}
