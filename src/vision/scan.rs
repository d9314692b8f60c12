//! From photos to readings: capture the six faces through a `Camera`, find or apply the grid, sample, un-rotate into net order. The daemon's entry point before `classify`.

use super::camera::{Camera, CameraError, CaptureRequest};
use super::colour::Rgb;
use super::grid_finder::{find_grid, GridError};
use super::sample::{sample_face, unrotate, FaceGrid, SampleError, SampleOptions};
use crate::cube::Face;
use image::RgbImage;

/// Where the stickers are in each photo.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum GridChoice {
    /// The configured grid, the same for every photo.
    Fixed(FaceGrid),
    /// Found in each photo.
    Auto,
}

/// One photo of one face.
#[derive(Clone, Debug)]
pub struct FacePhoto {
    pub face: Face,
    pub image_rotation: u8,
    pub image: RgbImage,
}

/// Why a scan produced no readings.
#[derive(Debug, thiserror::Error)]
pub enum ScanError {
    #[error("capturing face {face}")]
    Camera { face: Face, source: CameraError },
    #[error("face {face}")]
    Grid { face: Face, source: GridError },
    #[error("face {face}")]
    Sample { face: Face, source: SampleError },
    #[error("no photo of face {0}")]
    MissingFace(Face),
    #[error("the photo of face {face} is {got_width}x{got_height}, the other faces' are {width}x{height}")]
    WrongSize {
        face: Face,
        got_width: u32,
        got_height: u32,
        width: u32,
        height: u32,
    },
}

/// The grid used for a photo.
pub fn grid_for(photo: &FacePhoto, grid: &GridChoice) -> Result<FaceGrid, ScanError> {
    match grid {
        GridChoice::Fixed(g) => Ok(*g),
        GridChoice::Auto => find_grid(&photo.image).map_err(|source| ScanError::Grid {
            face: photo.face,
            source,
        }),
    }
}

/// The nine readings of one photo in net order.
pub fn read_photo(
    photo: &FacePhoto,
    grid: &GridChoice,
    options: &SampleOptions,
) -> Result<[Rgb; 9], ScanError> {
    let g = grid_for(photo, grid)?;
    let seen = sample_face(&photo.image, &g, options).map_err(|source| ScanError::Sample {
        face: photo.face,
        source,
    })?;
    Ok(unrotate(&seen, photo.image_rotation))
}

/// The 54 readings (URFDLB) from photos of all six faces, in any order.
pub fn read_photos(
    photos: &[FacePhoto],
    grid: &GridChoice,
    options: &SampleOptions,
) -> Result<[Rgb; 54], ScanError> {
    let mut readings = [[0u8; 3]; 54];
    let size = photos.first().map(|p| p.image.dimensions());
    for face in Face::ALL {
        let photo = photos
            .iter()
            .find(|p| p.face == face)
            .ok_or(ScanError::MissingFace(face))?;
        if let Some((width, height)) = size.filter(|&s| s != photo.image.dimensions()) {
            return Err(ScanError::WrongSize {
                face,
                got_width: photo.image.width(),
                got_height: photo.image.height(),
                width,
                height,
            });
        }
        let nine = read_photo(photo, grid, options)?;
        readings[face.index() * 9..face.index() * 9 + 9].copy_from_slice(&nine);
    }
    Ok(readings)
}

/// Captures each requested face (normally all six, in the scan plan's order).
pub fn capture_faces(
    camera: &mut dyn Camera,
    plan: &[CaptureRequest],
) -> Result<Vec<FacePhoto>, ScanError> {
    plan.iter()
        .map(|request| {
            let image = camera
                .capture(request)
                .map_err(|source| ScanError::Camera {
                    face: request.face,
                    source,
                })?;
            Ok(FacePhoto {
                face: request.face,
                image_rotation: request.image_rotation,
                image,
            })
        })
        .collect()
}

/// The plan that shows the faces in URFDLB order, unrotated (image directories, tests).
pub fn plain_plan() -> Vec<CaptureRequest> {
    Face::ALL
        .iter()
        .map(|&face| CaptureRequest {
            camera: 0,
            face,
            image_rotation: 0,
            exposure: crate::vision::camera::Exposure::NORMAL,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_photo_of_another_size_is_refused_naming_its_face() {
        let photos: Vec<FacePhoto> = Face::ALL
            .iter()
            .map(|&face| FacePhoto {
                face,
                image_rotation: 0,
                image: if face == Face::L {
                    RgbImage::new(320, 240)
                } else {
                    RgbImage::new(640, 480)
                },
            })
            .collect();
        let grid = GridChoice::Fixed(FaceGrid::square(10.0, 10.0, 150.0));
        let err = read_photos(&photos, &grid, &SampleOptions::default()).expect_err("refused");
        assert!(
            matches!(err, ScanError::WrongSize { face: Face::L, .. }),
            "{err:?}"
        );
        assert!(err.to_string().contains("face L"), "{err}");
    }
}
