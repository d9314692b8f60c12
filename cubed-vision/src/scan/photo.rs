//! A scan's photos as people see them: turned as the face is drawn in the net, and encoded as PNG for the run history.
//!
//! Both are here, in an optimised crate, rather than in the daemon: the `image` crate's code
//! they use is generic, so it is compiled where it is called, and in the tests' build the
//! daemon is not optimised (a run's photos took most of its time there).

use image::RgbImage;

/// The photo turned so the face is drawn as in the net: `image_rotation` is the clockwise
/// quarter turns the photo shows the face turned by.
pub fn upright(image: &RgbImage, image_rotation: u8) -> RgbImage {
    use image::imageops::{rotate180, rotate270, rotate90};
    match image_rotation % 4 {
        1 => rotate270(image),
        2 => rotate180(image),
        3 => rotate90(image),
        _ => image.clone(),
    }
}

/// The photo as the bytes of a PNG file.
pub fn encode_png(image: &RgbImage) -> Result<Vec<u8>, image::ImageError> {
    let mut png = Vec::new();
    image.write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)?;
    Ok(png)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 2x1 photo, red then blue, turned and read back pixel by pixel.
    #[test]
    fn upright_undoes_the_turn_the_photo_shows() {
        let photo = RgbImage::from_fn(2, 1, |x, _| {
            image::Rgb(if x == 0 { [255, 0, 0] } else { [0, 0, 255] })
        });
        assert_eq!(upright(&photo, 0), photo);
        assert_eq!(upright(&photo, 4), photo);
        // A photo of a face turned a quarter clockwise is turned back anticlockwise: blue on top.
        let once = upright(&photo, 1);
        assert_eq!((once.width(), once.height()), (1, 2));
        assert_eq!(once.get_pixel(0, 1).0, [255, 0, 0]);
        let twice = upright(&photo, 2);
        assert_eq!(twice.get_pixel(0, 0).0, [0, 0, 255]);
        let thrice = upright(&photo, 3);
        assert_eq!(thrice.get_pixel(0, 0).0, [255, 0, 0]);
    }

    #[test]
    fn a_png_reads_back_as_the_same_photo() {
        let photo = RgbImage::from_fn(7, 5, |x, y| image::Rgb([x as u8 * 30, y as u8 * 50, 9]));
        let png = encode_png(&photo).expect("encoding");
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        let back = image::load_from_memory_with_format(&png, image::ImageFormat::Png)
            .expect("decoding")
            .to_rgb8();
        assert_eq!(back, photo);
    }
}
