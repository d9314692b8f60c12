//! Everything that can be wrong with a described pocket cube, each naming the stickers or corners where.

use super::stickers::PocketSticker;
use crate::cube::Corner;

/// Why a 2x2 facelet description is not a pocket cube that can exist.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PocketError {
    #[error("wrong length: {}, a 2x2 cube has 24{}", crate::cube::error::stickers_counted(*found, *commas), if *found == 54 { " (54 is a 3x3: give --size 3)" } else { "" })]
    WrongLength {
        found: usize,
        /// How many of them are commas.
        commas: usize,
    },
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
    #[error("the corner at {position:?} (stickers {stickers}) has colours {colours}, {}{reading}", if *mirrored { "which a corner piece has, but the other way round it, as if two of its stickers were swapped" } else { "which is no corner piece" })]
    ImpossibleCorner {
        position: Corner,
        stickers: String,
        colours: String,
        reading: String,
        /// A piece has these colours in the other order round it (two stickers swapped).
        mirrored: bool,
    },
    #[error("corner piece {colours} appears twice: at {first:?} and at {second:?}")]
    DuplicateCorner {
        colours: String,
        first: Corner,
        second: Corner,
    },
    #[error("a corner is twisted in place (the corners' twists add up to {twist} third{} of a turn, where a cube that can be turned adds up to none): {}", if *twist == 1 { "" } else { "s" }, match only { Some(at) => format!("it is the corner whose up/down colour is at {at}"), None => "twisting any one corner back in place fixes it (which one it was, the stickers cannot tell)".to_string() })]
    Twist {
        twist: u8,
        /// Where the one corner off its up/down colour shows that colour, when only one is.
        only: Option<String>,
    },
}

impl PocketError {
    /// A short machine-readable name of what is wrong (for JSON output), the name a 3x3's error
    /// of the same kind has ([`crate::cube::CubeError::kind`]).
    pub fn kind(&self) -> &'static str {
        match self {
            PocketError::WrongLength { .. } => "wrong_length",
            PocketError::UnknownColour { .. } => "unknown_symbol",
            PocketError::SeventhColour { .. } => "seventh_colour",
            PocketError::ColourCount { .. } => "colour_count",
            PocketError::ImpossibleCorner { .. } => "invalid_corner",
            PocketError::DuplicateCorner { .. } => "duplicate_corner",
            PocketError::Twist { .. } => "corner_twist",
        }
    }
}
