//! Axial moves: one face, or two opposite faces, turned together as one block (45 of them), their prices, and move tables over them.

use crate::cube::{Face, Turn};
use crate::solver::coord::*;
use crate::solver::movetables::MoveTables;

/// Number of axial moves: 3 axes × 15 (each face of the pair 0–3 quarters, not both 0).
pub const N_AXIAL: usize = 45;

/// One axial move: axis 0 (U–D), 1 (R–L) or 2 (F–B); quarters of the axis's first face (U, R,
/// F) and of its opposite (D, L, B), clockwise, 0..=3 each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AxialMove {
    pub axis: u8,
    pub near: u8,
    pub far: u8,
}

impl AxialMove {
    /// Move number `k` (0..45).
    pub const fn from_index(k: usize) -> AxialMove {
        let j = k % 15 + 1;
        AxialMove {
            axis: (k / 15) as u8,
            near: (j / 4) as u8,
            far: (j % 4) as u8,
        }
    }

    /// Every axial move, by number.
    pub fn all() -> [AxialMove; N_AXIAL] {
        std::array::from_fn(AxialMove::from_index)
    }

    /// The face turns it is made of (one or two; they commute).
    pub fn turns(self) -> impl Iterator<Item = Turn> {
        let near = Face::from_index(self.axis as usize);
        [(near, self.near), (near.opposite(), self.far)]
            .into_iter()
            .filter(|&(_, q)| q != 0)
            .map(|(face, quarters)| Turn { face, quarters })
    }

    /// True if it keeps a cube in the phase-2 group ⟨U, D, R2, F2, L2, B2⟩.
    pub fn keeps_phase2(self) -> bool {
        self.axis == 0 || (self.near.is_multiple_of(2) && self.far.is_multiple_of(2))
    }
}

/// The price of every axial move in one robot's time (any unit, whole numbers): what the
/// search minimises.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AxialPrices {
    pub price: [u16; N_AXIAL],
}

impl AxialPrices {
    /// Opposite faces turn at once; a block takes as long as its dearer face, `quarter` for a
    /// quarter turn and `half` for a half turn of any face.
    pub fn dearer_face(quarter: u16, half: u16) -> AxialPrices {
        let face = |q: u8| match q {
            0 => 0,
            2 => half,
            _ => quarter,
        };
        AxialPrices {
            price: std::array::from_fn(|k| {
                let m = AxialMove::from_index(k);
                face(m.near).max(face(m.far))
            }),
        }
    }

    /// The cheapest move's price.
    pub fn cheapest(&self) -> u16 {
        self.price.iter().copied().min().unwrap_or(0)
    }

    /// The price of face turns: each run on one axis is one block.
    pub fn of_turns(&self, turns: &[Turn]) -> u32 {
        let mut price = 0;
        let mut i = 0;
        while i < turns.len() {
            let axis = turns[i].face.index() % 3;
            let mut quarters = [0u8; 2];
            while i < turns.len() && turns[i].face.index() % 3 == axis {
                let side = usize::from(turns[i].face.index() >= 3);
                quarters[side] = (quarters[side] + turns[i].quarters) % 4;
                i += 1;
            }
            if quarters != [0, 0] {
                let k = axis * 15 + quarters[0] as usize * 4 + quarters[1] as usize - 1;
                price += self.price[k] as u32;
            }
        }
        price
    }
}

/// `table[v * 45 + k]`: a coordinate after axial move `k`, composed from its face-turn table
/// (`face_table[v * 18 + m]`, only the turns in `defined` filled).
pub(crate) fn compose(n: usize, face_table: &[u16], keep: impl Fn(AxialMove) -> bool) -> Vec<u16> {
    let moves = AxialMove::all();
    let mut table = vec![0u16; n * N_AXIAL];
    for v in 0..n {
        for (k, &m) in moves.iter().enumerate() {
            if !keep(m) {
                continue;
            }
            table[v * N_AXIAL + k] = m
                .turns()
                .fold(v as u16, |x, t| face_table[x as usize * 18 + t.index()]);
        }
    }
    table
}

/// Move tables over axial moves (phase-2 coordinates only for the moves that keep phase 2).
pub(crate) struct AxialMoveTables {
    pub twist: Vec<u16>,
    pub flip: Vec<u16>,
    /// The phase-1 slice coordinate (0..495).
    pub slice: Vec<u16>,
    pub slice_sorted: Vec<u16>,
    pub corners: Vec<u16>,
    pub ud_edges: Vec<u16>,
    pub u_edges: Vec<u16>,
    pub d_edges: Vec<u16>,
}

impl AxialMoveTables {
    pub(crate) fn build(m: &MoveTables, slice18: &[u16]) -> AxialMoveTables {
        let all = |_| true;
        AxialMoveTables {
            twist: compose(N_TWIST, &m.twist, all),
            flip: compose(N_FLIP, &m.flip, all),
            slice: compose(N_SLICE, slice18, all),
            slice_sorted: compose(N_SLICE_SORTED, &m.slice_sorted, all),
            corners: compose(N_PERM8, &m.corners, all),
            ud_edges: compose(N_PERM8, &m.ud_edges, AxialMove::keeps_phase2),
            u_edges: compose(N_SLICE_SORTED, &m.u_edges, all),
            d_edges: compose(N_SLICE_SORTED, &m.d_edges, all),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_45_moves_are_distinct_and_21_keep_phase_2() {
        let all = AxialMove::all();
        let distinct: std::collections::HashSet<_> = all.iter().collect();
        assert_eq!(distinct.len(), N_AXIAL);
        assert!(all.iter().all(|m| (1..=2).contains(&m.turns().count())));
        assert_eq!(all.iter().filter(|m| m.keeps_phase2()).count(), 21);
    }

    #[test]
    fn a_block_costs_its_dearer_face() {
        let p = AxialPrices::dearer_face(3, 5);
        let price = |axis, near, far| {
            let k = (0..N_AXIAL)
                .find(|&k| AxialMove::from_index(k) == AxialMove { axis, near, far })
                .expect("listed");
            p.price[k]
        };
        assert_eq!(price(1, 1, 0), 3);
        assert_eq!(price(1, 1, 3), 3);
        assert_eq!(price(2, 2, 1), 5);
        assert_eq!(price(0, 0, 2), 5);
        assert_eq!(p.cheapest(), 3);
    }

    #[test]
    fn face_turns_are_priced_block_by_block() {
        let p = AxialPrices::dearer_face(3, 5);
        let t = |face, quarters| Turn { face, quarters };
        let turns = [
            t(Face::R, 1),
            t(Face::L, 2),
            t(Face::R, 1),
            t(Face::U, 1),
            t(Face::F, 1),
            t(Face::B, 3),
            t(Face::F, 3),
        ];
        // R2 L2, U, then B' alone (F and F' cancel).
        assert_eq!(p.of_turns(&turns), 5 + 3 + 3);
        for k in 0..N_AXIAL {
            let block: Vec<Turn> = AxialMove::from_index(k).turns().collect();
            assert_eq!(p.of_turns(&block), p.price[k] as u32);
        }
    }
}
