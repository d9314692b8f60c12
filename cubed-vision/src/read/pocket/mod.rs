//! Classification of a 2x2's 24 sticker readings into a legal pocket cube, or a refusal naming the unsure stickers. Pure.
//!
//! A 2x2 has no centres: the back-left-bottom corner (DLB) is fixed, so its
//! three colours name D, L and B, and the palette's scheme (which colours are
//! opposite, and the handedness) names the rest. Every one of the 24 ways of
//! holding the palette's scheme is tried; for each, the eight corners are
//! decided together: DLB is the DLB piece untwisted, the other seven pieces take
//! the other seven places in every possible way, each with the twists of lowest
//! cost whose sum is 0 mod 3 (the twist repair; when it costs more than the 3x3's
//! `IMPOSSIBLE_REPAIR` over the cheapest placement under any holding with the twists as
//! read, a corner is twisted in place and the reading is refused as impossible). Costs are the 3x3's (CIEDE2000
//! plus chromaticity) to reference colours that start at the palette and are
//! adapted to this scan, a few rounds: each face's light is estimated from the
//! stickers' labels (bounded, as for the 3x3: `lighting.rs`) and each colour's
//! reference is the median of its corrected stickers, blended with the palette.
//! A sticker's gap is the cost gap to the best legal cube in which it has
//! another colour, as for the 3x3 (at most `CONFIDENCE_CAP`:
//! readings dearer than that are pruned from the search, which keeps it quick),
//! and the least gap becomes the chance the cube is wrong by the 2x2's own
//! calibration (`POCKET_CALIBRATION`), so `min_confidence` means the same
//! for both sizes.

use crate::assignment::min_cost_assignment;
use crate::cube::{ColourScheme, Corner, Face};
use crate::light::colour::{LabColour, Rgb};
use crate::light::lighting::{chromaticity, linearize, FaceGains, LightBounds};
use crate::light::palette::Palette;
use crate::pocket::stickers::{corner_stickers, STICKERS};
use crate::pocket::PocketFacelets;
use crate::read::centres::orientations;
use crate::read::doubt::{Doubt, Repairs};
use crate::read::face_consistency::blank_stickers_given_a_hue;
use crate::read::options::{Calibration, ClassifyOptions};
use crate::read::reading::{CubeReading, Unsure};
use crate::read::refine::sticker_cost;
use crate::read::repairs::IMPOSSIBLE_REPAIR;
use crate::read::washed_out::{on_washed_out_faces, washed_out_stickers};

/// A legal 2x2 read from its stickers, with how sure each sticker is.
#[derive(Clone, Debug, PartialEq)]
pub struct PocketClassification {
    /// Each sticker named by the face its colour belongs to (DLB's colours name D, L, B).
    pub facelets: PocketFacelets,
    /// The palette symbol of each face's colour.
    pub scheme: ColourScheme,
    /// Index into the palette (by home face) of each face's colour.
    pub names: [usize; 6],
    /// Per sticker: cost gap (the 3x3's sticker cost) to the best legal cube in
    /// which it has another colour.
    pub gaps: [f32; STICKERS],
    /// How the gaps become probabilities.
    pub calibration: Calibration,
    /// Stickers whose colour still changed in the last round of re-estimating
    /// the light (empty when the labels settled; if not, this is a guess and
    /// `classify_pocket` refuses it).
    pub unsettled: Vec<usize>,
    /// Stickers read blank white (every channel clipped) but given another
    /// colour than the palette's palest: in doubt, whatever their gap.
    pub blank: Vec<usize>,
    /// Stickers where the readings twist a corner as no 2x2 can be (the twists do not sum
    /// to 0): in doubt, whatever their gap.
    pub impossible: Vec<usize>,
    /// Stickers that show their face was washed out by the light (`read::washed_out`).
    pub washed_out: Vec<usize>,
    /// How much more this reading costs than the corners as read (`as_read`: large when the
    /// readings twist a corner as no 2x2 can be) and than every sticker read as the colour it
    /// looks most like (`unshown`: large when the stickers show no cube).
    pub repairs: Repairs,
}

impl PocketClassification {
    /// The 24 palette symbols, URFDLB.
    pub fn symbols(&self) -> String {
        self.facelets.to_symbols(&self.scheme)
    }

    /// Per sticker, the calibrated probability (0..=1) that it is read right.
    pub fn sticker_confidence(&self) -> [f32; STICKERS] {
        self.gaps
            .map(|g| 1.0 - self.calibration.error_probability(g))
    }

    /// Stickers whose calibrated probability of being right is below
    /// `min_confidence` (0..=1).
    pub fn unsure_stickers(&self, min_confidence: f32) -> Vec<usize> {
        (0..STICKERS)
            .filter(|&s| self.calibration.error_probability(self.gaps[s]) > 1.0 - min_confidence)
            .collect()
    }

    /// The smallest gap of any sticker.
    pub fn least_gap(&self) -> f32 {
        self.gaps.iter().copied().fold(f32::INFINITY, f32::min)
    }

    /// The calibrated chance that this 2x2 is wrong.
    pub fn error_probability(&self) -> f32 {
        self.calibration.error_probability(self.least_gap())
    }

    /// The calibrated probability that this 2x2 is read right.
    pub fn confidence(&self) -> f32 {
        1.0 - self.error_probability()
    }
}

/// Why the 2x2 classifier gives no cube.
pub type PocketClassifyError = Unsure<PocketClassification>;

/// Reads a 2x2 from 24 sRGB readings (URFDLB, each face row by row in net orientation).
pub fn classify_pocket(
    readings: &[Rgb; STICKERS],
    palette: &Palette,
    options: &ClassifyOptions,
) -> Result<PocketClassification, PocketClassifyError> {
    let best = classify_pocket_best_guess(readings, palette, options);
    if !best.unsettled.is_empty() {
        return Err(PocketClassifyError {
            stickers: best.unsettled.clone(),
            threshold: options.min_confidence,
            doubt: Doubt::Unsettled,
            best_guess: Box::new(best),
        });
    }
    let stickers = best.unsure_stickers(options.min_confidence);
    if stickers.is_empty() {
        Ok(best)
    } else {
        // Faces the light washed out name the light before a cube that cannot exist; a
        // legal repair of one may give a clipped white a hue (`blank`), which does not.
        let among = |which: &[usize]| stickers.iter().any(|s| which.contains(s));
        let doubt = if among(&best.blank) && !among(&best.impossible) {
            Doubt::Blank
        } else if on_washed_out_faces(&stickers, &best.washed_out, 4) {
            Doubt::Alike
        } else if among(&best.impossible) {
            Doubt::Impossible
        } else if among(&best.blank) {
            Doubt::Blank
        } else {
            Doubt::Close
        };
        Err(PocketClassifyError {
            stickers,
            threshold: options.min_confidence,
            doubt,
            best_guess: Box::new(best),
        })
    }
}

/// The most likely legal 2x2, however unsure.
pub fn classify_pocket_best_guess(
    readings: &[Rgb; STICKERS],
    palette: &Palette,
    options: &ClassifyOptions,
) -> PocketClassification {
    let mut labs = readings.map(LabColour::from_rgb);
    let linear = readings.map(linearize);
    let bounds = LightBounds {
        face_cast: options.face_cast,
        ..LightBounds::for_palette(palette)
    };
    let mut gains = FaceGains::default();
    let mut references: [LabColour; 6] = std::array::from_fn(|i| palette.colours[i].reference);
    let mut found = decide(&labs, &references, options);
    let mut unsettled = Vec::new();
    for _ in 0..options.refinements {
        if options.correct_lighting {
            gains = gains.estimate(readings, &linear, &found.colours, &bounds);
            labs = gains.correct(readings, &linear);
        }
        references = adapted(&labs, &found.colours, palette, options.palette_weight);
        let again = decide(&labs, &references, options);
        unsettled = (0..STICKERS)
            .filter(|&s| again.colours[s] != found.colours[s])
            .collect();
        found = again;
        if unsettled.is_empty() {
            break;
        }
    }
    let blank = blank_stickers_given_a_hue(readings, &found.colours, palette.palest());
    // As for the 3x3: twists no 2x2 can have are refused, not repaired into another cube.
    let impossible: Vec<usize> = if found.repair > IMPOSSIBLE_REPAIR {
        (0..STICKERS)
            .filter(|&s| found.as_read[s] != found.colours[s])
            .collect()
    } else if found.unshown > POCKET_UNSHOWN_REPAIR {
        // Stickers that make no 2x2 as they look (a face photographed turned), which a
        // placement of real corners under any holding repairs unseen.
        (0..STICKERS)
            .filter(|&s| found.nearest[s] != found.colours[s])
            .collect()
    } else {
        Vec::new()
    };
    // Judged by the corners as read: a legal reading's repair is no evidence of the light.
    let pale = (&palette.references_rgb(), palette.palest());
    let washed_out = washed_out_stickers(readings, &found.as_read, pale, 4);
    let mut read = found.into_classification(palette, options.pocket_calibration);
    read.unsettled = unsettled;
    read.washed_out = washed_out;
    for &s in blank.iter().chain(&impossible) {
        read.gaps[s] = 0.0;
    }
    read.blank = blank;
    read.impossible = impossible;
    read
}

/// Each colour's reference: the median of the stickers read as it, blended with the palette.
fn adapted(
    labs: &[LabColour; STICKERS],
    colours: &[usize; STICKERS],
    palette: &Palette,
    palette_weight: f32,
) -> [LabColour; 6] {
    std::array::from_fn(|c| {
        let calibrated = palette.colours[c].reference;
        let seen = (0..STICKERS).filter(|&s| colours[s] == c).map(|s| labs[s]);
        LabColour::median(seen).map_or(calibrated, |m| m.mix(calibrated, palette_weight))
    })
}

/// The best legal reading and, per sticker and palette colour, the cost of the best legal
/// reading giving that sticker that colour.
struct Decision {
    names: [usize; 6],
    /// Palette colour of each sticker in the best reading.
    colours: [usize; STICKERS],
    cost: f32,
    with_colour: [[f32; 6]; STICKERS],
    /// Each sticker's colour with every corner twisted as the readings have it.
    as_read: [usize; STICKERS],
    /// How much more the legal twists cost than those.
    repair: f32,
    /// Each sticker's colour as it looks (its cheapest, no rule of the cube kept).
    nearest: [usize; STICKERS],
    /// How much more the best reading costs than every sticker read as it looks.
    unshown: f32,
    /// The most one sticker adds to that.
    worst_unshown: f32,
}

impl Decision {
    fn into_classification(
        self,
        palette: &Palette,
        calibration: Calibration,
    ) -> PocketClassification {
        let face_of = |colour: usize| {
            let f = self.names.iter().position(|&n| n == colour).unwrap_or(0);
            Face::from_index(f)
        };
        let gaps = std::array::from_fn(|s| {
            let other = (0..6)
                .filter(|&c| c != self.colours[s])
                .map(|c| self.with_colour[s][c])
                .fold(f32::INFINITY, f32::min);
            (other - self.cost).min(CONFIDENCE_CAP)
        });
        PocketClassification {
            facelets: PocketFacelets {
                stickers: self.colours.map(face_of),
            },
            scheme: palette.scheme(&self.names),
            names: self.names,
            gaps,
            calibration,
            unsettled: Vec::new(),
            blank: Vec::new(),
            impossible: Vec::new(),
            washed_out: Vec::new(),
            repairs: Repairs {
                as_read: self.repair,
                unshown: self.unshown,
                worst_unshown: self.worst_unshown,
            },
        }
    }
}

/// As the 3x3's `UNSHOWN_REPAIR`, for the 2x2's own costs. Chosen on the development part's
/// corners: their right readings then cost up to 62.5 over their nearest colours (strong
/// drift), median 0; the bound leaves a fifth more. Today one right reading of their 12 012
/// first and final takes costs more, 80.8, and is refused (`cubed-bench vision`). Faces
/// photographed turned read as another cube 199 times in 1 800 without it, 14 with it.
pub const POCKET_UNSHOWN_REPAIR: f32 = 75.0;

/// The fixed corner's place (and piece).
const FIXED: usize = Corner::DBL as usize;
/// The other seven corner places (and pieces).
const FREE: [usize; 7] = [0, 1, 2, 3, 4, 5, 7];

/// Costs of one way of holding the palette's scheme: per place, piece and twist.
struct Holding {
    names: [usize; 6],
    fixed: f32,
    /// `[place][piece][twist]` for the seven free places and pieces (indices into `FREE`).
    costs: [[[f32; 3]; 7]; 7],
    /// `[place][piece]`: the cheapest twist's cost.
    cheapest: [[f32; 7]; 7],
    /// Per place, the pieces from cheapest to dearest there.
    order: [[usize; 7]; 7],
    /// `floor[i]`: a lower bound of the cost of places i.. (each at its cheapest piece).
    floor: [f32; 8],
}

impl Holding {
    /// The stickers' colours with the fixed corner in place and each free place `i` holding
    /// piece `pieces[i]` (an index into `FREE`) with twist `twists[i]`.
    fn colours(&self, pieces: &[usize; 7], twists: &[usize; 7]) -> [usize; STICKERS] {
        let mut colours = [0; STICKERS];
        for (k, s) in corner_stickers(Corner::DBL).into_iter().enumerate() {
            colours[s.0] = colour_at(&self.names, FIXED, 0, k);
        }
        for i in 0..7 {
            for (k, s) in corner_stickers(Corner::ALL[FREE[i]]).iter().enumerate() {
                colours[s.0] = colour_at(&self.names, FREE[pieces[i]], twists[i], k);
            }
        }
        colours
    }
}

/// The palette colour of sticker `k` of a place holding `piece` with `twist`.
fn colour_at(names: &[usize; 6], piece: usize, twist: usize, k: usize) -> usize {
    let faces = crate::cube::corner_colours(piece);
    names[faces[(k + 3 - twist) % 3].index()]
}

fn holding(names: [usize; 6], cost: &[[f32; 6]; STICKERS]) -> Holding {
    let place_cost = |place: usize, piece: usize, twist: usize| -> f32 {
        let stickers = corner_stickers(Corner::ALL[place]);
        (0..3)
            .map(|k| cost[stickers[k].0][colour_at(&names, piece, twist, k)])
            .sum()
    };
    let costs: [[[f32; 3]; 7]; 7] = std::array::from_fn(|i| {
        std::array::from_fn(|p| std::array::from_fn(|t| place_cost(FREE[i], FREE[p], t)))
    });
    let cheapest: [[f32; 7]; 7] = std::array::from_fn(|i| {
        std::array::from_fn(|p| costs[i][p].into_iter().fold(f32::INFINITY, f32::min))
    });
    let order = std::array::from_fn(|i| {
        let mut pieces: [usize; 7] = std::array::from_fn(|p| p);
        pieces.sort_by(|&a, &b| cheapest[i][a].total_cmp(&cheapest[i][b]));
        pieces
    });
    let mut floor = [0.0; 8];
    for i in (0..7).rev() {
        floor[i] = floor[i + 1] + cheapest[i].into_iter().fold(f32::INFINITY, f32::min);
    }
    Holding {
        names,
        fixed: place_cost(FIXED, FIXED, 0),
        costs,
        cheapest,
        order,
        floor,
    }
}

/// Every legal reading weighed: the best, and the best per sticker and colour.
fn decide(
    labs: &[LabColour; STICKERS],
    references: &[LabColour; 6],
    options: &ClassifyOptions,
) -> Decision {
    let with_chroma = |lab: LabColour| (lab, chromaticity(lab.to_rgb()));
    let refs = references.map(with_chroma);
    let cost: [[f32; 6]; STICKERS] = std::array::from_fn(|s| {
        let sticker = with_chroma(labs[s]);
        std::array::from_fn(|c| sticker_cost(sticker, refs[c], options))
    });
    let mut search = Search {
        best: None,
        with_colour: [[f32::INFINITY; 6]; STICKERS],
    };
    let mut holdings: Vec<Holding> = (orientations().iter())
        .map(|&names| holding(names, &cost))
        .collect();
    // The likeliest holdings first, so that the bound prunes the rest early.
    holdings.sort_by(|a, b| (a.fixed + a.floor[0]).total_cmp(&(b.fixed + b.floor[0])));
    for h in &holdings {
        search.placements(h, &mut [0; 7], 0, 0, h.fixed);
    }
    let (total, names, colours) = search
        .best
        .unwrap_or((0.0, [0, 1, 2, 3, 4, 5], [0; STICKERS]));
    let (as_read, repair) = twisted_as_read(&holdings, total);
    let nearest: [usize; STICKERS] = std::array::from_fn(|s| {
        (0..6)
            .min_by(|&a, &b| cost[s][a].total_cmp(&cost[s][b]))
            .unwrap_or(0)
    });
    let each = (0..STICKERS).map(|s| cost[s][colours[s]] - cost[s][nearest[s]]);
    let (unshown, worst_unshown) =
        each.fold((0.0, 0.0f32), |(sum, worst), c| (sum + c, worst.max(c)));
    Decision {
        names,
        colours,
        cost: total,
        with_colour: search.with_colour,
        as_read,
        repair,
        nearest,
        unshown,
        worst_unshown,
    }
}

/// Each sticker's colour in the cheapest placement of the corners under any holding of the
/// colours when the twists need not sum to 0, and how much more the best legal reading
/// (`legal`) costs than that placement.
fn twisted_as_read(holdings: &[Holding], legal: f32) -> ([usize; STICKERS], f32) {
    let mut best: Option<(f32, [usize; STICKERS])> = None;
    for h in holdings {
        let perm = min_cost_assignment(7, |place, piece| h.cheapest[place][piece]);
        let free = h.fixed + (0..7).map(|i| h.cheapest[i][perm[i] as usize]).sum::<f32>();
        if best.as_ref().is_some_and(|(cost, _)| *cost <= free) {
            continue;
        }
        let pieces: [usize; 7] = std::array::from_fn(|i| perm[i] as usize);
        let twists = std::array::from_fn(|i| {
            let costs = &h.costs[i][pieces[i]];
            (0..3)
                .min_by(|&a, &b| costs[a].total_cmp(&costs[b]))
                .unwrap_or(0)
        });
        best = Some((free, h.colours(&pieces, &twists)));
    }
    let (free, as_read) = best.unwrap_or((legal, [0; STICKERS]));
    (as_read, (legal - free).max(0.0))
}

type Reading = (f32, [usize; 6], [usize; STICKERS]);

struct Search {
    best: Option<Reading>,
    with_colour: [[f32; 6]; STICKERS],
}

/// Readings costing more than the best by this much are not looked at: a sticker's
/// confidence is reported as at most this (far above any threshold in use).
pub(crate) const CONFIDENCE_CAP: f32 = 100.0;

impl Search {
    /// Tries every assignment of the free pieces to the free places (`used` is a bit mask)
    /// that could cost less than the best so far plus [`CONFIDENCE_CAP`]; `spent` is a lower
    /// bound of the places assigned so far (the fixed corner and each place's cheapest twist).
    fn placements(
        &mut self,
        h: &Holding,
        pieces: &mut [usize; 7],
        place: usize,
        used: u8,
        spent: f32,
    ) {
        let bound = self
            .best
            .as_ref()
            .map_or(f32::INFINITY, |b| b.0 + CONFIDENCE_CAP);
        if spent + h.floor[place] > bound {
            return;
        }
        if place == 7 {
            self.weigh(h, pieces);
            return;
        }
        for &p in &h.order[place] {
            if used & (1 << p) == 0 {
                pieces[place] = p;
                let cheapest = h.cheapest[place][p];
                self.placements(h, pieces, place + 1, used | 1 << p, spent + cheapest);
            }
        }
    }

    /// One placement: the cheapest twists summing to 0 mod 3, and for each place and twist the
    /// cheapest legal reading with that twist there.
    fn weigh(&mut self, h: &Holding, pieces: &[usize; 7]) {
        let c = |i: usize, t: usize| h.costs[i][pieces[i]][t];
        // before[i][r]: cheapest twists of places < i summing to r; after[i][r]: places >= i.
        let mut before = [[f32::INFINITY; 3]; 8];
        let mut after = [[f32::INFINITY; 3]; 8];
        before[0][0] = 0.0;
        after[7][0] = 0.0;
        for i in 0..7 {
            for r in 0..3 {
                before[i + 1][r] = (0..3)
                    .map(|t| before[i][(r + 3 - t) % 3] + c(i, t))
                    .fold(f32::INFINITY, f32::min);
                let j = 6 - i;
                after[j][r] = (0..3)
                    .map(|t| after[j + 1][(r + 3 - t) % 3] + c(j, t))
                    .fold(f32::INFINITY, f32::min);
            }
        }
        let total = h.fixed + after[0][0];
        for (k, s) in corner_stickers(Corner::DBL).into_iter().enumerate() {
            let colour = colour_at(&h.names, FIXED, 0, k);
            let slot = &mut self.with_colour[s.0][colour];
            *slot = slot.min(total);
        }
        for i in 0..7 {
            let stickers = corner_stickers(Corner::ALL[FREE[i]]);
            for t in 0..3 {
                let rest = (0..3)
                    .map(|r| before[i][r] + after[i + 1][(6 - t - r) % 3])
                    .fold(f32::INFINITY, f32::min);
                let forced = h.fixed + c(i, t) + rest;
                for (k, s) in stickers.iter().enumerate() {
                    let colour = colour_at(&h.names, FREE[pieces[i]], t, k);
                    let slot = &mut self.with_colour[s.0][colour];
                    *slot = slot.min(forced);
                }
            }
        }
        if self.best.as_ref().is_none_or(|b| total < b.0) {
            self.best = Some((total, h.names, self.colours_of(h, pieces, &after)));
        }
    }

    /// The stickers' colours of a placement with its cheapest legal twists.
    fn colours_of(
        &self,
        h: &Holding,
        pieces: &[usize; 7],
        after: &[[f32; 3]; 8],
    ) -> [usize; STICKERS] {
        let mut twists = [0; 7];
        let mut need = 0; // twist the places from i on must still sum to
        for i in 0..7 {
            let c = |t: usize| h.costs[i][pieces[i]][t];
            let t = (0..3)
                .min_by(|&a, &b| {
                    let cost = |t: usize| c(t) + after[i + 1][(need + 3 - t) % 3];
                    cost(a).total_cmp(&cost(b))
                })
                .unwrap_or(0);
            need = (need + 3 - t) % 3;
            twists[i] = t;
        }
        h.colours(pieces, &twists)
    }
}

impl CubeReading for PocketClassification {
    const PER_FACE: usize = 4;
    const OF_CUBE: &'static str = " of the 2x2";

    fn faces(&self) -> &[Face] {
        &self.facelets.stickers
    }

    fn colour_names(&self) -> &[usize; 6] {
        &self.names
    }

    fn symbols(&self) -> String {
        PocketClassification::symbols(self)
    }

    fn confidence(&self) -> Vec<f32> {
        self.sticker_confidence().to_vec()
    }

    fn is_solved(&self) -> bool {
        self.facelets.is_solved()
    }

    fn washed_out(&self) -> &[usize] {
        &self.washed_out
    }
}

#[cfg(test)]
mod tests;
