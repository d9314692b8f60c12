//! Scanning a 2x2: 24 readings in URFDLB from photos of its six faces (the grid found or given, each face sampled and un-rotated into net order), and a solved 2x2's readings spread over a 3x3's places for calibration.

use crate::cube::Face;
use crate::grid::face_grid::FaceGrid;
use crate::grid::pocket_sample::{sample_pocket_face, unrotate_pocket};
use crate::grid::sample::SampleOptions;
use crate::light::colour::Rgb;
use crate::pocket::stickers::STICKERS;
use crate::scan::{grid_for, grids_of, FaceGrids, FacePhoto, GridChoice, ScanError};

/// The grid used for a photo of a 2x2.
pub(crate) fn pocket_grid_for(photo: &FacePhoto, grid: &GridChoice) -> Result<FaceGrid, ScanError> {
    match grid.given(photo.face) {
        None => {
            crate::grid::pocket::find_pocket_grid(&photo.image).map_err(|source| ScanError::Grid {
                face: photo.face,
                source,
            })
        }
        Some(_) => grid_for(photo, grid),
    }
}

/// The four readings of one photo of a 2x2 on grid `g`, in net order.
fn read_pocket_on(
    photo: &FacePhoto,
    g: &FaceGrid,
    options: &SampleOptions,
) -> Result<[Rgb; 4], ScanError> {
    let seen =
        sample_pocket_face(&photo.image, g, options).map_err(|source| ScanError::Sample {
            face: photo.face,
            source,
        })?;
    Ok(unrotate_pocket(&seen, photo.image_rotation))
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
) -> Result<([Rgb; STICKERS], FaceGrids), ScanError> {
    let mut readings = [[0u8; 3]; STICKERS];
    let mut six = Vec::with_capacity(6);
    for face in Face::ALL {
        let photo = photos
            .iter()
            .find(|p| p.face == face)
            .ok_or(ScanError::MissingFace(face))?;
        crate::scan::check_colour(photo)?;
        six.push(photo);
    }
    let grids = grids_of(&six, grid, pocket_grid_for, 2.0)?;
    for (photo, g) in six.iter().zip(grids.iter()) {
        let face = photo.face;
        let four = read_pocket_on(photo, g, options)?;
        readings[face.index() * 4..face.index() * 4 + 4].copy_from_slice(&four);
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
    fn a_solved_2x2_spread_over_nine_places_calibrates_the_palette() {
        use crate::camera::sim::STANDARD_STICKERS;
        let four: [Rgb; STICKERS] = std::array::from_fn(|i| STANDARD_STICKERS[i / 4]);
        let nine = solved_pocket_as_nine(&four);
        assert!((0..54).all(|i| nine[i] == STANDARD_STICKERS[i / 9]));
        let palette = crate::light::palette::Palette::default();
        let calibrated = crate::read::calibrate::calibrate(&nine, &palette).expect("calibrates");
        for (c, colour) in calibrated.palette.colours.iter().enumerate() {
            let seen = crate::light::colour::LabColour::from_rgb(STANDARD_STICKERS[c]);
            assert!(colour.reference.delta_e(seen) < 1.0, "colour {c}");
        }
    }
}
