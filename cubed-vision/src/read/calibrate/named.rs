//! A solved cube's readings checked and named: each face's median and the palette colour it is taken as, refused naming the first sticker astray (the light's doing where the camera clipped it) or two faces the camera cannot part, and whether the colours sit as on no cube that can be held.

use super::{channel_medians, CalibrateError};
use crate::light::colour::{LabColour, Rgb};
use crate::light::palette::Palette;
use crate::read::classify::{classify_best_guess, ClassifyOptions};

/// A solved cube's readings, each face's median, and the palette colour each face is taken as.
pub(super) struct Named {
    labs: [LabColour; 54],
    pub(super) medians: [LabColour; 6],
    /// The palette colour (index) each face is taken as.
    pub(super) names: [usize; 6],
    /// See [`Calibration::mirrored`].
    pub(super) mirrored: Option<String>,
}

impl Named {
    pub(super) fn of(readings: &[Rgb; 54], palette: &Palette) -> Result<Named, CalibrateError> {
        let labs = readings.map(LabColour::from_rgb);
        let medians: [LabColour; 6] = std::array::from_fn(|f| {
            LabColour::median(labs[f * 9..f * 9 + 9].iter().copied()).expect("nine stickers")
        });
        // A sticker nearer another face's colour than its own, where the two faces can be told
        // apart: not a solved cube. Then two faces the camera cannot part (their stickers mixed
        // only with each other), which would read as one colour, not as unsolved.
        if let Some(s) = stray_sticker(&labs, &medians, |a, b| !too_alike(&medians, a, b)) {
            return Err(not_solved(readings, s));
        }
        check_apart(&medians)?;
        let guess = classify_best_guess(readings, palette, &ClassifyOptions::default());
        if let Some(s) = (0..54).find(|&s| guess.facelets.stickers[s].index() != s / 9) {
            return Err(not_solved(readings, s));
        }
        if let Some(s) = stray_sticker(&labs, &medians, |_, _| true) {
            return Err(not_solved(readings, s));
        }
        let mirrored = mirrored_faces(&medians, &guess.names, palette);
        Ok(Named {
            labs,
            medians,
            names: guess.names,
            mirrored,
        })
    }

    /// Mean CIEDE2000 of face `face`'s nine stickers to `reference`.
    pub(super) fn mean_to(&self, face: usize, reference: LabColour) -> f32 {
        let stickers = &self.labs[face * 9..face * 9 + 9];
        stickers.iter().map(|s| s.delta_e(reference)).sum::<f32>() / 9.0
    }

    /// The largest of the faces' mean distances to the palette colour each is taken as.
    pub(super) fn worst_before(&self, palette: &Palette) -> f32 {
        (0..6)
            .map(|f| self.mean_to(f, palette.colours[self.names[f]].reference))
            .fold(0.0, f32::max)
    }
}

/// Why readings with sticker `s` astray are not of a solved cube. When the camera clipped
/// that sticker on a face whose own readings it clipped (the light brought the face to the top
/// of its range), the light may be the cause: past full scale a sticker's channels no longer
/// keep its colour's ratios, and a solved cube's sticker can read as another colour there.
fn not_solved(readings: &[Rgb; 54], s: usize) -> CalibrateError {
    use crate::light::lighting::clipped;
    let face = s / 9;
    let letter = b"URFDLB"[face] as char;
    if clipped(readings[s]) && clipped(channel_medians(&readings[face * 9..face * 9 + 9])) {
        CalibrateError::StrayWhereClipped {
            face: letter,
            sticker: crate::cube::sticker_names(&[s], 9),
            reading: readings[s],
        }
    } else {
        CalibrateError::NotSolved { face: letter }
    }
}

/// The first sticker nearer the colour of another face than its own's, among the faces
/// `counted(its face, the other)`.
fn stray_sticker(
    labs: &[LabColour; 54],
    medians: &[LabColour; 6],
    counted: impl Fn(usize, usize) -> bool,
) -> Option<usize> {
    (0..54).find(|&s| {
        let own = labs[s].delta_e(medians[s / 9]);
        (0..6).any(|f| f != s / 9 && counted(s / 9, f) && labs[s].delta_e(medians[f]) < own)
    })
}

fn too_alike(medians: &[LabColour; 6], first: usize, second: usize) -> bool {
    medians[first].delta_e(medians[second]) < crate::light::palette::LEAST_APART
}

/// The faces' colours must stay told apart, as a palette file's must.
fn check_apart(medians: &[LabColour; 6]) -> Result<(), CalibrateError> {
    for first in 0..6 {
        for second in first + 1..6 {
            if too_alike(medians, first, second) {
                return Err(CalibrateError::TooAlike {
                    first: b"URFDLB"[first] as char,
                    second: b"URFDLB"[second] as char,
                    apart: medians[first].delta_e(medians[second]),
                });
            }
        }
    }
    Ok(())
}

/// Whether the colours sit on the faces as on no cube that can be held: the palette colour each
/// face looks most like (taken together, each colour once) is not one of the namings the 24
/// ways of holding the cube allow. A picture mirrored (by the camera, or two opposite faces'
/// photos swapped) does that, and calibrating from it swaps two colours' references; so does
/// a cube whose scheme is the palette's mirror image, or a light that makes a red look
/// orange. Said, not refused: the person knows which. `None` when they agree.
fn mirrored_faces(
    medians: &[LabColour; 6],
    names: &[usize; 6],
    palette: &Palette,
) -> Option<String> {
    let nearest = palette.colours_one_each(medians);
    let looks: Vec<String> = (0..6)
        .filter(|&f| nearest[f] != names[f])
        .map(|f| {
            format!(
                "face {} looks {} but is taken as {}",
                b"URFDLB"[f] as char,
                palette.colours[nearest[f]].name,
                palette.colours[names[f]].name
            )
        })
        .collect();
    (!looks.is_empty()).then(|| looks.join(", "))
}
