//! Sampling a 2x2: the four stickers of a face on a 2x2 grid inside the face's outer corners (the same `FaceGrid` as the 3x3's), the 3x3's robust colour statistic, and readings turned between a photo's order and the net's.

use crate::grid::face_grid::FaceGrid;
use crate::grid::sample::{one_colour, sticker_pixels, SampleError, SampleOptions};
use crate::grid::sample::{rotate_square, unrotate_square};
use crate::light::colour::Rgb;
use image::RgbImage;

/// Stickers along a side of a 2x2 face.
const SIDE: usize = 2;

/// The four readings of a 2x2 face, row by row as the stickers appear in the image.
pub fn sample_pocket_face(
    image: &RgbImage,
    grid: &FaceGrid,
    options: &SampleOptions,
) -> Result<[Rgb; 4], SampleError> {
    // A 2x2 sticker cell is 1.5 times a 3x3 cell in the same face outline.
    let cell = grid.cell_size() * 3.0 / SIDE as f32;
    let points = ((cell * options.inner) as usize).clamp(2, options.max_points_per_side.max(2));
    let mut out = [[0u8; 3]; 4];
    let full = options
        .recover_clipped
        .then(|| crate::grid::highlight::full_scale(image, grid));
    for (i, reading) in out.iter_mut().enumerate() {
        let (row, col) = (i / SIDE, i % SIDE);
        let pixels = sticker_pixels(image, grid, (row, col), SIDE, (points, options.inner)).ok_or(
            SampleError::OutsideImage {
                row,
                col,
                width: image.width(),
                height: image.height(),
            },
        )?;
        let middle = one_colour(pixels, (row, col), options)?;
        *reading =
            crate::grid::highlight::recover_clipped(image, grid, (row, col, SIDE), (middle, full));
    }
    Ok(out)
}

/// The readings in net order, given readings in image order of a photo rotated
/// `image_rotation` clockwise quarter turns relative to the net.
pub(crate) fn unrotate_pocket<T: Copy>(readings: &[T; 4], image_rotation: u8) -> [T; 4] {
    unrotate_square(readings, SIDE, image_rotation)
}

/// The readings as they appear in a photo rotated `image_rotation` clockwise quarter turns
/// (inverse of `unrotate_pocket`).
pub fn rotate_pocket<T: Copy>(readings: &[T; 4], image_rotation: u8) -> [T; 4] {
    rotate_square(readings, SIDE, image_rotation)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_finger_over_half_a_sticker_is_refused_naming_it() {
        let mut image = RgbImage::from_pixel(200, 200, image::Rgb([30, 160, 80]));
        let grid = FaceGrid::square(0.0, 0.0, 200.0);
        assert!(sample_pocket_face(&image, &grid, &SampleOptions::default()).is_ok());
        for (x, y, p) in image.enumerate_pixels_mut() {
            if x >= 100 && y >= 100 && x < 150 {
                p.0 = [214, 160, 128]; // a finger over the left half of the bottom-right sticker
            }
        }
        let err = sample_pocket_face(&image, &grid, &SampleOptions::default());
        assert!(
            matches!(err, Err(SampleError::NotOneColour { row: 1, col: 1, .. })),
            "{err:?}"
        );
    }

    #[test]
    fn rotating_then_unrotating_gives_the_readings_back() {
        let r = [1, 2, 3, 4];
        for k in 0..4 {
            assert_eq!(unrotate_pocket(&rotate_pocket(&r, k), k), r);
        }
        // A photo turned a quarter clockwise shows the net's bottom-left sticker at top-left.
        assert_eq!(rotate_pocket(&r, 1), [3, 1, 4, 2]);
    }
}
