//! Every legal 2x2 reading weighed (`decide`): the best over the 24 holdings, each sticker's gap to the best reading giving it another colour, and how much the best costs over the corners as read and over every sticker as it looks.

use super::holding::{holding, Holding};
use super::search::{Search, CONFIDENCE_CAP};
use super::PocketClassification;
use crate::assignment::min_cost_assignment;
use crate::cube::Face;
use crate::light::colour::LabColour;
use crate::light::lighting::chromaticity;
use crate::light::palette::Palette;
use crate::pocket::stickers::STICKERS;
use crate::pocket::PocketFacelets;
use crate::read::centres::orientations;
use crate::read::doubt::Repairs;
use crate::read::options::{Calibration, ClassifyOptions};
use crate::read::refine::sticker_cost;

/// The best legal reading and, per sticker and palette colour, the cost of the best legal
/// reading giving that sticker that colour.
pub(super) struct Decision {
    names: [usize; 6],
    /// Palette colour of each sticker in the best reading.
    pub(super) colours: [usize; STICKERS],
    cost: f32,
    with_colour: [[f32; 6]; STICKERS],
    /// Each sticker's colour with every corner twisted as the readings have it.
    pub(super) as_read: [usize; STICKERS],
    /// How much more the legal twists cost than those.
    pub(super) repair: f32,
    /// Each sticker's colour as it looks (its cheapest, no rule of the cube kept).
    pub(super) nearest: [usize; STICKERS],
    /// How much more the best reading costs than every sticker read as it looks.
    pub(super) unshown: f32,
    /// The most one sticker adds to that.
    worst_unshown: f32,
}

impl Decision {
    pub(super) fn into_classification(
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

/// Every legal reading weighed: the best, and the best per sticker and colour.
pub(super) fn decide(
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
