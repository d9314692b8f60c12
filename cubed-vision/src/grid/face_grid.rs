//! A face's grid in a photo: its four corners, where each sticker's middle lies between them, and the pixels of a sticker on its lattice.

use crate::light::colour::Rgb;
use image::RgbImage;

/// Where a face is in an image: its four outer corners in pixels, in the order
/// top-left, top-right, bottom-right, bottom-left of the face as it appears in the image.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FaceGrid {
    pub corners: [[f32; 2]; 4],
}

impl FaceGrid {
    /// An axis-aligned square grid.
    pub fn square(left: f32, top: f32, size: f32) -> FaceGrid {
        FaceGrid {
            corners: [
                [left, top],
                [left + size, top],
                [left + size, top + size],
                [left, top + size],
            ],
        }
    }

    /// The image point at face coordinates (u, v), each 0..1 from the top-left corner (bilinear).
    pub fn point(&self, u: f32, v: f32) -> [f32; 2] {
        let [a, b, c, d] = self.corners;
        std::array::from_fn(|k| {
            let top = a[k] + (b[k] - a[k]) * u;
            let bottom = d[k] + (c[k] - d[k]) * u;
            top + (bottom - top) * v
        })
    }

    /// The centre of sticker (row, col) in the image.
    pub fn sticker_centre(&self, row: usize, col: usize) -> [f32; 2] {
        self.point((col as f32 + 0.5) / 3.0, (row as f32 + 0.5) / 3.0)
    }

    /// The box the grid spans, `[left, top, right, bottom]` as fractions of a `width` x
    /// `height` photo, in the photo turned by `quarter_turns` anticlockwise quarter turns (as
    /// the photo is shown upright).
    pub fn box_in(&self, (width, height): (u32, u32), quarter_turns: u8) -> [f32; 4] {
        let (w, h) = (width.max(1) as f32, height.max(1) as f32);
        let turned = self.corners.map(|[x, y]| {
            let (fx, fy) = (x / w, y / h);
            match quarter_turns % 4 {
                1 => [fy, 1.0 - fx],
                2 => [1.0 - fx, 1.0 - fy],
                3 => [1.0 - fy, fx],
                _ => [fx, fy],
            }
        });
        let least = |k: usize| turned.iter().map(|p| p[k]).fold(f32::INFINITY, f32::min);
        let most = |k: usize| {
            turned
                .iter()
                .map(|p| p[k])
                .fold(f32::NEG_INFINITY, f32::max)
        };
        [least(0), least(1), most(0), most(1)]
    }

    /// Approximate side of one sticker cell in pixels.
    pub fn cell_size(&self) -> f32 {
        let [a, b, c, d] = self.corners;
        let dist = |p: [f32; 2], q: [f32; 2]| (p[0] - q[0]).hypot(p[1] - q[1]);
        (dist(a, b) + dist(b, c) + dist(c, d) + dist(d, a)) / 12.0
    }
}

/// Homography mapping the unit square (corners TL, TR, BR, BL) onto a quadrilateral.
pub(crate) fn square_to_quad(q: [[f32; 2]; 4]) -> [[f32; 3]; 3] {
    let [[x0, y0], [x1, y1], [x2, y2], [x3, y3]] = q;
    let (dx1, dx2, dx3) = (x1 - x2, x3 - x2, x0 - x1 + x2 - x3);
    let (dy1, dy2, dy3) = (y1 - y2, y3 - y2, y0 - y1 + y2 - y3);
    let den = dx1 * dy2 - dx2 * dy1;
    let g = (dx3 * dy2 - dx2 * dy3) / den;
    let h = (dx1 * dy3 - dx3 * dy1) / den;
    [
        [x1 - x0 + g * x1, x3 - x0 + h * x3, x0],
        [y1 - y0 + g * y1, y3 - y0 + h * y3, y0],
        [g, h, 1.0],
    ]
}

/// The point (u, v) of the unit square mapped by the homography `m` (from [`square_to_quad`]).
pub(crate) fn map_point(m: &[[f32; 3]; 3], [u, v]: [f32; 2]) -> [f32; 2] {
    let w = m[2][0] * u + m[2][1] * v + m[2][2];
    [
        (m[0][0] * u + m[0][1] * v + m[0][2]) / w,
        (m[1][0] * u + m[1][1] * v + m[1][2]) / w,
    ]
}

/// The `points` x `points` lattice of [`sticker_pixels`], row by row, each point `None` where
/// it falls outside the image.
pub(crate) fn sticker_lattice(
    image: &RgbImage,
    grid: &FaceGrid,
    (row, col): (usize, usize),
    side: usize,
    (points, inner): (usize, f32),
) -> Vec<Option<Rgb>> {
    let side = side as f32;
    let offset = |k: usize| (0.5 - inner / 2.0 + inner * (k as f32 + 0.5) / points as f32) / side;
    let mut lattice = Vec::with_capacity(points * points);
    for j in 0..points {
        for i in 0..points {
            let [x, y] = grid.point(col as f32 / side + offset(i), row as f32 / side + offset(j));
            let inside =
                x >= 0.0 && y >= 0.0 && x < image.width() as f32 && y < image.height() as f32;
            lattice.push(inside.then(|| image.get_pixel(x as u32, y as u32).0));
        }
    }
    lattice
}
