//! One way of holding the palette's scheme on a 2x2 (`Holding`): the fixed DLB corner, and each free place's cost per piece and twist, cheapest first, with a lower bound of the rest.

use crate::cube::Corner;
use crate::pocket::stickers::{corner_stickers, STICKERS};

/// The fixed corner's place (and piece).
pub(super) const FIXED: usize = Corner::DBL as usize;
/// The other seven corner places (and pieces).
pub(super) const FREE: [usize; 7] = [0, 1, 2, 3, 4, 5, 7];

/// Costs of one way of holding the palette's scheme: per place, piece and twist.
pub(super) struct Holding {
    pub(super) names: [usize; 6],
    pub(super) fixed: f32,
    /// `[place][piece][twist]` for the seven free places and pieces (indices into `FREE`).
    pub(super) costs: [[[f32; 3]; 7]; 7],
    /// `[place][piece]`: the cheapest twist's cost.
    pub(super) cheapest: [[f32; 7]; 7],
    /// Per place, the pieces from cheapest to dearest there.
    pub(super) order: [[usize; 7]; 7],
    /// `floor[i]`: a lower bound of the cost of places i.. (each at its cheapest piece).
    pub(super) floor: [f32; 8],
}

impl Holding {
    /// The stickers' colours with the fixed corner in place and each free place `i` holding
    /// piece `pieces[i]` (an index into `FREE`) with twist `twists[i]`.
    pub(super) fn colours(&self, pieces: &[usize; 7], twists: &[usize; 7]) -> [usize; STICKERS] {
        let mut colours = [0; STICKERS];
        for (k, s) in corner_stickers(Corner::DBL).into_iter().enumerate() {
            colours[s.0] = colour_at(&self.names, FIXED, 0, k);
        }
        for i in 0..7 {
            for (k, s) in corner_stickers(Corner::ALL[FREE[i]]).iter().enumerate() {
                colours[s.0] = colour_at(&self.names, FREE[pieces[i]], twists[i], k);
            }
        }
        colours
    }
}

/// The palette colour of sticker `k` of a place holding `piece` with `twist`.
pub(super) fn colour_at(names: &[usize; 6], piece: usize, twist: usize, k: usize) -> usize {
    let faces = crate::cube::corner_colours(piece);
    names[faces[(k + 3 - twist) % 3].index()]
}

pub(super) fn holding(names: [usize; 6], cost: &[[f32; 6]; STICKERS]) -> Holding {
    let place_cost = |place: usize, piece: usize, twist: usize| -> f32 {
        let stickers = corner_stickers(Corner::ALL[place]);
        (0..3)
            .map(|k| cost[stickers[k].0][colour_at(&names, piece, twist, k)])
            .sum()
    };
    let costs: [[[f32; 3]; 7]; 7] = std::array::from_fn(|i| {
        std::array::from_fn(|p| std::array::from_fn(|t| place_cost(FREE[i], FREE[p], t)))
    });
    let cheapest: [[f32; 7]; 7] = std::array::from_fn(|i| {
        std::array::from_fn(|p| costs[i][p].into_iter().fold(f32::INFINITY, f32::min))
    });
    let order = std::array::from_fn(|i| {
        let mut pieces: [usize; 7] = std::array::from_fn(|p| p);
        pieces.sort_by(|&a, &b| cheapest[i][a].total_cmp(&cheapest[i][b]));
        pieces
    });
    let mut floor = [0.0; 8];
    for i in (0..7).rev() {
        floor[i] = floor[i + 1] + cheapest[i].into_iter().fold(f32::INFINITY, f32::min);
    }
    Holding {
        names,
        fixed: place_cost(FIXED, FIXED, 0),
        costs,
        cheapest,
        order,
        floor,
    }
}
