//! One self-consistent reading of a cube from a starting labelling: per-face light and per-colour references re-estimated from the labels, pieces decided again, until the labels settle; and the starting labellings the classifier tries. Pure.

use crate::light::colour::{LabColour, Rgb};
use crate::light::colour_difference::ciede2000;
use crate::light::lighting::{
    chromaticity, encode, lab_of_linear, linear_of_lab, linearize, FaceGains, LightBounds, Linear,
};
use crate::light::palette::Palette;
use crate::read::centres::name_colours;
use crate::read::options::ClassifyOptions;
use crate::read::pieces::{solve_pieces, PieceSolution, StickerCosts};

/// Where a reading starts from: the first labelling the light is estimated from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Start {
    /// Each sticker nearest in chromaticity to a centre (blind to exposure, knows no palette).
    Centres,
    /// Each sticker nearest to the calibrated palette colour of a face (knows no light).
    Palette,
}

/// Every start, in the order they are tried.
pub(crate) const STARTS: [Start; 2] = [Start::Centres, Start::Palette];

/// A reading that the light estimation and the piece decision agree on (or the last one tried).
#[derive(Clone, Debug)]
pub(crate) struct Fit {
    pub solution: PieceSolution,
    /// The sticker costs under this reading's light and references.
    pub costs: StickerCosts,
    /// Palette colour of each face and the naming's cost gap.
    pub naming: ([usize; 6], f32),
    /// Stickers whose label changed in the last round (empty when converged).
    pub unsettled: Vec<usize>,
    /// The stickers under this reading's light, and the colours' references.
    pub labs: [LabColour; 54],
    pub refs: [LabColour; 6],
}

impl Fit {
    pub(crate) fn converged(&self) -> bool {
        self.unsettled.is_empty()
    }

    /// What the whole reading costs under its own light and references: its pieces, and each
    /// centre as its own colour. The centres fix the colours, so a reading that moves every
    /// other sticker to the group of another colour keeps its pieces' cost but pays here for
    /// the centres it leaves behind.
    pub(crate) fn total_cost(&self) -> f32 {
        let centres: f32 = (0..6).map(|f| self.costs[f * 9 + 4][f]).sum();
        self.solution.cost + centres
    }

    /// The colour (face index of its centre) of every sticker.
    pub(crate) fn colours(&self) -> [usize; 54] {
        colours_of(&self.solution)
    }

    /// The sticker costs with every other colour as close to each sticker's
    /// own as the light correction's uncertainty allows: each channel of the
    /// corrected sticker may be off by `uncertainty` (a ratio in linear light)
    /// either way, and each other colour takes the least of its cost
    /// differences over those lights (as they are, and each channel moved
    /// towards the other colour). Colours that differ by less than what that
    /// uncertainty can do come close; colours far apart (more than `CLOSE`)
    /// stay as they are.
    pub(crate) fn costs_under_light_doubt(&self, options: &ClassifyOptions) -> StickerCosts {
        let mut doubted = self.costs;
        let uncertainty = options.light_doubt;
        if uncertainty <= 0.0 {
            return doubted;
        }
        let colours = self.colours();
        let ref_chroma = self.refs.map(|r| chromaticity(r.to_rgb()));
        let ref_linear = self.refs.map(linear_of_lab);
        for s in 0..54 {
            let own = colours[s];
            let close: Vec<usize> = (0..6)
                .filter(|&k| k != own && self.costs[s][k] - self.costs[s][own] < CLOSE)
                .collect();
            if close.is_empty() {
                continue;
            }
            let linear = linear_of_lab(self.labs[s]);
            for (channel, up) in (0..3).flat_map(|c| [(c, true), (c, false)]) {
                let wanted = close
                    .iter()
                    .any(|&k| toward(&ref_linear, own, k, channel) == Some(up));
                if !wanted {
                    continue;
                }
                let mut shifted: Linear = linear;
                shifted[channel] *= if up {
                    1.0 + uncertainty
                } else {
                    1.0 / (1.0 + uncertainty)
                };
                let lab = lab_of_linear(shifted);
                let chroma = chromaticity(encode(shifted));
                let cost =
                    |k: usize| sticker_cost((lab, chroma), (self.refs[k], ref_chroma[k]), options);
                let own_cost = cost(own);
                for &k in &close {
                    let difference = cost(k) - own_cost;
                    doubted[s][k] = doubted[s][k].min(self.costs[s][own] + difference);
                }
            }
        }
        doubted
    }
}

/// Cost differences from a sticker's own colour beyond which the light's
/// uncertainty is not weighed: its shifts move a cost by a few units, and a
/// gap this large is certain under any threshold the calibration gives.
const CLOSE: f32 = 40.0;

/// Whether channel `c` must go up (`Some(true)`) or down to move colour
/// `own` towards colour `other`, brightness set aside; `None` when it need not move.
fn toward(references: &[Linear; 6], own: usize, other: usize, c: usize) -> Option<bool> {
    let log_ratio = |c: usize| (references[other][c].max(1e-6) / references[own][c].max(1e-6)).ln();
    let mean = (log_ratio(0) + log_ratio(1) + log_ratio(2)) / 3.0;
    let relative = log_ratio(c) - mean;
    (relative != 0.0).then_some(relative > 0.0)
}

/// Reads a cube from `start`:
///
/// 1. the first labels come from the start's costs;
/// 2. each face's light is estimated from its labelled stickers (bounded,
///    `lighting.rs`) and each colour's reference is the median of its
///    corrected stickers, drawn a little towards the palette colour its
///    centre is named;
/// 3. pieces are decided again by CIEDE2000 plus chromaticity to the
///    references, until nothing changes or `options.refinements` runs out.
pub(crate) fn fit(
    readings: &[Rgb; 54],
    palette: &Palette,
    options: &ClassifyOptions,
    start: Start,
) -> Fit {
    let linear = readings.map(linearize);
    let bounds = LightBounds {
        face_cast: options.face_cast,
        ..LightBounds::for_palette(palette)
    };
    let raw = readings.map(LabColour::from_rgb);
    let mut colour_of = colours_of(&solve_pieces(&start_costs(
        start, readings, &raw, palette, options,
    )));
    let mut gains = FaceGains::default();
    let mut labs = raw;
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
        let solution = solve_pieces(&costs);
        let next = colours_of(&solution);
        let unsettled: Vec<usize> = (0..54).filter(|&s| next[s] != colour_of[s]).collect();
        if unsettled.is_empty() || round >= options.refinements {
            return Fit {
                solution,
                costs,
                naming,
                unsettled,
                labs,
                refs,
            };
        }
        colour_of = next;
        round += 1;
    }
}

/// The costs the first labels are decided by.
fn start_costs(
    start: Start,
    readings: &[Rgb; 54],
    labs: &[LabColour; 54],
    palette: &Palette,
    options: &ClassifyOptions,
) -> StickerCosts {
    match start {
        Start::Centres => chromaticity_costs(readings),
        Start::Palette => {
            let centres: [LabColour; 6] = std::array::from_fn(|f| labs[f * 9 + 4]);
            let (names, _) = name_colours(&centres, palette);
            let refs = names.map(|n| palette.colours[n].reference);
            sticker_costs(labs, &refs, options)
        }
    }
}

/// The colour (face index of its centre) of every sticker of a solution.
pub(crate) fn colours_of(solution: &PieceSolution) -> [usize; 54] {
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
            sticker_cost((labs[s], chroma[s]), (refs[f], ref_chroma[f]), options)
        })
    })
}

/// The cost of one sticker (its Lab and chromaticity) being one colour (its reference's).
pub(crate) fn sticker_cost(
    (lab, chroma): (LabColour, [f32; 3]),
    (reference, reference_chroma): (LabColour, [f32; 3]),
    options: &ClassifyOptions,
) -> f32 {
    ciede2000(lab, reference, options.lightness_factor)
        + options.chromaticity_weight * distance(chroma, reference_chroma)
}

fn distance(x: [f32; 3], y: [f32; 3]) -> f32 {
    ((x[0] - y[0]).powi(2) + (x[1] - y[1]).powi(2) + (x[2] - y[2]).powi(2)).sqrt()
}
