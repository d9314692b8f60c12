//! The search over the seven free corners' placements (`Search`), pruned beyond `CONFIDENCE_CAP` over the best, each placement weighed with its cheapest twists summing to 0 and the best reading per sticker and colour kept.

use super::holding::{colour_at, Holding, FIXED, FREE};
use crate::cube::Corner;
use crate::pocket::stickers::{corner_stickers, STICKERS};

type Reading = (f32, [usize; 6], [usize; STICKERS]);

pub(super) struct Search {
    pub(super) best: Option<Reading>,
    pub(super) with_colour: [[f32; 6]; STICKERS],
}

/// Readings costing more than the best by this much are not looked at: a sticker's
/// confidence is reported as at most this (far above any threshold in use).
pub(crate) const CONFIDENCE_CAP: f32 = 100.0;

impl Search {
    /// Tries every assignment of the free pieces to the free places (`used` is a bit mask)
    /// that could cost less than the best so far plus [`CONFIDENCE_CAP`]; `spent` is a lower
    /// bound of the places assigned so far (the fixed corner and each place's cheapest twist).
    pub(super) fn placements(
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
