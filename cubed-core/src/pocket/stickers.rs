//! The 24 stickers of the pocket cube: their numbering, names, the corners they form, and the sticker permutations of turns and rotations (taken from the 3x3 geometry, whose corner stickers are exactly a 2x2's).
//!
//! A 2x2 facelet string lists 24 stickers in URFDLB face order, each face read
//! row by row as seen from outside in the usual net (the 3x3 convention with
//! edges and centres left out):
//!
//! ```text
//!              U1  U2                      0  1
//!              U3  U4                      2  3
//!     L1  L2   F1  F2   R1  R2   B1  B2   16 17   8  9   4  5  20 21
//!     L3  L4   F3  F4   R3  R4   B3  B4   18 19  10 11   6  7  22 23
//!              D1  D2                     12 13
//!              D3  D4                     14 15
//! ```
//!
//! Sticker `k` of face `f` (k = 0..4) is the 3x3 sticker `9 f + [0, 2, 6, 8][k]`.

use crate::cube::pieces::CORNER_STICKERS;
use crate::cube::{Corner, Face, Move};
use std::fmt;
use std::sync::OnceLock;

/// Number of stickers on a pocket cube.
pub const STICKERS: usize = 24;

/// Position of each 2x2 sticker within a 3x3 face (row by row: the four corners).
const ON_3X3_FACE: [usize; 4] = [0, 2, 6, 8];

/// A sticker position 0..24 in the URFDLB 2x2 facelet string, printed as e.g. `F3 (index 10)`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct PocketSticker(pub usize);

impl PocketSticker {
    /// The face this sticker lies on.
    pub fn face(self) -> Face {
        Face::from_index(self.0 / 4)
    }

    /// The 3x3 sticker at the same place.
    pub fn on_3x3(self) -> usize {
        self.face().index() * 9 + ON_3X3_FACE[self.0 % 4]
    }

    /// The 2x2 sticker at the place of 3x3 sticker `s`, if `s` is a corner sticker.
    pub fn from_3x3(s: usize) -> Option<PocketSticker> {
        let k = ON_3X3_FACE.iter().position(|&p| p == s % 9)?;
        (s < 54).then_some(PocketSticker(s / 9 * 4 + k))
    }
}

impl fmt::Display for PocketSticker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{} (index {})", self.face(), self.0 % 4 + 1, self.0)
    }
}

/// Stickers written as a list, e.g. `U1 (index 0), F3 (index 10)`.
pub(crate) fn sticker_list(stickers: &[PocketSticker]) -> String {
    let names: Vec<String> = stickers.iter().map(ToString::to_string).collect();
    names.join(", ")
}

/// The three stickers of each corner position, U/D sticker first, then clockwise
/// (the 3x3's corner order and sticker order).
pub fn corner_stickers(corner: Corner) -> [PocketSticker; 3] {
    CORNER_STICKERS[corner as usize].map(|s| match PocketSticker::from_3x3(s) {
        Some(p) => p,
        None => unreachable!("corner stickers of the 3x3 are corners of faces"),
    })
}

/// A permutation of the 24 stickers: `src[i]` is the position whose sticker moves to `i`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct PocketPerm {
    pub src: [u8; STICKERS],
}

impl PocketPerm {
    /// Rearranges `items` (indexed by sticker) as this permutation moves the stickers.
    pub(crate) fn apply<T: Copy>(&self, items: &[T; STICKERS]) -> [T; STICKERS] {
        std::array::from_fn(|i| items[self.src[i] as usize])
    }

    /// The 3x3 permutation of `m` restricted to corner stickers (turns and
    /// rotations never move a corner sticker to an edge or a centre).
    fn of_move(m: Move) -> PocketPerm {
        let big = m.perm();
        let src = std::array::from_fn(|i| {
            let from = big.src[PocketSticker(i).on_3x3()] as usize;
            match PocketSticker::from_3x3(from) {
                Some(p) => p.0 as u8,
                None => unreachable!("a turn moves corner stickers among corner stickers"),
            }
        });
        PocketPerm { src }
    }
}

/// Sticker permutation of a face turn or whole-cube rotation on the 2x2.
pub(crate) fn move_perm(m: Move) -> &'static PocketPerm {
    static PERMS: OnceLock<Vec<(Move, PocketPerm)>> = OnceLock::new();
    let perms = PERMS.get_or_init(|| all_moves().map(|m| (m, PocketPerm::of_move(m))).collect());
    match perms.iter().find(|(n, _)| *n == m) {
        Some((_, p)) => p,
        None => unreachable!("every move is in the table"),
    }
}

/// The 18 face turns and 9 rotations.
fn all_moves() -> impl Iterator<Item = Move> {
    use crate::cube::{Axis, Rotation, Turn};
    let turns = Turn::all().map(Move::Turn);
    let rotations = [Axis::X, Axis::Y, Axis::Z]
        .into_iter()
        .flat_map(|axis| (1..=3).map(move |quarters| Move::Rotate(Rotation { axis, quarters })));
    turns.chain(rotations)
}
