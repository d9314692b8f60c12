//! The palette of valid colours ("set valid colors"): six named colours with symbols, reference colours and home faces; TOML loading, validation and writing.

use crate::cube::{ColourScheme, Face};
use crate::light::colour::{LabColour, Rgb};
use serde::Deserialize;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// One valid colour: its name, the symbol printed for it, its reference
/// colour as the camera sees it, and the face it is on in the reference
/// orientation of a solved cube (this fixes which colours are opposite and
/// the cube's handedness).
#[derive(Clone, Debug, PartialEq)]
pub struct PaletteColour {
    pub name: String,
    pub symbol: char,
    pub reference: LabColour,
    pub home: Face,
}

/// Two colours closer than this (CIEDE2000, where about 1 is a just-noticeable difference) look
/// the same to a person and to the camera: a palette keeps every pair further apart.
pub(crate) const LEAST_APART: f32 = 3.0;

/// Six valid colours, indexed by their home face (URFDLB).
#[derive(Clone, Debug, PartialEq)]
pub struct Palette {
    pub colours: [PaletteColour; 6],
}

/// Why a palette file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum PaletteError {
    #[error("cannot read palette {path}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("palette {path}: line {line}: {message}")]
    Parse {
        path: PathBuf,
        line: usize,
        message: String,
    },
    #[error("palette {path}: {words}")]
    WrongKind { path: PathBuf, words: String },
    #[error("palette {path}: {key}: {problem}")]
    Invalid {
        path: PathBuf,
        key: String,
        problem: String,
    },
    #[error("palette {path}: {key}: L = {lightness} is outside 0..=100")]
    LightnessOutOfRange {
        path: PathBuf,
        key: String,
        lightness: f64,
    },
    #[error("palette {path}: {key}: a and b must be in -128..=128, found {value}")]
    ChromaOutOfRange {
        path: PathBuf,
        key: String,
        value: f64,
    },
    #[error("palette {path}: {key}: {value} is outside 0..=255")]
    ChannelOutOfRange {
        path: PathBuf,
        key: String,
        value: i64,
    },
    #[error("will not write the palette {path}: {why}; name a new file in a directory that exists, or remove the one there first")]
    Unwritable { path: PathBuf, why: String },
    #[error("cannot write palette {path}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// The standard scheme: white U, red R, green F, yellow D, orange L, blue B.
const STANDARD: [(&str, char, Face, Rgb); 6] = [
    ("white", 'W', Face::U, [235, 235, 235]),
    ("red", 'R', Face::R, [190, 30, 40]),
    ("green", 'G', Face::F, [30, 160, 80]),
    ("yellow", 'Y', Face::D, [230, 215, 40]),
    ("orange", 'O', Face::L, [250, 120, 30]),
    ("blue", 'B', Face::B, [30, 80, 190]),
];

impl Default for Palette {
    /// The standard scheme with typical webcam colours.
    fn default() -> Self {
        Palette {
            colours: STANDARD.map(|(name, symbol, home, rgb)| PaletteColour {
                name: name.to_string(),
                symbol,
                reference: LabColour::from_rgb(rgb),
                home,
            }),
        }
    }
}

impl Palette {
    /// The symbols of the six colours, by home face.
    pub fn symbols(&self) -> [char; 6] {
        std::array::from_fn(|i| self.colours[i].symbol)
    }

    /// The colour scheme of a cube whose face `f` has palette colour `names[f]`.
    pub fn scheme(&self, names: &[usize; 6]) -> ColourScheme {
        ColourScheme {
            symbols: names.map(|n| self.colours[n].symbol),
        }
    }

    /// The sRGB of the palette's colour whose home is `face` (black if none is): a sticker of
    /// that colour read exactly as calibrated.
    pub fn srgb_of_home(&self, face: crate::cube::Face) -> Rgb {
        let colour = self.colours.iter().find(|c| c.home == face);
        colour.map_or([0; 3], |c| c.reference.to_rgb())
    }

    /// The sRGB of each colour's reference, in palette order.
    pub fn references_rgb(&self) -> [Rgb; 6] {
        std::array::from_fn(|i| self.colours[i].reference.to_rgb())
    }

    /// The colour a camera clips in every channel first: the one whose weakest
    /// channel is strongest (white in the standard scheme).
    pub fn palest(&self) -> usize {
        let weakest = |c: &PaletteColour| c.reference.to_rgb().into_iter().min().unwrap_or(0);
        (0..6)
            .max_by_key(|&c| weakest(&self.colours[c]))
            .unwrap_or(0)
    }

    /// Six looks (one per face) given the palette's colours one each, each as near as the
    /// six can be together (CIEDE2000 to the references): each look's colour index.
    pub fn colours_one_each(&self, looks: &[LabColour; 6]) -> [usize; 6] {
        let distance = |f: usize, c: usize| looks[f].delta_e(self.colours[c].reference);
        let assigned = crate::assignment::min_cost_assignment(6, distance);
        std::array::from_fn(|f| usize::from(assigned[f]))
    }

    /// The same palette with new reference colours (indexed like `colours`).
    pub fn with_references(&self, references: [LabColour; 6]) -> Palette {
        let mut p = self.clone();
        for (c, r) in p.colours.iter_mut().zip(references) {
            c.reference = r;
        }
        p
    }

    /// The palette as a TOML file that `load_palette` reads back.
    pub fn to_toml(&self) -> String {
        let mut out = String::from(
            "# Valid colours: name, printed symbol, the face it is on in the reference\n\
             # orientation of a solved cube, and its reference colour as the camera sees\n\
             # it (`lab = [L, a, b]`, CIELAB D65, or `srgb = [r, g, b]`, 0..=255).\n",
        );
        for c in &self.colours {
            let rgb = c.reference.to_rgb();
            let _ = write!(
                out,
                "\n[[colour]]\nname = \"{}\"\nsymbol = \"{}\"\nface = \"{}\"\nlab = [{:.1}, {:.1}, {:.1}] # about sRGB {:?}\n",
                c.name, c.symbol, c.home, c.reference.l, c.reference.a, c.reference.b, rgb
            );
        }
        out
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PaletteFile {
    colour: Vec<ColourEntry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ColourEntry {
    name: String,
    symbol: String,
    face: String,
    lab: Option<Vec<f64>>,
    srgb: Option<Vec<i64>>,
}

/// Reads and validates a palette file.
pub fn load_palette(path: &Path) -> Result<Palette, PaletteError> {
    let text =
        crate::named_file::read_text(path, crate::named_file::TEXT_LIMIT).map_err(|source| {
            PaletteError::Read {
                path: path.to_path_buf(),
                source,
            }
        })?;
    parse_palette(&text, path)
}

/// Writes `palette` to `path` whole or not at all; refused into a missing directory or over a
/// file that is not a palette (a configuration named by mistake would be lost).
pub fn save_palette(path: &Path, palette: &Palette) -> Result<(), PaletteError> {
    let is_a_palette = |p: &Path| {
        let not_one = |e: PaletteError| format!("it is there and is not a palette ({e})");
        load_palette(p).map(drop).map_err(not_one)
    };
    if let Some(why) = crate::atomic_file::refuse_to_replace(path, is_a_palette) {
        return Err(PaletteError::Unwritable {
            path: path.to_path_buf(),
            why,
        });
    }
    crate::atomic_file::write_atomically(path, palette.to_toml().as_bytes()).map_err(|source| {
        PaletteError::Write {
            path: path.to_path_buf(),
            source,
        }
    })
}

/// Parses and validates palette TOML (`path` is only used in messages).
pub(crate) fn parse_palette(text: &str, path: &Path) -> Result<Palette, PaletteError> {
    use crate::config_file::syntax::{another_kind, toml_in_words, FileKind};
    let file: PaletteFile = toml::from_str(text).map_err(|e| {
        if let Some(words) = another_kind(text, FileKind::Palette) {
            return PaletteError::WrongKind {
                path: path.to_path_buf(),
                words,
            };
        }
        let (line, message) = toml_in_words(text, &e);
        PaletteError::Parse {
            path: path.to_path_buf(),
            line,
            message,
        }
    })?;
    file.validate(path)
}

impl PaletteFile {
    fn validate(self, path: &Path) -> Result<Palette, PaletteError> {
        if self.colour.len() != 6 {
            return Err(invalid(
                path,
                "colour".into(),
                format!(
                    "{} [[colour]] entries, exactly 6 are needed",
                    self.colour.len()
                ),
            ));
        }
        let mut slots: [Option<PaletteColour>; 6] = Default::default();
        for (i, entry) in self.colour.into_iter().enumerate() {
            let colour = entry.validate(i, path)?;
            check_unique(&slots, &colour, i, path)?;
            let home = colour.home.index();
            slots[home] = Some(colour);
        }
        Ok(Palette {
            colours: slots.map(|c| c.expect("six distinct faces fill all six slots")),
        })
    }
}

/// The palette at `path` has `key` invalid, for the reason `problem` says.
fn invalid(path: &Path, key: String, problem: String) -> PaletteError {
    PaletteError::Invalid {
        path: path.to_path_buf(),
        key,
        problem,
    }
}

fn check_unique(
    slots: &[Option<PaletteColour>; 6],
    colour: &PaletteColour,
    i: usize,
    path: &Path,
) -> Result<(), PaletteError> {
    let key = |k: &str| format!("[[colour]] #{}{k}", i + 1);
    for other in slots.iter().flatten() {
        if other.name == colour.name {
            return Err(invalid(
                path,
                key(" name"),
                format!("\"{}\" is used twice, names must differ", colour.name),
            ));
        }
        if other.symbol == colour.symbol {
            return Err(invalid(
                path,
                key(" symbol"),
                format!("'{}' is used twice, symbols must differ", colour.symbol),
            ));
        }
        if other.home == colour.home {
            return Err(invalid(
                path,
                key(" face"),
                format!("{} is used twice, each of U R F D L B once", colour.home),
            ));
        }
        let apart = other.reference.delta_e(colour.reference);
        if apart < LEAST_APART {
            return Err(invalid(
                path,
                key(""),
                format!(
                    "\"{}\" is {apart:.1} from \"{}\" (CIEDE2000); colours that look the same cannot be told apart: at least {LEAST_APART} is needed",
                    colour.name, other.name
                ),
            ));
        }
    }
    Ok(())
}

impl ColourEntry {
    fn validate(self, i: usize, path: &Path) -> Result<PaletteColour, PaletteError> {
        let key = |k: &str| format!("[[colour]] #{} {k}", i + 1);
        if self.name.trim().is_empty() {
            return Err(invalid(path, key("name"), "must not be empty".into()));
        }
        let mut chars = self.symbol.chars();
        let symbol = match (chars.next(), chars.next()) {
            (Some(c), None) if !c.is_whitespace() => c,
            _ => {
                return Err(invalid(
                    path,
                    key("symbol"),
                    format!("\"{}\" must be exactly one visible character", self.symbol),
                ))
            }
        };
        let home = match self.face.chars().collect::<Vec<_>>()[..] {
            [c] => Face::from_letter(c),
            _ => None,
        }
        .ok_or_else(|| {
            invalid(
                path,
                key("face"),
                format!("\"{}\" must be one of U R F D L B", self.face),
            )
        })?;
        // Three values exactly: a list longer than three is not taken for its first three.
        let three = |values: &[f64], name: &str| -> Result<[f64; 3], PaletteError> {
            values.try_into().map_err(|_| {
                let given = values.len();
                invalid(path, key(name), format!("{given} values; give three"))
            })
        };
        let reference = match (&self.lab, &self.srgb) {
            (Some(lab), None) => lab_reference(three(lab, "lab")?, path, key("lab"))?,
            (None, Some(rgb)) => {
                let rgb: Vec<f64> = rgb.iter().map(|&v| v as f64).collect();
                srgb_reference(three(&rgb, "srgb")?.map(|v| v as i64), path, key("srgb"))?
            }
            _ => {
                return Err(invalid(
                    path,
                    key("lab"),
                    "give exactly one of lab = [L, a, b] or srgb = [r, g, b]".into(),
                ))
            }
        };
        Ok(PaletteColour {
            name: self.name,
            symbol,
            reference,
            home,
        })
    }
}

/// A reference colour given as CIELAB (`key` of the palette at `path`, named if out of range).
fn lab_reference(lab: [f64; 3], path: &Path, key: String) -> Result<LabColour, PaletteError> {
    if !(0.0..=100.0).contains(&lab[0]) {
        return Err(PaletteError::LightnessOutOfRange {
            path: path.to_path_buf(),
            key,
            lightness: lab[0],
        });
    }
    if let Some(&value) = lab[1..].iter().find(|v| !(-128.0..=128.0).contains(*v)) {
        return Err(PaletteError::ChromaOutOfRange {
            path: path.to_path_buf(),
            key,
            value,
        });
    }
    Ok(LabColour {
        l: lab[0] as f32,
        a: lab[1] as f32,
        b: lab[2] as f32,
    })
}

/// A reference colour given as sRGB (`key` of the palette at `path`, named if out of range).
fn srgb_reference(rgb: [i64; 3], path: &Path, key: String) -> Result<LabColour, PaletteError> {
    let mut out = [0u8; 3];
    for (o, value) in out.iter_mut().zip(rgb) {
        *o = u8::try_from(value).map_err(|_| PaletteError::ChannelOutOfRange {
            path: path.to_path_buf(),
            key: key.clone(),
            value,
        })?;
    }
    Ok(LabColour::from_rgb(out))
}

#[cfg(test)]
mod tests;
