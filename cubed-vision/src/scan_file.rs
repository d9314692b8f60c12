//! The sampled-readings JSON format (faces URFDLB, nine sRGB readings each for a 3x3, four for a 2x2, row by row in net orientation): reading, validating and writing.

use crate::light::colour::Rgb;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The file as stored: `{"id", "faces": {"U": [[r,g,b] x 9], …}, "expected", …}`.
/// Other fields (`source`, `license`, …) are kept when read and written back.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct ScanFile {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    pub faces: ScanFaces,
    /// The true state when known (URFDLB facelets).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<String>,
    #[serde(flatten)]
    pub other: serde_json::Map<String, serde_json::Value>,
}

/// Nine readings per face, each `[r, g, b]`; read as any numbers so that one out of range or
/// not whole is named by its face and sticker, not by a line and column.
#[allow(non_snake_case)]
#[derive(Serialize, Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct ScanFaces {
    pub U: Vec<Vec<serde_json::Number>>,
    pub R: Vec<Vec<serde_json::Number>>,
    pub F: Vec<Vec<serde_json::Number>>,
    pub D: Vec<Vec<serde_json::Number>>,
    pub L: Vec<Vec<serde_json::Number>>,
    pub B: Vec<Vec<serde_json::Number>>,
}

/// " (four readings a face are a 2x2's: give --size 2 …)", when `found` is what the other size
/// needs.
fn other_size(found: usize, needed: usize) -> &'static str {
    match (found, needed) {
        (4, 9) => " (four readings a face are a 2x2's: give --size 2, or [run] cube_size = 2 in the configuration)",
        (9, 4) => " (nine readings a face are a 3x3's: give --size 3)",
        _ => "",
    }
}

/// Why a scan file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ScanFileError {
    #[error("cannot read scan {path}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("scan {path}: line {line}, column {column}: {message}")]
    Parse {
        path: PathBuf,
        line: usize,
        column: usize,
        message: String,
    },
    #[error("scan {path}: faces.{face} has {found} readings, each face of a {cube} needs exactly {needed}{}", other_size(*found, *needed))]
    WrongCount {
        path: PathBuf,
        face: char,
        found: usize,
        needed: usize,
        cube: &'static str,
    },
    #[error("will not write the scan {path}: {why}; name a new file in a directory that exists, or remove the one there first")]
    NotAScan { path: PathBuf, why: String },
    #[error("scan {path}: faces.{face}, reading {sticker} (sticker {face}{sticker}): {found} numbers, a reading is three: [r, g, b]")]
    NotThreeNumbers {
        path: PathBuf,
        face: char,
        sticker: usize,
        found: usize,
    },
    #[error("scan {path}: faces.{face}, reading {sticker} (sticker {face}{sticker}): {value} is not a whole number in 0..=255")]
    ChannelOutOfRange {
        path: PathBuf,
        face: char,
        sticker: usize,
        value: String,
    },
    #[error("cannot write scan {path}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
}

impl ScanFile {
    /// A file holding these readings (URFDLB, 54 of a 3x3 or 24 of a 2x2).
    pub fn from_readings(id: Option<String>, readings: &[Rgb]) -> ScanFile {
        let per_face = readings.len() / 6;
        let face = |f: usize| {
            (readings[f * per_face..(f + 1) * per_face].iter())
                .map(|rgb| rgb.iter().map(|&c| serde_json::Number::from(c)).collect())
                .collect()
        };
        ScanFile {
            id,
            faces: ScanFaces {
                U: face(0),
                R: face(1),
                F: face(2),
                D: face(3),
                L: face(4),
                B: face(5),
            },
            expected: None,
            other: Default::default(),
        }
    }

    /// The 54 readings of a 3x3 in URFDLB order, or which face has the wrong count.
    pub fn readings(&self, path: &Path) -> Result<[Rgb; 54], ScanFileError> {
        self.readings_of(path, "3x3")
    }

    /// The 24 readings of a 2x2 (four a face, row by row) in URFDLB order.
    pub fn pocket_readings(&self, path: &Path) -> Result<[Rgb; 24], ScanFileError> {
        self.readings_of(path, "2x2")
    }

    /// `N` readings, `N / 6` a face, in URFDLB order.
    fn readings_of<const N: usize>(
        &self,
        path: &Path,
        cube: &'static str,
    ) -> Result<[Rgb; N], ScanFileError> {
        let f = &self.faces;
        let per_face = N / 6;
        let mut out = [[0u8; 3]; N];
        for (i, (letter, face)) in [
            ('U', &f.U),
            ('R', &f.R),
            ('F', &f.F),
            ('D', &f.D),
            ('L', &f.L),
            ('B', &f.B),
        ]
        .into_iter()
        .enumerate()
        {
            if face.len() != per_face {
                return Err(ScanFileError::WrongCount {
                    path: path.to_path_buf(),
                    face: letter,
                    found: face.len(),
                    needed: per_face,
                    cube,
                });
            }
            for (k, reading) in face.iter().enumerate() {
                out[i * per_face + k] = rgb_of(reading, path, letter, k + 1)?;
            }
        }
        Ok(out)
    }

    /// The file as pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a scan file always serialises")
    }
}

/// One reading as sRGB: three whole numbers, each 0 to 255; else what is wrong with it, named
/// by the file, its face and sticker (1 to 9, or 1 to 4 of a 2x2).
fn rgb_of(
    reading: &[serde_json::Number],
    path: &Path,
    face: char,
    sticker: usize,
) -> Result<Rgb, ScanFileError> {
    let [r, g, b] = reading else {
        return Err(ScanFileError::NotThreeNumbers {
            path: path.to_path_buf(),
            face,
            sticker,
            found: reading.len(),
        });
    };
    let channel = |value: &serde_json::Number| {
        let whole = value.as_i64().and_then(|v| u8::try_from(v).ok());
        whole.ok_or_else(|| ScanFileError::ChannelOutOfRange {
            path: path.to_path_buf(),
            face,
            sticker,
            value: value.to_string(),
        })
    };
    Ok([channel(r)?, channel(g)?, channel(b)?])
}

/// Reads a scan file and its 54 readings.
pub fn load_scan(path: &Path) -> Result<(ScanFile, [Rgb; 54]), ScanFileError> {
    let file = read_scan_file(path)?;
    let readings = file.readings(path)?;
    Ok((file, readings))
}

/// Reads a 2x2's scan file (four readings a face) and its 24 readings.
pub fn load_pocket_scan(path: &Path) -> Result<(ScanFile, [Rgb; 24]), ScanFileError> {
    let file = read_scan_file(path)?;
    let readings = file.pocket_readings(path)?;
    Ok((file, readings))
}

/// The file, parsed, its readings not yet checked.
fn read_scan_file(path: &Path) -> Result<ScanFile, ScanFileError> {
    let text =
        crate::named_file::read_text(path, crate::named_file::TEXT_LIMIT).map_err(|source| {
            ScanFileError::Read {
                path: path.to_path_buf(),
                source,
            }
        })?;
    let file: ScanFile = serde_json::from_str(&text).map_err(|e| ScanFileError::Parse {
        path: path.to_path_buf(),
        line: e.line(),
        column: e.column(),
        message: json_in_words(&e),
    })?;
    Ok(file)
}

/// Writes a scan file, whole or not at all. A file already at `path` is replaced only when it
/// is itself a scan file (an earlier dump): anything else there, a photo the scan was read
/// from say, is kept and the write refused.
pub fn save_scan(path: &Path, file: &ScanFile) -> Result<(), ScanFileError> {
    let is_a_scan = |p: &Path| {
        let not_one = |e: ScanFileError| format!("it is there and is not a scan file ({e})");
        load_scan(p).map(drop).map_err(not_one)
    };
    if let Some(why) = crate::atomic_file::refuse_to_replace(path, is_a_scan) {
        return Err(ScanFileError::NotAScan {
            path: path.to_path_buf(),
            why,
        });
    }
    let text = file.to_json() + "\n";
    crate::atomic_file::write_atomically(path, text.as_bytes()).map_err(|source| {
        ScanFileError::Write {
            path: path.to_path_buf(),
            source,
        }
    })
}

/// A JSON error's own words (without its " at line L column C" tail), Rust type names in words.
fn json_in_words(e: &serde_json::Error) -> String {
    let text = e.to_string();
    let own = text
        .rsplit_once(" at line ")
        .map_or(text.as_str(), |(m, _)| m);
    crate::config_file::syntax::in_words(own)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readings_round_trip_through_json() {
        let readings: [Rgb; 54] = std::array::from_fn(|i| [i as u8, 2 * i as u8, 255 - i as u8]);
        let file = ScanFile::from_readings(Some("x".into()), &readings);
        let back: ScanFile = serde_json::from_str(&file.to_json()).expect("parses");
        assert_eq!(back.readings(Path::new("x")).expect("54"), readings);
    }

    #[test]
    fn a_face_with_eight_readings_is_refused_by_name() {
        let readings = [[0u8; 3]; 54];
        let mut file = ScanFile::from_readings(None, &readings);
        file.faces.L.pop();
        let err = file.readings(Path::new("s.json")).expect_err("8 readings");
        assert!(err.to_string().contains("faces.L has 8"), "{err}");
    }

    #[test]
    fn a_reading_out_of_range_or_of_four_numbers_is_named_by_face_and_sticker() {
        let readings = [[0u8; 3]; 54];
        let mut file = ScanFile::from_readings(None, &readings);
        let numbers = |json: &str| serde_json::from_str::<Vec<serde_json::Number>>(json);
        for (given, said) in [
            ("[300, 0, 0]", "300"),
            ("[0, 1.5, 2]", "1.5"),
            ("[0, 1, -4]", "-4"),
        ] {
            file.faces.L[4] = numbers(given).expect("numbers");
            let err = file.readings(Path::new("s.json")).expect_err(given);
            assert_eq!(
                err.to_string(),
                format!("scan s.json: faces.L, reading 5 (sticker L5): {said} is not a whole number in 0..=255")
            );
        }
        file.faces.L[4] = numbers("[1, 2, 3, 4]").expect("numbers");
        let err = file.readings(Path::new("s.json")).expect_err("four");
        assert!(
            err.to_string()
                .ends_with("4 numbers, a reading is three: [r, g, b]"),
            "{err}"
        );
    }

    #[test]
    fn a_dump_replaces_an_earlier_dump_but_never_another_file() {
        let dir = tempfile::tempdir().expect("temp dir");
        let readings: [Rgb; 54] = std::array::from_fn(|i| [i as u8, 0, 0]);
        let scan = dir.path().join("scan.json");
        save_scan(&scan, &ScanFile::from_readings(Some("a".into()), &readings)).expect("new");
        save_scan(&scan, &ScanFile::from_readings(Some("b".into()), &readings)).expect("again");
        assert_eq!(load_scan(&scan).expect("a scan").0.id.as_deref(), Some("b"));
        let photo = dir.path().join("U.png");
        std::fs::write(&photo, b"\x89PNG not json").expect("write");
        let err = save_scan(&photo, &ScanFile::from_readings(None, &readings)).expect_err("kept");
        assert!(err.to_string().contains("is not a scan file"), "{err}");
        assert_eq!(std::fs::read(&photo).expect("read"), b"\x89PNG not json");
    }
}
