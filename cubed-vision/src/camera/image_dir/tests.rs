//! The image-directory camera against files made here: names by face and frames in order, photos cut short, too large, broken, or stored turned (a phone's orientation flag).

use super::photo_file::load_image;
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
    // A face's name on what is no photo file (a folder, a broken link) is said, not skipped
    // silently.
    std::fs::create_dir(dir.path().join("B.png")).expect("a folder");
    std::os::unix::fs::symlink(dir.path().join("gone.png"), dir.path().join("R.jpg"))
        .expect("a link");
    let mut camera = ImageDirCamera::open(dir.path()).expect("open");
    let said = camera
        .capture(&request(Face::B))
        .expect_err("no B")
        .to_string();
    assert!(
        said.contains("; B.png is here, but a folder, not a photo file; R.jpg is here, but a link to nothing, not a photo file"),
        "{said}"
    );
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
fn photos_named_by_a_faces_word_are_that_face_not_frames_in_name_order() {
    // URFDLB order, each its face's shade; in name order (back, bottom, front, left, right,
    // top) they would be taken as U R F D L B, each the wrong face.
    for names in [
        [
            "top.jpg",
            "Right.png",
            "FRONT.jpeg",
            "bottom.png",
            "left.png",
            "back.png",
        ],
        [
            "up.png",
            "right.png",
            "front.png",
            "down.png",
            "left.png",
            "back.png",
        ],
    ] {
        let dir = tempfile::tempdir().expect("temp dir");
        for (i, name) in names.iter().enumerate() {
            RgbImage::from_pixel(2, 2, image::Rgb([i as u8 * 40; 3]))
                .save_with_format(dir.path().join(name), image::ImageFormat::Png)
                .expect("save");
        }
        assert_each_face_its_own(
            dir.path(),
            &[Face::B, Face::D, Face::F, Face::L, Face::R, Face::U],
        );
    }
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

/// A JPEG's Exif block (TIFF, little-endian) holding only an orientation: `value` as Exif
/// numbers it (6: turn the stored picture a quarter clockwise to show it).
fn exif_orientation(value: u8) -> Vec<u8> {
    let mut tiff = b"II\x2a\x00\x08\x00\x00\x00".to_vec();
    tiff.extend_from_slice(&[1, 0]); // one entry
    tiff.extend_from_slice(&[0x12, 0x01, 3, 0, 1, 0, 0, 0, value, 0, 0, 0]);
    tiff.extend_from_slice(&[0, 0, 0, 0]); // no next directory
    tiff
}

#[test]
fn a_photo_stored_turned_with_its_orientation_flag_is_read_upright() {
    use image::ImageEncoder;
    // Upright: wide, red on the left, blue on the right.
    let upright = RgbImage::from_fn(64, 32, |x, _| {
        image::Rgb(if x < 32 { [220, 30, 30] } else { [30, 30, 220] })
    });
    // Stored as a phone stores a portrait shot: turned a quarter anticlockwise, flagged 6.
    let stored = image::imageops::rotate270(&upright);
    let dir = tempfile::tempdir().expect("temp dir");
    for (name, flag) in [("flagged.jpg", Some(6)), ("plain.jpg", None)] {
        let mut bytes = Vec::new();
        let mut encoder = image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, 95);
        if let Some(value) = flag {
            encoder
                .set_exif_metadata(exif_orientation(value))
                .expect("JPEG takes Exif");
        }
        encoder
            .write_image(stored.as_raw(), 32, 64, image::ExtendedColorType::Rgb8)
            .expect("encoded");
        std::fs::write(dir.path().join(name), &bytes).expect("written");
    }
    let read = load_image(&dir.path().join("flagged.jpg")).expect("read");
    assert_eq!(read.dimensions(), (64, 32), "turned upright");
    let left = read.get_pixel(8, 16).0;
    let right = read.get_pixel(56, 16).0;
    assert!(left[0] > 150 && left[2] < 90, "red on the left: {left:?}");
    assert!(
        right[2] > 150 && right[0] < 90,
        "blue on the right: {right:?}"
    );
    // Without the flag, the picture is read as stored.
    let plain = load_image(&dir.path().join("plain.jpg")).expect("read");
    assert_eq!(plain.dimensions(), (32, 64));
}

#[test]
fn an_empty_file_and_a_text_file_named_as_photos_are_said_to_be_so() {
    let dir = tempfile::tempdir().expect("temp dir");
    let empty = dir.path().join("U.png");
    std::fs::write(&empty, b"").expect("written");
    let err = load_image(&empty).expect_err("empty");
    assert!(matches!(err, CameraError::EmptyFile { .. }), "{err:?}");
    assert!(err.to_string().contains("is empty (0 bytes)"), "{err}");
    let text = dir.path().join("R.jpg");
    std::fs::write(&text, b"hello\n").expect("written");
    let err = load_image(&text).expect_err("text");
    assert!(matches!(err, CameraError::NotAnImage { .. }), "{err:?}");
    assert!(
        err.to_string()
            .contains("its first bytes are 68 65 6c 6c 6f 0a"),
        "{err}"
    );
}
