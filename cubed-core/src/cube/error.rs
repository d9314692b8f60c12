//! Everything that can be wrong with a described cube, each naming where.

use super::face::{Face, Sticker};
use super::pieces::{Corner, Edge};

/// Why a facelet description is not a cube that can exist.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CubeError {
    #[error("wrong length: {found} stickers, a cube has 54{}", if *found == 24 { " (24 is a 2x2: give --size 2)" } else { "" })]
    WrongLength { found: usize },
    #[error(
        "centres are not six distinct colours: {first} and {second} centres are both '{symbol}'"
    )]
    CentresNotDistinct {
        symbol: char,
        first: Face,
        second: Face,
    },
    #[error("unknown symbol '{symbol}' at sticker {sticker}: it is not {allowed}")]
    UnknownSymbol {
        symbol: char,
        sticker: Sticker,
        allowed: String,
    },
    #[error("{wrong}: each colour must appear exactly 9 times")]
    ColourCount {
        /// Each colour that appears a wrong number of times, e.g. "colour 'U' (face U)
        /// appears 8 times, colour 'R' (face R) 10 times".
        wrong: String,
    },
    #[error("the corner at {position:?} (stickers {stickers}) has colours {colours}, which no corner piece has")]
    InvalidCorner {
        position: Corner,
        /// Its stickers, e.g. "U9, R1, F3".
        stickers: String,
        colours: String,
    },
    #[error("the edge at {position:?} (stickers {stickers}) has colours {colours}, which no edge piece has")]
    InvalidEdge {
        position: Edge,
        /// Its stickers, e.g. "U6, R2".
        stickers: String,
        colours: String,
    },
    #[error("corner piece {piece:?} appears twice: at {first:?} and at {second:?}")]
    DuplicateCorner {
        piece: Corner,
        first: Corner,
        second: Corner,
    },
    #[error("edge piece {piece:?} appears twice: at {first:?} and at {second:?}")]
    DuplicateEdge {
        piece: Edge,
        first: Edge,
        second: Edge,
    },
    #[error("corner twist is {twist} mod 3 (must be 0): one corner is twisted in place")]
    CornerTwist { twist: u8 },
    #[error("edge flip is odd: one edge is flipped in place")]
    EdgeFlip,
    #[error("permutation parity is odd: two pieces are swapped")]
    Parity,
}
