//! The cubie-level cube: corner and edge permutation + orientation, conversions to and from facelets, and the piece-level checks.

use super::error::CubeError;
use super::face::{sticker_names, Face};
use super::facelets::FaceletCube;
use super::moves::Turn;
use super::pieces::{corner_colours, edge_colours, CORNER_STICKERS, EDGE_STICKERS};
use super::pieces::{Corner, Edge};
use std::sync::OnceLock;

/// Corner/edge permutation and orientation. `cp[i]` is the piece at position
/// `i`, `co[i]` its twist (0..3; 3..6 only in mirrored symmetry cubes), `ep`, `eo` likewise.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct CubieCube {
    pub cp: [u8; 8],
    pub co: [u8; 8],
    pub ep: [u8; 12],
    pub eo: [u8; 12],
}

impl Default for CubieCube {
    /// The solved cube.
    fn default() -> Self {
        CubieCube {
            cp: std::array::from_fn(|i| i as u8),
            co: [0; 8],
            ep: std::array::from_fn(|i| i as u8),
            eo: [0; 12],
        }
    }
}

impl CubieCube {
    /// `self` followed by `b` (apply `b` to the cube `self`).
    pub fn multiply(&self, b: &CubieCube) -> CubieCube {
        let mut r = CubieCube::default();
        for i in 0..8 {
            let from = b.cp[i] as usize;
            r.cp[i] = self.cp[from];
            r.co[i] = add_twist(self.co[from], b.co[i]);
        }
        for i in 0..12 {
            let from = b.ep[i] as usize;
            r.ep[i] = self.ep[from];
            r.eo[i] = (self.eo[from] + b.eo[i]) % 2;
        }
        r
    }

    /// The cube that undoes `self`.
    pub fn inverse(&self) -> CubieCube {
        let mut r = CubieCube::default();
        for i in 0..8 {
            let p = self.cp[i] as usize;
            r.cp[p] = i as u8;
            let o = self.co[i];
            r.co[p] = if o >= 3 { o } else { (3 - o) % 3 };
        }
        for i in 0..12 {
            let p = self.ep[i] as usize;
            r.ep[p] = i as u8;
            r.eo[p] = self.eo[i];
        }
        r
    }

    /// The cube after one face turn.
    pub fn turn(&self, t: Turn) -> CubieCube {
        self.multiply(&turn_cubies()[t.index()])
    }

    /// True for the solved cube.
    pub fn is_solved(&self) -> bool {
        *self == CubieCube::default()
    }

    /// Reads the pieces from stickers, checking that each piece exists once and
    /// that twist, flip and parity are those of a reachable cube.
    pub fn from_facelets(f: &FaceletCube) -> Result<CubieCube, CubeError> {
        let mut c = CubieCube::default();
        for pos in 0..8 {
            let (piece, twist) = read_corner(f, pos)?;
            c.cp[pos] = piece;
            c.co[pos] = twist;
        }
        for pos in 0..12 {
            let (piece, flip) = read_edge(f, pos)?;
            c.ep[pos] = piece;
            c.eo[pos] = flip;
        }
        c.check()?;
        Ok(c)
    }

    /// Checks duplicates, twist, flip and parity.
    pub fn check(&self) -> Result<(), CubeError> {
        if let Some((piece, first, second)) = duplicate(&self.cp) {
            return Err(CubeError::DuplicateCorner {
                piece: Corner::ALL[piece],
                first: Corner::ALL[first],
                second: Corner::ALL[second],
                colours: format!("{:?}", Corner::ALL[piece]),
            });
        }
        if let Some((piece, first, second)) = duplicate(&self.ep) {
            return Err(CubeError::DuplicateEdge {
                piece: Edge::ALL[piece],
                first: Edge::ALL[first],
                second: Edge::ALL[second],
                colours: format!("{:?}", Edge::ALL[piece]),
            });
        }
        // The three laws a turned cube keeps are independent: every one broken is said.
        let mut broken = Vec::new();
        let twist = self.co.iter().map(|&o| o as u32).sum::<u32>() % 3;
        if twist != 0 {
            broken.push(CubeError::CornerTwist {
                twist: twist as u8,
                only: only_one(&self.co).map(|i| Corner::ALL[i]),
                as_given: String::new(),
            });
        }
        if self.eo.iter().map(|&o| o as u32).sum::<u32>() % 2 != 0 {
            broken.push(CubeError::EdgeFlip {
                only: only_one(&self.eo).map(|i| Edge::ALL[i]),
                as_given: String::new(),
            });
        }
        if permutation_parity(&self.cp) != permutation_parity(&self.ep) {
            broken.push(CubeError::Parity);
        }
        let mut broken = broken.into_iter();
        match (broken.next(), broken.collect::<Vec<_>>()) {
            (None, _) => Ok(()),
            (Some(first), also) if also.is_empty() => Err(first),
            (Some(first), also) => Err(CubeError::Several {
                first: Box::new(first),
                also,
            }),
        }
    }

    /// The stickers of this cube.
    pub fn to_facelets(&self) -> FaceletCube {
        let mut f = FaceletCube::default();
        for (pos, stickers) in CORNER_STICKERS.iter().enumerate() {
            let colours = corner_colours(self.cp[pos] as usize);
            let twist = self.co[pos] as usize;
            for (n, colour) in colours.into_iter().enumerate() {
                f.stickers[stickers[(n + twist) % 3]] = colour;
            }
        }
        for (pos, stickers) in EDGE_STICKERS.iter().enumerate() {
            let colours = edge_colours(self.ep[pos] as usize);
            let flip = self.eo[pos] as usize;
            for (n, colour) in colours.into_iter().enumerate() {
                f.stickers[stickers[(n + flip) % 2]] = colour;
            }
        }
        f
    }
}

/// Sum of two twists, where values 3..6 mark mirrored (reflected) cubes.
fn add_twist(a: u8, b: u8) -> u8 {
    match (a < 3, b < 3) {
        (true, true) => (a + b) % 3,
        (true, false) => {
            let s = a + b;
            if s >= 6 {
                s - 3
            } else {
                s
            }
        }
        (false, true) => {
            let s = a as i8 - b as i8;
            (if s < 3 { s + 3 } else { s }) as u8
        }
        (false, false) => {
            let s = a as i8 - b as i8;
            (if s < 0 { s + 3 } else { s }) as u8
        }
    }
}

fn read_corner(f: &FaceletCube, pos: usize) -> Result<(u8, u8), CubeError> {
    let colours = CORNER_STICKERS[pos].map(|s| f.stickers[s]);
    // A piece with these colours running the other way round: two of its stickers swapped.
    let mirrored = super::pieces::some_corner_has(colours);
    let invalid = || CubeError::InvalidCorner {
        position: Corner::ALL[pos],
        stickers: sticker_names(&CORNER_STICKERS[pos], 9),
        colours: colours.iter().map(|c| c.letter()).collect(),
        mirrored,
    };
    let twist = colours
        .iter()
        .position(|&c| c == Face::U || c == Face::D)
        .ok_or_else(invalid)?;
    let next = colours[(twist + 1) % 3];
    let after = colours[(twist + 2) % 3];
    let piece = (0..8)
        .find(|&p| {
            let pc = corner_colours(p);
            pc[0] == colours[twist] && pc[1] == next && pc[2] == after
        })
        .ok_or_else(invalid)?;
    Ok((piece as u8, twist as u8))
}

fn read_edge(f: &FaceletCube, pos: usize) -> Result<(u8, u8), CubeError> {
    let colours = EDGE_STICKERS[pos].map(|s| f.stickers[s]);
    for piece in 0..12 {
        let pc = edge_colours(piece);
        if pc == colours {
            return Ok((piece as u8, 0));
        }
        if pc[0] == colours[1] && pc[1] == colours[0] {
            return Ok((piece as u8, 1));
        }
    }
    Err(CubeError::InvalidEdge {
        position: Edge::ALL[pos],
        stickers: sticker_names(&EDGE_STICKERS[pos], 9),
        colours: colours.iter().map(|c| c.letter()).collect(),
    })
}

/// The first piece that appears twice: (piece, first position, second position).
fn duplicate(perm: &[u8]) -> Option<(usize, usize, usize)> {
    let mut seen = [usize::MAX; 12];
    for (pos, &piece) in perm.iter().enumerate() {
        let p = piece as usize;
        if seen[p] != usize::MAX {
            return Some((p, seen[p], pos));
        }
        seen[p] = pos;
    }
    None
}

/// Parity of a permutation: true when odd.
pub fn permutation_parity(perm: &[u8]) -> bool {
    let mut odd = false;
    for i in 0..perm.len() {
        for j in i + 1..perm.len() {
            if perm[i] > perm[j] {
                odd = !odd;
            }
        }
    }
    odd
}

/// Cubie cubes of the 18 face turns, derived from their sticker permutations.
pub(crate) fn turn_cubies() -> &'static [CubieCube; 18] {
    static TURNS: OnceLock<[CubieCube; 18]> = OnceLock::new();
    TURNS.get_or_init(|| {
        std::array::from_fn(|i| {
            let t = Turn::from_index(i);
            let stickers = FaceletCube::default().apply(t.into());
            CubieCube::from_facelets(&stickers).expect("a face turn of the solved cube is a cube")
        })
    })
}

/// The place of the only piece whose orientation is not 0, if exactly one's is not.
fn only_one(orientations: &[u8]) -> Option<usize> {
    let mut off = orientations.iter().enumerate().filter(|(_, &o)| o != 0);
    match (off.next(), off.next()) {
        (Some((i, _)), None) => Some(i),
        _ => None,
    }
}
