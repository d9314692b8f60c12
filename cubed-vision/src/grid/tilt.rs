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

#[cfg(test)]
mod tests {
    use super::*;

    /// A 40x20 image, left half red and right half blue.
    fn halves() -> RgbImage {
        RgbImage::from_fn(40, 20, |x, _| {
            if x < 20 {
                Rgb([200, 0, 0])
            } else {
                Rgb([0, 0, 200])
            }
        })
    }

    #[test]
    fn a_half_turn_swaps_the_halves_and_a_zero_turn_changes_nothing() {
        let image = halves();
        assert_eq!(rotate(&image, 0.0), image);
        let turned = rotate(&image, 180.0);
        assert_eq!(turned.get_pixel(5, 10).0, [0, 0, 200]);
        assert_eq!(turned.get_pixel(35, 10).0, [200, 0, 0]);
    }

    #[test]
    fn a_quarter_turn_moves_the_top_row_to_a_side_and_blackens_the_uncovered() {
        // A square with a white top row: after a quarter turn (counter-clockwise
        // as seen) the white is the left column.
        let image = RgbImage::from_fn(20, 20, |_, y| {
            if y < 2 {
                Rgb([255, 255, 255])
            } else {
                Rgb([50, 50, 50])
            }
        });
        let turned = rotate(&image, 90.0);
        assert_eq!(turned.get_pixel(0, 10).0, [255, 255, 255]);
        assert_eq!(turned.get_pixel(19, 10).0, [50, 50, 50]);
        assert_eq!(turned.get_pixel(10, 0).0, [50, 50, 50]);
        let tilted = rotate(&halves(), 45.0);
        assert_eq!(tilted.get_pixel(0, 0).0, [0, 0, 0]);
    }
}
