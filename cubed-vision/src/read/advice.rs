//! What a person can do about stickers the classifier doubts, by why it doubts them, how they came out and what taking the photos again can bring: one table for the daemon and the command line. Pure.

use crate::camera::Retake;
use crate::light::colour::{LabColour, Rgb};
use crate::light::palette::Palette;
use crate::read::classify::Doubt;
use crate::read::reading::CubeReading;
use crate::recapture::{step_for, Step};

/// Luminance the whole cube came out at, over the palette's, at or below which the photos are
/// a stop or more darker than the light the palette was calibrated in (a stop halves the light).
const A_STOP_DARKER: f32 = 0.5;

/// Whether the light explains a refused reading: a face washed out (`washed_out`, its stickers),
/// or stickers pressed together or blank where the camera clipped. Then a photo turned back by
/// chance into a sure cube is no explanation to offer (it would send a person to the camera's
/// mounting for what the lamp did).
pub fn light_explains(doubt: Doubt, washed_out: &[usize]) -> bool {
    !washed_out.is_empty() || matches!(doubt, Doubt::Alike | Doubt::Blank)
}

/// How the doubtful `stickers` came out, for a person's advice: `step_for` (near clipping, near
/// black), or, where it finds neither, `Brighter` when the whole cube came out a stop or more
/// darker than its palette's light (an evenly dark set reads as "too dark", not "uneven").
pub fn light_for_advice<R: CubeReading>(
    readings: &[Rgb],
    stickers: &[usize],
    (reading, palette): (&R, &Palette),
) -> Step {
    match step_for(readings, stickers) {
        Step::Same if luminance_against_palette(readings, reading, palette) <= A_STOP_DARKER => {
            Step::Brighter
        }
        step => step,
    }
}

/// The median, over the cube's stickers, of each one's luminance over that of the palette colour
/// it was read as (1: as the palette was calibrated; 0.5: a stop darker).
fn luminance_against_palette<R: CubeReading>(
    readings: &[Rgb],
    reading: &R,
    palette: &Palette,
) -> f32 {
    let names = reading.colour_names();
    let mut ratios: Vec<f32> = (readings.iter().zip(reading.faces()))
        .map(|(&rgb, face)| {
            let reference = palette.colours[names[face.index()]].reference;
            luminance(LabColour::from_rgb(rgb)) / luminance(reference).max(1e-3)
        })
        .collect();
    if ratios.is_empty() {
        return 1.0;
    }
    ratios.sort_by(f32::total_cmp);
    ratios[ratios.len() / 2]
}

/// Relative luminance Y (0..1) of a CIELAB colour, from its lightness.
fn luminance(colour: LabColour) -> f32 {
    let f = (colour.l + 16.0) / 116.0;
    if f > 6.0 / 29.0 {
        f * f * f
    } else {
        3.0 * (6.0f32 / 29.0).powi(2) * (f - 4.0 / 29.0)
    }
}

/// What a person can do about stickers the classifier doubts, by how they came out, why it
/// doubts them, and whether the camera's exposure can be changed.
pub fn what_to_do(doubt: Doubt, light: Step, retake: Retake) -> &'static str {
    // What to do with a camera whose exposure the daemon sets, and with photos from a folder.
    let (camera, photos) = match (doubt, light) {
        (Doubt::Impossible, _) => (
            "check the cube: a piece turned in place by hand (a corner twisted, or on a 3x3 an edge flipped), two stickers swapped (re-stickered), or a cube put back together wrong, cannot be solved; if it is sound, check the lighting on those stickers",
            "check the cube: a piece turned in place by hand (a corner twisted, or on a 3x3 an edge flipped), two stickers swapped (re-stickered), or a cube put back together wrong, cannot be solved; if it is sound, take the photos again with those stickers lit evenly",
        ),
        (Doubt::Alike | Doubt::Blank, _) | (_, Step::Darker) => (
            "they came out too bright for the camera (clipped at full, so colours look alike: near white, or a yellow at full red and green): dim the lamp or lower `[camera] exposure` (on the simulator, `[sim] exposure`)",
            "they came out too bright (clipped at full, so colours look alike: near white, or a yellow at full red and green): take the photos again with less light or a shorter exposure",
        ),
        (_, Step::Brighter) => (
            "they came out too dark (near black, or the whole cube a stop or more below the light the palette was calibrated in): light the cube better or raise `[camera] exposure` (on the simulator, `[sim] exposure`)",
            "they came out too dark (near black, or the whole cube a stop or more below the light the palette was calibrated in): take the photos again with more light or a longer exposure",
        ),
        (Doubt::Unlike, Step::Same) => (
            "light each face evenly (glare or a shadow across a face), and check that nothing covers a sticker",
            "take the photos again with each face lit evenly (glare or a shadow across a face), and check that nothing covers a sticker",
        ),
        (Doubt::Close | Doubt::Unsettled, Step::Same) => (
            "check the lighting and the camera, or recalibrate the palette",
            "take the photos again under the light the palette was calibrated in, or recalibrate the palette from them (`cubed calibrate`)",
        ),
    };
    match retake {
        Retake::Exposure => camera,
        Retake::NextFrame | Retake::SamePhoto => photos,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::classify::{classify, ClassifyOptions};
    use cubed_core::cube::FaceletCube;

    /// The solved cube's readings at the palette's colours, each at `light` times their
    /// luminance (a stop darker: 0.5), and the reading of them at full light.
    fn at_light(light: f32) -> ([Rgb; 54], crate::read::classify::Classification, Palette) {
        let palette = Palette::default();
        let cube = FaceletCube::default();
        let colour = |s: usize| palette.colours[cube.stickers[s].index()].reference;
        let full: [Rgb; 54] = std::array::from_fn(|s| colour(s).to_rgb());
        let reading = classify(&full, &palette, &ClassifyOptions::default()).expect("sure");
        let dimmed = std::array::from_fn(|s| {
            let lab = colour(s);
            let y = luminance(lab) * light;
            let l = 116.0 * y.cbrt() - 16.0;
            LabColour { l, ..lab }.to_rgb()
        });
        (dimmed, reading, palette)
    }

    #[test]
    fn a_whole_cube_a_stop_darker_than_its_palette_is_said_too_dark() {
        for (light, expected) in [(1.0, Step::Same), (0.7, Step::Same), (0.45, Step::Brighter)] {
            let (readings, reading, palette) = at_light(light);
            let ratio = luminance_against_palette(&readings, &reading, &palette);
            assert!((ratio - light).abs() < 0.05, "{light}: {ratio}");
            // One sticker in doubt, neither near clipping nor near black by itself.
            let green = 22; // F's centre
            assert_eq!(step_for(&readings, &[green]), Step::Same, "{light}");
            let step = light_for_advice(&readings, &[green], (&reading, &palette));
            assert_eq!(step, expected, "{light}: {ratio}");
        }
        let advice = what_to_do(Doubt::Unlike, Step::Brighter, Retake::SamePhoto);
        assert!(advice.contains("too dark"), "{advice}");
    }

    #[test]
    fn near_clipping_stays_darker_whatever_the_rest() {
        let (mut readings, reading, palette) = at_light(0.3);
        readings[4] = [255, 255, 255];
        assert_eq!(
            light_for_advice(&readings, &[4], (&reading, &palette)),
            Step::Darker
        );
    }

    #[test]
    fn the_light_explains_a_washed_out_face_or_clipped_stickers_not_an_impossible_cube() {
        assert!(light_explains(Doubt::Alike, &[]));
        assert!(light_explains(Doubt::Blank, &[]));
        assert!(light_explains(Doubt::Impossible, &[40]));
        assert!(!light_explains(Doubt::Impossible, &[]));
        assert!(!light_explains(Doubt::Unlike, &[]));
    }
}
