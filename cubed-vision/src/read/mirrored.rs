//! A refused reading that mirrored photos explain: each face's nine readings flipped left to
//! right (a camera or an app that mirrors its picture, as a selfie view does), then every face
//! alike; the surest flip that reads as a sure cube is the likely mistake. Pure.

use crate::cube::Face;
use crate::light::colour::Rgb;
use crate::light::palette::Palette;
use crate::read::classify::{classify, ClassifyOptions};

/// Photos that read as a sure cube once flipped back.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct MirroredPhotos {
    /// The mirrored faces: one, or all six.
    pub faces: Vec<Face>,
    /// The calibrated confidence of the reading once flipped back.
    pub confidence: f32,
}

impl MirroredPhotos {
    /// "the photo of face R was likely mirrored (left and right exchanged): …".
    pub(crate) fn words(&self) -> String {
        let sure = format!(
            "flipped back, it reads as a sure cube (confidence {:.4}); check whether the camera or the app that saved it mirrors its picture",
            self.confidence
        );
        match &self.faces[..] {
            [face] => format!(
                "the photo of face {face} was likely mirrored (its left and right exchanged): {sure}"
            ),
            _ => format!("every photo was likely mirrored (left and right exchanged): {sure}"),
        }
    }
}

/// The mirrored photos that best explain a refused reading of `readings`: each face flipped,
/// and every face flipped alike, the surest that reads sure; `None` when the readings are sure
/// as they are or no flip reads sure.
pub(crate) fn mirrored_photos(
    readings: &[Rgb; 54],
    palette: &Palette,
    options: &ClassifyOptions,
) -> Option<MirroredPhotos> {
    if classify(readings, palette, options).is_ok() {
        return None;
    }
    let single = Face::ALL.iter().map(|&face| vec![face]);
    let tries = single.chain(std::iter::once(Face::ALL.to_vec()));
    tries
        .filter_map(|faces| {
            let read = classify(&flip(readings, &faces), palette, options).ok()?;
            Some(MirroredPhotos {
                faces,
                confidence: read.confidence(),
            })
        })
        .max_by(|a, b| a.confidence.total_cmp(&b.confidence))
}

/// `readings` with each of `faces` flipped left to right, as a mirrored photo shows it.
pub(crate) fn flip(readings: &[Rgb; 54], faces: &[Face]) -> [Rgb; 54] {
    let mut out = *readings;
    for face in faces {
        let base = face.index() * 9;
        for row in 0..3 {
            out.swap(base + row * 3, base + row * 3 + 2);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::random::random_cube;
    use rand::SeedableRng;

    #[test]
    fn one_photo_or_every_photo_mirrored_is_named() {
        let (palette, options) = (Palette::default(), ClassifyOptions::default());
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        for _ in 0..4 {
            let facelets = random_cube(&mut rng).to_facelets();
            let readings =
                (facelets.stickers).map(|f| palette.colours[f.index()].reference.to_rgb());
            assert_eq!(
                mirrored_photos(&readings, &palette, &options),
                None,
                "sure as is"
            );
            for faces in [vec![Face::R], Face::ALL.to_vec()] {
                let found = mirrored_photos(&flip(&readings, &faces), &palette, &options);
                assert_eq!(found.map(|m| m.faces), Some(faces));
            }
        }
    }
}
