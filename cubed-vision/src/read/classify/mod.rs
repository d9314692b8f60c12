//! Classification of 54 sticker readings into a legal cube (or a clear refusal): centres name faces, references adapt to this scan, pieces are decided together. Pure.

use crate::cube::{ColourScheme, CubieCube, Face, FaceletCube};
use crate::light::colour::Rgb;
use crate::light::palette::Palette;
pub use crate::read::centres::orientations;
pub use crate::read::doubt::{Doubt, Repairs};
use crate::read::face_consistency::{
    alike_stickers_told_apart, one_reading_given_two_colours, unlike_stickers,
};
pub use crate::read::options::Calibration;
pub use crate::read::options::ClassifyOptions;
pub use crate::read::options::DEFAULT_MIN_CONFIDENCE;
use crate::read::pieces::{colours_without_cube_rules, sticker_gaps, StickerCosts};
use crate::read::reading::{CubeReading, Unsure};
use crate::read::refine::{fit, Fit, STARTS};
pub use crate::read::repairs::{IMPOSSIBLE_REPAIR, UNSHOWN_REPAIR, WORST_UNSHOWN_REPAIR};
use crate::read::washed_out::{any_clipped, on_washed_out_faces, washed_out_stickers};

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
    /// Stickers that show their face was washed out by the light (`read::washed_out`).
    pub washed_out: Vec<usize>,
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

/// Why the classifier refuses to give a 3x3.
pub type ClassifyError = Unsure<Classification>;

/// Reads a cube from 54 sRGB readings (URFDLB, each face row by row in net orientation).
pub fn classify(
    readings: &[Rgb; 54],
    palette: &Palette,
    options: &ClassifyOptions,
) -> Result<Classification, ClassifyError> {
    let reading = read_cube(readings, palette, options);
    let stickers = reading.in_doubt(options.min_confidence);
    if stickers.is_empty() {
        return Ok(reading.classification);
    }
    Err(ClassifyError {
        doubt: reading.doubt_over(&stickers),
        stickers,
        threshold: options.min_confidence,
        best_guess: Box::new(reading.classification),
    })
}

impl Reading {
    /// The stickers in doubt: those whose gaps leave them less sure than `min_confidence`, and
    /// when the labels did not settle (the reading is a guess) those that kept changing too.
    fn in_doubt(&self, min_confidence: f32) -> Vec<usize> {
        let mut stickers = self.classification.unsure_stickers(min_confidence);
        stickers.extend(&self.unsettled);
        stickers.sort_unstable();
        stickers.dedup();
        stickers
    }

    /// Why `stickers` are in doubt. Stickers on a face the light washed out are in doubt
    /// because of the light, whatever else their reading breaks: it names the light, not the
    /// cube (`Alike`).
    fn doubt_over(&self, stickers: &[usize]) -> Doubt {
        let among = |which: &[usize]| stickers.iter().any(|s| which.contains(s));
        if on_washed_out_faces(stickers, &self.washed_out, 9) {
            Doubt::Alike
        } else if !self.classification.converged {
            Doubt::Unsettled
        } else if among(&self.impossible) {
            Doubt::Impossible
        } else if among(&self.unlike) {
            Doubt::Unlike
        } else if among(&self.alike) {
            Doubt::Alike
        } else {
            Doubt::Close
        }
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
    /// Stickers that show their face was washed out by the light (`washed_out`).
    washed_out: Vec<usize>,
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
    // A reading that one light cannot give is no reading (one colour that looks
    // unlike itself, or one reading given two colours), and stickers of two
    // colours that clipping made alike show the face's light is beyond what
    // the correction models: those stickers are in doubt.
    let mut unlike = unlike_stickers(readings, &colours);
    unlike.extend(one_reading_given_two_colours(readings, &colours));
    unlike.sort_unstable();
    unlike.dedup();
    let alike = alike_stickers_told_apart(readings, &colours);
    let (repairs, impossible) = crate::read::repairs::judge(&best.costs, &colours);
    for &s in unlike.iter().chain(&alike).chain(&impossible) {
        gaps[s] = 0.0;
    }
    let washed_out = washed_out_as_read(readings, palette, &best);
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
        washed_out: washed_out.clone(),
    };
    Reading {
        classification,
        unsettled: best.unsettled,
        unlike,
        alike,
        impossible,
        washed_out,
    }
}

/// The stickers that show their face was washed out (`washed_out_stickers`), judged by the
/// colours the pieces show as read (any twist, flip or parity: `colours_without_cube_rules`):
/// a legal reading repairs a piece wrong in place by moving colours onto stickers that do not
/// look them, and that is no evidence of the light.
fn washed_out_as_read(readings: &[Rgb; 54], palette: &Palette, best: &Fit) -> Vec<usize> {
    if !any_clipped(readings) {
        return Vec::new();
    }
    let as_read = colours_without_cube_rules(&best.costs).map(|c| best.naming.0[c]);
    let pale = (&palette.references_rgb(), palette.palest());
    washed_out_stickers(readings, &as_read, pale, 9)
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

impl CubeReading for Classification {
    const PER_FACE: usize = 9;
    const OF_CUBE: &'static str = "";

    fn faces(&self) -> &[Face] {
        &self.facelets.stickers
    }

    fn colour_names(&self) -> &[usize; 6] {
        &self.names
    }

    fn symbols(&self) -> String {
        Classification::symbols(self)
    }

    fn confidence(&self) -> Vec<f32> {
        self.sticker_confidence().to_vec()
    }

    fn is_solved(&self) -> bool {
        self.cubies.is_solved()
    }

    fn washed_out(&self) -> &[usize] {
        &self.washed_out
    }
}

#[cfg(test)]
mod tests;
