//! One self-consistent reading of a cube from a starting labelling: per-face light and per-colour references re-estimated from the labels, pieces decided again, until the labels settle; and the starting labellings the classifier tries. Pure.

use super::classify::{name_colours, ClassifyOptions};
use super::classify_pieces::{solve_pieces, PieceSolution, StickerCosts};
use super::colour::{LabColour, Rgb};
use super::colour_difference::ciede2000;
use super::lighting::{chromaticity, linearize, FaceGains, LightBounds};
use super::palette::Palette;

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
}

impl Fit {
    pub(crate) fn converged(&self) -> bool {
        self.unsettled.is_empty()
    }

    /// The colour (face index of its centre) of every sticker.
    pub(crate) fn colours(&self) -> [usize; 54] {
        colours_of(&self.solution)
    }
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
            ciede2000(labs[s], refs[f], options.lightness_factor)
                + options.chromaticity_weight * distance(chroma[s], ref_chroma[f])
        })
    })
}

fn distance(x: [f32; 3], y: [f32; 3]) -> f32 {
    ((x[0] - y[0]).powi(2) + (x[1] - y[1]).powi(2) + (x[2] - y[2]).powi(2)).sqrt()
}
