//! How the reader is tuned (`ClassifyOptions`) and how a reading's gaps become the chance it is right (`Calibration`, one for the 3x3 and one for the 2x2).

use crate::light::lighting::LightBounds;

/// Tuning of the classifier.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClassifyOptions {
    /// The least calibrated probability of being right (0..=1) a cube must
    /// have to be given: stickers whose own calibrated probability is below
    /// this make the result "unsure" (see `Classification::confidence`).
    pub min_confidence: f32,
    /// Rounds of re-estimating the light and the colours; the labels must stop
    /// changing within them, or the result is refused.
    pub refinements: usize,
    /// Estimate per-face exposure and white balance from the stickers and correct them.
    pub correct_lighting: bool,
    /// How far one face's white balance may differ from its exposure, per
    /// channel (a ratio in linear light, either way).
    pub face_cast: f32,
    /// How much of the calibrated palette goes into each reference colour
    /// (0 = only this scan's stickers, 1 = only the palette).
    pub palette_weight: f32,
    /// CIEDE2000 lightness factor kL: larger forgives exposure differences more.
    pub lightness_factor: f32,
    /// Weight of the chromaticity distance (0..~1.4) added to the CIEDE2000 cost.
    pub chromaticity_weight: f32,
    /// How far off (a ratio in linear light, per channel) each face's
    /// corrected light may still be: stickers are no surer than their
    /// reading under the worst such error (see `Fit::costs_under_light_doubt`).
    pub light_doubt: f32,
    /// How gaps become probabilities.
    pub calibration: Calibration,
    /// How a 2x2's gaps become probabilities (its own search gives other gaps).
    pub pocket_calibration: Calibration,
}

impl Default for ClassifyOptions {
    fn default() -> Self {
        ClassifyOptions {
            min_confidence: DEFAULT_MIN_CONFIDENCE,
            refinements: 4,
            correct_lighting: true,
            face_cast: LightBounds::default().face_cast,
            palette_weight: 0.1,
            lightness_factor: 2.0,
            chromaticity_weight: 50.0,
            light_doubt: LIGHT_DOUBT,
            calibration: Calibration::default(),
            pocket_calibration: POCKET_CALIBRATION,
        }
    }
}

/// The default `light_doubt`: the gains of a face are estimated from its nine
/// stickers, so each channel is known to a few per cent at best.
const LIGHT_DOUBT: f32 = 0.05;

/// The default `min_confidence`: the least of the bench's candidate
/// thresholds that keeps confident errors at or below 0.1 % in every
/// development condition (0.5 % in strong drift), both counted and as the
/// calibration expects them, with `CALIBRATION_A`/`B` (`cubed-bench vision
/// --fit` chose all three on an earlier version of this reader; today's refit
/// gives the same confident errors on the development part and fewer right
/// readings, so these stay: BENCHMARKS.md).
pub const DEFAULT_MIN_CONFIDENCE: f32 = 0.98;

/// The calibration: the chance a cube is wrong when its least sure sticker's
/// gap is `g` is `1 / (1 + exp(A + B * sqrt(min(g, 100))))`, a logistic fit
/// (maximum likelihood) of the wrong best guesses on the development scans
/// over all of the bench's lighting conditions (`cubed-bench vision --fit`,
/// 6006 cubes). The square root fits the long tail of the gaps better than
/// the gap itself or its logarithm (log-likelihood -259 against -296 and -289
/// when it was chosen).
const CALIBRATION_A: f32 = -0.825;

const CALIBRATION_B: f32 = 2.1567;

/// How cost gaps become probabilities: a cube whose least sure sticker has
/// gap `g` is wrong with probability `1 / (1 + exp(a + b * sqrt(min(g, 100))))`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Calibration {
    pub a: f32,
    pub b: f32,
}

impl Default for Calibration {
    /// The fit on the development scans (`CALIBRATION_A`, `CALIBRATION_B`).
    fn default() -> Self {
        Calibration {
            a: CALIBRATION_A,
            b: CALIBRATION_B,
        }
    }
}

impl Calibration {
    /// The calibrated chance that a cube whose least sure sticker has cost gap `gap` is wrong.
    pub fn error_probability(&self, gap: f32) -> f32 {
        let x = gap.clamp(0.0, 100.0).sqrt();
        1.0 / (1.0 + (self.a + self.b * x).exp())
    }
}

/// The 2x2's calibration: the chance a 2x2 is wrong when its least sure
/// sticker's gap is `g` is `1 / (1 + exp(a + b * sqrt(min(g, 100))))`, a
/// logistic fit of the wrong best guesses on the corners of the development
/// scans over all of the bench's lighting conditions (`cubed-bench vision
/// --fit` prints it). Its gaps come from its own search (every placement of
/// the corners, no centres), so it has its own constants.
pub(crate) const POCKET_CALIBRATION: Calibration = Calibration {
    a: -8.110,
    b: 2.0419,
};
