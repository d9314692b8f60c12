//! A refused reading that two photos swapped explain: every two faces' nine readings are
//! exchanged (a photo saved under another face's name), and the surest exchange that reads as
//! a sure cube is the likely mistake. Pure.

use crate::cube::Face;
use crate::light::colour::{LabColour, Rgb};
use crate::light::palette::Palette;
use crate::read::classify::{classify, orientations, ClassifyOptions};

/// Two photos that read as a sure cube once exchanged.
#[derive(Clone, Debug, PartialEq)]
pub struct SwappedPhotos {
    pub faces: (Face, Face),
    /// The calibrated confidence of the reading once exchanged.
    pub confidence: f32,
}

impl SwappedPhotos {
    /// "the photos of faces U and F were likely swapped: …".
    pub fn words(&self) -> String {
        let (a, b) = self.faces;
        format!(
            "the photos of faces {a} and {b} were likely swapped (each shows the other face): \
             exchanged, they read as a sure cube (confidence {:.4}); check which photo is which \
             face, and whether the palette has {a}'s and {b}'s colours the other way round (one \
             calibrated from those two photos swapped: calibrate it again)",
            self.confidence
        )
    }
}

/// The two photos whose exchange best explains a refused reading of `readings`, if one
/// exchange reads sure; `None` when the readings are sure as they are.
pub fn swapped_photos(
    readings: &[Rgb; 54],
    palette: &Palette,
    options: &ClassifyOptions,
) -> Option<SwappedPhotos> {
    if classify(readings, palette, options).is_ok() {
        return None;
    }
    // Two photos exchanged leave the centres as no cube can be held, which the exchange puts
    // right; a centre covered or painted over (two centres of one colour) leaves them as one
    // that can, and no exchange is named.
    if centres_hold(readings, palette) {
        return None;
    }
    let pairs = (0..6).flat_map(|a| (a + 1..6).map(move |b| (Face::ALL[a], Face::ALL[b])));
    pairs
        .filter_map(|faces| {
            let exchanged = exchange(readings, faces);
            if !centres_hold(&exchanged, palette) {
                return None;
            }
            let read = classify(&exchanged, palette, options).ok()?;
            Some(SwappedPhotos {
                faces,
                confidence: read.confidence(),
            })
        })
        .max_by(|x, y| x.confidence.total_cmp(&y.confidence))
}

/// Whether the centres, given the palette's colours one each as they look most like, sit as on
/// a cube that can be held (two photos exchanged leave them as on its mirror image).
fn centres_hold(readings: &[Rgb; 54], palette: &Palette) -> bool {
    let centres: [LabColour; 6] = std::array::from_fn(|f| LabColour::from_rgb(readings[f * 9 + 4]));
    orientations().contains(&palette.colours_one_each(&centres))
}

/// `readings` with two faces' nine readings exchanged.
pub(crate) fn exchange(readings: &[Rgb; 54], (a, b): (Face, Face)) -> [Rgb; 54] {
    let mut out = *readings;
    for i in 0..9 {
        out.swap(a.index() * 9 + i, b.index() * 9 + i);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::random::random_cube;
    use rand::SeedableRng;

    fn palette_readings(palette: &Palette, seed: u64) -> [Rgb; 54] {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let facelets = random_cube(&mut rng).to_facelets();
        facelets
            .stickers
            .map(|f| palette.colours[f.index()].reference.to_rgb())
    }

    #[test]
    fn two_photos_saved_under_each_others_names_are_named() {
        let (palette, options) = (Palette::default(), ClassifyOptions::default());
        for seed in 0..4 {
            let readings = palette_readings(&palette, seed);
            assert_eq!(
                swapped_photos(&readings, &palette, &options),
                None,
                "sure as is"
            );
            let mixed = exchange(&readings, (Face::R, Face::B));
            let found = swapped_photos(&mixed, &palette, &options).expect("named");
            assert_eq!(found.faces, (Face::R, Face::B), "seed {seed}");
            assert!(found.words().contains("faces R and B"), "{}", found.words());
        }
    }
}
