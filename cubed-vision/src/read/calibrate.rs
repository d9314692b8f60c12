//! Calibration ("set valid colors"): new palette references from a scan of a solved cube, with each colour's distances before and after. Pure.

use crate::light::colour::{LabColour, Rgb};
use crate::light::palette::Palette;
use crate::read::classify::{classify_best_guess, ClassifyOptions};

/// One colour's line of the calibration report.
#[derive(Clone, Debug, PartialEq)]
pub struct CalibratedColour {
    pub name: String,
    pub symbol: char,
    /// The face of the scan it was found on.
    pub face: char,
    /// Mean CIEDE2000 of its nine stickers to the old and to the new reference.
    pub before: f32,
    pub after: f32,
    pub new_reference: LabColour,
}

/// The new palette and the report.
#[derive(Clone, Debug, PartialEq)]
pub struct Calibration {
    pub palette: Palette,
    pub colours: Vec<CalibratedColour>,
    /// When the colours sit on the faces as on no cube that can be held: which faces look
    /// like which colour, and what the palette's scheme made them (see `mirrored_faces`).
    pub mirrored: Option<String>,
}

/// Why a scan cannot calibrate the palette.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum CalibrateError {
    #[error("the scan is not of a solved cube: face {face} does not read as one colour (calibrate from a solved cube)")]
    NotSolved { face: char },
    #[error("faces {first} and {second} look the same to the camera ({apart:.1} apart in CIEDE2000, at least {} needed): light the cube evenly and check the camera's white balance, then calibrate again", crate::light::palette::LEAST_APART)]
    TooAlike {
        first: char,
        second: char,
        apart: f32,
    },
}

/// Calibrates `palette` from readings (URFDLB) of a solved cube.
pub fn calibrate(readings: &[Rgb; 54], palette: &Palette) -> Result<Calibration, CalibrateError> {
    let labs = readings.map(LabColour::from_rgb);
    let medians: [LabColour; 6] = std::array::from_fn(|f| {
        LabColour::median(labs[f * 9..f * 9 + 9].iter().copied()).expect("nine stickers")
    });
    // A sticker nearer another face's colour than its own, where the two faces can be told
    // apart: not a solved cube. Then two faces the camera cannot part (their stickers mixed
    // only with each other), which would read as one colour, not as unsolved.
    if let Some(s) = stray_sticker(&labs, &medians, |a, b| !too_alike(&medians, a, b)) {
        return Err(CalibrateError::NotSolved {
            face: b"URFDLB"[s / 9] as char,
        });
    }
    check_apart(&medians)?;
    let guess = classify_best_guess(readings, palette, &ClassifyOptions::default());
    if let Some(face) =
        (0..6).find(|&f| (0..9).any(|i| guess.facelets.stickers[f * 9 + i].index() != f))
    {
        return Err(CalibrateError::NotSolved {
            face: b"URFDLB"[face] as char,
        });
    }
    if let Some(s) = stray_sticker(&labs, &medians, |_, _| true) {
        return Err(CalibrateError::NotSolved {
            face: b"URFDLB"[s / 9] as char,
        });
    }
    let mirrored = mirrored_faces(&medians, &guess.names, palette);
    let mut references = palette.colours.clone().map(|c| c.reference);
    let mut colours = Vec::new();
    for face in 0..6 {
        let named = guess.names[face];
        let stickers = &labs[face * 9..face * 9 + 9];
        let new = medians[face];
        let mean_to = |r: LabColour| stickers.iter().map(|s| s.delta_e(r)).sum::<f32>() / 9.0;
        let old = &palette.colours[named];
        colours.push(CalibratedColour {
            name: old.name.clone(),
            symbol: old.symbol,
            face: b"URFDLB"[face] as char,
            before: mean_to(old.reference),
            after: mean_to(new),
            new_reference: new,
        });
        references[named] = new;
    }
    Ok(Calibration {
        palette: palette.with_references(references),
        colours,
        mirrored,
    })
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

#[cfg(test)]
mod tests {
    use super::*;

    fn solved_readings(colours: [Rgb; 6]) -> [Rgb; 54] {
        std::array::from_fn(|s| {
            let c = colours[s / 9];
            let wobble = (s % 9) as u8;
            [
                c[0].saturating_add(wobble),
                c[1],
                c[2].saturating_sub(wobble),
            ]
        })
    }

    #[test]
    fn calibration_moves_each_reference_to_its_stickers() {
        // A camera that sees everything warmer than the default palette.
        let seen = [
            [250, 235, 200],
            [220, 40, 30],
            [60, 170, 60],
            [250, 230, 30],
            [255, 140, 30],
            [40, 80, 170],
        ];
        let palette = Palette::default();
        let cal = calibrate(&solved_readings(seen), &palette).expect("solved");
        assert_eq!(cal.colours.len(), 6);
        for c in &cal.colours {
            assert!(c.after < c.before, "{c:?}");
            assert!(c.after < 2.0, "{c:?}");
        }
        assert_eq!(cal.palette.symbols(), palette.symbols());
    }

    #[test]
    fn faces_that_look_the_same_are_refused_naming_them() {
        let mut seen = crate::camera::sim::STANDARD_STICKERS;
        // Orange (L) as red (R) came out: under this light the camera cannot part them.
        seen[4] = seen[1];
        let said = calibrate(&solved_readings(seen), &Palette::default());
        assert!(
            matches!(
                said,
                Err(CalibrateError::TooAlike {
                    first: 'R',
                    second: 'L',
                    ..
                })
            ),
            "{said:?}"
        );
    }

    #[test]
    fn a_mirror_image_is_said_naming_the_faces() {
        let palette = Palette::default();
        let seen = crate::camera::sim::STANDARD_STICKERS;
        let cal = calibrate(&solved_readings(seen), &palette).expect("solved");
        assert_eq!(cal.mirrored, None);
        let mut mirrored = seen;
        mirrored.swap(1, 4);
        let cal = calibrate(&solved_readings(mirrored), &palette).expect("calibrated");
        let said = cal.mirrored.expect("said");
        assert_eq!(said.matches("face ").count(), 2, "{said}");
    }

    #[test]
    fn the_real_solved_scans_calibrate_and_the_standard_one_is_not_called_mirrored() {
        for (name, standard) in [("3x3x3-solved-01", true), ("3x3x3-solved-02", false)] {
            let path = format!(
                "{}/../tests/data/vision/scans/{name}.json",
                env!("CARGO_MANIFEST_DIR")
            );
            let (_, readings) =
                crate::scan_file::load_scan(std::path::Path::new(&path)).expect("a real scan");
            let cal = calibrate(&readings, &Palette::default()).expect(name);
            // solved-02's white looks tan and its naming takes it as yellow: said, not refused.
            assert_eq!(
                cal.mirrored.is_none(),
                standard,
                "{name}: {:?}",
                cal.mirrored
            );
        }
    }

    /// Real scrambled scans are refused as not solved, never blamed on the light, even where
    /// two faces' mixed stickers happen to average alike (random-02's F and L, 2.8 apart).
    #[test]
    fn the_real_scrambled_scans_are_refused_as_not_solved() {
        let dir = format!("{}/../tests/data/vision/scans", env!("CARGO_MANIFEST_DIR"));
        let mut scrambled = 0;
        for entry in std::fs::read_dir(&dir).expect("the scans").flatten() {
            let path = entry.path();
            if path.to_string_lossy().contains("solved") {
                continue;
            }
            let (_, readings) = crate::scan_file::load_scan(&path).expect("a real scan");
            let result = calibrate(&readings, &Palette::default());
            let refused = matches!(result, Err(CalibrateError::NotSolved { .. }));
            assert!(refused, "{}: {result:?}", path.display());
            scrambled += 1;
        }
        assert_eq!(scrambled, 8);
    }

    #[test]
    fn a_scrambled_cube_is_refused() {
        let palette = Palette::default();
        let mut readings = solved_readings(crate::camera::sim::STANDARD_STICKERS);
        readings.swap(0, 9);
        readings.swap(1, 10);
        assert!(matches!(
            calibrate(&readings, &palette),
            Err(CalibrateError::NotSolved { .. })
        ));
    }
}
