//! Classification of 54 sticker readings into a legal cube (or a clear refusal): centres name faces, references adapt to this scan, pieces are decided together. Pure.

use super::classify_pieces::{sticker_gaps, StickerCosts};
use super::colour::{LabColour, Rgb};
use super::face_consistency::{alike_stickers_told_apart, unlike_stickers};
use super::lighting::LightBounds;
use super::palette::Palette;
use super::refine::{fit, Fit, STARTS};
pub use super::repairs::{IMPOSSIBLE_REPAIR, UNSHOWN_REPAIR, WORST_UNSHOWN_REPAIR};
use crate::cube::moves::Axis;
use crate::cube::{ColourScheme, CubieCube, FaceletCube, Move, Rotation};

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
            pocket_calibration: super::pocket_classify::POCKET_CALIBRATION,
        }
    }
}

/// The default `light_doubt`: the gains of a face are estimated from its nine
/// stickers, so each channel is known to a few per cent at best.
const LIGHT_DOUBT: f32 = 0.05;

/// The default `min_confidence`: the least of the bench's candidate
/// thresholds that keeps confident errors at or below 0.1 % in every
/// development condition (0.5 % in strong drift), both counted and as the
/// calibration expects them, with `CALIBRATION_A`/`B` (`cubed bench vision
/// --fit` chose all three on an earlier version of this reader; today's refit
/// gives the same confident errors on the development part and fewer right
/// readings, so these stay: BENCHMARKS.md).
pub const DEFAULT_MIN_CONFIDENCE: f32 = 0.98;

/// The calibration: the chance a cube is wrong when its least sure sticker's
/// gap is `g` is `1 / (1 + exp(A + B * sqrt(min(g, 100))))`, a logistic fit
/// (maximum likelihood) of the wrong best guesses on the development scans
/// over all of the bench's lighting conditions (`cubed bench vision --fit`,
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

/// A legal cube read from the stickers, with how sure each sticker is.
#[derive(Clone, Debug, PartialEq)]
pub struct Classification {
    /// Each sticker's colour, named by the face of its centre.
    pub facelets: FaceletCube,
    pub cubies: CubieCube,
    /// The palette symbol of each face's colour.
    pub scheme: ColourScheme,
    /// Index into the palette (by home face) of each face's colour.
    pub names: [usize; 6],
    /// Per sticker: cost gap (CIEDE2000 plus chromaticity) to the best legal
    /// reading in which it has another colour; for centres, the naming's gap.
    pub gaps: [f32; 54],
    /// Whether the labels stopped changing as the light was refined (if not,
    /// this is a guess and `classify` refuses it).
    pub converged: bool,
    /// How the gaps become probabilities.
    pub calibration: Calibration,
    /// How much more it costs than readings that keep fewer of the cube's rules.
    pub repairs: Repairs,
}

/// How much more a legal reading costs than readings that keep fewer of the cube's rules: what
/// the bounds against a cube that cannot exist and against stickers that make no cube judge.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Repairs {
    /// Over the readings taken as they are (any twist, flip and parity; a 3x3's corners also
    /// mirrored), judged against `IMPOSSIBLE_REPAIR`.
    pub as_read: f32,
    /// Over each sticker read as the colour it looks most like, judged against
    /// `UNSHOWN_REPAIR` (a 2x2: `POCKET_UNSHOWN_REPAIR`).
    pub unshown: f32,
    /// The most of that one sticker (centres aside) costs: one sticker clearly read as another
    /// colour than it looks (a sticker swapped or covered).
    pub worst_unshown: f32,
}

impl Classification {
    /// The 54 palette symbols, URFDLB.
    pub fn symbols(&self) -> String {
        self.facelets.to_symbols(&self.scheme)
    }

    /// Per sticker, the calibrated probability (0..=1) that it is read right
    /// (one minus the calibrated error probability of its gap). Centres define the faces:
    /// always 1.
    pub fn sticker_confidence(&self) -> [f32; 54] {
        std::array::from_fn(|s| {
            if s % 9 == 4 {
                1.0
            } else {
                1.0 - self.calibration.error_probability(self.gaps[s])
            }
        })
    }

    /// Non-centre stickers whose calibrated probability of being right is
    /// below `min_confidence` (0..=1; 1 makes every sticker unsure).
    pub fn unsure_stickers(&self, min_confidence: f32) -> Vec<usize> {
        (0..54)
            .filter(|&s| {
                s % 9 != 4
                    && self.calibration.error_probability(self.gaps[s]) > 1.0 - min_confidence
            })
            .collect()
    }

    /// The smallest gap of a non-centre sticker: how far the nearest other legal reading is.
    pub fn least_gap(&self) -> f32 {
        (0..54)
            .filter(|s| s % 9 != 4)
            .map(|s| self.gaps[s])
            .fold(f32::INFINITY, f32::min)
    }

    /// The calibrated chance that this cube is wrong (monotone in
    /// `least_gap`; measured against held-out data by the bench's
    /// reliability table).
    pub fn error_probability(&self) -> f32 {
        self.calibration.error_probability(self.least_gap())
    }

    /// The calibrated probability that this cube is read right (`1 - error_probability`).
    pub fn confidence(&self) -> f32 {
        1.0 - self.error_probability()
    }

    /// How sure the naming of the six colours is (cost gap to the next orientation of the palette's scheme).
    pub fn naming_gap(&self) -> f32 {
        self.gaps[4]
    }
}

/// What makes the classifier doubt some stickers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Doubt {
    /// Another legal cube that differs there is nearly as good a reading.
    Close,
    /// They kept changing as each face's light was re-estimated (no convergence).
    Unsettled,
    /// Stickers given one colour on one face look unlike each other, which
    /// one light cannot do: the reading fits the light, not the cube.
    Unlike,
    /// Stickers given different colours on one face look alike where the
    /// camera clipped: what tells their colours apart was not recorded.
    Alike,
    /// Stickers read blank white (every channel clipped) were given a hue:
    /// the camera recorded none (the 2x2, which has no centres to name colours).
    Blank,
    /// The stickers as read make a cube that cannot exist (a piece twisted,
    /// flipped, swapped or mirrored in place); the legal reading is a repair that
    /// differs from them there.
    Impossible,
}

impl std::fmt::Display for Doubt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Doubt::Close => "another legal reading is nearly as good",
            Doubt::Unsettled => "the colours did not settle as the light was re-estimated",
            Doubt::Unlike => "stickers read as one colour on one face look unlike each other",
            Doubt::Alike => {
                "stickers read as different colours on one face look alike where the camera clipped"
            }
            Doubt::Blank => "stickers the camera clipped to blank white were given another colour",
            Doubt::Impossible => {
                "the stickers as read make a cube that cannot exist: a corner twisted, an edge \
                 flipped, two pieces swapped or a corner mirrored (two of its stickers swapped) \
                 in place, by a misread or by hand; these are where the nearest cube that can \
                 exist differs"
            }
        })
    }
}

/// Why the classifier refuses to give a cube.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ClassifyError {
    #[error("unsure of {} sticker(s) {} ({doubt}; least confidence wanted {threshold})", stickers.len(), crate::cube::sticker_names(stickers, 9))]
    Unsure {
        stickers: Vec<usize>,
        threshold: f32,
        doubt: Doubt,
        best_guess: Box<Classification>,
    },
}

impl ClassifyError {
    /// A short machine-readable name of the refusal.
    pub fn kind(&self) -> &'static str {
        let ClassifyError::Unsure { doubt, .. } = self;
        doubt.kind()
    }
}

impl Doubt {
    /// A short machine-readable name of the doubt.
    pub fn kind(&self) -> &'static str {
        match self {
            Doubt::Close => "unsure",
            Doubt::Unsettled => "not_converged",
            Doubt::Unlike => "unlike",
            Doubt::Alike => "alike",
            Doubt::Blank => "blank",
            Doubt::Impossible => "impossible",
        }
    }
}

/// Reads a cube from 54 sRGB readings (URFDLB, each face row by row in net orientation).
pub fn classify(
    readings: &[Rgb; 54],
    palette: &Palette,
    options: &ClassifyOptions,
) -> Result<Classification, ClassifyError> {
    let Reading {
        classification: best,
        unsettled,
        unlike,
        alike,
        impossible,
    } = read_cube(readings, palette, options);
    if !best.converged {
        return Err(ClassifyError::Unsure {
            stickers: unsettled,
            threshold: options.min_confidence,
            doubt: Doubt::Unsettled,
            best_guess: Box::new(best),
        });
    }
    let stickers = best.unsure_stickers(options.min_confidence);
    if stickers.is_empty() {
        Ok(best)
    } else {
        let among = |which: &[usize]| stickers.iter().any(|s| which.contains(s));
        let doubt = if among(&impossible) {
            Doubt::Impossible
        } else if among(&unlike) {
            Doubt::Unlike
        } else if among(&alike) {
            Doubt::Alike
        } else {
            Doubt::Close
        };
        Err(ClassifyError::Unsure {
            stickers,
            threshold: options.min_confidence,
            doubt,
            best_guess: Box::new(best),
        })
    }
}

/// The most likely legal cube, however unsure (see `read_cube`).
pub fn classify_best_guess(
    readings: &[Rgb; 54],
    palette: &Palette,
    options: &ClassifyOptions,
) -> Classification {
    read_cube(readings, palette, options).classification
}

/// The most likely legal cube, with what makes it doubtful.
struct Reading {
    classification: Classification,
    /// Stickers that kept changing when the labels did not settle.
    unsettled: Vec<usize>,
    /// Stickers that look unlike others given their colour on their face.
    unlike: Vec<usize>,
    /// Stickers that look like others given another colour on their face, where clipped.
    alike: Vec<usize>,
    /// Stickers where the readings, taken as they are, break a rule of the cube.
    impossible: Vec<usize>,
}

/// The most likely legal cube, the stickers that kept changing if the labels
/// did not settle, those unlike others of their colour on their face, and
/// those alike others of another colour where clipped.
///
/// The reading is fitted from each start (`refine.rs`): the centres'
/// chromaticities, and the calibrated palette. The cheapest settled fit wins
/// (`Fit::total_cost`: its pieces and its centres under its own light); each sticker's gap is
/// the cost gap to the best legal cube where it has another colour, and no
/// more than the gap to a differing reading that another start settled on
/// (a whole face read under another light is a legal alternative that no
/// single-sticker change finds).
fn read_cube(readings: &[Rgb; 54], palette: &Palette, options: &ClassifyOptions) -> Reading {
    let mut fits: Vec<Fit> = STARTS
        .iter()
        .map(|&start| fit(readings, palette, options, start))
        .collect();
    fits.sort_by(|a, b| {
        (!a.converged(), a.total_cost())
            .partial_cmp(&(!b.converged(), b.total_cost()))
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    let best = fits.remove(0);
    let colours = best.colours();
    let doubted = best.costs_under_light_doubt(options);
    let mut gaps = sticker_gaps(&doubted, &best.solution);
    for rival in &fits {
        let gap = (rival.total_cost() - best.total_cost()).max(0.0);
        let theirs = rival.colours();
        for s in (0..54).filter(|&s| theirs[s] != colours[s]) {
            gaps[s] = gaps[s].min(gap);
        }
    }
    bound_by_recolourings(&mut gaps, &best.costs, &colours);
    // A reading that one light cannot give is no reading, and stickers of two
    // colours that clipping made alike show the face's light is beyond what
    // the correction models: those stickers are in doubt.
    let unlike = unlike_stickers(readings, &colours);
    let alike = alike_stickers_told_apart(readings, &colours);
    let (repairs, impossible) = super::repairs::judge(&best.costs, &colours);
    for &s in unlike.iter().chain(&alike).chain(&impossible) {
        gaps[s] = 0.0;
    }
    for f in 0..6 {
        gaps[f * 9 + 4] = best.naming.1;
    }
    let converged = best.converged();
    let classification = Classification {
        facelets: best.solution.cubies.to_facelets(),
        cubies: best.solution.cubies,
        scheme: palette.scheme(&best.naming.0),
        names: best.naming.0,
        gaps,
        converged,
        calibration: options.calibration,
        repairs,
    };
    Reading {
        classification,
        unsettled: best.unsettled,
        unlike,
        alike,
        impossible,
    }
}

/// Bounds the gaps by the cube's recolourings: giving every non-centre
/// sticker the colour a whole-cube rotation maps its colour to is another
/// legal reading, and only the six centres tell the two apart (the other
/// stickers keep their groups, so their references just follow them). Its
/// cost gap is what the centres pay for belonging to the other colours; every
/// sticker whose colour such a recolouring changes is no surer than that.
fn bound_by_recolourings(gaps: &mut [f32; 54], costs: &StickerCosts, colours: &[usize; 54]) {
    for map in orientations().iter().skip(1) {
        let gap: f32 = (0..6)
            .map(|f| costs[f * 9 + 4][map[f]] - costs[f * 9 + 4][f])
            .sum::<f32>()
            .max(0.0);
        for s in (0..54).filter(|&s| s % 9 != 4 && map[colours[s]] != colours[s]) {
            gaps[s] = gaps[s].min(gap);
        }
    }
}

/// The 24 ways a cube can be held: for each, the home face (in the reference
/// orientation) of the colour now on each face (worked out once).
pub fn orientations() -> &'static [[usize; 6]] {
    static ALL: std::sync::OnceLock<Vec<[usize; 6]>> = std::sync::OnceLock::new();
    ALL.get_or_init(|| {
        let mut found: Vec<FaceletCube> = vec![FaceletCube::default()];
        let mut i = 0;
        while i < found.len() {
            for axis in [Axis::X, Axis::Y] {
                let next = found[i].apply(Move::Rotate(Rotation { axis, quarters: 1 }));
                if !found.contains(&next) {
                    found.push(next);
                }
            }
            i += 1;
        }
        found
            .iter()
            .map(|f| std::array::from_fn(|face| f.stickers[face * 9 + 4].index()))
            .collect()
    })
}

/// Which palette colour each face's colour is: the cheapest of the 24
/// orientations of the palette's scheme, and the cost gap to the next cheapest.
pub fn name_colours(centres: &[LabColour; 6], palette: &Palette) -> ([usize; 6], f32) {
    let distance: [[f32; 6]; 6] = std::array::from_fn(|f| {
        std::array::from_fn(|c| centres[f].delta_e(palette.colours[c].reference))
    });
    let mut scored: Vec<(f32, [usize; 6])> = orientations()
        .iter()
        .map(|&names| ((0..6).map(|f| distance[f][names[f]]).sum(), names))
        .collect();
    scored.sort_by(|a, b| a.0.total_cmp(&b.0));
    (scored[0].1, scored[1].0 - scored[0].0)
}

#[cfg(test)]
mod tests;
