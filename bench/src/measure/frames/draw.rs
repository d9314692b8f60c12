//! Drawing by hand for the cluttered test frames: convex polygons (turned rectangles), discs, thick curves, gradients, a box blur and deterministic noise, straight onto an `RgbImage`. Shapes are hard-edged; the frame's blur softens them as a lens would.

use image::RgbImage;

/// A colour in 0..=255 sRGB units, kept as floats so shading may scale it.
pub type Colour = [f32; 3];

/// `colour` times `factor`, as a darker or lighter part of the same material.
pub fn shade(colour: Colour, factor: f32) -> Colour {
    colour.map(|c| c * factor)
}

fn put(image: &mut RgbImage, x: i64, y: i64, colour: Colour) {
    if x >= 0 && y >= 0 && (x as u32) < image.width() && (y as u32) < image.height() {
        let rgb = colour.map(|c| c.round().clamp(0.0, 255.0) as u8);
        image.put_pixel(x as u32, y as u32, image::Rgb(rgb));
    }
}

/// The pixel box `[x0, y0, x1, y1)` covering `points`, cut to the image.
fn pixel_box(image: &RgbImage, points: &[[f32; 2]]) -> [i64; 4] {
    let least = |k: usize| points.iter().map(|p| p[k]).fold(f32::INFINITY, f32::min);
    let most = |k: usize| {
        points
            .iter()
            .map(|p| p[k])
            .fold(f32::NEG_INFINITY, f32::max)
    };
    [
        (least(0).floor() as i64).max(0),
        (least(1).floor() as i64).max(0),
        (most(0).ceil() as i64 + 1).min(image.width() as i64),
        (most(1).ceil() as i64 + 1).min(image.height() as i64),
    ]
}

/// Fills the convex polygon `points` (either winding) with `colour`.
pub fn fill_convex(image: &mut RgbImage, points: &[[f32; 2]], colour: Colour) {
    fill_convex_with(image, points, |_, _| colour);
}

/// Fills the convex polygon `points` with `colour_at(x, y)`.
pub fn fill_convex_with(
    image: &mut RgbImage,
    points: &[[f32; 2]],
    colour_at: impl Fn(f32, f32) -> Colour,
) {
    let [x0, y0, x1, y1] = pixel_box(image, points);
    let n = points.len();
    let inside = |x: f32, y: f32| {
        let side = |k: usize| {
            let (a, b) = (points[k], points[(k + 1) % n]);
            (b[0] - a[0]) * (y - a[1]) - (b[1] - a[1]) * (x - a[0])
        };
        (0..n).all(|k| side(k) >= 0.0) || (0..n).all(|k| side(k) <= 0.0)
    };
    for y in y0..y1 {
        for x in x0..x1 {
            let (px, py) = (x as f32 + 0.5, y as f32 + 0.5);
            if inside(px, py) {
                put(image, x, y, colour_at(px, py));
            }
        }
    }
}

/// The corners of a `width` x `height` rectangle centred at `centre`, turned by `angle` radians.
pub fn turned_rect(centre: [f32; 2], (width, height): (f32, f32), angle: f32) -> [[f32; 2]; 4] {
    let (sin, cos) = angle.sin_cos();
    [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)].map(|(i, j)| {
        let (dx, dy) = (i * width / 2.0, j * height / 2.0);
        [
            centre[0] + cos * dx - sin * dy,
            centre[1] + sin * dx + cos * dy,
        ]
    })
}

/// Fills a rectangle `[left, top, right, bottom]` with `colour_at(x, y)`.
pub fn fill_box_with(image: &mut RgbImage, rect: [f32; 4], colour_at: impl Fn(f32, f32) -> Colour) {
    let [l, t, r, b] = rect;
    fill_convex_with(image, &[[l, t], [r, t], [r, b], [l, b]], colour_at);
}

/// Fills a disc.
pub fn fill_disc(image: &mut RgbImage, centre: [f32; 2], radius: f32, colour: Colour) {
    let [cx, cy] = centre;
    let corners = [[cx - radius, cy - radius], [cx + radius, cy + radius]];
    let [x0, y0, x1, y1] = pixel_box(image, &corners);
    for y in y0..y1 {
        for x in x0..x1 {
            let (dx, dy) = (x as f32 + 0.5 - cx, y as f32 + 0.5 - cy);
            if dx * dx + dy * dy <= radius * radius {
                put(image, x, y, colour);
            }
        }
    }
}

/// A cubic Bézier curve through `controls`, as `steps + 1` points.
pub fn bezier(controls: [[f32; 2]; 4], steps: usize) -> Vec<[f32; 2]> {
    (0..=steps)
        .map(|k| {
            let t = k as f32 / steps as f32;
            let s = 1.0 - t;
            let w = [s * s * s, 3.0 * s * s * t, 3.0 * s * t * t, t * t * t];
            std::array::from_fn(|c| (0..4).map(|i| w[i] * controls[i][c]).sum())
        })
        .collect()
}

/// A thick line along `path`: discs of `width` placed every third of a width.
pub fn thick_path(image: &mut RgbImage, path: &[[f32; 2]], width: f32, colour: Colour) {
    let step = (width / 3.0).max(1.0);
    for pair in path.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let length = (b[0] - a[0]).hypot(b[1] - a[1]);
        let count = (length / step).ceil().max(1.0) as usize;
        for k in 0..count {
            let t = k as f32 / count as f32;
            let at = [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
            fill_disc(image, at, width / 2.0, colour);
        }
    }
}

/// Every pixel times a gain that grows linearly across the frame (`slope` per frame width and
/// height, 0 at the centre): one lamp lighting the scene unevenly.
pub fn light_gradient(image: &mut RgbImage, slope: [f32; 2]) {
    let (w, h) = (image.width() as f32, image.height() as f32);
    for (x, y, p) in image.enumerate_pixels_mut() {
        let gain = 1.0 + slope[0] * (x as f32 / w - 0.5) + slope[1] * (y as f32 / h - 0.5);
        p.0 =
            p.0.map(|c| (c as f32 * gain).round().clamp(0.0, 255.0) as u8);
    }
}

/// A separable box blur of radius `r` (0: unchanged).
pub fn box_blur(image: &RgbImage, r: u32) -> RgbImage {
    if r == 0 {
        return image.clone();
    }
    let pass = |src: &RgbImage, horizontal: bool| {
        let (w, h) = src.dimensions();
        RgbImage::from_fn(w, h, |x, y| {
            let (pos, len) = if horizontal { (x, w) } else { (y, h) };
            let (lo, hi) = (pos.saturating_sub(r), (pos + r).min(len - 1));
            let mut sum = [0u32; 3];
            for k in lo..=hi {
                let p = if horizontal {
                    src.get_pixel(k, y)
                } else {
                    src.get_pixel(x, k)
                };
                for (total, &channel) in sum.iter_mut().zip(&p.0) {
                    *total += u32::from(channel);
                }
            }
            let n = hi - lo + 1;
            image::Rgb(sum.map(|s| ((s + n / 2) / n) as u8))
        })
    };
    pass(&pass(image, true), false)
}

/// Adds noise uniform in ±`amplitude` to every channel of every pixel, from `seed`
/// (a xorshift generator: cheap enough for two million pixels).
pub fn add_noise(image: &mut RgbImage, amplitude: f32, seed: u64) {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    for value in image.iter_mut() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let unit = (state >> 40) as f32 / (1u64 << 24) as f32;
        let noisy = *value as f32 + amplitude * (2.0 * unit - 1.0);
        *value = noisy.round().clamp(0.0, 255.0) as u8;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_turned_square_covers_its_area_and_a_disc_its_own() {
        let mut image = RgbImage::new(100, 100);
        let square = turned_rect([50.0, 50.0], (40.0, 40.0), 0.3);
        fill_convex(&mut image, &square, [200.0, 0.0, 0.0]);
        let red = image.pixels().filter(|p| p.0[0] == 200).count();
        assert!((red as i64 - 1600).abs() < 60, "{red}");
        fill_disc(&mut image, [10.0, 10.0], 5.0, [0.0, 0.0, 255.0]);
        let blue = image.pixels().filter(|p| p.0[2] == 255).count();
        assert!(
            (blue as f32 - std::f32::consts::PI * 25.0).abs() < 8.0,
            "{blue}"
        );
    }

    #[test]
    fn the_noise_is_the_same_for_a_seed_and_within_its_amplitude() {
        let grey = RgbImage::from_pixel(50, 50, image::Rgb([100, 100, 100]));
        let (mut a, mut b, mut c) = (grey.clone(), grey.clone(), grey.clone());
        add_noise(&mut a, 6.0, 1);
        add_noise(&mut b, 6.0, 1);
        add_noise(&mut c, 6.0, 2);
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert!(a.iter().all(|&v| (94..=106).contains(&v)));
    }

    #[test]
    fn a_blur_keeps_a_flat_image_and_softens_an_edge() {
        let mut image = RgbImage::from_pixel(20, 20, image::Rgb([0, 0, 0]));
        fill_box_with(&mut image, [10.0, 0.0, 20.0, 20.0], |_, _| [250.0; 3]);
        let soft = box_blur(&image, 1);
        assert_eq!(soft.get_pixel(2, 5).0, [0, 0, 0]);
        assert_eq!(soft.get_pixel(15, 5).0, [250, 250, 250]);
        assert!((1..250).contains(&soft.get_pixel(10, 5).0[0]));
    }
}
