//! Everything that can be wrong with a described cube, each naming where.

use super::face::{sticker_names, Face, Sticker};
use super::pieces::{Corner, Edge, CORNER_STICKERS, EDGE_STICKERS};

/// Why a facelet description is not a cube that can exist.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CubeError {
    #[error("wrong length: {}, a cube has 54{}", stickers_counted(*found, *commas), if *found == 24 { " (24 is a 2x2: give --size 2)" } else { "" })]
    WrongLength {
        found: usize,
        /// How many of them are commas (typed between faces, say).
        commas: usize,
    },
    #[error(
        "centres are not six distinct colours: {first} and {second} centres are both '{symbol}'"
    )]
    CentresNotDistinct {
        symbol: char,
        first: Face,
        second: Face,
    },
    #[error("the centre of face {face} (sticker {face}5, index {as_given} as given) is '{typed}', which no other sticker has, while '{likely}' is on 8 stickers and no centre: typed '{typed}' for '{likely}' there? (the centres name the colours)")]
    CentreTypo {
        face: Face,
        typed: char,
        likely: char,
        /// The centre's index in the input as typed.
        as_given: usize,
    },
    #[error("the centres may be typed in each other's places: with {moved}, every piece would be one a cube has, and it could be solved (as typed, {found})")]
    CentresMisplaced {
        /// What the pieces show with the centres as typed.
        found: Box<CubeError>,
        /// The centres moved, e.g. "U's centre 'G', F's centre 'W'".
        moved: String,
    },
    #[error("the centres as typed ({typed}) are not the colours the other stickers show, six colours 8 times each: with {retyped}, every piece would be one a cube has: typed wrong there? (the centres name the colours)")]
    CentresMistyped {
        /// The centres that are wrong, as typed, e.g. "U's centre 'R'".
        typed: String,
        /// The centres retyped, e.g. "U's centre 'W'".
        retyped: String,
    },
    #[error("unknown symbol '{symbol}' at sticker {} (index {as_given} as given): it is not {allowed}", sticker_names(&[sticker.0], 9))]
    UnknownSymbol {
        symbol: char,
        sticker: Sticker,
        /// Its index in the input as typed (in the order the faces were given).
        as_given: usize,
        allowed: String,
    },
    #[error("{wrong}: each colour must appear exactly 9 times")]
    ColourCount {
        /// Each colour that appears a wrong number of times, e.g. "colour 'U' (face U)
        /// appears 8 times, colour 'R' (face R) 10 times".
        wrong: String,
    },
    #[error("the corner at {position:?} (stickers {stickers}) has colours {colours}, {}", if *mirrored { "which a corner piece has, but the other way round it, as if two of its stickers were swapped" } else { "which no corner piece has" })]
    InvalidCorner {
        position: Corner,
        /// Its stickers, e.g. "U9, R1, F3".
        stickers: String,
        colours: String,
        /// A piece has these colours in the other order round it (two stickers swapped).
        mirrored: bool,
    },
    #[error("the edge at {position:?} (stickers {stickers}) has colours {colours}, which no edge piece has")]
    InvalidEdge {
        position: Edge,
        /// Its stickers, e.g. "U6, R2".
        stickers: String,
        colours: String,
    },
    #[error("corner piece {} appears twice: at {first:?} and at {second:?}", piece_words(format!("{piece:?}"), colours))]
    DuplicateCorner {
        piece: Corner,
        first: Corner,
        second: Corner,
        /// The piece's colours as typed (face letters until `in_colours`).
        colours: String,
    },
    #[error("edge piece {} appears twice: at {first:?} and at {second:?}", piece_words(format!("{piece:?}"), colours))]
    DuplicateEdge {
        piece: Edge,
        first: Edge,
        second: Edge,
        /// The piece's colours as typed (face letters until `in_colours`).
        colours: String,
    },
    #[error("a corner is twisted in place (the corners' twists add up to {twist} third{} of a turn, where a cube that can be turned adds up to none): {}", if *twist == 1 { "" } else { "s" }, which_piece(only.map(|c| format!("{c:?} (stickers {}{as_given})", sticker_names(&CORNER_STICKERS[c as usize], 9))), "corner", "twisting"))]
    CornerTwist {
        twist: u8,
        /// The one corner not on its up/down colour, when only one is not.
        only: Option<Corner>,
        /// Its stickers' indexes in the input, when it was typed in another face order than
        /// URFDLB ("; indexes 8, 18, 11 as given"); else empty.
        as_given: String,
    },
    #[error("an edge is flipped in place (an odd number of edges are flipped, where a cube that can be turned has an even number): {}", which_piece(only.map(|e| format!("{e:?} (stickers {}{as_given})", sticker_names(&EDGE_STICKERS[e as usize], 9))), "edge", "flipping"))]
    EdgeFlip {
        /// The one edge flipped, when only one is.
        only: Option<Edge>,
        /// As [`CubeError::CornerTwist`]'s.
        as_given: String,
    },
    #[error("two pieces are swapped: two edges, or two corners (the stickers cannot tell which); swapping any two edges, or any two corners, back fixes it")]
    Parity,
    /// More than one of the corner twist, the edge flip and the parity is wrong: each said.
    #[error("{first}; and {}", also.iter().map(ToString::to_string).collect::<Vec<_>>().join("; and "))]
    Several {
        first: Box<CubeError>,
        also: Vec<CubeError>,
    },
}

impl CubeError {
    /// A short machine-readable name of what is wrong (for JSON output); a 2x2's error of the
    /// same kind has the same name ([`crate::pocket::PocketError::kind`]).
    pub fn kind(&self) -> &'static str {
        match self {
            CubeError::WrongLength { .. } => "wrong_length",
            CubeError::CentresNotDistinct { .. } => "centres_not_distinct",
            CubeError::UnknownSymbol { .. } => "unknown_symbol",
            CubeError::CentreTypo { .. } => "centre_typo",
            CubeError::CentresMisplaced { .. } => "centres_misplaced",
            CubeError::CentresMistyped { .. } => "centres_mistyped",
            CubeError::ColourCount { .. } => "colour_count",
            CubeError::InvalidCorner { .. } => "invalid_corner",
            CubeError::InvalidEdge { .. } => "invalid_edge",
            CubeError::DuplicateCorner { .. } => "duplicate_corner",
            CubeError::DuplicateEdge { .. } => "duplicate_edge",
            CubeError::CornerTwist { .. } => "corner_twist",
            CubeError::EdgeFlip { .. } => "edge_flip",
            CubeError::Parity => "parity",
            CubeError::Several { first, .. } => first.kind(),
        }
    }

    /// Whether it is a piece no cube has (its colours, or one piece twice), rather than a
    /// twist, flip or swap of pieces that are all a cube's.
    pub fn is_of_a_piece(&self) -> bool {
        matches!(
            self,
            CubeError::InvalidCorner { .. }
                | CubeError::InvalidEdge { .. }
                | CubeError::DuplicateCorner { .. }
                | CubeError::DuplicateEdge { .. }
        )
    }

    /// The same error with each piece's colours in the symbols the cube was typed in
    /// (`symbols`, by face: a colour scheme's), where they were face letters.
    pub fn in_colours(self, symbols: &[char; 6]) -> CubeError {
        let typed = |letters: String| -> String {
            (letters.chars())
                .map(|c| Face::from_letter(c).map_or(c, |f| symbols[f.index()]))
                .collect()
        };
        match self {
            CubeError::InvalidCorner {
                position,
                stickers,
                colours,
                mirrored,
            } => CubeError::InvalidCorner {
                position,
                stickers,
                colours: typed(colours),
                mirrored,
            },
            CubeError::InvalidEdge {
                position,
                stickers,
                colours,
            } => CubeError::InvalidEdge {
                position,
                stickers,
                colours: typed(colours),
            },
            CubeError::DuplicateCorner {
                piece,
                first,
                second,
                colours,
            } => CubeError::DuplicateCorner {
                piece,
                first,
                second,
                colours: typed(colours),
            },
            CubeError::DuplicateEdge {
                piece,
                first,
                second,
                colours,
            } => CubeError::DuplicateEdge {
                piece,
                first,
                second,
                colours: typed(colours),
            },
            other => other,
        }
    }
}

/// A piece by its colours as typed, and by its home where those are not its faces' letters.
fn piece_words(home: String, colours: &str) -> String {
    if home == colours {
        home
    } else {
        format!("{colours} (its home is {home})")
    }
}

/// Which piece is at fault, when the stickers tell; else that any one would do.
fn which_piece(only: Option<String>, piece: &str, fixing: &str) -> String {
    match only {
        Some(at) => format!("it is the {piece} at {at}"),
        None => format!(
            "{fixing} any one {piece} back in place fixes it (which one it was, the stickers cannot tell)"
        ),
    }
}

/// "53 stickers", "1 sticker", or "59 stickers (5 of them commas: …)".
pub(crate) fn stickers_counted(found: usize, commas: usize) -> String {
    let counted = match found {
        1 => "1 sticker".to_string(),
        n => format!("{n} stickers"),
    };
    match commas {
        0 => counted,
        1 => format!(
            "{counted} (1 of them a comma: stickers are separated by spaces, or by nothing)"
        ),
        n => format!(
            "{counted} ({n} of them commas: stickers are separated by spaces, or by nothing)"
        ),
    }
}
