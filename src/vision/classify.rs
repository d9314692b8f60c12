//! Classification of 54 sticker readings into a legal cube (or a clear refusal): centres name faces, references adapt to this scan, pieces are decided together. Pure.

use super::classify_pieces::{solve_pieces, sticker_gaps, PieceSolution, StickerCosts};
use super::colour::{LabColour, Rgb};
use super::colour_difference::ciede2000;
use super::lighting::{chromaticity, linearize, FaceGains, LightBounds};
use super::palette::Palette;
use crate::cube::moves::Axis;
use crate::cube::{ColourScheme, CubieCube, FaceletCube, Move, Rotation};

/// Tuning of the classifier.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClassifyOptions {
    /// Stickers whose confidence (cost gap to the best legal alternative) is
    /// below this make the result "unsure". The default keeps confident errors
    /// at or below 0.1 % on the development scans under lighting drift (see
    /// `cubed bench vision`, reliability table).
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
        }
    }
}

/// The default `min_confidence`, chosen on the development scans: under the
/// seeded drift it leaves no confident error in 1800 cubes (1 at 1.4) and
/// refuses 0.3 %; the shipped photo set (least confidence 4.3) stays right.
pub const DEFAULT_MIN_CONFIDENCE: f32 = 4.0;

/// The calibration of `Classification::error_probability`: a logistic fit
/// `1 / (1 + exp(A + B * least_confidence))` of the wrong best guesses on the
/// development scans over all of the bench's lighting conditions (9006 cubes,
/// `cubed bench vision --parts dev --variants 300 --samples-out …`).
const CALIBRATION_A: f32 = -0.75;
const CALIBRATION_B: f32 = 0.35;

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
    /// Per sticker: cost gap (ΔE00) to the best legal cube in which it has
    /// another colour; for centres, the naming confidence.
    pub confidence: [f32; 54],
    /// Whether the labels stopped changing as the light was refined (if not,
    /// this is a guess and `classify` refuses it).
    pub converged: bool,
}

impl Classification {
    /// The 54 palette symbols, URFDLB.
    pub fn symbols(&self) -> String {
        self.facelets.to_symbols(&self.scheme)
    }

    /// Non-centre stickers whose confidence is below `threshold`. Centres
    /// define the faces, so they are never unsure; their confidence is that of
    /// the naming of the colours (which palette colour is which face), which
    /// changes only the printed symbols, not the cube.
    pub fn unsure_stickers(&self, threshold: f32) -> Vec<usize> {
        (0..54)
            .filter(|&s| s % 9 != 4 && self.confidence[s] < threshold)
            .collect()
    }

    /// The smallest confidence of a non-centre sticker: how far the nearest other legal cube is.
    pub fn least_confidence(&self) -> f32 {
        (0..54)
            .filter(|s| s % 9 != 4)
            .map(|s| self.confidence[s])
            .fold(f32::INFINITY, f32::min)
    }

    /// The calibrated chance that this cube is wrong (monotone in
    /// `least_confidence`; measured against held-out data by the bench's
    /// reliability table).
    pub fn error_probability(&self) -> f32 {
        let g = self.least_confidence().min(100.0);
        1.0 / (1.0 + (CALIBRATION_A + CALIBRATION_B * g).exp())
    }

    /// How sure the naming of the six colours is (cost gap to the next orientation of the palette's scheme).
    pub fn naming_confidence(&self) -> f32 {
        self.confidence[4]
    }
}

/// What makes the classifier doubt some stickers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Doubt {
    /// Another legal cube that differs there is nearly as good a reading.
    Close,
    /// They kept changing as each face's light was re-estimated (no convergence).
    Unsettled,
}

impl std::fmt::Display for Doubt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Doubt::Close => "another legal reading is nearly as good",
            Doubt::Unsettled => "the colours did not settle as the light was re-estimated",
        })
    }
}

/// Why the classifier refuses to give a cube.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ClassifyError {
    #[error("unsure of {} sticker(s) {stickers:?} ({doubt}; confidence threshold {threshold}); re-capture", stickers.len())]
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
        match self {
            ClassifyError::Unsure {
                doubt: Doubt::Close,
                ..
            } => "unsure",
            ClassifyError::Unsure {
                doubt: Doubt::Unsettled,
                ..
            } => "not_converged",
        }
    }
}

/// Reads a cube from 54 sRGB readings (URFDLB, each face row by row in net orientation).
pub fn classify(
    readings: &[Rgb; 54],
    palette: &Palette,
    options: &ClassifyOptions,
) -> Result<Classification, ClassifyError> {
    let (best, unsettled) = read_cube(readings, palette, options);
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
        Err(ClassifyError::Unsure {
            stickers,
            threshold: options.min_confidence,
            doubt: Doubt::Close,
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
    read_cube(readings, palette, options).0
}

/// The most likely legal cube and, if the labels did not settle, the stickers that kept changing.
///
/// 1. The centres are named against the palette (which colour is which face).
/// 2. Each face's light comes from its centre against the palette colour of
///    that face (bounded); the reference of each colour is its centre so corrected.
/// 3. Pieces are decided by CIEDE2000 to the references; then each face's light
///    is refined from its labelled stickers (within the bounds around the
///    centres' estimate) and the pieces decided again, until nothing changes.
fn read_cube(
    readings: &[Rgb; 54],
    palette: &Palette,
    options: &ClassifyOptions,
) -> (Classification, Vec<usize>) {
    let linear = readings.map(linearize);
    let bounds = LightBounds {
        face_cast: options.face_cast,
        ..LightBounds::for_palette(palette)
    };
    let mut colour_of = colours_of(&solve_pieces(&chromaticity_costs(readings)));
    let mut gains = FaceGains::default();
    let mut labs = readings.map(LabColour::from_rgb);
    let mut round = 0;
    loop {
        if options.correct_lighting {
            gains = gains.estimate(readings, &linear, &colour_of, &bounds);
            labs = gains.correct(readings, &linear);
        }
        let medians = colour_medians(&labs, &colour_of);
        let naming = name_colours(&medians, palette);
        let refs: [LabColour; 6] = std::array::from_fn(|f| {
            medians[f].mix(
                palette.colours[naming.0[f]].reference,
                options.palette_weight,
            )
        });
        let costs = sticker_costs(&labs, &refs, options);
        let next = solve_pieces(&costs);
        let next_colours = colours_of(&next);
        let unsettled: Vec<usize> = (0..54)
            .filter(|&s| next_colours[s] != colour_of[s])
            .collect();
        if unsettled.is_empty() || round >= options.refinements {
            let converged = unsettled.is_empty();
            return (finish(next, &costs, naming, palette, converged), unsettled);
        }
        colour_of = next_colours;
        round += 1;
    }
}

/// The colour (face index of its centre) of every sticker of a solution.
fn colours_of(solution: &PieceSolution) -> [usize; 54] {
    solution.cubies.to_facelets().stickers.map(|f| f.index())
}

/// Per colour, the median of the stickers given it.
fn colour_medians(labs: &[LabColour; 54], colour_of: &[usize; 54]) -> [LabColour; 6] {
    std::array::from_fn(|f| {
        let members = (0..54).filter(|&s| colour_of[s] == f).map(|s| labs[s]);
        LabColour::median(members).unwrap_or(labs[f * 9 + 4])
    })
}

/// First-pass costs: distance in chromaticity to each centre, x100 (anchored on the centres, blind to exposure).
fn chromaticity_costs(readings: &[Rgb; 54]) -> StickerCosts {
    let chroma = readings.map(chromaticity);
    std::array::from_fn(|s| std::array::from_fn(|f| 100.0 * distance(chroma[s], chroma[f * 9 + 4])))
}

fn finish(
    solution: PieceSolution,
    costs: &StickerCosts,
    (names, naming_gap): ([usize; 6], f32),
    palette: &Palette,
    converged: bool,
) -> Classification {
    let mut confidence = sticker_gaps(costs, &solution);
    for f in 0..6 {
        confidence[f * 9 + 4] = naming_gap;
    }
    Classification {
        facelets: solution.cubies.to_facelets(),
        cubies: solution.cubies,
        scheme: palette.scheme(&names),
        names,
        confidence,
        converged,
    }
}

/// Cost of each sticker being each face's colour: CIEDE2000 to the colour's
/// reference plus the distance of their chromaticities (blind to exposure,
/// and not blunted by a clipped channel as lightness and chroma are).
fn sticker_costs(
    labs: &[LabColour; 54],
    refs: &[LabColour; 6],
    options: &ClassifyOptions,
) -> StickerCosts {
    let chroma = labs.map(|l| chromaticity(l.to_rgb()));
    let ref_chroma = refs.map(|r| chromaticity(r.to_rgb()));
    std::array::from_fn(|s| {
        std::array::from_fn(|f| {
            ciede2000(labs[s], refs[f], options.lightness_factor)
                + options.chromaticity_weight * distance(chroma[s], ref_chroma[f])
        })
    })
}

fn distance(x: [f32; 3], y: [f32; 3]) -> f32 {
    ((x[0] - y[0]).powi(2) + (x[1] - y[1]).powi(2) + (x[2] - y[2]).powi(2)).sqrt()
}

/// The 24 ways a cube can be held: for each, the home face (in the reference
/// orientation) of the colour now on each face.
pub fn orientations() -> Vec<[usize; 6]> {
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
}

/// Which palette colour each face's colour is: the cheapest of the 24
/// orientations of the palette's scheme, and the cost gap to the next cheapest.
pub fn name_colours(centres: &[LabColour; 6], palette: &Palette) -> ([usize; 6], f32) {
    let mut scored: Vec<(f32, [usize; 6])> = orientations()
        .into_iter()
        .map(|names| {
            (
                (0..6)
                    .map(|f| centres[f].delta_e(palette.colours[names[f]].reference))
                    .sum(),
                names,
            )
        })
        .collect();
    scored.sort_by(|a, b| a.0.total_cmp(&b.0));
    (scored[0].1, scored[1].0 - scored[0].0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn there_are_24_orientations_each_keeping_opposites_opposite() {
        let all = orientations();
        assert_eq!(all.len(), 24);
        for names in &all {
            for f in 0..3 {
                assert_eq!((names[f] + 3) % 6, names[f + 3]);
            }
        }
    }

    fn palette_readings(cube: &FaceletCube, palette: &Palette, names: &[usize; 6]) -> [Rgb; 54] {
        std::array::from_fn(|s| {
            palette.colours[names[cube.stickers[s].index()]]
                .reference
                .to_rgb()
        })
    }

    #[test]
    fn the_palette_colours_themselves_classify_exactly() {
        let palette = Palette::default();
        let cube = CubieCube {
            cp: [1, 0, 2, 3, 4, 5, 6, 7],
            ep: [1, 0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
            ..Default::default()
        };
        let facelets = cube.to_facelets();
        for names in orientations() {
            let readings = palette_readings(&facelets, &palette, &names);
            let got = classify(&readings, &palette, &ClassifyOptions::default()).expect("sure");
            assert_eq!(got.facelets, facelets);
            assert_eq!(got.names, names);
        }
    }

    #[test]
    fn two_corners_that_read_grey_are_unsure_and_the_guess_is_legal() {
        let palette = Palette::default();
        let mut readings = palette_readings(&FaceletCube::default(), &palette, &[0, 1, 2, 3, 4, 5]);
        // Every twist of URF and UFL costs the same: no way to tell them apart.
        for sticker in [8, 9, 20, 6, 18, 38] {
            readings[sticker] = [128, 128, 128];
        }
        match classify(&readings, &palette, &ClassifyOptions::default()) {
            Err(ClassifyError::Unsure {
                stickers,
                best_guess,
                ..
            }) => {
                assert_eq!(stickers, vec![6, 8, 9, 18, 20, 38]);
                assert!(best_guess.cubies.check().is_ok());
            }
            Ok(c) => panic!("should be unsure, got {} {:?}", c.symbols(), c.confidence),
        }
    }

    #[test]
    fn the_error_probability_falls_as_the_least_confidence_grows() {
        let palette = Palette::default();
        let solved = FaceletCube::default();
        let readings = palette_readings(&solved, &palette, &[0, 1, 2, 3, 4, 5]);
        let mut c = classify_best_guess(&readings, &palette, &ClassifyOptions::default());
        let mut last = 0.0;
        for gap in [40.0, 20.0, 8.0, 4.0, 1.0, 0.0] {
            for s in (0..54).filter(|s| s % 9 != 4) {
                c.confidence[s] = gap;
            }
            let p = c.error_probability();
            assert!(p > last && (0.0..=1.0).contains(&p), "{gap}: {p}");
            last = p;
        }
    }

    #[test]
    fn one_corner_halfway_is_still_sure_because_no_legal_cube_differs_only_there() {
        let palette = Palette::default();
        let solved = FaceletCube::default();
        let mut readings = palette_readings(&solved, &palette, &[0, 1, 2, 3, 4, 5]);
        readings[8] = palette.colours[0]
            .reference
            .mix(palette.colours[3].reference, 0.5)
            .to_rgb();
        let got = classify(&readings, &palette, &ClassifyOptions::default()).expect("sure");
        assert_eq!(got.facelets, solved);
    }
}
