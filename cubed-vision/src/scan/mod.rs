//! From photos to readings: capture the six faces through a `Camera`, find or apply the grid, sample, un-rotate into net order. The daemon's entry point before `classify`.

pub mod photo;
pub mod pocket;
pub mod steady;

use crate::camera::{Camera, CameraError, CaptureRequest};
use crate::cube::Face;
use crate::grid::face_grid::FaceGrid;
use crate::grid::finder::{find_grid, GridError};
use crate::grid::sample::{sample_face, unrotate, SampleError, SampleOptions};
use crate::light::colour::Rgb;
use image::RgbImage;
pub use steady::FaceGrids;

/// Where the stickers are in each photo.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum GridChoice {
    /// The configured grid, the same for every photo.
    Fixed(FaceGrid),
    /// Found in each photo; a photo where none is found is read on the grid the others agree
    /// on, when they agree as a camera that did not move makes them (a robot's, or one on a
    /// stand): see [`steady`].
    Auto,
    /// Given for some faces (URFDLB), found in the photos of the others (`None`): photos
    /// taken by hand, where one face's grid was found wrong.
    PerFace([Option<FaceGrid>; 6]),
}

impl GridChoice {
    /// The grid given for `face`'s photo, or `None` when it is found in the photo.
    pub fn given(&self, face: Face) -> Option<FaceGrid> {
        match self {
            GridChoice::Fixed(g) => Some(*g),
            GridChoice::Auto => None,
            GridChoice::PerFace(grids) => grids[face.index()],
        }
    }

    /// The faces whose grid was given, URFDLB.
    pub fn given_faces(&self) -> Vec<Face> {
        (Face::ALL.into_iter())
            .filter(|&f| self.given(f).is_some())
            .collect()
    }
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
    #[error("the photos of faces {first} and {second} are the same picture, pixel for pixel: each face needs its own (a file copied twice, or a camera that gave a stale frame)")]
    SamePhoto { first: Face, second: Face },
    #[error("the photo of face {0} has no colour (every pixel grey, black or white): a greyscale picture cannot tell the stickers' colours apart; take it in colour (a camera in a monochrome or infrared mode, or a photo saved as greyscale)")]
    NoColour(Face),
    #[error("the photo of face {face} is {got_width}x{got_height}, but {sharing} of the {photos} are {width}x{height}: one grid given for every photo (--corners without a face, a grid file, `[camera] grid`) needs them all one size; give face {face} its own (--corners \"{face}=x,y x,y x,y x,y\"), or let each photo's grid be found")]
    WrongSize {
        face: Face,
        got_width: u32,
        got_height: u32,
        width: u32,
        height: u32,
        /// How many photos have that size, of how many.
        sharing: usize,
        photos: usize,
    },
}

/// The grid used for a photo.
pub(crate) fn grid_for(photo: &FacePhoto, grid: &GridChoice) -> Result<FaceGrid, ScanError> {
    match grid.given(photo.face) {
        Some(g) => Ok(g),
        None => find_grid(&photo.image).map_err(|source| ScanError::Grid {
            face: photo.face,
            source: with_pocket_found(&photo.image, source),
        }),
    }
}

/// No 3x3 found: whether a 2x2's face is there instead (the cube's size mistaken).
pub fn with_pocket_found(image: &RgbImage, error: GridError) -> GridError {
    match error {
        GridError::NotFound {
            found, candidates, ..
        } => GridError::NotFound {
            found,
            candidates,
            pocket_found: crate::grid::pocket::find_pocket_grid(image).is_ok(),
        },
        other => other,
    }
}

/// The nine readings of one photo on grid `g`, in net order.
fn read_on(
    photo: &FacePhoto,
    g: &FaceGrid,
    options: &SampleOptions,
) -> Result<[Rgb; 9], ScanError> {
    let seen = sample_face(&photo.image, g, options).map_err(|source| ScanError::Sample {
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
    read_photos_and_grids(photos, grid, options).map(|(readings, _)| readings)
}

/// [`read_photos`], with the grid each face's photo was sampled on (URFDLB).
pub fn read_photos_and_grids(
    photos: &[FacePhoto],
    grid: &GridChoice,
    options: &SampleOptions,
) -> Result<([Rgb; 54], FaceGrids), ScanError> {
    let mut readings = [[0u8; 3]; 54];
    let mut six = Vec::with_capacity(6);
    for face in Face::ALL {
        let photo = photos
            .iter()
            .find(|p| p.face == face)
            .ok_or(ScanError::MissingFace(face))?;
        six.push(photo);
    }
    check_sizes(&six, grid)?;
    for photo in &six {
        check_colour(photo)?;
    }
    let grids = grids_of(&six, grid, grid_for, 3.0)?;
    for (photo, g) in six.iter().zip(grids.iter()) {
        let face = photo.face;
        let nine = read_on(photo, g, options)?;
        readings[face.index() * 9..face.index() * 9 + 9].copy_from_slice(&nine);
    }
    Ok((readings, grids))
}

/// Each photo's grid, given or found by `find`; where every grid is found ([`GridChoice::Auto`]),
/// a photo where none is found, or one found a whole sticker off, is read on the one the
/// others agree on (`stickers_across`: 3 or 2).
pub(crate) fn grids_of(
    photos: &[&FacePhoto],
    grid: &GridChoice,
    find: impl Fn(&FacePhoto, &GridChoice) -> Result<FaceGrid, ScanError>,
    stickers_across: f32,
) -> Result<FaceGrids, ScanError> {
    let found = photos.iter().map(|p| (p.face, find(p, grid)));
    match grid {
        GridChoice::Auto => steady::lend_grids(found.collect(), stickers_across),
        _ => Ok(FaceGrids {
            grids: found.map(|(_, g)| g).collect::<Result<_, _>>()?,
            ..FaceGrids::default()
        }),
    }
}

/// The faces whose found grid is turned so near 45 degrees that which edge is the top cannot
/// be told (`grid_finder::top_in_doubt`), each with the quarter turns clockwise that take its
/// readings to the other labelling; none where the grid was given. `grids` are URFDLB, as
/// [`read_photos_and_grids`] gives them.
pub fn tops_in_doubt(grids: &[FaceGrid], grid: &GridChoice) -> Vec<(Face, u8)> {
    (Face::ALL.iter().zip(grids))
        .filter(|(&face, _)| grid.given(face).is_none())
        .filter_map(|(&face, g)| Some((face, crate::grid::finder::top_in_doubt(g)?)))
        .collect()
}

/// A 3x3's readings from photos with the faces whose tops were in doubt (`tops_in_doubt`).
pub struct PhotoReadings {
    pub readings: [Rgb; 54],
    pub tops: Vec<(Face, u8)>,
    /// The grid each photo was read on (URFDLB), and the faces lent one.
    pub grids: FaceGrids,
}

impl AsRef<[Rgb]> for PhotoReadings {
    fn as_ref(&self) -> &[Rgb] {
        &self.readings
    }
}

/// Reads a 3x3's photos and names the faces whose tops are in doubt, as `scan --images` does.
pub fn read_photos_with_tops(
    photos: &[FacePhoto],
    grid: &GridChoice,
    sampling: &SampleOptions,
) -> Result<PhotoReadings, ScanError> {
    let (readings, grids) = read_photos_and_grids(photos, grid, sampling)?;
    let tops = tops_in_doubt(&grids, grid);
    Ok(PhotoReadings {
        readings,
        tops,
        grids,
    })
}

/// With one grid given for every photo, the photos are all the size most of them have (among
/// equally common sizes, the first photo's), and the first photo of another size is named. A
/// grid found or given for each photo reads it at any size: a photo cropped, or turned.
fn check_sizes(photos: &[&FacePhoto], grid: &GridChoice) -> Result<(), ScanError> {
    if !matches!(grid, GridChoice::Fixed(_)) {
        return Ok(());
    }
    let sizes: Vec<(u32, u32)> = photos.iter().map(|p| p.image.dimensions()).collect();
    let shared = |s: &(u32, u32)| sizes.iter().filter(|&t| t == s).count();
    let Some(&(width, height)) = sizes.iter().rev().max_by_key(|s| shared(s)) else {
        return Ok(());
    };
    match photos
        .iter()
        .find(|p| p.image.dimensions() != (width, height))
    {
        Some(odd) => Err(ScanError::WrongSize {
            face: odd.face,
            got_width: odd.image.width(),
            got_height: odd.image.height(),
            width,
            height,
            sharing: shared(&(width, height)),
            photos: photos.len(),
        }),
        None => Ok(()),
    }
}

/// A photo must record colour: one whose every pixel is grey (its channels within the two
/// levels a JPEG's rounding leaves) shows no sticker's colour, and reading it would only
/// refuse it later as a cube that cannot exist, or mistake it for bad light.
pub(crate) fn check_colour(photo: &FacePhoto) -> Result<(), ScanError> {
    let coloured = |p: &image::Rgb<u8>| {
        let [r, g, b] = p.0;
        r.abs_diff(g) > 2 || g.abs_diff(b) > 2 || r.abs_diff(b) > 2
    };
    if photo.image.pixels().any(coloured) {
        Ok(())
    } else {
        Err(ScanError::NoColour(photo.face))
    }
}

/// Captures each requested face (normally all six, in the scan plan's order).
pub fn capture_faces(
    camera: &mut dyn Camera,
    plan: &[CaptureRequest],
) -> Result<Vec<FacePhoto>, ScanError> {
    let photos = plan
        .iter()
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
        .collect::<Result<Vec<_>, ScanError>>()?;
    refuse_the_same_picture_twice(&photos)?;
    Ok(photos)
}

/// Two faces cannot give the same picture pixel for pixel: one of them is not its face.
fn refuse_the_same_picture_twice(photos: &[FacePhoto]) -> Result<(), ScanError> {
    for (i, a) in photos.iter().enumerate() {
        if let Some(b) = photos[i + 1..]
            .iter()
            .find(|b| b.face != a.face && b.image == a.image)
        {
            return Err(ScanError::SamePhoto {
                first: a.face,
                second: b.face,
            });
        }
    }
    Ok(())
}

/// The plan that shows the faces in URFDLB order, unrotated (image directories, tests).
pub fn plain_plan() -> Vec<CaptureRequest> {
    Face::ALL
        .iter()
        .map(|&face| CaptureRequest {
            camera: 0,
            face,
            image_rotation: 0,
            exposure: crate::camera::Exposure::NORMAL,
        })
        .collect()
}

#[cfg(test)]
mod tests;
