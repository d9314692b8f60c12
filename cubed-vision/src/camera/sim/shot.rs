//! One simulated photo drawn: everything random about it (`Shot`: the face's corners, exposure, gradient, white balance, glare), the face's surface and light at each pixel, blur, noise and a hand in the picture.

use super::{rolled_off, SimCamera, SimLighting, FACE_SIDE, HEIGHT, WIDTH};
use crate::grid::face_grid::square_to_quad;
use crate::light::colour::Rgb;
use image::RgbImage;
use rand::{Rng, RngExt};
use rand_chacha::ChaCha8Rng;

/// Everything random about one photo.
pub(super) struct Shot {
    /// The face's outer corners in the image (TL, TR, BR, BL).
    pub(super) corners: [[f32; 2]; 4],
    /// Image point → face coordinates (inverse homography).
    to_face: [[f32; 3]; 3],
    pub(super) exposure: f32,
    gradient: [f32; 2],
    white_balance: [f32; 3],
    glare: Vec<([f32; 2], f32)>,
    highlight_rolloff: f32,
}

impl Shot {
    pub(super) fn draw(rng: &mut ChaCha8Rng, l: &SimLighting) -> Shot {
        let nominal = SimCamera::nominal_grid().corners;
        let jitter = l.perspective * FACE_SIDE;
        let mut spread = |r: f32| {
            if r > 0.0 {
                rng.random_range(-r..=r)
            } else {
                0.0
            }
        };
        let corners = nominal.map(|[x, y]| [x + spread(jitter), y + spread(jitter)]);
        let gradient = [spread(l.gradient), spread(l.gradient)];
        let white_balance = [0; 3].map(|_| 1.0 + spread(l.white_balance));
        let exposure = if l.exposure.0 < l.exposure.1 {
            rng.random_range(l.exposure.0..=l.exposure.1)
        } else {
            l.exposure.0
        };
        let spots = if l.glare_spots > 0 {
            rng.random_range(0..=l.glare_spots)
        } else {
            0
        };
        let glare = (0..spots)
            .map(|_| {
                let at = [
                    rng.random_range(170.0..470.0),
                    rng.random_range(90.0..390.0),
                ];
                (at, rng.random_range(6.0..16.0))
            })
            .collect();
        Shot {
            corners,
            to_face: invert(square_to_quad(corners)),
            exposure,
            gradient,
            white_balance,
            glare,
            highlight_rolloff: l.highlight_rolloff,
        }
    }

    /// The colour of the surface at image point (x, y) before lighting: a sticker of the
    /// `side` x `side` `stickers` (image order), the cube's `body` between them, or the table.
    pub(super) fn surface(
        &self,
        x: f32,
        y: f32,
        (stickers, side): (&[Rgb], usize),
        body: Rgb,
    ) -> [f32; 3] {
        let m = &self.to_face;
        let w = m[2][0] * x + m[2][1] * y + m[2][2];
        let (u, v) = (
            (m[0][0] * x + m[0][1] * y + m[0][2]) / w,
            (m[1][0] * x + m[1][1] * y + m[1][2]) / w,
        );
        if !(0.0..1.0).contains(&u) || !(0.0..1.0).contains(&v) {
            let shade = 70.0 + 40.0 * (x / WIDTH as f32);
            return [shade, shade * 0.95, shade * 0.9];
        }
        let n = side as f32;
        let (cu, cv) = ((u * n).floor(), (v * n).floor());
        let (fu, fv) = (u * n - cu, v * n - cv);
        if on_sticker(fu, fv) {
            stickers[cv as usize * side + cu as usize].map(|c| c as f32)
        } else {
            body.map(|c| c as f32)
        }
    }

    /// Applies exposure, gradient, white balance and glare.
    pub(super) fn light(&self, x: f32, y: f32, colour: [f32; 3]) -> [f32; 3] {
        let (dx, dy) = (x / WIDTH as f32 - 0.5, y / HEIGHT as f32 - 0.5);
        let gain = self.exposure * (1.0 + 2.0 * (self.gradient[0] * dx + self.gradient[1] * dy));
        let glare = self
            .glare
            .iter()
            .map(|([gx, gy], r)| (-((x - gx).powi(2) + (y - gy).powi(2)) / (r * r)).exp())
            .fold(0.0f32, f32::max);
        let lit: [f32; 3] = std::array::from_fn(|c| {
            let lit = colour[c] * gain * self.white_balance[c];
            lit + (255.0 * 1.3 - lit) * glare.min(1.0)
        });
        rolled_off(lit, self.highlight_rolloff)
    }
}

/// True inside the rounded sticker square of a cell (cell coordinates 0..1).
/// Skin over the lower left of the face, from its left edge to `reach` of
/// its width (0..1) and from just above half its height down: fingers
/// reaching in to straighten the cube, covering half of some stickers.
pub(super) fn draw_hand(photo: &mut RgbImage, reach: f32) {
    let grid = SimCamera::nominal_grid();
    let [left, top] = grid.point(0.0, 0.55);
    let [right, bottom] = grid.point(reach, 1.0);
    for (x, y, p) in photo.enumerate_pixels_mut() {
        let (x, y) = (x as f32, y as f32);
        if x < right && y > top && (x > left - 40.0) && y < bottom + 40.0 {
            p.0 = [214, 160, 128];
        }
    }
}

fn on_sticker(fu: f32, fv: f32) -> bool {
    const INSET: f32 = 0.08;
    const RADIUS: f32 = 0.12;
    let (du, dv) = (
        (fu - 0.5).abs() - (0.5 - INSET - RADIUS),
        (fv - 0.5).abs() - (0.5 - INSET - RADIUS),
    );
    if du <= 0.0 || dv <= 0.0 {
        return du <= RADIUS && dv <= RADIUS;
    }
    du * du + dv * dv <= RADIUS * RADIUS
}

/// Inverse of a 3x3 matrix (the adjugate; the scale does not matter for a homography).
pub(super) fn invert(m: [[f32; 3]; 3]) -> [[f32; 3]; 3] {
    let c =
        |r0: usize, r1: usize, c0: usize, c1: usize| m[r0][c0] * m[r1][c1] - m[r0][c1] * m[r1][c0];
    [
        [c(1, 2, 1, 2), -c(0, 2, 1, 2), c(0, 1, 1, 2)],
        [-c(1, 2, 0, 2), c(0, 2, 0, 2), -c(0, 1, 0, 2)],
        [c(1, 2, 0, 1), -c(0, 2, 0, 1), c(0, 1, 0, 1)],
    ]
}

/// Separable box blur of radius `r`.
pub(super) fn box_blur(pixels: &[[f32; 3]], r: u32) -> Vec<[f32; 3]> {
    if r == 0 {
        return pixels.to_vec();
    }
    let (w, h, r) = (WIDTH as usize, HEIGHT as usize, r as usize);
    let pass = |src: &[[f32; 3]], horizontal: bool| -> Vec<[f32; 3]> {
        let mut out = vec![[0f32; 3]; src.len()];
        for (i, o) in out.iter_mut().enumerate() {
            let (x, y) = (i % w, i / w);
            let (pos, len) = if horizontal { (x, w) } else { (y, h) };
            let (lo, hi) = (pos.saturating_sub(r), (pos + r).min(len - 1));
            let mut sum = [0f32; 3];
            for k in lo..=hi {
                let j = if horizontal { y * w + k } else { k * w + x };
                for c in 0..3 {
                    sum[c] += src[j][c];
                }
            }
            *o = sum.map(|s| s / (hi - lo + 1) as f32);
        }
        out
    };
    pass(&pass(pixels, true), false)
}

/// A standard normal sample (Irwin–Hall: the sum of four uniforms, rescaled).
pub(super) fn gaussian<R: Rng>(rng: &mut R) -> f32 {
    let sum: f32 = (0..4).map(|_| rng.random::<f32>()).sum();
    (sum - 2.0) * 3f32.sqrt()
}
