//! Automatic grid finding for a 2x2: sticker squares found under each of `grid_masks`' masks, a 2x2 lattice fitted to each mask's blobs, and the lattice that matches the most stickers with the smallest fit residual kept. A 2x2 face has no centre sticker: a lattice is anchored at a corner sticker and its nearest neighbour.

use crate::vision::grid::blobs::{Blob, LatticePoint};
use crate::vision::grid::face_grid::FaceGrid;
use crate::vision::grid::finder::{least_squares_lattice, upright_axes, GridError};
use crate::vision::grid::search::{best_lattice, residual, AmongEquals, LatticeFit};
use image::RgbImage;

/// Finds a 2x2 face's grid (its outer corners) in a photo.
pub fn find_pocket_grid(image: &RgbImage) -> Result<FaceGrid, GridError> {
    if image.width() == 0 || image.height() == 0 {
        return Err(GridError::EmptyImage);
    }
    best_lattice(image, fit_pocket_lattice, AmongEquals::SmallerResidual)
        .map_err(|(found, candidates)| GridError::PocketNotFound { found, candidates })
}

/// The 2x2 lattice that explains the most similar blobs (at least three), refined by least squares; `Err` holds the most blobs any lattice matched.
fn fit_pocket_lattice(blobs: &[Blob]) -> Result<LatticeFit, usize> {
    let mut best: Option<(usize, f32, Vec<LatticePoint>)> = None;
    for anchor in blobs {
        let similar: Vec<&Blob> = (blobs.iter())
            .filter(|b| (b.side / anchor.side - 1.0).abs() < 0.35)
            .collect();
        let Some((u, v)) = axes(anchor, &similar) else {
            continue;
        };
        for [i, j] in [[0, 0], [1, 0], [0, 1], [1, 1]] {
            let origin = [
                anchor.centre[0] - i as f32 * u[0] - j as f32 * v[0],
                anchor.centre[1] - i as f32 * u[1] - j as f32 * v[1],
            ];
            let matched = matched_points(origin, u, v, &similar);
            let area: f32 = similar.iter().map(|b| b.side).sum();
            let better = best
                .as_ref()
                .is_none_or(|(n, a, _)| matched.len() > *n || (matched.len() == *n && area > *a));
            if better {
                best = Some((matched.len(), area, matched));
            }
        }
    }
    let (found, _, matched) = best.unwrap_or((0, 0.0, Vec::new()));
    if found < 3 {
        return Err(found);
    }
    let (o, u, v) = least_squares_lattice(&matched);
    let at = |i: f32, j: f32| [o[0] + i * u[0] + j * v[0], o[1] + i * u[1] + j * v[1]];
    // Labelled upright from every matched sticker, about the face's centre.
    let centre = at(0.5, 0.5);
    let (u, v) = upright_axes(u, v);
    let corner = |i: f32, j: f32| {
        [
            centre[0] + i * u[0] + j * v[0],
            centre[1] + i * u[1] + j * v[1],
        ]
    };
    Ok(LatticeFit {
        matched: found,
        residual: residual(&matched, (o, u, v)),
        grid: FaceGrid {
            corners: [
                corner(-1.0, -1.0),
                corner(1.0, -1.0),
                corner(1.0, 1.0),
                corner(-1.0, 1.0),
            ],
        },
    })
}
/// The lattice steps from `anchor` to its nearest similar neighbour: u (mostly +x), v (u turned a quarter).
fn axes(anchor: &Blob, similar: &[&Blob]) -> Option<([f32; 2], [f32; 2])> {
    let step = (similar.iter())
        .map(|b| {
            [
                b.centre[0] - anchor.centre[0],
                b.centre[1] - anchor.centre[1],
            ]
        })
        .filter(|d| {
            let r = d[0].hypot(d[1]);
            r > anchor.side * 0.8 && r < anchor.side * 1.8
        })
        .min_by(|a, b| a[0].hypot(a[1]).total_cmp(&b[0].hypot(b[1])))?;
    let mut u = step;
    for _ in 0..4 {
        if u[0] >= u[1].abs() {
            break;
        }
        u = [u[1], -u[0]];
    }
    Some((u, [-u[1], u[0]]))
}

/// Blobs lying on `origin + i u + j v` for i, j in 0..=1, each with its lattice index.
fn matched_points(
    origin: [f32; 2],
    u: [f32; 2],
    v: [f32; 2],
    blobs: &[&Blob],
) -> Vec<LatticePoint> {
    let pitch = u[0].hypot(u[1]);
    let mut matched = Vec::new();
    for j in 0..=1 {
        for i in 0..=1 {
            let want = [
                origin[0] + i as f32 * u[0] + j as f32 * v[0],
                origin[1] + i as f32 * u[1] + j as f32 * v[1],
            ];
            let near =
                |b: &&&Blob| (b.centre[0] - want[0]).hypot(b.centre[1] - want[1]) < 0.25 * pitch;
            if let Some(b) = blobs.iter().find(near) {
                matched.push((b.centre, [i, j]));
            }
        }
    }
    matched
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vision::grid::blobs::otsu;

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
        crate::vision::grid::finder::assert_near_square(&grid, left, top, side);
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
        let value: Vec<u8> = (image.pixels())
            .map(|p| p.0[0].max(p.0[1]).max(p.0[2]))
            .collect();
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
            let turned = crate::vision::camera::tilt::rotate(&image, degrees);
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
