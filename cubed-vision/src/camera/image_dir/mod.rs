//! The image-directory camera: `U.png … B.png` (or `.jpg`, any case: `u.JPG`; or the words `up.jpg`, `top`, `front`, `right`, `back`, `left`, `down`, `bottom`; or the daemon's `0-U.png`) named by face (then each face needs its own file, and only one), or otherwise frames in capture order (sorted file names).

use super::{Camera, CameraError, CaptureRequest, Retake};
use crate::cube::Face;
use image::RgbImage;
use photo_file::load_image;
use std::path::{Path, PathBuf};

mod photo_file;
pub use photo_file::MOST_PIXELS;

/// Photos from a folder. With files named after faces, a capture returns the
/// photo of the requested face; otherwise each capture returns the next image
/// file in name order.
#[derive(Debug)]
pub struct ImageDirCamera {
    dir: PathBuf,
    frames: Vec<PathBuf>,
    next_frame: usize,
    /// The photo named after each face (URFDLB order). If any is, every face must have one.
    by_face: [Option<PathBuf>; 6],
    /// Named as photos, but no files to read (a folder, a broken link, a pipe): not read, and
    /// said when a photo is missing.
    not_files: Vec<PathBuf>,
}

const EXTENSIONS: [&str; 3] = ["png", "jpg", "jpeg"];

impl ImageDirCamera {
    /// Lists the folder's images; refuses two photos named after one face (`U.png`, `u.jpg`).
    pub fn open(dir: &Path) -> Result<ImageDirCamera, CameraError> {
        let read_err = |source| CameraError::ReadDir {
            path: dir.to_path_buf(),
            source,
        };
        let (mut frames, mut not_files) = (Vec::new(), Vec::new());
        for entry in std::fs::read_dir(dir).map_err(read_err)? {
            let path = entry.map_err(read_err)?.path();
            match (is_image(&path), path.is_file()) {
                (true, true) => frames.push(path),
                (true, false) => not_files.push(path),
                (false, _) => {}
            }
        }
        not_files.sort();
        frames.sort_by_cached_key(|path| natural_key(path));
        let mut by_face: [Option<PathBuf>; 6] = Default::default();
        for path in &frames {
            let Some(face) = face_named(path) else {
                continue;
            };
            if let Some(first) = by_face[face.index()].replace(path.clone()) {
                return Err(CameraError::TwoFacePhotos {
                    face,
                    first,
                    second: path.clone(),
                });
            }
        }
        Ok(ImageDirCamera {
            dir: dir.to_path_buf(),
            frames,
            next_frame: 0,
            by_face,
            not_files,
        })
    }

    /// The photo named after `face`, if the folder has one.
    pub fn face_file(&self, face: Face) -> Option<PathBuf> {
        self.by_face[face.index()].clone()
    }

    /// Whether some photo is named after a face (then every face needs its own).
    pub fn named_by_face(&self) -> bool {
        self.by_face.iter().any(Option::is_some)
    }

    /// The folder's images in name order (numbers by value).
    pub fn frames(&self) -> &[PathBuf] {
        &self.frames
    }

    /// How many images the folder holds.
    pub fn photo_count(&self) -> usize {
        self.frames.len()
    }

    /// The images one scan of the six faces leaves unread: in a folder named by face, those
    /// not named after a face; in a folder of frames, those after the sixth.
    pub fn left_over_by_one_scan(&self) -> Vec<PathBuf> {
        if self.named_by_face() {
            (self.frames.iter())
                .filter(|path| face_named(path).is_none())
                .cloned()
                .collect()
        } else {
            self.frames.iter().skip(6).cloned().collect()
        }
    }
}

/// The face a file is named after: its stem is one face letter, in either case, a face's
/// word (`front.jpg`), or the daemon's `{attempt}-{FACE}` (`0-U.png`, saved under `images/{run}/`).
fn face_named(path: &Path) -> Option<Face> {
    let stem = path.file_stem()?.to_str()?;
    if let Some((attempt, letter)) = stem.split_once('-') {
        let digits = !attempt.is_empty() && attempt.bytes().all(|b| b.is_ascii_digit());
        let mut letters = letter.chars();
        return match (letters.next(), letters.next()) {
            (Some(letter), None) if digits => Face::from_letter(letter),
            _ => None,
        };
    }
    face_of_name(stem)
}

/// The face a person names: one face letter, in either case, or a face's word (`front`,
/// `top`), as photos are named.
pub fn face_of_name(name: &str) -> Option<Face> {
    let mut letters = name.chars();
    match (letters.next(), letters.next()) {
        (Some(letter), None) => Face::from_letter(letter.to_ascii_uppercase()),
        _ => face_word(name),
    }
}

/// The face a word names, in any case: `up` or `top`, `down` or `bottom`, `front`, `back`,
/// `left`, `right` (as a person names the photos they took).
fn face_word(stem: &str) -> Option<Face> {
    let words: [(&[&str], Face); 6] = [
        (&["up", "top"], Face::U),
        (&["right"], Face::R),
        (&["front"], Face::F),
        (&["down", "bottom"], Face::D),
        (&["left"], Face::L),
        (&["back"], Face::B),
    ];
    let stem = stem.to_ascii_lowercase();
    (words.into_iter()).find_map(|(names, face)| names.contains(&stem.as_str()).then_some(face))
}

/// A file name's sort key in which runs of digits count as numbers: `frame2` before
/// `frame10`, as a camera numbers its frames (leading zeros and text as they are).
fn natural_key(path: &Path) -> Vec<(String, usize, String)> {
    let name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let mut key = Vec::new();
    let mut rest = name.as_str();
    while !rest.is_empty() {
        let text_len = rest
            .find(|c: char| c.is_ascii_digit())
            .unwrap_or(rest.len());
        let (text, after) = rest.split_at(text_len);
        let digits_len = after
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(after.len());
        let (digits, after) = after.split_at(digits_len);
        let number = digits.trim_start_matches('0');
        // Compared by length first, then digit by digit: any number of digits, no overflow.
        key.push((text.to_string(), number.len(), number.to_string()));
        rest = after;
    }
    key
}

fn is_image(path: &Path) -> bool {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    ext.is_some_and(|e| EXTENSIONS.contains(&e.as_str()))
}

impl Camera for ImageDirCamera {
    fn capture(&mut self, request: &CaptureRequest) -> Result<RgbImage, CameraError> {
        let path = match self.face_file(request.face) {
            Some(p) => p,
            None if self.named_by_face() => {
                return Err(CameraError::MissingFacePhoto {
                    path: self.dir.clone(),
                    face: request.face,
                    missing: (Face::ALL.into_iter())
                        .filter(|f| self.by_face[f.index()].is_none())
                        .collect(),
                    unnamed: (self.frames.iter())
                        .filter(|p| face_named(p).is_none())
                        .cloned()
                        .collect(),
                    not_files: self.not_files.clone().into_boxed_slice(),
                })
            }
            None if self.frames.is_empty() => {
                return Err(CameraError::NoPhotos {
                    path: self.dir.clone(),
                    not_files: self.not_files.clone().into_boxed_slice(),
                })
            }
            None => {
                let p = self.frames.get(self.next_frame).cloned();
                self.next_frame += 1;
                p.ok_or_else(|| CameraError::MissingImage {
                    path: self.dir.clone(),
                    face: request.face,
                })?
            }
        };
        load_image(&path)
    }

    fn describe(&self) -> String {
        format!("image dir {}", self.dir.display())
    }

    /// Files named after faces are drawn as in the net (as `cubed scan --images` reads them,
    /// and as the daemon saves its photos); numbered frames are as the camera saw them.
    fn upright(&self) -> bool {
        self.named_by_face()
    }

    /// A face named file is read again as it is; numbered frames go on to the next one.
    fn retake(&self) -> Retake {
        if self.named_by_face() {
            Retake::SamePhoto
        } else {
            Retake::NextFrame
        }
    }
}

#[cfg(test)]
mod tests;
