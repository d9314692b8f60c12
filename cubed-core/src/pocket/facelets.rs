//! 2x2 facelet strings: reading 24 colour symbols in any face order or in the old 2x2 solver's letter format, the colour counts, and which colour is which face (no centres: the fixed corner decides).
//!
//! The back-left-bottom corner (DLB) stays where it is: its three colours name
//! the D, L and B faces. The other three colours go to U, R and F in the one way
//! that makes the most corners pieces that exist (all eight, for a valid cube).

use super::error::PocketError;
use super::stickers::{corner_stickers, move_perm, sticker_list, PocketSticker, STICKERS};
use crate::cube::pieces::corner_colours;
use crate::cube::{ColourScheme, Corner, Face, FaceOrder, FaceletCube, Move};
use std::fmt;

/// The colour letters of the old 2x2 solver's input.
pub(crate) const LEGACY_COLOURS: [char; 6] = ['y', 'g', 'w', 'b', 'r', 'o'];

/// How 24 stickers are written.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PocketFormat {
    /// Six blocks of four stickers in this face order, each face row by row as
    /// in the usual net; any six symbols.
    Facelets(FaceOrder),
    /// The old 2x2 solver's input: 24 letters `y g w b r o` (either case), faces
    /// in the 1988 order top, front, right, posterior, left, bottom (TFRPLB),
    /// numbered 1–24: T1–T4 = 1–4, F = 5–8, R = 9–12, P = 13–16, L = 17–20,
    /// bottom = 21–24, each face row by row as in the usual net (the bottom read
    /// after tilting the front up). So letter `n` is sticker `n - 1` of the
    /// `TFRPLB` facelet string.
    Legacy,
}

impl PocketFormat {
    /// `message` (a [`PocketError`] in words, which names stickers in URFDLB order as
    /// `D1 (index 12)`) with each sticker named as this format numbers its input: another face
    /// order by the sticker's index in the input, the legacy format by its faces `T F R P L B`
    /// and letters 1–24 (`B1 (letter 21)`: B is the bottom there).
    pub fn in_input_terms(self, message: &str) -> String {
        let order = match self {
            PocketFormat::Facelets(FaceOrder::Urfdlb) => return message.to_string(),
            PocketFormat::Facelets(order) => order,
            PocketFormat::Legacy => FaceOrder::Tfrplb,
        };
        let mut text = message.to_string();
        for (block, face) in order.faces().into_iter().enumerate() {
            for place in 0..4 {
                let sticker = PocketSticker(face.index() * 4 + place);
                let at = block * 4 + place;
                let said = match self {
                    PocketFormat::Legacy => {
                        format!("{}{} (letter {})", LEGACY_FACES[block], place + 1, at + 1)
                    }
                    PocketFormat::Facelets(_) => {
                        format!("{}{} (index {at} as given)", face, place + 1)
                    }
                };
                text = text.replace(&sticker.to_string(), &said);
            }
        }
        text
    }
}

/// The old 2x2 solver's face names, in its order: top, front, right, posterior, left, bottom.
const LEGACY_FACES: [char; 6] = ['T', 'F', 'R', 'P', 'L', 'B'];

/// A pocket cube as 24 stickers in URFDLB order, each naming the face its colour belongs to.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct PocketFacelets {
    pub stickers: [Face; STICKERS],
}

impl Default for PocketFacelets {
    /// The solved cube.
    fn default() -> Self {
        PocketFacelets {
            stickers: std::array::from_fn(|i| Face::from_index(i / 4)),
        }
    }
}

impl PocketFacelets {
    /// Reads 24 colour symbols (whitespace ignored) written in `format`;
    /// `valid` restricts the symbols (the legacy format allows only its letters).
    pub fn parse(
        text: &str,
        format: PocketFormat,
        valid: Option<&[char]>,
    ) -> Result<(PocketFacelets, ColourScheme), PocketError> {
        let (order, valid) = match format {
            PocketFormat::Facelets(order) => (order, valid),
            PocketFormat::Legacy => (FaceOrder::Tfrplb, Some(&LEGACY_COLOURS[..])),
        };
        let typed: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
        let typed: [char; STICKERS] =
            (typed.as_slice().try_into()).map_err(|_| PocketError::WrongLength {
                found: typed.len(),
                commas: typed.iter().filter(|&&c| c == ',').count(),
            })?;
        let typed = to_urfdlb(order, &typed);
        // The legacy letters are read in either case; a refusal shows the symbol as typed.
        let fold = format == PocketFormat::Legacy;
        let symbols = typed.map(|c| if fold { c.to_ascii_lowercase() } else { c });
        if let Some(valid) = valid {
            check_allowed(&symbols, valid).map_err(|e| match e {
                PocketError::UnknownColour {
                    sticker, allowed, ..
                } => PocketError::UnknownColour {
                    symbol: typed[sticker.0],
                    sticker,
                    allowed,
                },
                other => other,
            })?;
        }
        let colours = six_colours(&symbols)?;
        let scheme = scheme_from_fixed_corner(&symbols, &colours)?;
        let stickers = symbols.map(|s| {
            let face = scheme.symbols.iter().position(|&c| c == s);
            Face::from_index(face.unwrap_or(0))
        });
        Ok((PocketFacelets { stickers }, scheme))
    }

    /// The 24 symbols in URFDLB order.
    pub fn to_symbols(&self, scheme: &ColourScheme) -> String {
        self.stickers
            .iter()
            .map(|f| scheme.symbols[f.index()])
            .collect()
    }

    /// True when every face shows one colour.
    pub fn is_solved(&self) -> bool {
        self.stickers
            .chunks(4)
            .all(|face| face.iter().all(|&s| s == face[0]))
    }

    /// The cube after `m` (a turn of any face, or a whole-cube rotation).
    pub fn apply(&self, m: Move) -> PocketFacelets {
        PocketFacelets {
            stickers: move_perm(m).apply(&self.stickers),
        }
    }

    /// The cube after a whole sequence.
    pub fn apply_all(&self, moves: &[Move]) -> PocketFacelets {
        moves.iter().fold(*self, |c, &m| c.apply(m))
    }

    /// Renames colours so that the DLB corner's colours name the D, L and B
    /// faces (and their opposites U, R, F): needed after turning D, L or B, or
    /// after a rotation.
    pub fn relabel_by_fixed_corner(&self) -> PocketFacelets {
        let mut rename = [Face::U; 6];
        for (sticker, face) in corner_stickers(Corner::DBL).into_iter().zip(DBL_FACES) {
            let colour = self.stickers[sticker.0];
            rename[colour.index()] = face;
            rename[colour.opposite().index()] = face.opposite();
        }
        PocketFacelets {
            stickers: self.stickers.map(|s| rename[s.index()]),
        }
    }
}

impl PocketFacelets {
    /// A 3x3 whose corners show these stickers, its edges and centres solved:
    /// a 3x3 turn moves its corners as the same turn moves a 2x2, so robot
    /// programs and replays made for the 3x3 carry the 2x2 along.
    pub fn to_3x3(&self) -> FaceletCube {
        let mut big = FaceletCube::default();
        for (i, &face) in self.stickers.iter().enumerate() {
            big.stickers[PocketSticker(i).on_3x3()] = face;
        }
        big
    }

    /// The corner stickers of a 3x3.
    pub fn from_3x3(big: &FaceletCube) -> PocketFacelets {
        PocketFacelets {
            stickers: std::array::from_fn(|i| big.stickers[PocketSticker(i).on_3x3()]),
        }
    }
}

impl fmt::Display for PocketFacelets {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_symbols(&ColourScheme::default()))
    }
}

/// The faces of the DLB corner's stickers, in `corner_stickers` order.
const DBL_FACES: [Face; 3] = [Face::D, Face::B, Face::L];

/// Reorders 24 symbols given in `order` into URFDLB order.
fn to_urfdlb(order: FaceOrder, input: &[char; STICKERS]) -> [char; STICKERS] {
    let mut out = [' '; STICKERS];
    for (block, face) in order.faces().into_iter().enumerate() {
        let dst = face.index() * 4;
        out[dst..dst + 4].copy_from_slice(&input[block * 4..block * 4 + 4]);
    }
    out
}

fn check_allowed(symbols: &[char; STICKERS], valid: &[char]) -> Result<(), PocketError> {
    match symbols.iter().position(|s| !valid.contains(s)) {
        None => Ok(()),
        Some(i) => Err(PocketError::UnknownColour {
            symbol: symbols[i],
            sticker: PocketSticker(i),
            allowed: format!("one of the colours {}", valid.iter().collect::<String>()),
        }),
    }
}

/// Where each symbol is, in order of first appearance.
fn symbol_places(symbols: &[char; STICKERS]) -> Vec<(char, Vec<PocketSticker>)> {
    let mut places: Vec<(char, Vec<PocketSticker>)> = Vec::new();
    for (i, &s) in symbols.iter().enumerate() {
        match places.iter_mut().find(|(c, _)| *c == s) {
            Some((_, at)) => at.push(PocketSticker(i)),
            None => places.push((s, vec![PocketSticker(i)])),
        }
    }
    places
}

/// The six colours, each on exactly four stickers, or what is wrong with the counts.
fn six_colours(symbols: &[char; STICKERS]) -> Result<[char; 6], PocketError> {
    let places = symbol_places(symbols);
    if places.len() > 6 {
        let rarest = (places.iter().enumerate())
            .min_by_key(|(i, (_, at))| (at.len(), std::cmp::Reverse(*i)))
            .map(|(_, p)| p);
        if let Some((symbol, at)) = rarest {
            return Err(PocketError::SeventhColour {
                symbol: *symbol,
                stickers: sticker_list(at),
            });
        }
    }
    if let Some((symbol, at)) = places.iter().find(|(_, at)| at.len() != 4) {
        return Err(PocketError::ColourCount {
            symbol: *symbol,
            count: at.len(),
            stickers: sticker_list(at),
        });
    }
    let mut colours = [' '; 6];
    for (c, (symbol, _)) in colours.iter_mut().zip(&places) {
        *c = *symbol;
    }
    Ok(colours)
}

/// Which symbol is which face: the DLB corner names D, B and L; the rest go to U,
/// R and F in the assignment under which the most corners are real pieces.
fn scheme_from_fixed_corner(
    symbols: &[char; STICKERS],
    colours: &[char; 6],
) -> Result<ColourScheme, PocketError> {
    let fixed = corner_stickers(Corner::DBL).map(|s| symbols[s.0]);
    if fixed[0] == fixed[1] || fixed[1] == fixed[2] || fixed[0] == fixed[2] {
        return Err(impossible_corner(symbols, Corner::DBL));
    }
    let rest: Vec<char> = (colours.iter().copied())
        .filter(|c| !fixed.contains(c))
        .collect();
    let mut best: Option<(usize, ColourScheme)> = None;
    for [u, r, f] in PERMUTATIONS_OF_3 {
        let mut scheme = ColourScheme::default();
        scheme.symbols[Face::U.index()] = rest[u];
        scheme.symbols[Face::R.index()] = rest[r];
        scheme.symbols[Face::F.index()] = rest[f];
        for (face, symbol) in DBL_FACES.into_iter().zip(fixed) {
            scheme.symbols[face.index()] = symbol;
        }
        let good = (Corner::ALL.into_iter())
            .filter(|&c| read_corner_symbols(symbols, &scheme, c).is_some())
            .count();
        if best.as_ref().is_none_or(|(n, _)| good > *n) {
            best = Some((good, scheme));
        }
    }
    match best {
        Some((_, scheme)) => Ok(scheme),
        None => unreachable!("six colours less the three of a corner leave three"),
    }
}

const PERMUTATIONS_OF_3: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// The piece and twist at `corner` when the symbols are read with `scheme`.
fn read_corner_symbols(
    symbols: &[char; STICKERS],
    scheme: &ColourScheme,
    corner: Corner,
) -> Option<(u8, u8)> {
    let faces = corner_stickers(corner).map(|s| {
        let f = scheme.symbols.iter().position(|&c| c == symbols[s.0]);
        f.map(Face::from_index)
    });
    let [Some(a), Some(b), Some(c)] = faces else {
        return None;
    };
    corner_piece([a, b, c])
}

/// The corner piece with these colours (read U/D sticker first, then clockwise
/// at the position) and its twist: the sticker holding the piece's U/D colour.
pub(crate) fn corner_piece(colours: [Face; 3]) -> Option<(u8, u8)> {
    let twist = colours.iter().position(|&c| c == Face::U || c == Face::D)?;
    let turned = [0, 1, 2].map(|n| colours[(twist + n) % 3]);
    let piece = (0..8).find(|&p| corner_colours(p) == turned)?;
    Some((piece as u8, twist as u8))
}

/// The error for a corner whose symbols make no piece.
fn impossible_corner(symbols: &[char; STICKERS], corner: Corner) -> PocketError {
    let stickers = corner_stickers(corner);
    PocketError::ImpossibleCorner {
        position: corner,
        stickers: sticker_list(&stickers),
        colours: stickers.iter().map(|s| symbols[s.0]).collect(),
        reading: String::new(),
        mirrored: false,
    }
}
