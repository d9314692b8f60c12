//! Automatic grid finding for a 2x2, in a close-up or in a whole frame among clutter: sticker squares found under each of the shared search's masks in the reduced photo, every 2x2 lattice three or four of them lie on taken as a candidate (`pocket_lattice`), each candidate checked in the full-resolution photo for what makes a cube face and its stickers' middles measured there (`pocket_verify`); the first candidate whose four (else three) stickers are stickers is the face, its corners from where those middles lie. A 2x2 face has no centre sticker: a lattice is anchored at a corner sticker and its nearest neighbour.

use crate::grid::face_grid::{map_point, square_to_quad, FaceGrid};
use crate::grid::finder::GridError;
use crate::grid::pocket_lattice::candidates;
use crate::grid::pocket_verify::{verify, Sticker, Verified};
use crate::grid::search::blobs_per_mask;
use image::RgbImage;

/// Finds a 2x2 face's grid (its outer corners) in a photo.
pub fn find_pocket_grid(image: &RgbImage) -> Result<FaceGrid, GridError> {
    if image.width() == 0 || image.height() == 0 {
        return Err(GridError::EmptyImage);
    }
    let (masks, scale) = blobs_per_mask(image);
    let squares = masks.iter().map(Vec::len).max().unwrap_or(0);
    let (candidates, lined_up) = candidates(&masks, scale);
    let (mut best, mut most_stickers) = (None::<Verified>, 0);
    for candidate in &candidates {
        let verified = verify(image, candidate);
        most_stickers = most_stickers.max(verified.count());
        if verified.count() >= 3 && best.as_ref().is_none_or(|b| verified.more_face_like(b)) {
            best = Some(verified);
        }
        if best
            .as_ref()
            .is_some_and(|b| b.count() == 4 && b.body_beyond == 0)
        {
            break;
        }
    }
    let found = if candidates.is_empty() {
        lined_up
    } else {
        most_stickers
    };
    let best = best.map(|b| face_corners(&b.stickers));
    best.ok_or(GridError::PocketNotFound {
        found,
        candidates: squares,
    })
}

/// The face's outer corners from its stickers' middles (row by row; at least three): the
/// homography taking the four middles' square to where they lie, a missing one completing the
/// parallelogram of the other three, extended half a pitch beyond them.
fn face_corners(stickers: &[Option<Sticker>; 4]) -> FaceGrid {
    let at = |k: usize| stickers[k].map(|s| s.centre);
    // Each middle from the other three: the sticker diagonally opposite is subtracted.
    let completed = |k: usize| {
        at(k).unwrap_or_else(|| {
            let (a, b, opposite) = match k {
                0 => (1, 2, 3),
                1 => (0, 3, 2),
                2 => (0, 3, 1),
                _ => (1, 2, 0),
            };
            let [p, q, r] = [a, b, opposite].map(|i| at(i).unwrap_or_default());
            [p[0] + q[0] - r[0], p[1] + q[1] - r[1]]
        })
    };
    let middles = [completed(0), completed(1), completed(3), completed(2)];
    let homography = square_to_quad(middles);
    FaceGrid {
        corners: [[-0.5, -0.5], [1.5, -0.5], [1.5, 1.5], [-0.5, 1.5]]
            .map(|p| map_point(&homography, p)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::blobs::otsu;
    use crate::light::colour::brightest_channel;

    /// A 2x2 face drawn on `background`: `cell`-pixel cells at (left, top), dark gaps between
    /// stickers, sticker (column, row) coloured `colour(column + row)`.
    fn pocket_face(
        (left, top, cell): (u32, u32, u32),
        background: [u8; 3],
        colour: impl Fn(u32) -> [u8; 3],
    ) -> RgbImage {
        let mut image = RgbImage::from_pixel(400, 300, image::Rgb(background));
        for y in top..top + 2 * cell {
            for x in left..left + 2 * cell {
                let (cx, cy) = ((x - left) % cell, (y - top) % cell);
                let inside =
                    cx > cell / 10 && cx < cell * 9 / 10 && cy > cell / 10 && cy < cell * 9 / 10;
                let sticker = colour((x - left) / cell + (y - top) / cell);
                image.put_pixel(
                    x,
                    y,
                    image::Rgb(if inside { sticker } else { [15, 15, 15] }),
                );
            }
        }
        image
    }

    /// The found grid's corners are within 8 pixels of the square at (left, top) of side `side`.
    fn assert_grid_near(image: &RgbImage, left: f32, top: f32, side: f32) {
        let grid = find_pocket_grid(image).expect("found");
        crate::grid::finder::assert_near_square(&grid, left, top, side);
    }

    #[test]
    fn finds_a_2x2_face_placed_off_centre() {
        let three = [[200, 30, 30], [240, 240, 240], [30, 60, 200]];
        let image = pocket_face((170, 50, 70), [90, 90, 90], |k| three[k as usize % 3]);
        assert_grid_near(&image, 170.0, 50.0, 140.0);
    }

    /// Two dim stickers (as dark as the background) and two bright ones: one global threshold
    /// separates only the bright pair.
    #[test]
    fn finds_a_2x2_face_whose_dim_stickers_are_as_dark_as_the_background() {
        let image = pocket_face((60, 40, 80), [100, 96, 92], |k| {
            if k.is_multiple_of(2) {
                [30, 118, 60]
            } else {
                [245, 245, 240]
            }
        });
        let value: Vec<u8> = (image.pixels()).map(|p| brightest_channel(p.0)).collect();
        let one_threshold = otsu(&value);
        assert!(
            one_threshold >= 118,
            "the case needs Otsu above the dim stickers: {one_threshold}"
        );
        assert_grid_near(&image, 60.0, 40.0, 160.0);
    }

    #[test]
    fn a_2x2_face_turned_either_way_keeps_its_reading_order() {
        let three = [[200, 30, 30], [240, 240, 240], [30, 60, 200]];
        let image = pocket_face((130, 80, 70), [90, 90, 90], |k| three[k as usize % 3]);
        let (cx, cy) = (200.0f32, 150.0f32);
        for degrees in [-40.0f32, -20.0, 20.0, 40.0] {
            let turned = crate::grid::tilt::rotate(&image, degrees);
            let grid = find_pocket_grid(&turned).expect("found");
            let (sin, cos) = degrees.to_radians().sin_cos();
            let square = FaceGrid::square(130.0, 80.0, 140.0);
            for (got, [x, y]) in grid.corners.iter().zip(square.corners) {
                let (dx, dy) = (x - cx, y - cy);
                let want = [cos * dx + sin * dy + cx, -sin * dx + cos * dy + cy];
                assert!(
                    (got[0] - want[0]).hypot(got[1] - want[1]) < 10.0,
                    "turned {degrees}: {:?}",
                    grid.corners
                );
            }
        }
    }

    #[test]
    fn an_image_without_stickers_is_refused() {
        let image = RgbImage::from_pixel(200, 200, image::Rgb([20, 20, 20]));
        assert!(matches!(
            find_pocket_grid(&image),
            Err(GridError::PocketNotFound { .. })
        ));
    }
}
