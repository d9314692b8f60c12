//! Uniformly random cubes and random scrambles (the random source is injected).

use super::cubie::{permutation_parity, CubieCube};
use super::face::Face;
use super::moves::{Axis, Move, Rotation, Turn};
use rand::seq::SliceRandom;
use rand::{Rng, RngExt};

/// A cube drawn uniformly from all 43 252 003 274 489 856 000 reachable states.
pub fn random_cube<R: Rng>(rng: &mut R) -> CubieCube {
    let mut c = CubieCube::default();
    c.cp.shuffle(rng);
    c.ep.shuffle(rng);
    if permutation_parity(&c.cp) != permutation_parity(&c.ep) {
        c.ep.swap(0, 1);
    }
    for i in 0..7 {
        c.co[i] = rng.random_range(0..3);
    }
    c.co[7] = (3 - c.co[..7].iter().map(|&o| o as u32).sum::<u32>() % 3) as u8 % 3;
    for i in 0..11 {
        c.eo[i] = rng.random_range(0..2);
    }
    c.eo[11] = c.eo[..11].iter().sum::<u8>() % 2;
    c
}

/// `count` random moves as the 1988 Test Program drew them: any face turn
/// (`T+ T- T2 …`), and with `rotations` also `RC+ RC- RC2` (y rotations).
/// Consecutive turns of the same face are avoided so no move is wasted.
pub fn random_scramble<R: Rng>(rng: &mut R, count: usize, rotations: bool) -> Vec<Move> {
    let choices = if rotations { 21 } else { 18 };
    let mut moves: Vec<Move> = Vec::with_capacity(count);
    let mut last_face: Option<Face> = None;
    while moves.len() < count {
        let k = rng.random_range(0..choices);
        let m = if k < 18 {
            Move::Turn(Turn::from_index(k))
        } else {
            Move::Rotate(Rotation {
                axis: Axis::Y,
                quarters: (k - 17) as u8,
            })
        };
        if let Move::Turn(t) = m {
            if last_face == Some(t.face) {
                continue;
            }
            last_face = Some(t.face);
        }
        moves.push(m);
    }
    moves
}
