//! Numbering the 3,674,160 pocket-cube states: the permutation of the seven free corners (7! = 5040) times the twist of six of them (3^6 = 729), and the move tables over both.

use super::model::{PocketCube, FIXED};
use crate::cube::Turn;

/// Permutations of the seven corners other than the fixed one.
pub(crate) const PERMS: usize = 5040;
/// Twists of six free corners (the seventh's follows).
pub(crate) const TWISTS: usize = 729;
/// Every state of the pocket cube with the DLB corner fixed.
pub(crate) const STATES: usize = PERMS * TWISTS;

/// The nine turns that keep the DLB corner in place: U U2 U' R R2 R' F F2 F'.
pub(crate) fn fixed_turns() -> [Turn; 9] {
    std::array::from_fn(Turn::from_index)
}

/// Positions (and pieces) other than the fixed corner, in order.
const FREE: [usize; 7] = [0, 1, 2, 3, 4, 5, 7];

fn free_rank(piece: u8) -> usize {
    let p = piece as usize;
    if p > FIXED as usize {
        p - 1
    } else {
        p
    }
}

/// Lehmer rank of the free corners' permutation, 0..5040.
pub(crate) fn perm_coord(c: &PocketCube) -> usize {
    let ranks = FREE.map(|pos| free_rank(c.cp[pos]));
    let mut coord = 0;
    for i in 0..7 {
        let smaller_after = ranks[i + 1..].iter().filter(|&&r| r < ranks[i]).count();
        coord = coord * (7 - i) + smaller_after;
    }
    coord
}

/// Twist of the first six free corners in base 3, 0..729.
pub(crate) fn twist_coord(c: &PocketCube) -> usize {
    FREE[..6]
        .iter()
        .fold(0, |acc, &pos| acc * 3 + c.co[pos] as usize)
}

/// The state number, 0..STATES.
pub(crate) fn state_index(c: &PocketCube) -> usize {
    perm_coord(c) * TWISTS + twist_coord(c)
}

/// The cube with state number `index` (the inverse of `state_index`).
pub(crate) fn cube_of_index(index: usize) -> PocketCube {
    let mut c = PocketCube::default();
    set_perm(&mut c, index / TWISTS % PERMS);
    set_twist(&mut c, index % TWISTS);
    c
}

fn set_perm(c: &mut PocketCube, mut coord: usize) {
    let mut digits = [0usize; 7];
    for i in (0..7).rev() {
        digits[i] = coord % (7 - i);
        coord /= 7 - i;
    }
    let mut left: Vec<u8> = FREE.iter().map(|&p| p as u8).collect();
    for (pos, d) in FREE.into_iter().zip(digits) {
        c.cp[pos] = left.remove(d);
    }
}

fn set_twist(c: &mut PocketCube, mut coord: usize) {
    let mut total = 0;
    for &pos in FREE[..6].iter().rev() {
        c.co[pos] = (coord % 3) as u8;
        total += coord % 3;
        coord /= 3;
    }
    c.co[FREE[6]] = ((3 - total % 3) % 3) as u8;
}

/// Where each coordinate goes under each of the nine turns.
pub struct MoveTables {
    pub perm: Vec<[u16; 9]>,
    pub twist: Vec<[u16; 9]>,
}

impl MoveTables {
    /// Computes both tables by turning the cube of every coordinate.
    pub fn build() -> MoveTables {
        let turns = fixed_turns();
        let perm = (0..PERMS)
            .map(|p| {
                let mut c = PocketCube::default();
                set_perm(&mut c, p);
                turns.map(|t| perm_coord(&c.turn(t)) as u16)
            })
            .collect();
        let twist = (0..TWISTS)
            .map(|w| {
                let mut c = PocketCube::default();
                set_twist(&mut c, w);
                turns.map(|t| twist_coord(&c.turn(t)) as u16)
            })
            .collect();
        MoveTables { perm, twist }
    }

    /// The state after turn `m` (index into `fixed_turns`).
    #[inline]
    pub fn next(&self, state: usize, m: usize) -> usize {
        let (p, w) = (state / TWISTS, state % TWISTS);
        self.perm[p][m] as usize * TWISTS + self.twist[w][m] as usize
    }
}
