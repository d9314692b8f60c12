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
/// No turn is wasted: a face is not turned again, nor its opposite before it, until a turn
/// on another axis comes between (faces named as the cube was first held, whatever rotations
/// came before), and no rotation follows a rotation, so no two moves cancel or merge and
/// `count` moves stay `count`.
pub fn random_scramble<R: Rng>(rng: &mut R, count: usize, rotations: bool) -> Vec<Move> {
    scramble(rng, count, rotations, Layers::Three)
}

/// [`random_scramble`] for a 2x2, whose two layers on an axis are the whole cube: a turn of
/// one layer then the other is one turn and a rotation, and a y rotation turns both U-D
/// layers, so no two turns on one axis come in a row, nor a rotation beside a U or D turn.
pub fn random_pocket_scramble<R: Rng>(rng: &mut R, count: usize, rotations: bool) -> Vec<Move> {
    scramble(rng, count, rotations, Layers::Two)
}

/// How many layers a cube has on each axis: what makes two moves in a row merge.
#[derive(Clone, Copy, PartialEq)]
enum Layers {
    Two,
    Three,
}

fn scramble<R: Rng>(rng: &mut R, count: usize, rotations: bool, layers: Layers) -> Vec<Move> {
    let choices = if rotations { 21 } else { 18 };
    let mut moves: Vec<Move> = Vec::with_capacity(count);
    // The last turn's face as first held (rotations between kept out of it), and whether a
    // rotation came after it.
    let mut last: Option<Face> = None;
    let mut rotated = false;
    let mut turned_y = 0u8;
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
        match m {
            Move::Turn(t) => {
                let face = held_first(t.face, turned_y);
                let after_rotation = rotated && layers == Layers::Two && on_y(face);
                if after_rotation || last.is_some_and(|last| wasted_after(last, face, layers)) {
                    continue;
                }
                (last, rotated) = (Some(face), false);
            }
            Move::Rotate(r) => {
                let beside_turn = layers == Layers::Two && last.is_some_and(on_y);
                if rotated || beside_turn {
                    continue;
                }
                turned_y = (turned_y + r.quarters) % 4;
                rotated = true;
            }
        }
        moves.push(m);
    }
    moves
}

/// Whether `face` is turned about the y axis (U or D), as a y rotation turns the cube.
fn on_y(face: Face) -> bool {
    matches!(face, Face::U | Face::D)
}

/// Whether a turn of `next` right after one of `last` could cancel or merge with turns on
/// their axis: the same face, or the opposite one out of order (a fixed order keeps `R L` and
/// drops `L R`, which does the same); on a 2x2 the opposite one in any order.
fn wasted_after(last: Face, next: Face, layers: Layers) -> bool {
    let same_axis = last.index() % 3 == next.index() % 3;
    same_axis && (layers == Layers::Two || next.index() <= last.index())
}

/// The face a turn of `face` turns, named as the cube was held before it was turned
/// `quarters` times by `y` (the face at the front after `y` was at the right).
fn held_first(face: Face, quarters: u8) -> Face {
    const AROUND_Y: [Face; 4] = [Face::F, Face::R, Face::B, Face::L];
    match AROUND_Y.iter().position(|&f| f == face) {
        Some(at) => AROUND_Y[(at + usize::from(quarters)) % 4],
        None => face,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::FaceletCube;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;
    use std::collections::HashSet;

    /// Every cube within `depth` face turns of solved (held as at the start), by its stickers.
    fn within(depth: usize) -> HashSet<[Face; 54]> {
        let mut seen = HashSet::from([FaceletCube::default().stickers]);
        let mut layer = vec![FaceletCube::default()];
        for _ in 0..depth {
            let next: Vec<FaceletCube> = (layer.iter())
                .flat_map(|cube| (0..18).map(|k| cube.apply(Move::Turn(Turn::from_index(k)))))
                .filter(|cube| seen.insert(cube.stickers))
                .collect();
            layer = next;
        }
        seen
    }

    #[test]
    fn a_scramble_of_n_turns_is_n_turns_from_solved_for_short_ones() {
        // 1 + 18 + 243 + 3240 cubes within three turns: a scramble of n turns (n up to four,
        // y rotations among them or not) is none of those within n - 1.
        let nearer: Vec<HashSet<[Face; 54]>> = (0..4).map(within).collect();
        let sizes: Vec<usize> = nearer.iter().map(HashSet::len).collect();
        assert_eq!(sizes, [1, 19, 262, 3502]);
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        for rotations in [false, true] {
            for _ in 0..500 {
                for count in [3, 4, 5] {
                    let moves = random_scramble(&mut rng, count, rotations);
                    // The turns as the cube was first held: the cube up to how it is held.
                    let turned = FaceletCube::turns_without_rotations(&moves);
                    let turns = turned.len();
                    let is_turn = |m: &&Move| matches!(m, Move::Turn(_));
                    assert_eq!(turns, moves.iter().filter(is_turn).count(), "{moves:?}");
                    let Some(nearer) = turns.checked_sub(1).and_then(|n| nearer.get(n)) else {
                        continue;
                    };
                    let turned: Vec<Move> = turned.into_iter().map(Move::Turn).collect();
                    let cube = FaceletCube::default().apply_all(&turned);
                    assert!(
                        !nearer.contains(&cube.stickers),
                        "{moves:?}: fewer than {turns}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_turn_after_y_rotations_is_named_as_the_cube_was_first_held() {
        for quarters in 1..4 {
            for k in 0..18 {
                let turn = Turn::from_index(k);
                let moves = [
                    Move::Rotate(Rotation {
                        axis: Axis::Y,
                        quarters,
                    }),
                    Move::Turn(turn),
                ];
                let first_held = FaceletCube::turns_without_rotations(&moves)[0].face;
                assert_eq!(
                    held_first(turn.face, quarters),
                    first_held,
                    "y{quarters} {turn:?}"
                );
            }
        }
    }
}
