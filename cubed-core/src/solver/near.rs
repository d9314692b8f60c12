//! Phase-1 positions near phase 2: the pruning-table positions of raw phase-1 coordinates (twins included), a small open-addressing map from positions to numbers, and the breadth-first search that finds every position within a few turns of phase 2 with its exact distance.

use super::coord::{N_FLIP, N_TWIST};
use super::movetables::MoveTables;
use super::symmetry::N_SYM_D4H;
use super::symtables::SymClasses;

/// Raw phase-1 coordinates: flip, slice (0..495), twist.
pub(crate) type Raw = (u16, u16, u16);

/// Raw phase-1 coordinates and the pruning-table positions they fall on
/// (`class * N_TWIST + twist` in the class representative's frame).
pub(crate) struct Phase1Space<'a> {
    pub moves: &'a MoveTables,
    pub classes: &'a SymClasses,
    pub twist_conj: &'a [u16],
}

impl Phase1Space<'_> {
    /// The coordinates after turn `k`.
    pub(crate) fn step(&self, s: Raw, k: usize) -> Raw {
        let m = self.moves;
        (
            m.flip[s.0 as usize * 18 + k],
            m.slice_sorted[s.1 as usize * 24 * 18 + k] / 24,
            m.twist[s.2 as usize * 18 + k],
        )
    }

    /// The table position of the coordinates.
    pub(crate) fn position(&self, s: Raw) -> u32 {
        let (class, sym) = (self.classes).class_and_sym(s.1 as usize * N_FLIP + s.0 as usize);
        let twist = self.twist_conj[s.2 as usize * N_SYM_D4H + sym];
        class as u32 * N_TWIST as u32 + u32::from(twist)
    }

    /// The positions of the same cubes seen through the symmetries of the
    /// class (itself included): a class with symmetries of its own has twins.
    pub(crate) fn twins(&self, pos: u32) -> impl Iterator<Item = u32> + '_ {
        let (class, twist) = (pos as usize / N_TWIST, pos as usize % N_TWIST);
        let stabilizer = self.classes.stabilizer[class];
        (0..N_SYM_D4H)
            .filter(move |&s| stabilizer & 1 << s != 0)
            .map(move |s| {
                (class * N_TWIST) as u32 + u32::from(self.twist_conj[twist * N_SYM_D4H + s])
            })
    }

    /// The coordinates of a position in its representative's frame.
    pub(crate) fn rep_state(&self, pos: u32) -> Raw {
        let rep = self.classes.rep[pos as usize / N_TWIST] as usize;
        (
            (rep % N_FLIP) as u16,
            (rep / N_FLIP) as u16,
            (pos as usize % N_TWIST) as u16,
        )
    }
}

/// Open addressing from pruning-table positions to small numbers
/// (multiplicative hashing, linear probing, at most half full).
#[derive(Default)]
pub(crate) struct PositionMap {
    slots: Vec<(u32, u32)>,
    len: usize,
}

/// The slot at which to start probing for `position` in a table of
/// `slots` (a power of two) slots: the top bits of a multiplicative hash.
#[inline(always)]
pub(crate) fn home_slot(position: u32, slots: usize) -> usize {
    let bits = slots.trailing_zeros();
    (u64::from(position.wrapping_mul(0x9E37_79B1)) >> (32 - bits)) as usize
}

impl PositionMap {
    const EMPTY: u32 = u32::MAX;

    #[inline(always)]
    pub(crate) fn get(&self, position: u32) -> Option<u32> {
        if self.slots.is_empty() {
            return None;
        }
        let mut h = home_slot(position, self.slots.len());
        loop {
            let (pos, value) = *self.slots.get(h)?;
            if pos == position {
                return Some(value);
            }
            if pos == Self::EMPTY {
                return None;
            }
            h = (h + 1) & (self.slots.len() - 1);
        }
    }

    /// Adds a position that is not in the map yet.
    pub(crate) fn insert(&mut self, position: u32, value: u32) {
        if 2 * (self.len + 1) > self.slots.len() {
            let old = std::mem::take(&mut self.slots);
            self.slots = vec![(Self::EMPTY, 0); (old.len() * 2).max(1024)];
            self.len = 0;
            for (p, v) in old.into_iter().filter(|&(p, _)| p != Self::EMPTY) {
                self.insert(p, v);
            }
        }
        let mut h = home_slot(position, self.slots.len());
        while self.slots[h].0 != Self::EMPTY {
            h = (h + 1) & (self.slots.len() - 1);
        }
        self.slots[h] = (position, value);
        self.len += 1;
    }
}

/// Every position within some turns of phase 2 with its exact distance,
/// by breadth-first search with one raw state per position.
pub(crate) struct Near {
    /// Position → index into `positions` and `dist`.
    ids: PositionMap,
    pub positions: Vec<u32>,
    pub dist: Vec<u8>,
}

impl Near {
    /// The positions within `depth` turns of phase 2.
    pub(crate) fn find(space: &Phase1Space, depth: usize) -> Near {
        let mut near = Near {
            ids: PositionMap::default(),
            positions: Vec::new(),
            dist: Vec::new(),
        };
        near.add(space, space.position((0, 0, 0)), 0);
        let mut frontier = vec![(0u16, 0u16, 0u16)];
        for d in 1..=depth as u8 {
            let mut next = Vec::new();
            for &s in &frontier {
                for k in 0..18 {
                    let child = space.step(s, k);
                    if near.add(space, space.position(child), d) {
                        next.push(child);
                    }
                }
            }
            frontier = next;
        }
        near
    }

    /// Adds a position and its twins at `depth` unless known; true if it was new.
    fn add(&mut self, space: &Phase1Space, pos: u32, depth: u8) -> bool {
        if self.ids.get(pos).is_some() {
            return false;
        }
        for twin in space.twins(pos) {
            if self.ids.get(twin).is_none() {
                self.ids.insert(twin, self.positions.len() as u32);
                self.positions.push(twin);
                self.dist.push(depth);
            }
        }
        true
    }

    /// Exact distance of a position found, or None if it is farther.
    pub(crate) fn dist(&self, pos: u32) -> Option<u8> {
        self.ids
            .get(pos)
            .and_then(|i| self.dist.get(i as usize).copied())
    }
}
