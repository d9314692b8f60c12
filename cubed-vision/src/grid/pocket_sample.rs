//! Sampling a 2x2: the four stickers of a face on a 2x2 grid inside the face's outer corners (the same `FaceGrid` as the 3x3's), the 3x3's robust colour statistic, photos un-rotated into net order, and 24 readings in URFDLB from six photos.

use crate::cube::Face;
use crate::grid::face_grid::FaceGrid;
use crate::grid::sample::{one_colour, sticker_pixels, SampleError, SampleOptions};
use crate::light::colour::Rgb;
use crate::pocket::stickers::STICKERS;
use crate::scan::{grid_for, FacePhoto, GridChoice, ScanError};
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
    (0..image_rotation % 4).fold(*readings, |g, _| {
        std::array::from_fn(|i| g[(i % 2) * 2 + 1 - i / 2])
    })
}

/// The readings as they appear in a photo rotated `image_rotation` clockwise quarter turns
/// (inverse of `unrotate_pocket`).
pub fn rotate_pocket<T: Copy>(readings: &[T; 4], image_rotation: u8) -> [T; 4] {
    (0..image_rotation % 4).fold(*readings, |g, _| {
        std::array::from_fn(|i| g[(1 - i % 2) * 2 + i / 2])
    })
}

/// The grid used for a photo of a 2x2.
pub(crate) fn pocket_grid_for(photo: &FacePhoto, grid: &GridChoice) -> Result<FaceGrid, ScanError> {
    match grid {
        GridChoice::Auto => {
            crate::grid::pocket::find_pocket_grid(&photo.image).map_err(|source| ScanError::Grid {
                face: photo.face,
                source,
            })
        }
        fixed => grid_for(photo, fixed),
    }
}

/// The four readings of one photo of a 2x2 in net order, and the grid they were sampled on.
pub(crate) fn read_pocket_photo(
    photo: &FacePhoto,
    grid: &GridChoice,
    options: &SampleOptions,
) -> Result<([Rgb; 4], FaceGrid), ScanError> {
    let g = pocket_grid_for(photo, grid)?;
    let seen =
        sample_pocket_face(&photo.image, &g, options).map_err(|source| ScanError::Sample {
            face: photo.face,
            source,
        })?;
    Ok((unrotate_pocket(&seen, photo.image_rotation), g))
}

/// The 24 readings (URFDLB) of a 2x2 from photos of all six faces, in any order.
pub fn read_pocket_photos(
    photos: &[FacePhoto],
    grid: &GridChoice,
    options: &SampleOptions,
) -> Result<[Rgb; STICKERS], ScanError> {
    read_pocket_photos_and_grids(photos, grid, options).map(|(readings, _)| readings)
}

/// [`read_pocket_photos`], with the grid each face's photo was sampled on (URFDLB).
pub fn read_pocket_photos_and_grids(
    photos: &[FacePhoto],
    grid: &GridChoice,
    options: &SampleOptions,
) -> Result<([Rgb; STICKERS], Vec<FaceGrid>), ScanError> {
    let mut readings = [[0u8; 3]; STICKERS];
    let mut grids = Vec::with_capacity(6);
    for face in Face::ALL {
        let photo = photos
            .iter()
            .find(|p| p.face == face)
            .ok_or(ScanError::MissingFace(face))?;
        crate::scan::check_colour(photo)?;
        let (four, found) = read_pocket_photo(photo, grid, options)?;
        readings[face.index() * 4..face.index() * 4 + 4].copy_from_slice(&four);
        grids.push(found);
    }
    Ok((readings, grids))
}

/// A solved 2x2's readings spread over a 3x3's 54 places, each face's nine places taking its
/// four readings (each at least twice): what calibration, which reads a solved cube, needs.
pub fn solved_pocket_as_nine(readings: &[Rgb; STICKERS]) -> [Rgb; 54] {
    const FROM: [usize; 9] = [0, 0, 1, 2, 3, 1, 2, 3, 3];
    std::array::from_fn(|i| readings[i / 9 * 4 + FROM[i % 9]])
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

    #[test]
    fn a_solved_2x2_spread_over_nine_places_calibrates_the_palette() {
        use crate::camera::sim::STANDARD_STICKERS;
        let four: [Rgb; STICKERS] = std::array::from_fn(|i| STANDARD_STICKERS[i / 4]);
        let nine = solved_pocket_as_nine(&four);
        assert!((0..54).all(|i| nine[i] == STANDARD_STICKERS[i / 9]));
        let palette = crate::light::palette::Palette::default();
        let calibrated = crate::light::calibrate::calibrate(&nine, &palette).expect("calibrates");
        for (c, colour) in calibrated.palette.colours.iter().enumerate() {
            let seen = crate::light::colour::LabColour::from_rgb(STANDARD_STICKERS[c]);
            assert!(colour.reference.delta_e(seen) < 1.0, "colour {c}");
        }
    }
}
