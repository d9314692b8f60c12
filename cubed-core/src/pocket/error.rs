//! Everything that can be wrong with a described pocket cube, each naming the stickers or corners where.

use super::stickers::PocketSticker;
use crate::cube::Corner;

/// Why a 2x2 facelet description is not a pocket cube that can exist.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PocketError {
    #[error("wrong length: {found} stickers, a 2x2 cube has 24")]
    WrongLength { found: usize },
    #[error("unknown colour '{symbol}' at sticker {sticker}: it is not {allowed}")]
    UnknownColour {
        symbol: char,
        sticker: PocketSticker,
        allowed: String,
    },
    #[error("colour '{symbol}' at {stickers} is a seventh colour: a cube has six")]
    SeventhColour { symbol: char, stickers: String },
    #[error("colour '{symbol}' appears {count} times (at {stickers}), each colour must appear exactly 4 times")]
    ColourCount {
        symbol: char,
        count: usize,
        stickers: String,
    },
    /// `reading` says how the faces were named (empty for the DLB corner itself).
    #[error("the corner at {position:?} (stickers {stickers}) has colours {colours}, which is no corner piece{reading}")]
    ImpossibleCorner {
        position: Corner,
        stickers: String,
        colours: String,
        reading: String,
    },
    #[error("corner piece {colours} appears twice: at {first:?} and at {second:?}")]
    DuplicateCorner {
        colours: String,
        first: Corner,
        second: Corner,
    },
    #[error("corner twist is {twist} mod 3 (must be 0): a corner is twisted in place; the up/down colours of the twisted corners are at {stickers}")]
    Twist { twist: u8, stickers: String },
}

impl PocketError {
    /// A short machine-readable name of what is wrong (for JSON output).
    pub fn kind(&self) -> &'static str {
        match self {
            PocketError::WrongLength { .. } => "wrong_length",
            PocketError::UnknownColour { .. } => "unknown_colour",
            PocketError::SeventhColour { .. } => "seventh_colour",
            PocketError::ColourCount { .. } => "colour_count",
            PocketError::ImpossibleCorner { .. } => "impossible_corner",
            PocketError::DuplicateCorner { .. } => "duplicate_corner",
            PocketError::Twist { .. } => "twist",
        }
    }
}
