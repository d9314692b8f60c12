//! Automatic grid finding for a 2x2: the sticker squares found as for the 3x3 (`grid_finder`'s threshold and blobs) and a 2x2 lattice fitted to them. A 2x2 face has no centre sticker: the lattice is anchored at a corner sticker and its two neighbours.

use super::grid_finder::{
    least_squares_lattice, otsu, square_blobs, Blob, GridError, LatticePoint,
};
use super::sample::FaceGrid;
use image::RgbImage;

/// The working width the image is reduced to before searching (as for the 3x3).
const WORK_WIDTH: u32 = 240;

/// Finds a 2x2 face's grid (its outer corners) in a photo.
pub fn find_pocket_grid(image: &RgbImage) -> Result<FaceGrid, GridError> {
    if image.width() == 0 || image.height() == 0 {
        return Err(GridError::EmptyImage);
    }
    let scale = (image.width() as f32 / WORK_WIDTH as f32).max(1.0);
    let (w, h) = (
        (image.width() as f32 / scale) as usize,
        (image.height() as f32 / scale) as usize,
    );
    let value: Vec<u8> = (0..w * h)
        .map(|i| {
            let x = ((i % w) as f32 * scale) as u32;
            let y = ((i / w) as f32 * scale) as u32;
            let p = image.get_pixel(x, y).0;
            p[0].max(p[1]).max(p[2])
        })
        .collect();
    let threshold = otsu(&value);
    let bright: Vec<bool> = value.iter().map(|&v| v > threshold).collect();
    let blobs = square_blobs(&bright, w, h);
    let grid = fit_pocket_lattice(&blobs)?;
    Ok(FaceGrid {
        corners: grid.corners.map(|[x, y]| [x * scale, y * scale]),
    })
}

/// The 2x2 lattice that explains the most similar blobs (at least three), refined by least squares.
fn fit_pocket_lattice(blobs: &[Blob]) -> Result<FaceGrid, GridError> {
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
        return Err(GridError::PocketNotFound {
            found,
            candidates: blobs.len(),
        });
    }
    let (o, u, v) = least_squares_lattice(&matched);
    let corner = |i: f32, j: f32| [o[0] + i * u[0] + j * v[0], o[1] + i * u[1] + j * v[1]];
    Ok(FaceGrid {
        corners: [
            corner(-0.5, -0.5),
            corner(1.5, -0.5),
            corner(1.5, 1.5),
            corner(-0.5, 1.5),
        ],
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

    /// A 2x2 face drawn on grey: `cell`-pixel cells at (left, top), dark gaps between stickers.
    fn synthetic_pocket_face(left: u32, top: u32, cell: u32) -> RgbImage {
        let mut image = RgbImage::from_pixel(400, 300, image::Rgb([90, 90, 90]));
        for y in top..top + 2 * cell {
            for x in left..left + 2 * cell {
                let (cx, cy) = ((x - left) % cell, (y - top) % cell);
                let inside =
                    cx > cell / 10 && cx < cell * 9 / 10 && cy > cell / 10 && cy < cell * 9 / 10;
                let colour = [[200, 30, 30], [240, 240, 240], [30, 60, 200]]
                    [((x - left) / cell + (y - top) / cell) as usize % 3];
                image.put_pixel(x, y, image::Rgb(if inside { colour } else { [15, 15, 15] }));
            }
        }
        image
    }

    #[test]
    fn finds_a_2x2_face_placed_off_centre() {
        let image = synthetic_pocket_face(170, 50, 70);
        let grid = find_pocket_grid(&image).expect("found");
        let want = FaceGrid::square(170.0, 50.0, 140.0);
        for (got, want) in grid.corners.iter().zip(want.corners) {
            assert!(
                (got[0] - want[0]).abs() < 8.0 && (got[1] - want[1]).abs() < 8.0,
                "{:?}",
                grid.corners
            );
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
