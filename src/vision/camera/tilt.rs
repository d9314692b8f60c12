//! A photo turned about its centre, as a camera mounted askew takes it (bilinear; what falls outside is black).

use image::{Rgb, RgbImage};

/// The image turned by `degrees` (counter-clockwise as seen) about its centre, bilinear; outside is black.
pub fn rotate(image: &RgbImage, degrees: f32) -> RgbImage {
    let (w, h) = image.dimensions();
    let (cx, cy) = (w as f32 / 2.0, h as f32 / 2.0);
    let (sin, cos) = degrees.to_radians().sin_cos();
    RgbImage::from_fn(w, h, |x, y| {
        // The source of output pixel (x, y): turn it back by the angle (y grows downwards).
        let (dx, dy) = (x as f32 + 0.5 - cx, y as f32 + 0.5 - cy);
        let sx = cos * dx - sin * dy + cx - 0.5;
        let sy = sin * dx + cos * dy + cy - 0.5;
        bilinear(image, sx, sy)
    })
}

/// The bilinear interpolation of `image` at (x, y) in pixel coordinates; black outside.
fn bilinear(image: &RgbImage, x: f32, y: f32) -> Rgb<u8> {
    let (w, h) = image.dimensions();
    if x < 0.0 || y < 0.0 || x > (w - 1) as f32 || y > (h - 1) as f32 {
        return Rgb([0, 0, 0]);
    }
    let (x0, y0) = (x.floor() as u32, y.floor() as u32);
    let (x1, y1) = ((x0 + 1).min(w - 1), (y0 + 1).min(h - 1));
    let (fx, fy) = (x - x0 as f32, y - y0 as f32);
    let p = |x, y, c: usize| image.get_pixel(x, y).0[c] as f32;
    Rgb(std::array::from_fn(|c| {
        let top = p(x0, y0, c) * (1.0 - fx) + p(x1, y0, c) * fx;
        let bottom = p(x0, y1, c) * (1.0 - fx) + p(x1, y1, c) * fx;
        (top * (1.0 - fy) + bottom * fy).round().clamp(0.0, 255.0) as u8
    }))
}
