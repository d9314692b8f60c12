//! Where each of the 54 stickers sits in space, and the sticker permutations of turns and rotations derived from it.
//!
//! Axes: x points to R, y to U, z to F. A sticker is a cubie position (each
//! coordinate in -1..=1) plus the outward normal of its face. Permutations are
//! computed from this geometry instead of being typed in by hand.

use super::face::Face;

type Vec3 = [i8; 3];

/// A permutation of the 54 stickers: `src[i]` is the position whose sticker moves to `i`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct StickerPerm {
    pub src: [u8; 54],
}

impl StickerPerm {
    /// The permutation that moves nothing.
    pub fn identity() -> StickerPerm {
        let mut src = [0u8; 54];
        for (i, s) in src.iter_mut().enumerate() {
            *s = i as u8;
        }
        StickerPerm { src }
    }

    /// First `self`, then `next`.
    pub fn then(&self, next: &StickerPerm) -> StickerPerm {
        let mut src = [0u8; 54];
        for (i, s) in src.iter_mut().enumerate() {
            *s = self.src[next.src[i] as usize];
        }
        StickerPerm { src }
    }

    /// `self` applied `n` times.
    pub fn power(&self, n: u8) -> StickerPerm {
        (0..n).fold(StickerPerm::identity(), |acc, _| acc.then(self))
    }

    /// Rearranges `items` (indexed by sticker) as this permutation moves the stickers.
    pub fn apply<T: Copy>(&self, items: &[T; 54]) -> [T; 54] {
        std::array::from_fn(|i| items[self.src[i] as usize])
    }
}

/// The outward normal of a face.
pub fn normal(face: Face) -> Vec3 {
    match face {
        Face::U => [0, 1, 0],
        Face::R => [1, 0, 0],
        Face::F => [0, 0, 1],
        Face::D => [0, -1, 0],
        Face::L => [-1, 0, 0],
        Face::B => [0, 0, -1],
    }
}

/// Cubie position of sticker `index` (0..54), as laid out in the usual net.
pub(crate) fn position(index: usize) -> Vec3 {
    let face = Face::from_index(index / 9);
    let (r, c) = ((index % 9 / 3) as i8, (index % 3) as i8);
    match face {
        Face::U => [c - 1, 1, r - 1],
        Face::R => [1, 1 - r, 1 - c],
        Face::F => [c - 1, 1 - r, 1],
        Face::D => [c - 1, -1, 1 - r],
        Face::L => [-1, 1 - r, c - 1],
        Face::B => [1 - c, 1 - r, -1],
    }
}

fn cross(a: Vec3, v: Vec3) -> Vec3 {
    [
        a[1] * v[2] - a[2] * v[1],
        a[2] * v[0] - a[0] * v[2],
        a[0] * v[1] - a[1] * v[0],
    ]
}

fn dot(a: Vec3, v: Vec3) -> i8 {
    a[0] * v[0] + a[1] * v[1] + a[2] * v[2]
}

/// Quarter turn clockwise as seen from the tip of unit axis `a`.
fn rotate(a: Vec3, v: Vec3) -> Vec3 {
    let c = cross(a, v);
    let d = dot(a, v);
    [a[0] * d - c[0], a[1] * d - c[1], a[2] * d - c[2]]
}

fn sticker_at(pos: Vec3, normal_dir: Vec3) -> usize {
    (0..54)
        .find(|&i| position(i) == pos && normal(Face::from_index(i / 9)) == normal_dir)
        .expect("every rotated sticker lands on a sticker")
}

/// Clockwise quarter turn about `axis` of every sticker whose position satisfies `in_layer`.
pub fn quarter_turn(axis: Face, in_layer: impl Fn(Vec3) -> bool) -> StickerPerm {
    let a = normal(axis);
    let mut src = [0u8; 54];
    for i in 0..54 {
        let p = position(i);
        let n = normal(Face::from_index(i / 9));
        let dest = if in_layer(p) {
            sticker_at(rotate(a, p), rotate(a, n))
        } else {
            i
        };
        src[dest] = i as u8;
    }
    StickerPerm { src }
}

/// Clockwise quarter turn of the outer layer of `face`.
pub(crate) fn face_quarter_turn(face: Face) -> StickerPerm {
    let a = normal(face);
    quarter_turn(face, move |p| dot(a, p) == 1)
}

/// Clockwise quarter turn of the whole cube about the axis through `face`.
pub(crate) fn cube_quarter_turn(face: Face) -> StickerPerm {
    quarter_turn(face, |_| true)
}
