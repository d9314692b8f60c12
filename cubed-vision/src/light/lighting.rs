//! Per-face exposure and white-balance correction: linear-light readings and the gains that make each colour look the same on every face, bounded to what lighting can do. Pure.

use crate::light::colour::{median_of_sorted, LabColour, Rgb};
use palette::{FromColor, Lab, LinSrgb, Srgb};

/// A reading in linear light (0..1 for unclipped camera values).
pub(crate) type Linear = [f32; 3];

/// Readings at or above this (0..255) may be clipped (the sensor's full
/// scale, whatever the exposure) and say nothing about gain.
pub const CLIPPED: u8 = 254;

/// A channel at or above this sRGB code is in a webcam's highlight roll-off: it no longer keeps
/// the sticker's ratios (`highlight` reads such a middle from its rim, scaled to the photo's
/// own full scale).
pub const ROLL_OFF_CODE: u8 = 240;

/// Whether the sensor may have clipped a channel of `reading` (any at [`CLIPPED`] or over).
pub(crate) fn clipped(reading: Rgb) -> bool {
    reading.iter().any(|&c| c >= CLIPPED)
}
/// Channel values below this share of the calibrated white (linear) are too
/// noisy to estimate a gain from: the floor follows the calibration's exposure.
const TOO_DARK_OF_WHITE: f32 = 0.025;
/// Rounds of re-estimating colours and gains in turn.
const ALTERNATING_ROUNDS: usize = 6;
/// A channel's own gain is used only when this many stickers of the face support it.
const MIN_SUPPORT: usize = 4;
/// Gains beyond these are taken as misreadings, not lighting.
const MIN_GAIN: f32 = 0.4;
const MAX_GAIN: f32 = 2.5;

/// The linear-light value of an sRGB reading.
pub(crate) fn linearize(rgb: Rgb) -> Linear {
    let lin: LinSrgb = Srgb::new(rgb[0], rgb[1], rgb[2])
        .into_format::<f32>()
        .into_linear();
    [lin.red, lin.green, lin.blue]
}

/// The sRGB reading of a linear-light value (clipped to 0..=255).
pub(crate) fn encode(v: Linear) -> Rgb {
    let srgb: Srgb<u8> = Srgb::from_linear(LinSrgb::new(
        v[0].clamp(0.0, 1.0),
        v[1].clamp(0.0, 1.0),
        v[2].clamp(0.0, 1.0),
    ));
    [srgb.red, srgb.green, srgb.blue]
}

/// The linear-light value of a CIELAB (D65) colour.
pub(crate) fn linear_of_lab(lab: LabColour) -> Linear {
    let lin: LinSrgb = LinSrgb::from_color(Lab::new(lab.l, lab.a, lab.b));
    [lin.red, lin.green, lin.blue]
}

/// CIELAB (D65) of a linear-light value (values above 1 are allowed).
pub(crate) fn lab_of_linear(v: Linear) -> LabColour {
    let lab: Lab = Lab::from_color(LinSrgb::new(v[0], v[1], v[2]));
    LabColour {
        l: lab.l,
        a: lab.a,
        b: lab.b,
    }
}

/// The share of each channel in an sRGB reading. sRGB is close to a power of
/// linear light, so an exposure change scales the three channels alike and
/// leaves this nearly unchanged; unlike linear chromaticity it keeps red and
/// orange well apart.
pub(crate) fn chromaticity(rgb: Rgb) -> [f32; 3] {
    let v = rgb.map(|c| c as f32);
    let sum = v[0] + v[1] + v[2] + 1.0;
    v.map(|c| c / sum)
}

/// What the light correction may do (ratios in linear light, either way),
/// and the calibrated exposure it works from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct LightBounds {
    /// One face's white balance against its own exposure, per channel: 1.8 in
    /// linear light is about ±30 % on an sRGB channel, beyond the strongest
    /// drift the bench applies (±25 %).
    pub face_cast: f32,
    /// The calibrated white's weakest channel, linear (from the palette).
    pub white_level: f32,
}

impl Default for LightBounds {
    fn default() -> Self {
        LightBounds {
            face_cast: 1.8,
            white_level: 0.83,
        }
    }
}

impl LightBounds {
    /// The default bounds at the exposure of `palette`'s calibration (its lightest colour).
    pub(crate) fn for_palette(palette: &crate::light::palette::Palette) -> LightBounds {
        let white_level = palette
            .colours
            .iter()
            .map(|c| {
                let v = linearize(c.reference.to_rgb());
                v[0].min(v[1]).min(v[2])
            })
            .fold(0.0, f32::max);
        LightBounds {
            white_level: white_level.max(0.05),
            ..LightBounds::default()
        }
    }

    fn too_dark(&self) -> f32 {
        TOO_DARK_OF_WHITE * self.white_level
    }
}

/// Gains per face (URFDLB) and channel; all 1 leaves the readings as they are.
/// They apply to readings of N stickers, N / 6 a face (54 for a 3x3, 24 for a 2x2).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct FaceGains(pub [[f32; 3]; 6]);

impl Default for FaceGains {
    fn default() -> Self {
        FaceGains([[1.0; 3]; 6])
    }
}

impl FaceGains {
    /// The readings corrected by these gains, in CIELAB. A clipped channel
    /// says only "at least full scale", so it stays at full scale, and no
    /// corrected channel goes beyond it: a white stays white on every face.
    pub(crate) fn correct<const N: usize>(
        &self,
        readings: &[Rgb; N],
        linear: &[Linear; N],
    ) -> [LabColour; N] {
        std::array::from_fn(|s| {
            let v = self.apply(linear[s], s / (N / 6));
            lab_of_linear(std::array::from_fn(|c| {
                if readings[s][c] >= CLIPPED {
                    1.0
                } else {
                    v[c].min(1.0)
                }
            }))
        })
    }

    fn apply(&self, v: Linear, face: usize) -> Linear {
        std::array::from_fn(|c| v[c] * self.0[face][c])
    }

    /// New gains such that each face's stickers best match their colour's
    /// median (over all faces) once corrected; `colour_of[s]` is the colour
    /// (0..6) currently decided for sticker `s`. Colours and gains are
    /// re-estimated in turn (a few rounds of alternating medians), so faces
    /// that show a colour mostly under other light still converge.
    pub(crate) fn estimate<const N: usize>(
        &self,
        readings: &[Rgb; N],
        linear: &[Linear; N],
        colour_of: &[usize; N],
        bounds: &LightBounds,
    ) -> FaceGains {
        let mut current = *self;
        for _ in 0..ALTERNATING_ROUNDS {
            current = current.estimate_once(readings, linear, colour_of, bounds);
        }
        current
    }

    fn estimate_once<const N: usize>(
        &self,
        readings: &[Rgb; N],
        linear: &[Linear; N],
        colour_of: &[usize; N],
        bounds: &LightBounds,
    ) -> FaceGains {
        let references = self.colour_medians(linear, colour_of);
        let per_face = N / 6;
        let gains = std::array::from_fn(|face| {
            let ratios: [Vec<f32>; 3] = std::array::from_fn(|c| {
                (face * per_face..face * per_face + per_face)
                    .filter(|&s| readings[s][c] < CLIPPED && linear[s][c] > bounds.too_dark())
                    .map(|s| references[colour_of[s]][c] / linear[s][c])
                    .collect()
            });
            face_gain(ratios, bounds.face_cast).unwrap_or(self.0[face])
        });
        FaceGains(normalise(gains))
    }

    /// Per colour, the component-wise median of its corrected stickers.
    fn colour_medians<const N: usize>(
        &self,
        linear: &[Linear; N],
        colour_of: &[usize; N],
    ) -> [Linear; 6] {
        std::array::from_fn(|colour| {
            let members: Vec<Linear> = (0..N)
                .filter(|&s| colour_of[s] == colour)
                .map(|s| self.apply(linear[s], s / (N / 6)))
                .collect();
            std::array::from_fn(|c| {
                let mut v: Vec<f32> = members.iter().map(|m| m[c]).collect();
                v.sort_unstable_by(f32::total_cmp);
                median_of_sorted(&v).unwrap_or(0.0)
            })
        })
    }
}

/// One face's gains from its stickers' ratios (wanted / measured) per channel:
/// the median of each channel with enough support, else the face's overall
/// median (brightness only), each within `face_cast` of that overall median
/// (a face's light cannot recolour it); `None` when nothing on the face can be used.
fn face_gain(ratios: [Vec<f32>; 3], face_cast: f32) -> Option<[f32; 3]> {
    let mut pooled: Vec<f32> = ratios.iter().flatten().copied().collect();
    pooled.sort_unstable_by(f32::total_cmp);
    let overall = median_of_sorted(&pooled)?;
    Some(ratios.map(|mut r| {
        r.sort_unstable_by(f32::total_cmp);
        let gain = if r.len() >= MIN_SUPPORT {
            median_of_sorted(&r).unwrap_or(overall)
        } else {
            overall
        };
        gain.clamp(overall / face_cast, overall * face_cast)
            .clamp(MIN_GAIN, MAX_GAIN)
    }))
}

/// Scales each channel's gains so their geometric mean over the faces is 1 (keeps the overall exposure).
fn normalise(mut gains: [[f32; 3]; 6]) -> [[f32; 3]; 6] {
    for c in 0..3 {
        let log_mean = gains.iter().map(|g| g[c].max(1e-3).ln()).sum::<f32>() / 6.0;
        let k = (-log_mean).exp();
        for g in gains.iter_mut() {
            g[c] *= k;
        }
    }
    gains
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_lab_agrees_with_srgb_lab() {
        for rgb in [[200, 30, 40], [20, 150, 250], [128, 128, 128]] {
            let lab = lab_of_linear(linearize(rgb));
            assert!(lab.delta_e(LabColour::from_rgb(rgb)) < 0.01);
            assert!(lab_of_linear(linear_of_lab(lab)).delta_e(lab) < 0.01);
            assert_eq!(encode(linearize(rgb)), rgb);
        }
    }

    #[test]
    fn a_face_cast_beyond_the_bound_is_corrected_only_up_to_it() {
        // Every face shows the same three colours; face 2's blue reads 5x low
        // (no lamp does that): its gain may not exceed face_cast x its exposure.
        let colours = [[200u8, 120, 120], [120, 200, 140], [120, 140, 220]];
        let colour_of: [usize; 54] = std::array::from_fn(|s| s % 3);
        let readings: [Rgb; 54] = std::array::from_fn(|s| {
            let c = colours[s % 3];
            if s / 9 == 2 {
                [c[0], c[1], (c[2] as f32 * 0.48) as u8] // x0.2 in linear light
            } else {
                c
            }
        });
        let linear = readings.map(linearize);
        let bounds = LightBounds::default();
        let gains = FaceGains::default().estimate(&readings, &linear, &colour_of, &bounds);
        // Blue against red on face 2, relative to face 0 (the common white
        // balance cancels): 5 unbounded; at most face_cast up and down.
        let (g, h) = (gains.0[2], gains.0[0]);
        let relative = (g[2] / g[0]) / (h[2] / h[0]);
        assert!(
            relative <= bounds.face_cast.powi(2) * 1.01 && relative > 1.5,
            "{:?}",
            gains.0
        );
    }

    #[test]
    fn the_dark_floor_follows_the_calibrated_white() {
        let dim =
            crate::light::palette::Palette::default().with_references(std::array::from_fn(|_| {
                LabColour::from_rgb([120, 120, 120])
            }));
        let bright = LightBounds::for_palette(&crate::light::palette::Palette::default());
        let dimmed = LightBounds::for_palette(&dim);
        assert!(dimmed.too_dark() < bright.too_dark() / 3.0);
    }

    #[test]
    fn a_darker_face_gets_a_larger_gain() {
        let colours = [[200u8, 40, 40], [40, 160, 60], [40, 60, 200]];
        let colour_of: [usize; 54] = std::array::from_fn(|s| s % 3);
        let readings: [Rgb; 54] = std::array::from_fn(|s| {
            let c = colours[s % 3];
            if s / 9 == 2 {
                c.map(|v| v / 2)
            } else {
                c
            }
        });
        let linear = readings.map(linearize);
        let gains =
            FaceGains::default().estimate(&readings, &linear, &colour_of, &LightBounds::default());
        for c in 0..3 {
            assert!(gains.0[2][c] > 1.8 * gains.0[0][c], "{:?}", gains.0);
            assert!((gains.0[0][c] - gains.0[1][c]).abs() < 1e-4);
        }
    }
}
