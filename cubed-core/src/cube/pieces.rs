//! The cube's 20 pieces: corners and edges named by the faces they touch, the stickers of each position, and each piece's colours.

use super::face::Face;

/// Corner positions (and pieces), named by the faces they touch.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
#[repr(u8)]
pub enum Corner {
    URF,
    UFL,
    ULB,
    UBR,
    DFR,
    DLF,
    DBL,
    DRB,
}

/// Edge positions (and pieces), named by the faces they touch.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
#[repr(u8)]
pub enum Edge {
    UR,
    UF,
    UL,
    UB,
    DR,
    DF,
    DL,
    DB,
    FR,
    FL,
    BL,
    BR,
}

impl Corner {
    pub const ALL: [Corner; 8] = {
        use Corner::*;
        [URF, UFL, ULB, UBR, DFR, DLF, DBL, DRB]
    };
}

impl Edge {
    pub const ALL: [Edge; 12] = {
        use Edge::*;
        [UR, UF, UL, UB, DR, DF, DL, DB, FR, FL, BL, BR]
    };
}

/// Sticker indices of each corner position, U/D sticker first, then clockwise.
pub const CORNER_STICKERS: [[usize; 3]; 8] = [
    [8, 9, 20],
    [6, 18, 38],
    [0, 36, 47],
    [2, 45, 11],
    [29, 26, 15],
    [27, 44, 24],
    [33, 53, 42],
    [35, 17, 51],
];

/// Sticker indices of each edge position, reference sticker first.
pub const EDGE_STICKERS: [[usize; 2]; 12] = [
    [5, 10],
    [7, 19],
    [3, 37],
    [1, 46],
    [32, 16],
    [28, 25],
    [30, 43],
    [34, 52],
    [23, 12],
    [21, 41],
    [50, 39],
    [48, 14],
];

/// Colours (faces) of each corner piece, in the order of `CORNER_STICKERS`.
pub fn corner_colours(c: usize) -> [Face; 3] {
    CORNER_STICKERS[c].map(|s| Face::from_index(s / 9))
}

/// Whether some corner piece has `colours`, in whatever order round it (a corner whose
/// stickers show them the other way round had two of its stickers swapped).
pub(crate) fn some_corner_has(colours: [Face; 3]) -> bool {
    let sorted = |mut c: [Face; 3]| {
        c.sort_by_key(|f| f.index());
        c
    };
    (0..8).any(|p| sorted(corner_colours(p)) == sorted(colours))
}

/// Colours (faces) of each edge piece, in the order of `EDGE_STICKERS`.
pub fn edge_colours(e: usize) -> [Face; 2] {
    EDGE_STICKERS[e].map(|s| Face::from_index(s / 9))
}
