//! The image-directory camera: `U.png … B.png` (or `.jpg`, any case: `u.JPG`; or the daemon's `0-U.png`) named by face (then each face needs its own file, and only one), or otherwise frames in capture order (sorted file names).

use super::{Camera, CameraError, CaptureRequest, Retake};
use crate::cube::Face;
use image::RgbImage;
use std::path::{Path, PathBuf};

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
}

const EXTENSIONS: [&str; 3] = ["png", "jpg", "jpeg"];

impl ImageDirCamera {
    /// Lists the folder's images; refuses two photos named after one face (`U.png`, `u.jpg`).
    pub fn open(dir: &Path) -> Result<ImageDirCamera, CameraError> {
        let read_err = |source| CameraError::ReadDir {
            path: dir.to_path_buf(),
            source,
        };
        let mut frames = Vec::new();
        for entry in std::fs::read_dir(dir).map_err(read_err)? {
            let path = entry.map_err(read_err)?.path();
            if is_image(&path) && path.is_file() {
                frames.push(path);
            }
        }
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

/// The face a file is named after: its stem is one face letter, in either case, or the
/// daemon's `{attempt}-{FACE}` (`0-U.png`, saved under `images/{run}/`).
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
    let mut letters = stem.chars();
    match (letters.next(), letters.next()) {
        (Some(letter), None) => Face::from_letter(letter.to_ascii_uppercase()),
        _ => None,
    }
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

/// The most pixels a photo may have (a 24 MP camera's photo, with room): a larger one is
/// refused before it is decoded, saying its size, rather than taking gigabytes.
pub const MOST_PIXELS: u64 = 25_000_000;

/// Reads an image file as RGB.
pub(crate) fn load_image(path: &Path) -> Result<RgbImage, CameraError> {
    let bytes =
        crate::named_file::read_bytes(path, crate::named_file::PHOTO_LIMIT).map_err(|e| {
            CameraError::Decode {
                path: path.to_path_buf(),
                source: image::ImageError::IoError(e),
            }
        })?;
    let reader = || {
        image::ImageReader::new(std::io::Cursor::new(&bytes))
            .with_guessed_format()
            .map_err(|e| CameraError::Decode {
                path: path.to_path_buf(),
                source: image::ImageError::IoError(e),
            })
    };
    let (width, height) = reader()?
        .into_dimensions()
        .map_err(|source| CameraError::Decode {
            path: path.to_path_buf(),
            source,
        })?;
    if u64::from(width) * u64::from(height) > MOST_PIXELS {
        return Err(CameraError::TooLarge {
            path: path.to_path_buf(),
            width,
            height,
        });
    }
    if reader()?.format() == Some(image::ImageFormat::Jpeg) && jpeg_cut_short(&bytes) {
        return Err(CameraError::CutShort {
            path: path.to_path_buf(),
            bytes: bytes.len(),
        });
    }
    let decoded = reader()?.decode().map_err(|source| CameraError::Decode {
        path: path.to_path_buf(),
        source,
    })?;
    Ok(decoded.to_rgb8())
}

/// Whether a JPEG file stops before its end-of-image marker (FF D9) follows its last scan
/// (FF DA; in the scan's data an FF byte is always followed by 00 or a restart marker, so these
/// pairs are markers): the decoder would fill the missing rows with grey and say nothing.
fn jpeg_cut_short(bytes: &[u8]) -> bool {
    let last = |marker: u8| bytes.windows(2).rposition(|w| w == [0xFF, marker]);
    match (last(0xDA), last(0xD9)) {
        (Some(scan), Some(end)) => end < scan,
        _ => true,
    }
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
                })
            }
            None if self.frames.is_empty() => {
                return Err(CameraError::NoPhotos {
                    path: self.dir.clone(),
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
mod tests {
    use super::*;

    fn request(face: Face) -> CaptureRequest {
        CaptureRequest {
            camera: 0,
            face,
            image_rotation: 0,
            exposure: crate::camera::Exposure::NORMAL,
        }
    }

    /// PNG's CRC-32 (ISO-HDLC), to rewrite a header.
    fn crc32(bytes: &[u8]) -> u32 {
        let mut c = 0xFFFF_FFFFu32;
        for &b in bytes {
            c ^= u32::from(b);
            for _ in 0..8 {
                c = if c & 1 != 0 {
                    0xEDB8_8320 ^ (c >> 1)
                } else {
                    c >> 1
                };
            }
        }
        !c
    }

    /// A photo busy enough that the picture's data is most of the file.
    fn busy_photo(format: image::ImageFormat) -> Vec<u8> {
        let image = RgbImage::from_fn(320, 240, |x, y| {
            image::Rgb([(x * y % 251) as u8, (x * 7 + y * 13) as u8, (x ^ y) as u8])
        });
        let mut photo = Vec::new();
        (image::DynamicImage::ImageRgb8(image))
            .write_to(&mut std::io::Cursor::new(&mut photo), format)
            .expect("encoded");
        photo
    }

    #[test]
    fn a_jpeg_cut_short_is_refused_and_a_whole_one_with_bytes_after_its_end_is_read() {
        let dir = tempfile::tempdir().expect("temp dir");
        let photo = busy_photo(image::ImageFormat::Jpeg);
        let whole = dir.path().join("whole.jpg");
        std::fs::write(&whole, [photo.as_slice(), b"trailer"].concat()).expect("written");
        assert!(
            load_image(&whole).is_ok(),
            "bytes after the end are ignored"
        );
        for kept in [photo.len() - 2, photo.len() * 2 / 3, photo.len() / 2] {
            let cut = dir.path().join(format!("cut-{kept}.jpg"));
            std::fs::write(&cut, &photo[..kept]).expect("written");
            let error = load_image(&cut).expect_err("a photo cut short");
            let said = error.to_string();
            assert!(
                matches!(error, CameraError::CutShort { .. }),
                "{kept} bytes: {said}"
            );
            assert!(
                said.contains(&format!("cut-{kept}.jpg")) && said.contains("cut short"),
                "{said}"
            );
        }
        // The decoder alone takes such a file (what this check is for).
        let cut = &photo[..photo.len() * 2 / 3];
        assert!(
            image::load_from_memory(cut).is_ok(),
            "the decoder refuses it by itself now"
        );
    }

    #[test]
    fn a_png_cut_short_is_refused() {
        let dir = tempfile::tempdir().expect("temp dir");
        let photo = busy_photo(image::ImageFormat::Png);
        let cut = dir.path().join("U.png");
        std::fs::write(&cut, &photo[..photo.len() * 2 / 3]).expect("written");
        let said = load_image(&cut).expect_err("a photo cut short").to_string();
        assert!(said.contains("U.png"), "{said}");
    }

    #[test]
    fn a_photo_too_large_is_refused_by_its_size_before_it_is_decoded() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut png = Vec::new();
        RgbImage::from_pixel(1, 1, image::Rgb([9; 3]))
            .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
            .expect("encodes");
        // The header says 20000×15000 (300 MP); the pixels that follow are one.
        png[16..20].copy_from_slice(&20_000u32.to_be_bytes());
        png[20..24].copy_from_slice(&15_000u32.to_be_bytes());
        let crc = crc32(&png[12..29]);
        png[29..33].copy_from_slice(&crc.to_be_bytes());
        let path = dir.path().join("U.png");
        std::fs::write(&path, &png).expect("written");
        let err = load_image(&path).expect_err("refused");
        assert!(
            matches!(
                err,
                CameraError::TooLarge {
                    width: 20_000,
                    height: 15_000,
                    ..
                }
            ),
            "{err:?}"
        );
        assert!(
            err.to_string()
                .contains("20000×15000 pixels (300 megapixels)"),
            "{err}"
        );
    }

    #[test]
    fn frames_in_name_order_when_files_are_not_named_by_face() {
        let dir = tempfile::tempdir().expect("temp dir");
        for (i, name) in ["b-002.png", "a-001.png"].iter().enumerate() {
            RgbImage::from_pixel(2, 2, image::Rgb([i as u8 * 100; 3]))
                .save(dir.path().join(name))
                .expect("save");
        }
        let mut camera = ImageDirCamera::open(dir.path()).expect("open");
        assert_eq!(
            camera
                .capture(&request(Face::U))
                .expect("first")
                .get_pixel(0, 0)
                .0,
            [100; 3]
        );
        assert_eq!(
            camera
                .capture(&request(Face::R))
                .expect("second")
                .get_pixel(0, 0)
                .0,
            [0; 3]
        );
        assert!(matches!(
            camera.capture(&request(Face::F)),
            Err(CameraError::MissingImage { face: Face::F, .. })
        ));
        assert_eq!(camera.retake(), Retake::NextFrame, "frames go on");
        let empty = tempfile::tempdir().expect("temp dir");
        let mut none = ImageDirCamera::open(empty.path()).expect("an empty folder opens");
        assert!(matches!(
            none.capture(&request(Face::U)),
            Err(CameraError::NoPhotos { .. })
        ));
        RgbImage::new(2, 2)
            .save(dir.path().join("u.png"))
            .expect("save");
        let named = ImageDirCamera::open(dir.path()).expect("open");
        assert_eq!(
            named.retake(),
            Retake::SamePhoto,
            "a face's file is read as it is"
        );
    }

    #[test]
    fn a_missing_face_photo_is_an_error_naming_the_face_not_another_photo() {
        let dir = tempfile::tempdir().expect("temp dir");
        for face in ["U", "R", "F", "D", "L"] {
            RgbImage::from_pixel(2, 2, image::Rgb([9; 3]))
                .save(dir.path().join(format!("{face}.png")))
                .expect("save");
        }
        let mut camera = ImageDirCamera::open(dir.path()).expect("open");
        camera.capture(&request(Face::D)).expect("D is there");
        let err = camera.capture(&request(Face::B)).expect_err("no B.png");
        assert!(
            matches!(err, CameraError::MissingFacePhoto { face: Face::B, .. }),
            "{err:?}"
        );
        assert!(err.to_string().contains("face B"), "{err}");
        // Every face the folder lacks is said at once.
        std::fs::remove_file(dir.path().join("R.png")).expect("remove");
        let mut camera = ImageDirCamera::open(dir.path()).expect("open");
        let err = camera.capture(&request(Face::R)).expect_err("no R.png");
        assert!(err.to_string().contains("none for face R ("), "{err}");
        assert!(err.to_string().ends_with(", nor for B"), "{err}");
    }

    #[test]
    fn photos_named_a_to_f_are_told_that_some_are_named_after_no_face() {
        let dir = tempfile::tempdir().expect("temp dir");
        for name in ["a", "b", "c", "d", "e", "f"] {
            RgbImage::from_pixel(2, 2, image::Rgb([9; 3]))
                .save(dir.path().join(format!("{name}.png")))
                .expect("save");
        }
        // b, d and f are faces B, D and F (in either case): U is missing.
        let mut camera = ImageDirCamera::open(dir.path()).expect("open");
        let err = camera.capture(&request(Face::U)).expect_err("no U.png");
        let said = err.to_string();
        assert!(
            said.contains("nor for R, L; a.png, c.png, e.png here are named after no face")
                && said.contains("or number all six"),
            "{said}"
        );
    }

    #[test]
    fn numbered_frames_are_taken_in_the_order_of_their_numbers() {
        let dir = tempfile::tempdir().expect("temp dir");
        for (n, name) in ["frame10.png", "frame9.png", "frame1.png", "frame02.png"]
            .iter()
            .enumerate()
        {
            RgbImage::from_pixel(1, 1, image::Rgb([n as u8; 3]))
                .save(dir.path().join(name))
                .expect("save");
        }
        let mut camera = ImageDirCamera::open(dir.path()).expect("open");
        let order: Vec<u8> = (Face::ALL[..4].iter())
            .map(|&f| {
                camera
                    .capture(&request(f))
                    .expect("frame")
                    .get_pixel(0, 0)
                    .0[0]
            })
            .collect();
        // frame1, frame02, frame9, frame10.
        assert_eq!(order, [2, 3, 1, 0]);
    }

    #[test]
    fn one_scan_leaves_frames_after_the_sixth_or_photos_not_named_after_a_face() {
        let dir = tempfile::tempdir().expect("temp dir");
        let save = |name: &str| {
            RgbImage::from_pixel(1, 1, image::Rgb([0; 3]))
                .save(dir.path().join(name))
                .expect("save");
        };
        for n in 1..=7 {
            save(&format!("frame{n}.png"));
        }
        let left = ImageDirCamera::open(dir.path())
            .expect("open")
            .left_over_by_one_scan();
        assert_eq!(left, vec![dir.path().join("frame7.png")]);
        for face in Face::ALL {
            save(&format!("{}.png", face.letter()));
        }
        let left = ImageDirCamera::open(dir.path())
            .expect("open")
            .left_over_by_one_scan();
        assert_eq!(
            left.len(),
            7,
            "the frames, now that photos are named by face"
        );
    }

    #[test]
    fn a_file_named_after_the_face_wins_and_a_broken_image_is_a_clear_error() {
        let dir = tempfile::tempdir().expect("temp dir");
        RgbImage::from_pixel(2, 2, image::Rgb([7; 3]))
            .save(dir.path().join("F.png"))
            .expect("save");
        std::fs::write(dir.path().join("U.png"), b"not a png").expect("write");
        let mut camera = ImageDirCamera::open(dir.path()).expect("open");
        assert_eq!(
            camera
                .capture(&request(Face::F))
                .expect("F")
                .get_pixel(1, 1)
                .0,
            [7; 3]
        );
        let err = camera.capture(&request(Face::U)).expect_err("broken");
        assert!(err.to_string().contains("U.png"), "{err}");
    }

    /// Captured in any order, each face gets its own photo (the test's photos are grey at
    /// 40 times the face's index).
    fn assert_each_face_its_own(dir: &Path, faces: &[Face]) {
        let mut camera = ImageDirCamera::open(dir).expect("open");
        for &face in faces {
            let pixel = camera
                .capture(&request(face))
                .expect("face")
                .get_pixel(0, 0)
                .0;
            assert_eq!(pixel, [face.index() as u8 * 40; 3], "face {face}");
        }
    }

    #[test]
    fn face_names_in_either_case_are_faces_and_two_photos_of_one_face_are_refused() {
        let dir = tempfile::tempdir().expect("temp dir");
        for (i, name) in ["u.png", "R.PNG", "f.Jpg", "D.jpeg", "l.png", "b.JPEG"]
            .iter()
            .enumerate()
        {
            RgbImage::from_pixel(2, 2, image::Rgb([i as u8 * 40; 3]))
                .save_with_format(dir.path().join(name), image::ImageFormat::Png)
                .expect("save");
        }
        assert_each_face_its_own(
            dir.path(),
            &[Face::B, Face::U, Face::D, Face::F, Face::R, Face::L],
        );
        RgbImage::from_pixel(2, 2, image::Rgb([1; 3]))
            .save(dir.path().join("U.png"))
            .expect("save");
        let err = ImageDirCamera::open(dir.path()).expect_err("two photos of U");
        assert!(
            matches!(err, CameraError::TwoFacePhotos { face: Face::U, .. }),
            "{err:?}"
        );
        let words = err.to_string();
        assert!(
            words.contains("U.png") && words.contains("u.png"),
            "{words}"
        );
    }

    #[test]
    fn the_daemons_photos_are_named_after_their_faces_and_two_attempts_are_refused() {
        let dir = tempfile::tempdir().expect("temp dir");
        for (i, face) in Face::ALL.iter().enumerate() {
            RgbImage::from_pixel(2, 2, image::Rgb([i as u8 * 40; 3]))
                .save(dir.path().join(format!("0-{face}.png")))
                .expect("save");
        }
        // Not the daemon's names: frames, or nothing.
        for name in ["x-U.png", "0-u.png", "0-UR.png"] {
            assert_eq!(face_named(Path::new(name)), None, "{name}");
        }
        assert_each_face_its_own(dir.path(), &[Face::B, Face::U, Face::L]);
        RgbImage::from_pixel(2, 2, image::Rgb([1; 3]))
            .save(dir.path().join("1-F.png"))
            .expect("save");
        let err = ImageDirCamera::open(dir.path()).expect_err("two photos of F");
        assert!(
            matches!(err, CameraError::TwoFacePhotos { face: Face::F, .. }),
            "{err:?}"
        );
        let words = err.to_string();
        assert!(
            words.contains("rounds 0 and 1 of a run's photos") && words.contains("copy one round"),
            "{words}"
        );
    }
}
