//! The ends of phase 1, precomputed: for every pruning-table position within `ENDING_DEPTH` turns of phase 2, every path of each length up to `ENDING_DEPTH` that the search would take into phase 2 from it.

use super::movetables::{MoveTables, PHASE2_MASK};
use super::near::{Near, Phase1Space, PositionMap, Raw};
use super::symmetry::{Symmetries, N_SYM_D4H};
use super::symtables::SymClasses;
use super::turn_order::may_follow;

/// Positions this close to phase 2 are finished from the lists instead of
/// searched (5 measured best: 4 gains less, 6 outgrows the cache).
pub(crate) const ENDING_DEPTH: usize = 5;

/// One path into phase 2, in the frame of its position's representative.
#[derive(Clone, Copy, Debug)]
pub(crate) struct EndPath {
    pub turns: [u8; ENDING_DEPTH],
    /// Leading turns shared with the previous path of the same list.
    pub shared: u8,
    /// Bit `s` set when, seen through symmetry `s`, the turns keep the
    /// search's order rule for opposite faces.
    pub frames: u16,
}

/// The lists, by pruning-table position (`class * N_TWIST + twist` in the
/// class representative's frame, as `SymPhase1` indexes its table). A
/// position whose class has symmetries of its own has twins (the same
/// cubes, seen through those symmetries); each twin has its own list.
pub(crate) struct Endings {
    /// Position → list.
    lists_of: PositionMap,
    /// Per list: where its paths of length 1, 2, … start in `paths`, then its end.
    lists: Vec<[u32; ENDING_DEPTH + 1]>,
    paths: Vec<EndPath>,
    /// `to_real[s][k]`: the real turn that symmetry `s` sees as turn `k`.
    to_real: [[u8; 18]; N_SYM_D4H],
}

impl Endings {
    /// Builds the lists (a few milliseconds).
    pub(crate) fn build(moves: &MoveTables, classes: &SymClasses, twist_conj: &[u16]) -> Endings {
        let space = Phase1Space {
            moves,
            classes,
            twist_conj,
        };
        let near = Near::find(&space, ENDING_DEPTH);
        let mut endings = Endings {
            lists_of: PositionMap::default(),
            lists: Vec::with_capacity(near.positions.len()),
            paths: Vec::new(),
            to_real: to_real_turns(),
        };
        for &pos in &near.positions {
            let state = space.rep_state(pos);
            let mut starts = [0u32; ENDING_DEPTH + 1];
            for (len, start) in (1..=ENDING_DEPTH).zip(&mut starts) {
                *start = endings.paths.len() as u32;
                let mut walk = Walk {
                    space: &space,
                    near: &near,
                    turns: Vec::with_capacity(len),
                    out: &mut endings.paths,
                };
                walk.paths(state, len);
            }
            starts[ENDING_DEPTH] = endings.paths.len() as u32;
            endings.lists.push(starts);
        }
        for (id, &pos) in near.positions.iter().enumerate() {
            endings.lists_of.insert(pos, id as u32);
        }
        endings.link();
        endings
    }

    /// The paths of exactly `len` turns into phase 2 from `position` (none if it is farther).
    #[inline(always)]
    pub(crate) fn of(&self, position: u32, len: usize) -> &[EndPath] {
        let Some(starts) = (self.lists_of.get(position)).and_then(|l| self.lists.get(l as usize))
        else {
            return &[];
        };
        let (Some(&start), Some(&end)) = (starts.get(len.wrapping_sub(1)), starts.get(len)) else {
            return &[];
        };
        self.paths.get(start as usize..end as usize).unwrap_or(&[])
    }

    /// The map from a representative's turns to the real ones, under symmetry `sym`.
    #[inline(always)]
    pub(crate) fn to_real(&self, sym: u8) -> &[u8; 18] {
        &self.to_real[sym as usize % N_SYM_D4H]
    }

    /// Fills in `shared` and `frames` of every path.
    fn link(&mut self) {
        for starts in &self.lists {
            for (len, w) in (1..).zip(starts.windows(2)) {
                let list = &mut self.paths[w[0] as usize..w[1] as usize];
                for i in 0..list.len() {
                    list[i].shared = match i.checked_sub(1) {
                        None => 0,
                        Some(prev) => (list[i].turns.iter().zip(&list[prev].turns))
                            .take(len)
                            .take_while(|(a, b)| a == b)
                            .count() as u8,
                    };
                    list[i].frames = frames(&self.to_real, &list[i].turns[..len]);
                }
            }
        }
    }
}

/// The symmetries under which `turns` keep the search's order rule.
fn frames(to_real: &[[u8; 18]; N_SYM_D4H], turns: &[u8]) -> u16 {
    (0..N_SYM_D4H)
        .filter(|&s| {
            turns
                .windows(2)
                .all(|w| may_follow(Some(to_real[s][w[0] as usize]), to_real[s][w[1] as usize]))
        })
        .fold(0, |mask, s| mask | 1 << s)
}

/// `to_real[s]`: conjugation by the inverse symmetry, which undoes conjugation by `s`.
fn to_real_turns() -> [[u8; 18]; N_SYM_D4H] {
    let syms = Symmetries::get();
    std::array::from_fn(|s| syms.conj_move[syms.inverse[s]])
}

/// A depth-first walk that writes out the paths into phase 2.
struct Walk<'a> {
    space: &'a Phase1Space<'a>,
    near: &'a Near,
    turns: Vec<u8>,
    out: &'a mut Vec<EndPath>,
}

impl Walk<'_> {
    /// Paths of exactly `togo` more turns from `state` that end with a turn
    /// outside phase 2, never touch phase 2 before, and never turn a face twice in a row.
    fn paths(&mut self, state: Raw, togo: usize) {
        for k in 0..18u8 {
            if self.turns.last().is_some_and(|&l| l / 3 == k / 3) {
                continue;
            }
            let child = self.space.step(state, k as usize);
            let in_phase2 = child == (0, 0, 0);
            if togo == 1 {
                if in_phase2 && PHASE2_MASK & 1 << k == 0 {
                    let mut turns = [0u8; ENDING_DEPTH];
                    turns[..self.turns.len()].copy_from_slice(&self.turns);
                    turns[self.turns.len()] = k;
                    self.out.push(EndPath {
                        turns,
                        shared: 0,
                        frames: 0,
                    });
                }
                continue;
            }
            let dist = self.near.dist(self.space.position(child));
            if in_phase2 || dist.is_none_or(|d| d as usize >= togo) {
                continue;
            }
            self.turns.push(k);
            self.paths(child, togo - 1);
            self.turns.pop();
        }
    }
}

#[cfg(test)]
mod tests;
