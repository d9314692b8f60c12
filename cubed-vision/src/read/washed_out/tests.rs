//! Tests of the washed-out faces: a face whose colours the simulated webcam pressed together at the top of its range, or faded to blank, is flagged at every exposure from the first at which it did so up (with a webcam's roll-off and with each channel clipping alone); a normally lit face never is; a cube read under a lamp too bright is refused naming the light, never as a cube that cannot exist.

use super::*;
use crate::camera::sim::{rolled_off, STANDARD_STICKERS};
use crate::cube::random::random_cube;
use crate::cube::Face;
use crate::light::palette::Palette;
use crate::read::classify::{classify, ClassifyOptions, Doubt};
use crate::read::reading::CubeReading;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The simulated sensor's noise (standard deviation, sRGB codes).
const NOISE: u8 = 4;

/// How the simulated webcam records a sticker of physical colour `colour` lit `gain` times
/// (sRGB units) with white balance `balance` per channel and highlight roll-off `rolloff`.
fn recorded(colour: Rgb, gain: f32, balance: [f32; 3], rolloff: f32) -> Rgb {
    let lit = std::array::from_fn(|c| f32::from(colour[c]) * gain * balance[c]);
    rolled_off(lit, rolloff).map(|v| v.round().clamp(0.0, 255.0) as u8)
}

/// The default palette's index of the colour whose home is `face`.
fn palette_colour(palette: &Palette, face: Face) -> usize {
    (0..6)
        .find(|&c| palette.colours[c].home == face)
        .unwrap_or(0)
}

/// A face of nine stickers in random colours (by home face), their palette colours.
fn random_face(rng: &mut ChaCha8Rng, palette: &Palette) -> ([Rgb; 9], [usize; 9]) {
    let homes: [Face; 9] = std::array::from_fn(|_| Face::ALL[rng.random_range(0..6)]);
    (
        homes.map(|f| STANDARD_STICKERS[f.index()]),
        homes.map(|f| palette_colour(palette, f)),
    )
}

/// The face's stickers as recorded, and whether the rule flags the face.
fn flagged(face: &([Rgb; 9], [usize; 9]), light: (f32, [f32; 3], f32), palette: &Palette) -> bool {
    let (gain, balance, rolloff) = light;
    let readings = face.0.map(|c| recorded(c, gain, balance, rolloff));
    let pale = (&palette.references_rgb(), palette.palest());
    !washed_out_stickers(&readings, &face.1, pale, 9).is_empty()
}

/// Whether the camera kept, by an account apart from the rule's: no difference between two of
/// the face's colours (two stickers of different colours recorded within the sensor's noise
/// of each other in every channel), or no hue of one (a sticker not of the palest colour at
/// full scale, within the noise, in every channel).
fn information_lost(
    face: &([Rgb; 9], [usize; 9]),
    light: (f32, [f32; 3], f32),
    palest: usize,
) -> bool {
    let (gain, balance, rolloff) = light;
    let readings = face.0.map(|c| recorded(c, gain, balance, rolloff));
    let near = |a: Rgb, b: Rgb| (0..3).all(|c| a[c].abs_diff(b[c]) <= NOISE);
    let full = |r: Rgb| r.iter().all(|&c| c >= 255 - NOISE);
    (0..9).any(|s| {
        (face.1[s] != palest && full(readings[s]))
            || (0..9).any(|t| face.1[t] != face.1[s] && near(readings[s], readings[t]))
    })
}

/// Exposures (sRGB gain) from normal to eight times the light.
fn exposures() -> impl Iterator<Item = f32> {
    (0..=140).map(|i| 1.0 + i as f32 * 0.05)
}

#[test]
fn a_washed_out_face_is_flagged_at_every_exposure_from_its_first_clipping_up() {
    let palette = Palette::default();
    let palest = palette.palest();
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for rolloff in [1.0, 0.5, 0.0] {
        for n in 0..200 {
            let face = random_face(&mut rng, &palette);
            let balance = std::array::from_fn(|_| rng.random_range(0.95..1.05));
            let first = exposures().find(|&g| flagged(&face, (g, balance, rolloff), &palette));
            let lost =
                exposures().find(|&g| information_lost(&face, (g, balance, rolloff), palest));
            // Flagged no later than the camera lost what tells its colours apart ...
            if let Some(lost) = lost {
                let first = first.unwrap_or(f32::INFINITY);
                assert!(
                    first <= lost,
                    "face {n}, roll-off {rolloff}: {first} after {lost}"
                );
            }
            // ... and at every exposure above that.
            if let Some(first) = first {
                for g in exposures().filter(|&g| g >= first) {
                    assert!(
                        flagged(&face, (g, balance, rolloff), &palette),
                        "face {n}, roll-off {rolloff}: flagged at {first}, not at {g}"
                    );
                }
            }
        }
    }
}

#[test]
fn a_face_under_a_webcams_roll_off_is_flagged_once_orange_and_yellow_press_together() {
    let palette = Palette::default();
    let (orange, yellow) = (Face::L, Face::D);
    let mut colours = [STANDARD_STICKERS[Face::U.index()]; 9];
    let mut names = [palette_colour(&palette, Face::U); 9];
    (colours[0], names[0]) = (
        STANDARD_STICKERS[orange.index()],
        palette_colour(&palette, orange),
    );
    (colours[1], names[1]) = (
        STANDARD_STICKERS[yellow.index()],
        palette_colour(&palette, yellow),
    );
    let face = (colours, names);
    let first = exposures()
        .find(|&g| flagged(&face, (g, [1.0; 3], 1.0), &palette))
        .expect("flagged");
    // An orange's green reaches the roll-off beside a yellow's at a lamp 1.4 times too bright.
    assert!((1.3..1.5).contains(&first), "{first}");
}

#[test]
fn a_normally_lit_face_is_not_washed_out() {
    let palette = Palette::default();
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    for n in 0..2000 {
        let face = random_face(&mut rng, &palette);
        // The simulated camera's default light: exposure x0.85-1.15, gradient and white
        // balance a few per cent either way.
        let gain = rng.random_range(0.85..1.15) * rng.random_range(0.95..1.05);
        let balance = std::array::from_fn(|_| rng.random_range(0.95..1.05));
        for rolloff in [0.0, 1.0] {
            assert!(
                !flagged(&face, (gain, balance, rolloff), &palette),
                "face {n} at {gain}"
            );
        }
    }
}

/// A cube's 54 readings as the simulated webcam records them, each face at its own gain.
fn recorded_cube(cube: &crate::cube::FaceletCube, gains: [f32; 6], rolloff: f32) -> [Rgb; 54] {
    std::array::from_fn(|s| {
        let colour = STANDARD_STICKERS[cube.stickers[s].index()];
        recorded(colour, gains[s / 9], [1.0; 3], rolloff)
    })
}

#[test]
fn a_cube_under_a_lamp_too_bright_is_refused_naming_the_light_at_any_exposure() {
    let palette = Palette::default();
    let options = ClassifyOptions::default();
    let mut rng = ChaCha8Rng::seed_from_u64(13);
    let mut refused = 0;
    for n in 0..40 {
        let cube = random_cube(&mut rng).to_facelets();
        for light in [1.5f32, 2.0, 2.5, 3.0, 4.0, 6.0] {
            let gains = std::array::from_fn(|_| light * rng.random_range(0.9..1.1));
            let readings = recorded_cube(&cube, gains, 1.0);
            match classify(&readings, &palette, &options) {
                Ok(read) => assert_eq!(read.facelets, cube, "cube {n} at {light}: wrong"),
                Err(e) => {
                    refused += 1;
                    assert_eq!(e.doubt, Doubt::Alike, "cube {n} at {light}: {e}");
                    assert!(
                        !e.best_guess.washed_out().is_empty(),
                        "cube {n} at {light}: {e}"
                    );
                }
            }
        }
        let normal = recorded_cube(&cube, [1.0; 6], 1.0);
        let read = classify(&normal, &palette, &options).expect("read under normal light");
        assert_eq!(read.facelets, cube);
    }
    assert!(refused > 0);
}
