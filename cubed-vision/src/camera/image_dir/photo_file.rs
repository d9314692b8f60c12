//! One photo file read as RGB: refused by its size before it is decoded, refused when cut short, and turned upright as its own orientation flag says (a phone's portrait photo).

use super::CameraError;
use image::{ImageDecoder, RgbImage};
use std::path::Path;

/// The most pixels a photo may have (a 24 MP camera's photo, with room): a larger one is
/// refused before it is decoded, saying its size, rather than taking gigabytes.
pub const MOST_PIXELS: u64 = 25_000_000;

/// Reads an image file as RGB, upright as its orientation flag (EXIF) says.
pub(crate) fn load_image(path: &Path) -> Result<RgbImage, CameraError> {
    let bytes =
        crate::named_file::read_bytes(path, crate::named_file::PHOTO_LIMIT).map_err(|e| {
            CameraError::Decode {
                path: path.to_path_buf(),
                source: image::ImageError::IoError(e),
            }
        })?;
    if bytes.is_empty() {
        return Err(CameraError::EmptyFile {
            path: path.to_path_buf(),
        });
    }
    let failed = |source| CameraError::Decode {
        path: path.to_path_buf(),
        source,
    };
    let Ok(format) = image::guess_format(&bytes) else {
        let first: Vec<String> = bytes.iter().take(8).map(|b| format!("{b:02x}")).collect();
        return Err(CameraError::NotAnImage {
            path: path.to_path_buf(),
            first: first.join(" "),
        });
    };
    let reader = || image::ImageReader::with_format(std::io::Cursor::new(&bytes), format);
    let (width, height) = reader().into_dimensions().map_err(failed)?;
    if u64::from(width) * u64::from(height) > MOST_PIXELS {
        return Err(CameraError::TooLarge {
            path: path.to_path_buf(),
            width,
            height,
        });
    }
    if format == image::ImageFormat::Jpeg && jpeg_cut_short(&bytes) {
        return Err(CameraError::CutShort {
            path: path.to_path_buf(),
            bytes: bytes.len(),
        });
    }
    let mut decoder = reader().into_decoder().map_err(failed)?;
    // A flag the file's pixels do not carry: phones store a portrait photo turned, and every
    // viewer turns it upright.
    let orientation = decoder
        .orientation()
        .unwrap_or(image::metadata::Orientation::NoTransforms);
    let mut decoded = image::DynamicImage::from_decoder(decoder).map_err(failed)?;
    decoded.apply_orientation(orientation);
    Ok(decoded.to_rgb8())
}

/// Whether a JPEG file stops before its end-of-image marker (FF D9) follows its last scan
/// (FF DA; in the scan's data an FF byte is always followed by 00 or a restart marker, so these
/// pairs are markers): the decoder would fill the missing rows with grey and say nothing.
fn jpeg_cut_short(bytes: &[u8]) -> bool {
    let last = |marker: u8| bytes.windows(2).rposition(|w| w == [0xFF, marker]);
    match (last(0xDA), last(0xD9)) {
        (Some(scan), Some(end)) => end < scan,
        _ => true,
    }
}
