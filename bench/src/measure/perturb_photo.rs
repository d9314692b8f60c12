//! Seeded perturbations of whole face photos (rotation, JPEG re-compression, brightness, a colour cast) and the photo conditions of the vision bench. Pure: images in, images out.

use cubed::vision::grid::tilt::rotate;
use image::codecs::jpeg::JpegEncoder;
use image::{ImageFormat, RgbImage};
use rand::{Rng, RngExt};

/// One kind of change to a photo; every face's photo gets its own draw.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PhotoChange {
    /// Turned about the image centre by an angle (degrees) drawn from the range; the uncovered corners are black.
    Rotate { degrees: (f32, f32) },
    /// Saved as JPEG at this quality (1..=100) and decoded again.
    Jpeg { quality: u8 },
    /// Every channel of every pixel times a factor drawn from the range (sRGB values, clipped).
    Brightness { factor: (f32, f32) },
    /// Each channel times its own factor drawn from the range (a white-balance cast).
    Cast { factor: (f32, f32) },
}

/// A named photo condition of the bench.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PhotoCondition {
    pub name: &'static str,
    pub change: PhotoChange,
}

/// Why a photo could not be perturbed.
#[derive(Debug, thiserror::Error)]
pub enum PhotoPerturbError {
    #[error("re-compressing the photo as JPEG at quality {quality}")]
    Jpeg {
        quality: u8,
        #[source]
        source: image::ImageError,
    },
}

/// The bench's photo conditions: rotation up to ±45°, JPEG quality 60, brightness ×0.5–×1.5, a mild colour cast.
pub fn photo_conditions() -> Vec<PhotoCondition> {
    let c = |name, change| PhotoCondition { name, change };
    vec![
        c(
            "photos rotated (each face -45..45 degrees)",
            PhotoChange::Rotate {
                degrees: (-45.0, 45.0),
            },
        ),
        c(
            "photos as JPEG quality 60",
            PhotoChange::Jpeg { quality: 60 },
        ),
        c(
            "photos brightness (each face x0.5-1.5)",
            PhotoChange::Brightness { factor: (0.5, 1.5) },
        ),
        c(
            "photos colour cast (each face, channels x0.9-1.1)",
            PhotoChange::Cast { factor: (0.9, 1.1) },
        ),
    ]
}

impl PhotoChange {
    /// The photo as this change (one draw from `rng`) makes it.
    pub fn apply<R: Rng>(
        &self,
        image: &RgbImage,
        rng: &mut R,
    ) -> Result<RgbImage, PhotoPerturbError> {
        self.apply_at(image, rng, 1.0)
    }

    /// The photo as this change makes it, taken with `exposure` times the light (a re-capture
    /// darker or brighter; 1 = as taken). The light scales linear values, so the photo's sRGB
    /// values scale by `exposure^(1/2.2)`, clipped once with the change's own brightness.
    pub fn apply_at<R: Rng>(
        &self,
        image: &RgbImage,
        rng: &mut R,
        exposure: f32,
    ) -> Result<RgbImage, PhotoPerturbError> {
        let value = exposure.powf(1.0 / 2.2);
        let exposed = || {
            if exposure == 1.0 {
                image.clone()
            } else {
                scale_channels(image, [value; 3])
            }
        };
        Ok(match *self {
            PhotoChange::Rotate { degrees } => rotate(&exposed(), draw(rng, degrees)),
            PhotoChange::Jpeg { quality } => jpeg_round_trip(&exposed(), quality)?,
            PhotoChange::Brightness { factor } => {
                scale_channels(image, [draw(rng, factor) * value; 3])
            }
            PhotoChange::Cast { factor } => {
                scale_channels(image, std::array::from_fn(|_| draw(rng, factor) * value))
            }
        })
    }
}

/// A value from `range` (its only value when it is empty).
fn draw<R: Rng>(rng: &mut R, range: (f32, f32)) -> f32 {
    if range.0 >= range.1 {
        range.0
    } else {
        rng.random_range(range.0..=range.1)
    }
}

/// The image saved as JPEG at `quality` and decoded again (in memory).
pub fn jpeg_round_trip(image: &RgbImage, quality: u8) -> Result<RgbImage, PhotoPerturbError> {
    let error = |source| PhotoPerturbError::Jpeg { quality, source };
    let mut bytes = Vec::new();
    JpegEncoder::new_with_quality(&mut bytes, quality)
        .encode_image(image)
        .map_err(error)?;
    Ok(
        image::load_from_memory_with_format(&bytes, ImageFormat::Jpeg)
            .map_err(error)?
            .to_rgb8(),
    )
}

/// Each channel of every pixel times its factor (sRGB values, clipped to 0..=255).
pub fn scale_channels(image: &RgbImage, factors: [f32; 3]) -> RgbImage {
    let mut out = image.clone();
    for pixel in out.pixels_mut() {
        for (value, factor) in pixel.0.iter_mut().zip(factors) {
            *value = (*value as f32 * factor).round().clamp(0.0, 255.0) as u8;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgb;

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
    fn jpeg_keeps_flat_colours_close_and_scaling_clips() {
        let image = halves();
        let back = jpeg_round_trip(&image, 60).expect("encodes");
        assert_eq!(back.dimensions(), image.dimensions());
        let p = back.get_pixel(5, 10).0;
        assert!(p[0].abs_diff(200) < 12 && p[2] < 12, "{p:?}");
        let scaled = scale_channels(&image, [1.5, 1.0, 0.5]);
        assert_eq!(scaled.get_pixel(5, 10).0, [255, 0, 0]);
        assert_eq!(scaled.get_pixel(35, 10).0, [0, 0, 100]);
    }

    #[test]
    fn a_darker_retake_repeats_the_draw_with_less_light_clipped_once() {
        use rand::SeedableRng;
        let image = RgbImage::from_pixel(4, 4, Rgb([250, 200, 40]));
        let bright = PhotoChange::Brightness { factor: (1.5, 1.5) };
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let first = bright.apply(&image, &mut rng.clone()).expect("scales");
        assert_eq!(first.get_pixel(0, 0).0, [255, 255, 60], "clipped");
        // A quarter of the light is half the sRGB value (2.2 power): 1.5 x 0.533 of each value.
        let darker = bright.apply_at(&image, &mut rng, 0.25).expect("scales");
        let want = |v: f32| (v * 1.5 * 0.25f32.powf(1.0 / 2.2)).round() as u8;
        assert_eq!(
            darker.get_pixel(0, 0).0,
            [want(250.0), want(200.0), want(40.0)]
        );
        let jpeg = PhotoChange::Jpeg { quality: 95 };
        let dim = jpeg.apply_at(&image, &mut rng, 0.25).expect("encodes");
        assert!(dim.get_pixel(1, 1).0[0].abs_diff(want(250.0 / 1.5)) <= 3);
    }
}
