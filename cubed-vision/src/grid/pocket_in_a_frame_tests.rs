//! Tests of the 2x2 finder on whole 1920x1080 frames among clutter drawn here: things that look like a 2x2 in part (a grid of dark frame bars on a wall, a window's panes behind a bar, orange squares on a wall, a 3x3's face) refused, and a simulated face in such a frame, turned a little, found within pixels.

use crate::camera::sim::{SimCamera, SimLighting, STANDARD_STICKERS};
use crate::grid::finder::{find_grid, GridError};
use crate::grid::pocket::find_pocket_grid;
use crate::grid::tilt::rotate;
use image::RgbImage;

const WALL: [u8; 3] = [150, 150, 145];
const BAR: [u8; 3] = [35, 35, 38];

fn fill(image: &mut RgbImage, [l, t, r, b]: [u32; 4], colour: [u8; 3]) {
    for y in t..b.min(image.height()) {
        for x in l..r.min(image.width()) {
            image.put_pixel(x, y, image::Rgb(colour));
        }
    }
}

/// A wall behind a robot: a grid of dark frame bars every 300 px on the left (equal square
/// openings with dark gaps between), a window of two tall panes behind a silver bar that cuts
/// them into four near-square pieces, and four orange squares in a square on the bare wall.
fn clutter() -> RgbImage {
    let mut image = RgbImage::from_pixel(1920, 1080, image::Rgb(WALL));
    for k in 0..4 {
        fill(&mut image, [250 + 300 * k, 0, 300 + 300 * k, 1080], BAR);
    }
    for k in 0..3 {
        fill(&mut image, [0, 250 + 300 * k, 1200, 300 + 300 * k], BAR);
    }
    // The window: a light frame, two panes of sky 210 wide and 460 tall, a mullion.
    fill(&mut image, [1350, 60, 1830, 580], [225, 225, 220]);
    fill(&mut image, [1370, 80, 1580, 560], [200, 225, 250]);
    fill(&mut image, [1600, 80, 1810, 560], [200, 225, 250]);
    fill(&mut image, [1300, 290, 1900, 340], [150, 150, 156]);
    fill(&mut image, [1300, 311, 1900, 319], [70, 70, 72]);
    for (x, y) in [(1300, 700), (1430, 700), (1300, 830), (1430, 830)] {
        fill(&mut image, [x, y, x + 100, y + 100], [235, 110, 30]);
    }
    image
}

#[test]
fn a_whole_frame_of_clutter_with_no_cube_in_it_is_refused() {
    let found = find_pocket_grid(&clutter());
    assert!(
        matches!(found, Err(GridError::PocketNotFound { .. })),
        "{found:?}"
    );
}

#[test]
fn a_3x3_face_is_no_2x2() {
    let mut image = RgbImage::from_pixel(640, 480, image::Rgb([90, 90, 90]));
    fill(&mut image, [170, 90, 470, 390], [18, 18, 20]);
    for k in 0..9u32 {
        let (x, y) = (170 + 100 * (k % 3) + 8, 90 + 100 * (k / 3) + 8);
        let colour = STANDARD_STICKERS[k as usize % 6];
        fill(&mut image, [x, y, x + 84, y + 84], colour);
    }
    let found = find_pocket_grid(&image);
    assert!(
        matches!(found, Err(GridError::PocketNotFound { .. })),
        "{found:?}"
    );
}

/// The simulated camera's photo of a 2x2 face set into the cluttered frame at (1000, 500),
/// the frame turned by `degrees`: the face's true corners turn with it.
fn face_in_clutter(degrees: f32) -> (RgbImage, [[f32; 2]; 4]) {
    let mut camera = SimCamera::new(7, SimLighting::default());
    let four = [0, 1, 2, 5].map(|k| STANDARD_STICKERS[k]);
    let (photo, grid) = camera.render_pocket_face_and_grid(&four, 0);
    let mut frame = clutter();
    let at = [1000u32, 500u32];
    for (x, y, p) in photo.enumerate_pixels() {
        frame.put_pixel(x + at[0], y + at[1], *p);
    }
    let (cx, cy) = (960.0f32, 540.0f32);
    let (sin, cos) = degrees.to_radians().sin_cos();
    let corners = grid.corners.map(|[x, y]| {
        let (dx, dy) = (x + at[0] as f32 - cx, y + at[1] as f32 - cy);
        [cos * dx + sin * dy + cx, -sin * dx + cos * dy + cy]
    });
    (rotate(&frame, degrees), corners)
}

#[test]
fn a_2x2_face_in_a_cluttered_frame_turned_a_little_is_found_within_a_few_pixels() {
    for degrees in [-8.0f32, 0.0, 6.0] {
        let (frame, truth) = face_in_clutter(degrees);
        let grid = find_pocket_grid(&frame).unwrap_or_else(|e| panic!("{degrees}: {e}"));
        for (got, want) in grid.corners.iter().zip(truth) {
            let off = (got[0] - want[0]).hypot(got[1] - want[1]);
            assert!(
                off < 4.0,
                "turned {degrees}: {:?}, truth {truth:?}",
                grid.corners
            );
        }
    }
}

#[test]
fn a_2x2_face_given_to_the_3x3_finder_is_refused_saying_a_2x2_is_there() {
    let mut camera = SimCamera::new(7, SimLighting::default());
    let four = [0, 1, 2, 5].map(|k| STANDARD_STICKERS[k]);
    let (photo, _) = camera.render_pocket_face_and_grid(&four, 0);
    let found = find_grid(&photo).map_err(|e| crate::scan::with_pocket_found(&photo, e));
    assert!(
        matches!(
            found,
            Err(GridError::NotFound {
                pocket_found: true,
                ..
            })
        ),
        "{found:?}"
    );
    let words = found.expect_err("refused").to_string();
    assert!(
        words.contains("if the cube is a 2x2, give `--size 2`"),
        "{words}"
    );
    // Clutter alone is no 2x2: the 3x3 finder's refusal (or find) of it names none.
    let clutter_words = (find_grid(&clutter()).err())
        .map(|e| crate::scan::with_pocket_found(&clutter(), e).to_string());
    assert!(
        clutter_words.as_ref().is_none_or(|w| !w.contains("2x2")),
        "{clutter_words:?}"
    );
}
