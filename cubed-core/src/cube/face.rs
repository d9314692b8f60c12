//! The six faces of the cube (named by their centres) and their letters in both notations.

use std::fmt;

/// A face of the cube, named by its centre. The discriminant is the face's
/// position in the URFDLB facelet string.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum Face {
    U = 0,
    R = 1,
    F = 2,
    D = 3,
    L = 4,
    B = 5,
}

impl Face {
    /// All faces in URFDLB order.
    pub const ALL: [Face; 6] = [Face::U, Face::R, Face::F, Face::D, Face::L, Face::B];

    /// Position of the face in URFDLB order (0..6).
    pub fn index(self) -> usize {
        self as usize
    }

    /// The face at position `i` (taken modulo 6) in URFDLB order.
    pub fn from_index(i: usize) -> Face {
        Face::ALL[i % 6]
    }

    /// The Singmaster letter of the face.
    pub fn letter(self) -> char {
        b"URFDLB"[self.index()] as char
    }

    /// The face with this Singmaster letter.
    pub fn from_letter(c: char) -> Option<Face> {
        Face::ALL.into_iter().find(|f| f.letter() == c)
    }

    /// The letter of the 1988 notation: Top, Right, Front, Bottom, Left, Posterior.
    pub fn woolley_letter(self) -> char {
        b"TRFBLP"[self.index()] as char
    }

    /// The face with this 1988-notation letter.
    pub fn from_woolley_letter(c: char) -> Option<Face> {
        Face::ALL.into_iter().find(|f| f.woolley_letter() == c)
    }

    /// The face on the other side of the cube.
    pub fn opposite(self) -> Face {
        Face::from_index(self.index() + 3)
    }
}

impl fmt::Display for Face {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A sticker position 0..54 in the URFDLB facelet string, printed as e.g. `F7`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Sticker(pub usize);

impl Sticker {
    /// The face this sticker lies on.
    pub fn face(self) -> Face {
        Face::from_index(self.0 / 9)
    }
}

/// "U6, R2, F9": stickers of a cube with `per_face` stickers a face (9, or 4 for a 2x2), by
/// face letter and 1-based position in the face's net order (row by row as seen from outside).
pub fn sticker_names(stickers: &[usize], per_face: usize) -> String {
    (stickers.iter())
        .map(|&s| {
            let face = Face::ALL[(s / per_face.max(1)).min(5)];
            format!("{face}{}", s % per_face.max(1) + 1)
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The faces `stickers` lie on (a cube of `per_face` stickers a face), in URFDLB order.
pub fn faces_of(stickers: &[usize], per_face: usize) -> Vec<Face> {
    let per_face = per_face.max(1);
    Face::ALL
        .into_iter()
        .filter(|f| stickers.iter().any(|&s| s / per_face == f.index()))
        .collect()
}

/// "U, R, L": faces by their letters.
pub fn face_letters(faces: &[Face]) -> String {
    (faces.iter())
        .map(|f| f.letter().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

impl fmt::Display for Sticker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{} (index {})", self.face(), self.0 % 9 + 1, self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stickers_are_named_by_face_and_position_on_either_cube() {
        assert_eq!(sticker_names(&[5, 19, 53], 9), "U6, F2, B9");
        assert_eq!(sticker_names(&[0, 7, 23], 4), "U1, R4, B4");
        assert_eq!(sticker_names(&[], 9), "");
    }
}
