//! Facelet strings: parsing arbitrary colour symbols (centres define faces), face orders, and the sticker-level checks.

use super::error::CubeError;
use super::face::{Face, Sticker};
use super::moves::{Move, Turn};
use std::collections::HashMap;
use std::fmt;

/// The order in which an input lists its six faces. Each face is read row by
/// row as seen from outside in the usual net.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum FaceOrder {
    #[default]
    Urfdlb,
    Ulfrbd,
    /// The 1988 order: top, front, right, posterior, left, bottom.
    Tfrplb,
}

impl FaceOrder {
    /// For each block of nine in the input, the face it describes.
    pub fn faces(self) -> [Face; 6] {
        use Face::*;
        match self {
            FaceOrder::Urfdlb => [U, R, F, D, L, B],
            FaceOrder::Ulfrbd => [U, L, F, R, B, D],
            FaceOrder::Tfrplb => [U, F, R, B, L, D],
        }
    }

    /// Reorders 54 symbols given in this order into URFDLB order.
    pub fn to_urfdlb<T: Copy + Default>(self, input: &[T; 54]) -> [T; 54] {
        let mut out = [T::default(); 54];
        for (block, face) in self.faces().into_iter().enumerate() {
            let dst = face.index() * 9;
            out[dst..dst + 9].copy_from_slice(&input[block * 9..block * 9 + 9]);
        }
        out
    }

    /// Where sticker `urfdlb` (its index in URFDLB order, `per_face` stickers a face) stands
    /// in input given in this order.
    pub fn index_as_given(self, urfdlb: usize, per_face: usize) -> usize {
        let face = Face::from_index((urfdlb / per_face).min(5));
        let block = (self.faces().iter().position(|&f| f == face)).unwrap_or(0);
        block * per_face + urfdlb % per_face
    }

    /// `urfdlb` (symbols in URFDLB order, a sixth of them a face) given in this order.
    pub fn from_urfdlb(self, urfdlb: &str) -> String {
        let symbols: Vec<char> = urfdlb.chars().collect();
        let per_face = symbols.len() / 6;
        (self.faces().iter())
            .flat_map(|f| &symbols[f.index() * per_face..(f.index() + 1) * per_face])
            .collect()
    }
}

/// The colour symbol of each face, indexed by face (URFDLB).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ColourScheme {
    pub symbols: [char; 6],
}

impl Default for ColourScheme {
    /// Letters of the faces themselves: `URFDLB`.
    fn default() -> Self {
        ColourScheme {
            symbols: Face::ALL.map(Face::letter),
        }
    }
}

/// A cube as 54 stickers in URFDLB order, each naming the face its colour belongs to.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct FaceletCube {
    pub stickers: [Face; 54],
}

impl Default for FaceletCube {
    /// The solved cube.
    fn default() -> Self {
        FaceletCube {
            stickers: std::array::from_fn(|i| Face::from_index(i / 9)),
        }
    }
}

impl FaceletCube {
    /// Reads 54 colour symbols (whitespace ignored) in `order`. The centres say
    /// which symbol belongs to which face; `valid` restricts the allowed symbols.
    pub fn parse(
        text: &str,
        order: FaceOrder,
        valid: Option<&[char]>,
    ) -> Result<(FaceletCube, ColourScheme), CubeError> {
        let symbols = symbols_in_urfdlb(text, order).ok_or_else(|| {
            let typed = text.chars().filter(|c| !c.is_whitespace());
            CubeError::WrongLength {
                found: typed.clone().count(),
                commas: typed.filter(|&c| c == ',').count(),
            }
        })?;
        let as_given = |e: CubeError| match e {
            CubeError::UnknownSymbol {
                symbol,
                sticker,
                allowed,
                ..
            } => CubeError::UnknownSymbol {
                symbol,
                sticker,
                as_given: order.index_as_given(sticker.0, 9),
                allowed,
            },
            CubeError::CentreTypo {
                face,
                typed,
                likely,
                as_given,
            } => CubeError::CentreTypo {
                face,
                typed,
                likely,
                as_given: order.index_as_given(as_given, 9),
            },
            other => other,
        };
        if let Some(valid) = valid {
            check_symbols_allowed(&symbols, valid).map_err(as_given)?;
        }
        let scheme = scheme_from_centres(&symbols)?;
        let stickers = faces_of_symbols(&symbols, &scheme)
            .map_err(|e| centre_typo(&symbols).unwrap_or(e))
            .map_err(as_given)?;
        check_counts(&stickers, &scheme)?;
        Ok((FaceletCube { stickers }, scheme))
    }

    /// The 54 symbols in URFDLB order.
    pub fn to_symbols(&self, scheme: &ColourScheme) -> String {
        self.stickers
            .iter()
            .map(|f| scheme.symbols[f.index()])
            .collect()
    }

    /// True when every face shows one colour.
    pub fn is_solved(&self) -> bool {
        self.stickers
            .chunks(9)
            .all(|face| face.iter().all(|&s| s == face[4]))
    }

    /// The cube after `m` (a rotation moves the centres too).
    pub fn apply(&self, m: Move) -> FaceletCube {
        FaceletCube {
            stickers: m.perm().apply(&self.stickers),
        }
    }

    /// The cube after a whole sequence.
    pub fn apply_all(&self, moves: &[Move]) -> FaceletCube {
        moves.iter().fold(*self, |c, &m| c.apply(m))
    }

    /// The face turns of `moves` with each whole-cube rotation taken out: every turn named by
    /// the face it turns in the cube's starting frame (the face whose centre is where it
    /// turns then). The cube they leave is the one `moves` leave, seen before the rotations.
    pub fn turns_without_rotations(moves: &[Move]) -> Vec<Turn> {
        let mut frame = FaceletCube::default();
        let mut turns = Vec::with_capacity(moves.len());
        for &m in moves {
            match m {
                Move::Rotate(_) => frame = frame.apply(m),
                Move::Turn(t) => turns.push(Turn {
                    face: frame.stickers[t.face.index() * 9 + 4],
                    ..t
                }),
            }
        }
        turns
    }

    /// Renames colours so that each centre names its own face (needed after rotations).
    pub fn relabel_by_centres(&self) -> FaceletCube {
        let mut rename = [Face::U; 6];
        for face in Face::ALL {
            rename[self.stickers[face.index() * 9 + 4].index()] = face;
        }
        FaceletCube {
            stickers: self.stickers.map(|s| rename[s.index()]),
        }
    }
}

impl fmt::Display for FaceletCube {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_symbols(&ColourScheme::default()))
    }
}

/// The 54 symbols of `text` (whitespace ignored), typed in `order`, in URFDLB order; `None`
/// if there are not 54.
pub(crate) fn symbols_in_urfdlb(text: &str, order: FaceOrder) -> Option<[char; 54]> {
    let symbols: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    let input: [char; 54] = symbols.as_slice().try_into().ok()?;
    Some(order.to_urfdlb(&input))
}

fn check_symbols_allowed(symbols: &[char; 54], valid: &[char]) -> Result<(), CubeError> {
    match symbols.iter().position(|s| !valid.contains(s)) {
        None => Ok(()),
        Some(i) => Err(CubeError::UnknownSymbol {
            symbol: symbols[i],
            sticker: Sticker(i),
            as_given: i,
            allowed: format!(
                "one of the valid colours {}",
                valid.iter().collect::<String>()
            ),
        }),
    }
}

fn scheme_from_centres(symbols: &[char; 54]) -> Result<ColourScheme, CubeError> {
    let centres = Face::ALL.map(|f| symbols[f.index() * 9 + 4]);
    for (i, a) in centres.iter().enumerate() {
        if let Some(j) = centres[i + 1..].iter().position(|b| b == a) {
            return Err(CubeError::CentresNotDistinct {
                symbol: *a,
                first: Face::from_index(i),
                second: Face::from_index(i + 1 + j),
            });
        }
    }
    Ok(ColourScheme { symbols: centres })
}

fn faces_of_symbols(symbols: &[char; 54], scheme: &ColourScheme) -> Result<[Face; 54], CubeError> {
    let face_of: HashMap<char, Face> = Face::ALL
        .into_iter()
        .map(|f| (scheme.symbols[f.index()], f))
        .collect();
    let mut stickers = [Face::U; 54];
    for (i, s) in symbols.iter().enumerate() {
        stickers[i] = *face_of.get(s).ok_or_else(|| CubeError::UnknownSymbol {
            symbol: *s,
            sticker: Sticker(i),
            as_given: i,
            allowed: format!(
                "the colour of any centre ({})",
                scheme.symbols.iter().collect::<String>()
            ),
        })?;
    }
    Ok(stickers)
}

fn check_counts(stickers: &[Face; 54], scheme: &ColourScheme) -> Result<(), CubeError> {
    let mut counts = [0usize; 6];
    for s in stickers {
        counts[s.index()] += 1;
    }
    let wrong: Vec<String> = (0..6)
        .filter(|&f| counts[f] != 9)
        .enumerate()
        .map(|(n, f)| {
            let verb = if n == 0 { "appears " } else { "" };
            format!(
                "colour '{}' (face {}) {verb}{} times",
                scheme.symbols[f],
                Face::from_index(f),
                counts[f]
            )
        })
        .collect();
    match wrong.is_empty() {
        true => Ok(()),
        false => Err(CubeError::ColourCount {
            wrong: wrong.join(", "),
        }),
    }
}

/// The centre typed wrong, when one centre's symbol is on no other sticker and the only
/// symbol no centre has is on the eight stickers its colour should have: typed cubes take
/// their colours from the centres, so such a centre makes good stickers look wrong.
fn centre_typo(symbols: &[char; 54]) -> Option<CubeError> {
    let count = |c: char| symbols.iter().filter(|&&s| s == c).count();
    let centre = |f: Face| f.index() * 9 + 4;
    let centres = Face::ALL.map(|f| symbols[centre(f)]);
    let mut strangers: Vec<char> = (symbols.iter().copied())
        .filter(|s| !centres.contains(s))
        .collect();
    strangers.sort_unstable();
    strangers.dedup();
    let [likely] = strangers[..] else {
        return None;
    };
    let lone: Vec<Face> = (Face::ALL.into_iter())
        .filter(|&f| count(symbols[centre(f)]) == 1)
        .collect();
    let [face] = lone[..] else {
        return None;
    };
    (count(likely) == 8).then(|| CubeError::CentreTypo {
        face,
        typed: symbols[centre(face)],
        likely,
        as_given: centre(face),
    })
}
