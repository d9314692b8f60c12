//! Sticker sampling: the 3x3 grid of a face in an image (four corners), a robust colour statistic of the inner part of each sticker that rejects glare, and un-rotating the nine readings into net order.

use crate::grid::face_grid::{sticker_lattice, FaceGrid};
use crate::light::colour::Rgb;
use image::RgbImage;

/// How stickers are sampled.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SampleOptions {
    /// Side of the sampled square as a fraction of the sticker cell (the inner part, away from edges).
    pub inner: f32,
    /// A pixel whose smallest channel is at least this is glare (unless most of the sticker is).
    pub glare_min_channel: u8,
    /// Sample points per side of the inner square, at most.
    pub max_points_per_side: usize,
    /// Read a sticker whose middle clipped from its rim (`highlight.rs`): for photos that
    /// cannot be taken again. A camera takes such a face again darker instead, which sees the
    /// colour itself.
    pub recover_clipped: bool,
}

impl Default for SampleOptions {
    fn default() -> Self {
        SampleOptions {
            inner: 0.5,
            glare_min_channel: 245,
            max_points_per_side: 16,
            recover_clipped: false,
        }
    }
}

impl SampleOptions {
    /// For photos that cannot be taken again (a folder): clipped stickers read from their rims.
    pub fn for_kept_photos() -> SampleOptions {
        SampleOptions {
            recover_clipped: true,
            ..SampleOptions::default()
        }
    }
}

/// Why a face cannot be sampled.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SampleError {
    #[error(
        "the sticker in row {}, column {} of the grid (from its top-left, as the photo shows it) lies outside the {width}x{height} image", .row + 1, .col + 1
    )]
    OutsideImage {
        row: usize,
        col: usize,
        width: u32,
        height: u32,
    },
    #[error(
        "the sticker in row {}, column {} of the photo (from the face's top-left, as the photo shows it) is not one colour ({percent} % of its middle is far from its typical colour): something is in front of the cube (a hand?), or the grid is off", .row + 1, .col + 1
    )]
    NotOneColour {
        row: usize,
        col: usize,
        percent: u32,
    },
}

/// A pixel differs from its sticker's colour when a channel is this far from it (0..255).
const DIFFERENT: u8 = 60;
/// A sticker (other than the centre, which may carry a logo) whose middle
/// differs from its colour in more than this share of its pixels is not one
/// colour. A grid a few degrees off (the simulated robot's wobble) reaches 30 %.
const MAX_DIFFERING_SHARE: f32 = 0.4;

/// The nine readings of a face, row by row as the stickers appear in the image.
pub fn sample_face(
    image: &RgbImage,
    grid: &FaceGrid,
    options: &SampleOptions,
) -> Result<[Rgb; 9], SampleError> {
    let mut out = [[0u8; 3]; 9];
    let full = options
        .recover_clipped
        .then(|| crate::grid::highlight::full_scale(image, grid));
    let cell = grid.cell_size();
    let points = ((cell * options.inner) as usize).clamp(2, options.max_points_per_side.max(2));
    for (i, reading) in out.iter_mut().enumerate() {
        let (row, col) = (i / 3, i % 3);
        let pixels = sticker_pixels(image, grid, (row, col), 3, (points, options.inner)).ok_or(
            SampleError::OutsideImage {
                row,
                col,
                width: image.width(),
                height: image.height(),
            },
        )?;
        // The centre may carry a logo: it is not held to being one colour.
        let middle = if i == 4 {
            robust_colour(pixels, options.glare_min_channel)
        } else {
            one_colour(pixels, (row, col), options)?
        };
        *reading =
            crate::grid::highlight::recover_clipped(image, grid, (row, col, 3), (middle, full));
    }
    Ok(out)
}

/// The robust colour of a sticker's pixels, refused when more than
/// `MAX_DIFFERING_SHARE` of them (glare left out) are far from it: something
/// is in front of the sticker at (row, col).
pub(crate) fn one_colour(
    pixels: Vec<Rgb>,
    (row, col): (usize, usize),
    options: &SampleOptions,
) -> Result<Rgb, SampleError> {
    let colour = robust_colour(pixels.clone(), options.glare_min_channel);
    let share = differing_share(&pixels, colour, options.glare_min_channel);
    if share > MAX_DIFFERING_SHARE {
        return Err(SampleError::NotOneColour {
            row,
            col,
            percent: (share * 100.0).round() as u32,
        });
    }
    Ok(colour)
}

/// The share of the pixels (glare left out) with a channel far from `colour`.
fn differing_share(pixels: &[Rgb], colour: Rgb, glare_min_channel: u8) -> f32 {
    let seen = pixels.iter().filter(|p| !is_glare(p, glare_min_channel));
    let (differing, total) = seen.fold((0usize, 0usize), |(d, n), p| {
        let far = (0..3).any(|c| p[c].abs_diff(colour[c]) > DIFFERENT);
        (d + usize::from(far), n + 1)
    });
    if total == 0 {
        0.0
    } else {
        differing as f32 / total as f32
    }
}

/// Pixels on a `points` x `points` lattice over the inner part of the sticker
/// at `(row, col)` of a face `side` stickers wide (None if any falls outside).
pub(crate) fn sticker_pixels(
    image: &RgbImage,
    grid: &FaceGrid,
    (row, col): (usize, usize),
    side: usize,
    (points, inner): (usize, f32),
) -> Option<Vec<Rgb>> {
    sticker_lattice(image, grid, (row, col), side, (points, inner))
        .into_iter()
        .collect()
}

/// Whether a pixel is glare: every channel at least `glare_min_channel`.
fn is_glare(p: &Rgb, glare_min_channel: u8) -> bool {
    p.iter().all(|&c| c >= glare_min_channel)
}

/// Per-channel median of the pixels that are not glare (all of them if most are "glare": a white sticker).
pub(crate) fn robust_colour(mut pixels: Vec<Rgb>, glare_min_channel: u8) -> Rgb {
    let is_glare = |p: &Rgb| is_glare(p, glare_min_channel);
    let glare = pixels.iter().filter(|p| is_glare(p)).count();
    if glare * 2 < pixels.len() {
        pixels.retain(|p| !is_glare(p));
    }
    std::array::from_fn(|c| {
        let mut channel: Vec<u8> = pixels.iter().map(|p| p[c]).collect();
        let mid = channel.len() / 2;
        *channel.select_nth_unstable(mid).1
    })
}

/// The readings in net order, given readings in image order of a photo rotated
/// `image_rotation` clockwise quarter turns relative to the net.
pub(crate) fn unrotate(readings: &[Rgb; 9], image_rotation: u8) -> [Rgb; 9] {
    unrotate_square(readings, 3, image_rotation)
}

/// [`unrotate`] for a square face of any size: `readings` row by row, `side` to a row.
pub(crate) fn unrotate_square<T: Copy, const K: usize>(
    readings: &[T; K],
    side: usize,
    image_rotation: u8,
) -> [T; K] {
    (0..image_rotation % 4).fold(*readings, |g, _| {
        std::array::from_fn(|i| g[(i % side) * side + side - 1 - i / side])
    })
}

/// [`rotate`] for a square face of any size: `readings` row by row, `side` to a row.
pub(crate) fn rotate_square<T: Copy, const K: usize>(
    readings: &[T; K],
    side: usize,
    image_rotation: u8,
) -> [T; K] {
    (0..image_rotation % 4).fold(*readings, |g, _| {
        std::array::from_fn(|i| g[(side - 1 - i % side) * side + i / side])
    })
}

/// The readings as they appear in a photo rotated `image_rotation` clockwise quarter turns (inverse of `unrotate`).
pub fn rotate(readings: &[Rgb; 9], image_rotation: u8) -> [Rgb; 9] {
    rotate_square(readings, 3, image_rotation)
}

#[cfg(test)]
mod tests {

    /// The box of a grid in a photo turned as the page shows it, checked against the image
    /// crate's own rotations of a photo with one marked pixel.
    #[test]
    fn a_grid_box_turns_with_the_photo() {
        use image::imageops::{rotate180, rotate270, rotate90};
        let mut photo = RgbImage::new(100, 50);
        photo.put_pixel(10, 20, image::Rgb([255, 255, 255]));
        let point = FaceGrid {
            corners: [[10.5, 20.5]; 4],
        };
        for turns in 0..4u8 {
            let shown = match turns {
                1 => rotate270(&photo),
                2 => rotate180(&photo),
                3 => rotate90(&photo),
                _ => photo.clone(),
            };
            let (x, y, _) = (shown.enumerate_pixels())
                .find(|(_, _, p)| p.0[0] == 255)
                .expect("the marked pixel");
            let (w, h) = shown.dimensions();
            let [left, top, right, bottom] = point.box_in(photo.dimensions(), turns);
            let expected = ((x as f32 + 0.5) / w as f32, (y as f32 + 0.5) / h as f32);
            assert!(
                (left - expected.0).abs() < 1e-3 && (right - left).abs() < 1e-6,
                "{turns}"
            );
            assert!(
                (top - expected.1).abs() < 1e-3 && (bottom - top).abs() < 1e-6,
                "{turns}"
            );
        }
    }

    use super::*;

    fn numbered() -> [Rgb; 9] {
        std::array::from_fn(|i| [i as u8; 3])
    }

    #[test]
    fn a_clockwise_quarter_turn_puts_the_top_left_sticker_top_right() {
        let turned = rotate(&numbered(), 1);
        assert_eq!(turned[2], [0; 3]);
        assert_eq!(turned[0], [6; 3]);
        for k in 0..4 {
            assert_eq!(unrotate(&rotate(&numbered(), k), k), numbered());
        }
        assert_eq!(rotate(&numbered(), 4), numbered());
    }

    #[test]
    fn sampling_reads_each_sticker_and_ignores_glare() {
        let mut image = RgbImage::from_pixel(300, 300, image::Rgb([10, 10, 10]));
        let grid = FaceGrid::square(0.0, 0.0, 300.0);
        for (x, y, p) in image.enumerate_pixels_mut() {
            let i = (y / 100 * 3 + x / 100) as u8;
            p.0 = [20 * i, 100, 200 - 10 * i];
            let (dx, dy) = (x as i32 % 100 - 50, y as i32 % 100 - 50);
            if i == 4 && dx * dx + dy * dy < 200 {
                p.0 = [255, 255, 255]; // a glare spot on the centre sticker
            }
        }
        let readings = sample_face(&image, &grid, &SampleOptions::default()).expect("inside");
        for (i, r) in readings.iter().enumerate() {
            assert_eq!(*r, [20 * i as u8, 100, 200 - 10 * i as u8]);
        }
    }

    #[test]
    fn a_hand_over_half_a_sticker_is_refused_naming_it_and_a_logo_on_the_centre_is_not() {
        let mut image = RgbImage::from_pixel(300, 300, image::Rgb([30, 160, 80]));
        for (x, y, p) in image.enumerate_pixels_mut() {
            let (in_cell_x, in_cell_y) = (x % 100, y % 100);
            if (100..200).contains(&x) && (100..200).contains(&y) && in_cell_x < 60 {
                p.0 = [20, 20, 20]; // a logo over most of the centre
            }
            if y >= 200 && x < 100 && in_cell_y > 45 {
                p.0 = [220, 170, 140]; // a finger over the bottom-left sticker
            }
        }
        let grid = FaceGrid::square(0.0, 0.0, 300.0);
        let err = sample_face(&image, &grid, &SampleOptions::default());
        assert!(
            matches!(err, Err(SampleError::NotOneColour { row: 2, col: 0, .. })),
            "{err:?}"
        );
        let message = err.map(|_| ()).unwrap_err().to_string();
        assert!(message.contains("hand"), "{message}");
        for (x, y, p) in image.enumerate_pixels_mut() {
            if y >= 200 && x < 100 {
                p.0 = [30, 160, 80];
            }
        }
        assert!(sample_face(&image, &grid, &SampleOptions::default()).is_ok());
    }

    #[test]
    fn a_grid_outside_the_image_is_refused() {
        let image = RgbImage::new(100, 100);
        let err = sample_face(
            &image,
            &FaceGrid::square(50.0, 50.0, 100.0),
            &SampleOptions::default(),
        );
        assert!(
            matches!(err, Err(SampleError::OutsideImage { row: 0, col: 1, .. })),
            "{err:?}"
        );
    }
}
