//! A cube whose stickers sit on white plastic, through `cubed calibrate` and `cubed scan`: its white face shows no grid, and is read on the grid the other photos agree on when the camera did not move between them, never when it did.

use crate::common::{cubed, simulated_photos, stderr};
use cubed::cube::FaceletCube;
use cubed::vision::camera::sim::{SimLighting, WHITE_BODY};
use std::path::Path;

/// Six simulated photos of a solved white-bodied cube, U.png … B.png (U is white). The case
/// itself is checked: no grid is found in the white face's photo, and one is in the others'.
fn white_body_solved(dir: &Path) {
    simulated_photos(
        FaceletCube::default(),
        dir,
        SimLighting::default(),
        WHITE_BODY,
    );
    for face in cubed::cube::Face::ALL {
        let photo = image::open(dir.join(format!("{face}.png")))
            .expect("photo")
            .to_rgb8();
        let found = cubed::vision::grid::finder::find_grid(&photo);
        assert_eq!(
            found.is_ok(),
            face != cubed::cube::Face::U,
            "{face}: {found:?}"
        );
    }
}

/// The photo `name` in `dir` moved right by `dx` pixels, as a camera held by hand moves: the
/// strip it uncovers takes the colour of the photo's left edge.
fn move_photo(dir: &Path, name: &str, dx: u32) {
    let path = dir.join(name);
    let photo = image::open(&path).expect("photo").to_rgb8();
    let moved = image::RgbImage::from_fn(photo.width(), photo.height(), |x, y| {
        *photo.get_pixel(x.saturating_sub(dx), y)
    });
    moved.save(&path).expect("save");
}

fn calibrate(dir: &Path) -> std::process::Output {
    let written = dir.join("palette.toml");
    cubed(
        &[
            "calibrate",
            "--images",
            dir.to_str().expect("utf-8"),
            "--output",
            written.to_str().expect("utf-8"),
        ],
        None,
    )
}

/// Five faces' grids found where a steady camera puts them: the white face is lent theirs, said
/// so, and the palette written; the white reads as white on the cube's own photos.
#[test]
fn a_white_bodied_cube_calibrates_on_the_grid_its_other_faces_agree_on() {
    let dir = tempfile::tempdir().expect("temp dir");
    white_body_solved(dir.path());
    let out = calibrate(dir.path());
    let said = stderr(&out);
    assert!(out.status.success(), "{said}");
    assert!(
        said.contains(
            "no grid found in the photo of face U: read on the grid the other 5 photos agree on"
        ),
        "{said}"
    );
    let palette = dir.path().join("palette.toml");
    let out = cubed(
        &[
            "scan",
            "--images",
            dir.path().to_str().expect("utf-8"),
            "--palette",
            palette.to_str().expect("utf-8"),
        ],
        None,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let read = crate::common::stdout(&out);
    assert!(read.starts_with(&"W".repeat(9)), "{read}");
}

/// One found face's photo moved by a third of a sticker: the camera moved between the photos,
/// so the white face is lent nothing and is refused, named.
#[test]
fn photos_from_a_camera_that_moved_lend_no_grid() {
    let dir = tempfile::tempdir().expect("temp dir");
    white_body_solved(dir.path());
    // The simulated face is 300 pixels across: a sticker's pitch is 100.
    move_photo(dir.path(), "R.png", 34);
    let out = calibrate(dir.path());
    let said = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(said.contains("face U"), "{said}");
    assert!(said.contains("no 3x3 grid of stickers found"), "{said}");
    assert!(!said.contains("agree on"), "{said}");
    assert!(!dir.path().join("palette.toml").exists(), "nothing written");
}
