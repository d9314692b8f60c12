//! Turn masks of the phase-1 positions near phase 2: for every pruning-table position within `MASK_DEPTH` turns of phase 2 (twins included), the turns that lower its distance and those that keep it, in the representative's frame, so that the search finds such a node's children without reading the pruning table.

use super::near::{home_slot, Near, Phase1Space};

/// Positions this close to phase 2 have masks (measured: 7 gains about 7 %
/// over none; 8 gains 16 % but needs a 270 MB map).
pub(crate) const MASK_DEPTH: usize = 7;

/// Slots of the map: a power of two, more than twice the 851 311 positions within `MASK_DEPTH`.
pub(crate) const MASK_SLOTS: usize = 1 << 21;

/// The masks: open addressing over `MASK_SLOTS` u64 slots, each holding a
/// position in bits 0..28, its lowering turns in bits 28..46 and its
/// keeping turns in bits 46..64. A position without a slot simply has no
/// masks (the search then reads the table), so the map is never wrong, only less useful.
pub(crate) struct NearMasks {
    slots: Vec<u64>,
}

impl NearMasks {
    const EMPTY: u64 = u64::MAX;
    const KEY: u64 = (1 << 28) - 1;
    const TURNS: u64 = (1 << 18) - 1;

    /// Finds every position within `MASK_DEPTH` and its masks (about a second).
    pub(crate) fn build(space: &Phase1Space) -> NearMasks {
        let near = Near::find(space, MASK_DEPTH);
        let mut masks = NearMasks {
            slots: vec![Self::EMPTY; MASK_SLOTS],
        };
        // Linear probing stays short while the map is at most half full.
        let room = MASK_SLOTS / 2;
        for (&pos, &d) in near.positions.iter().zip(&near.dist).take(room) {
            let state = space.rep_state(pos);
            let (mut lower, mut keep) = (0u64, 0u64);
            for k in 0..18 {
                // A child not found is farther than `MASK_DEPTH`, so one turn farther than `d`.
                match near.dist(space.position(space.step(state, k))) {
                    Some(c) if c + 1 == d => lower |= 1 << k,
                    Some(c) if c == d => keep |= 1 << k,
                    _ => {}
                }
            }
            masks.insert(u64::from(pos) | lower << 28 | keep << 46);
        }
        masks
    }

    fn insert(&mut self, slot: u64) {
        let mut h = home_slot((slot & Self::KEY) as u32, MASK_SLOTS);
        while self.slots[h] != Self::EMPTY {
            h = (h + 1) & (MASK_SLOTS - 1);
        }
        self.slots[h] = slot;
    }

    /// The masks as stored (`MASK_SLOTS` slots).
    pub(crate) fn slots(&self) -> &[u64] {
        &self.slots
    }

    /// Masks read back from `slots()`; None unless there are `MASK_SLOTS` of them with an empty one among them.
    pub(crate) fn from_slots(slots: Vec<u64>) -> Option<NearMasks> {
        (slots.len() == MASK_SLOTS && slots.contains(&Self::EMPTY)).then_some(NearMasks { slots })
    }

    /// Asks memory for the slot of `position`.
    #[inline(always)]
    pub(crate) fn prefetch(&self, position: u32) {
        super::memory::prefetch(&self.slots, home_slot(position, MASK_SLOTS));
    }

    /// The turns that lower the distance of `position` and those that keep
    /// it (representative's frame), if the position has masks.
    #[inline(always)]
    pub(crate) fn get(&self, position: u32) -> Option<(u32, u32)> {
        let mut h = home_slot(position, MASK_SLOTS);
        loop {
            let slot = *self.slots.get(h)?;
            if slot & Self::KEY == u64::from(position) {
                let lower = (slot >> 28) & Self::TURNS;
                return Some((lower as u32, (slot >> 46) as u32));
            }
            if slot == Self::EMPTY {
                return None;
            }
            h = (h + 1) & (MASK_SLOTS - 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::coord::{set_twist, twist, N_FLIP, N_SLICE, N_TWIST};
    use crate::solver::movetables::MoveTables;
    use crate::solver::near::Raw;
    use crate::solver::pruning::build_byte_table;
    use crate::solver::symtables::{conjugation_table, SymClasses};
    use crate::solver::tables::slice_move_table;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Exact distances to phase 2 by a plain iterative-deepening search, bounded by the two small exact tables.
    struct Exact<'a> {
        space: &'a Phase1Space<'a>,
        slice_twist: Vec<u8>,
        slice_flip: Vec<u8>,
    }

    impl Exact<'_> {
        fn bound(&self, s: Raw) -> usize {
            let slice = s.1 as usize;
            self.slice_twist[slice * N_TWIST + s.2 as usize]
                .max(self.slice_flip[slice * N_FLIP + s.0 as usize]) as usize
        }

        fn reaches(&self, s: Raw, togo: usize) -> bool {
            if s == (0, 0, 0) {
                return true;
            }
            togo > 0
                && self.bound(s) <= togo
                && (0..18).any(|k| self.reaches(self.space.step(s, k), togo - 1))
        }

        /// The distance of `s` to phase 2 if it is at most `limit`.
        fn within(&self, s: Raw, limit: usize) -> Option<usize> {
            (self.bound(s)..=limit).find(|&n| self.reaches(s, n))
        }
    }

    #[test]
    fn masks_match_an_exact_search_and_cover_exactly_the_near_positions() {
        let moves = MoveTables::build();
        let classes = SymClasses::flipslice();
        let twist_conj = conjugation_table(N_TWIST, set_twist, twist);
        let space = Phase1Space {
            moves: &moves,
            classes: &classes,
            twist_conj: &twist_conj,
        };
        let masks = NearMasks::build(&space);
        let all: Vec<u8> = (0..18).collect();
        let slice = slice_move_table(&moves);
        let exact = Exact {
            space: &space,
            slice_twist: build_byte_table(N_SLICE, N_TWIST, &all, &slice, &moves.twist),
            slice_flip: build_byte_table(N_SLICE, N_FLIP, &all, &slice, &moves.flip),
        };
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let (mut near, mut far) = (0, 0);
        for _ in 0..150 {
            let mut s: Raw = (0, 0, 0);
            for _ in 0..rng.random_range(1..=16) {
                s = space.step(s, rng.random_range(0..18));
            }
            let position = space.position(s);
            // Masks are in the representative's frame: check them there.
            let rep = space.rep_state(position);
            assert_eq!(space.position(rep), position);
            let d = exact.within(rep, MASK_DEPTH);
            let Some((lower, keep)) = masks.get(position) else {
                assert_eq!(d, None, "position {position} is near but has no masks");
                far += 1;
                continue;
            };
            let d = d.unwrap_or_else(|| panic!("position {position} is far but has masks"));
            near += 1;
            for k in 0..18 {
                let child = exact.within(space.step(rep, k), d);
                let expected = (d > 0 && child == Some(d - 1), child == Some(d));
                let found = (lower >> k & 1 == 1, keep >> k & 1 == 1);
                assert_eq!(
                    found, expected,
                    "position {position} (distance {d}), turn {k}"
                );
            }
        }
        assert!(near > 40 && far > 10, "{near} near and {far} far positions");
    }
}
