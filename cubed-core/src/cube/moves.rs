//! Face turns, whole-cube rotations and move sequences, with their sticker permutations.

use super::face::Face;
use super::geometry::{cube_quarter_turn, face_quarter_turn, StickerPerm};
use std::sync::OnceLock;

/// A turn of one outer layer: `quarters` clockwise quarter turns (1, 2 or 3 = `'`)
/// as seen looking at the face.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Turn {
    pub face: Face,
    pub quarters: u8,
}

impl Turn {
    /// All 18 face turns, in solver order: U U2 U' R R2 R' F … B'.
    pub fn all() -> impl Iterator<Item = Turn> {
        (0..18).map(Turn::from_index)
    }

    /// The turn with solver index `i` (0..18): face `i / 3`, `i % 3 + 1` quarters.
    pub fn from_index(i: usize) -> Turn {
        Turn {
            face: Face::from_index(i / 3),
            quarters: (i % 3) as u8 + 1,
        }
    }

    /// Solver index 0..18 of this turn.
    pub fn index(self) -> usize {
        self.face.index() * 3 + self.quarters as usize - 1
    }

    /// The turn that undoes this one.
    pub fn inverse(self) -> Turn {
        Turn {
            face: self.face,
            quarters: 4 - self.quarters,
        }
    }

    /// Sticker permutation of the turn.
    pub fn perm(self) -> &'static StickerPerm {
        &tables().turns[self.index()]
    }
}

/// A rotation axis of the whole cube: `x` follows R, `y` follows U, `z` follows F.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Axis {
    X,
    Y,
    Z,
}

impl Axis {
    /// The face whose clockwise turn the rotation follows.
    pub fn face(self) -> Face {
        match self {
            Axis::X => Face::R,
            Axis::Y => Face::U,
            Axis::Z => Face::F,
        }
    }

    /// The lower-case letter of the axis.
    pub fn letter(self) -> char {
        match self {
            Axis::X => 'x',
            Axis::Y => 'y',
            Axis::Z => 'z',
        }
    }
}

/// A whole-cube rotation: `quarters` clockwise quarter turns about an axis.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Rotation {
    pub axis: Axis,
    pub quarters: u8,
}

impl Rotation {
    /// Sticker permutation of the rotation.
    pub fn perm(self) -> &'static StickerPerm {
        let axis = match self.axis {
            Axis::X => 0,
            Axis::Y => 1,
            Axis::Z => 2,
        };
        &tables().rotations[axis * 3 + self.quarters as usize - 1]
    }

    /// The rotation that undoes this one.
    pub fn inverse(self) -> Rotation {
        Rotation {
            axis: self.axis,
            quarters: 4 - self.quarters,
        }
    }
}

/// One step of a move sequence: a face turn or a whole-cube rotation.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    Turn(Turn),
    Rotate(Rotation),
}

impl Move {
    /// Sticker permutation of the move.
    pub fn perm(self) -> &'static StickerPerm {
        match self {
            Move::Turn(t) => t.perm(),
            Move::Rotate(r) => r.perm(),
        }
    }

    /// The move that undoes this one.
    pub fn inverse(self) -> Move {
        match self {
            Move::Turn(t) => Move::Turn(t.inverse()),
            Move::Rotate(r) => Move::Rotate(r.inverse()),
        }
    }

    /// Number of quarter turns (1, 2 or 3).
    pub fn quarters(self) -> u8 {
        match self {
            Move::Turn(t) => t.quarters,
            Move::Rotate(r) => r.quarters,
        }
    }
}

impl From<Turn> for Move {
    fn from(t: Turn) -> Move {
        Move::Turn(t)
    }
}

/// The inverse of a whole sequence: reversed, each move undone.
#[cfg(test)]
pub(crate) fn invert_sequence(moves: &[Move]) -> Vec<Move> {
    moves.iter().rev().map(|m| m.inverse()).collect()
}

struct PermTables {
    turns: Vec<StickerPerm>,
    rotations: Vec<StickerPerm>,
}

fn tables() -> &'static PermTables {
    static TABLES: OnceLock<PermTables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let powers = |q: StickerPerm| (1..=3).map(move |n| q.power(n));
        PermTables {
            turns: Face::ALL
                .into_iter()
                .flat_map(|f| powers(face_quarter_turn(f)))
                .collect(),
            rotations: [Face::R, Face::U, Face::F]
                .into_iter()
                .flat_map(|f| powers(cube_quarter_turn(f)))
                .collect(),
        }
    })
}
