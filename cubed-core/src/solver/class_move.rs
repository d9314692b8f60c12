//! The class move table of phase 1: where each flip-slice class goes under each turn, and which turns bring it closer to phase 2, as turn masks read in any symmetry's frame.

use super::symmetry::{Symmetries, N_SYM_D4H};
use super::symtables::SymClasses;

/// Turns of the first 18 bits of a mask.
pub(super) const ALL_TURNS: u32 = (1 << 18) - 1;

/// Where the representative of a flip-slice class goes under each turn:
/// `class[m]` and `sym[m]` as `SymClasses::class_and_sym` gives them, and
/// which turns bring it closer to phase 2 by the flip-slice distance (exact,
/// a lower bound on the phase-1 distance that costs no extra memory read).
/// One cache line per class.
#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
pub(crate) struct ClassRow {
    pub(super) class: [u16; 18],
    pub(super) sym: [u8; 18],
    /// Bits 0..18: turns that lower the flip-slice distance; bits 24..28: the class's own distance.
    down: u32,
    /// Turns that keep the flip-slice distance.
    level: u32,
}

impl ClassRow {
    /// The class's own flip-slice distance.
    #[inline(always)]
    fn dist(&self) -> usize {
        (self.down >> 24) as usize
    }

    /// Turns (in the representative's frame) after which the flip-slice
    /// distance is below `togo`.
    #[inline(always)]
    pub(super) fn closer_than(&self, togo: usize) -> u32 {
        let down = self.down & ALL_TURNS;
        match (togo + 1).saturating_sub(self.dist()) {
            0 => 0,
            1 => down,
            2 => down | self.level,
            _ => ALL_TURNS,
        }
    }
}

/// Maps a turn mask in a representative's frame to the real turns: the
/// mask is read six bits at a time, one table per symmetry and chunk.
pub(crate) struct MaskRemap {
    chunks: [[[u32; 64]; 3]; N_SYM_D4H],
}

impl MaskRemap {
    pub(super) fn get() -> &'static MaskRemap {
        static REMAP: std::sync::OnceLock<Box<MaskRemap>> = std::sync::OnceLock::new();
        REMAP.get_or_init(|| {
            let syms = Symmetries::get();
            let mut remap = Box::new(MaskRemap {
                chunks: [[[0; 64]; 3]; N_SYM_D4H],
            });
            for (s, chunks) in remap.chunks.iter_mut().enumerate() {
                for mv in 0..18 {
                    let k = syms.conj_move[s][mv] as usize;
                    for (bits, real) in chunks[k / 6].iter_mut().enumerate() {
                        if bits & 1 << (k % 6) != 0 {
                            *real |= 1 << mv;
                        }
                    }
                }
            }
            remap
        })
    }

    /// The real turns `m` whose image under symmetry `sym` is in `mask`.
    #[inline(always)]
    pub(super) fn to_real(&self, sym: u8, mask: u32) -> u32 {
        let c = &self.chunks[sym as usize % N_SYM_D4H];
        c[0][mask as usize & 63]
            | c[1][(mask >> 6) as usize & 63]
            | c[2][(mask >> 12) as usize & 63]
    }
}

/// The class move table: one row per class. `raw_dist` is the exact distance of each raw flip-slice coordinate.
pub(crate) fn class_move_table(
    classes: &SymClasses,
    raw_dist: &[u8],
    rep_move: impl Fn(u32, u8) -> usize,
) -> Vec<ClassRow> {
    let row = |rep: u32| {
        let own = u32::from(raw_dist[rep as usize]);
        let mut row = ClassRow {
            down: own.min(15) << 24,
            ..ClassRow::default()
        };
        for m in 0..18 {
            let raw = rep_move(rep, m as u8);
            let (class, sym) = classes.class_and_sym(raw);
            (row.class[m], row.sym[m]) = (class as u16, sym as u8);
            match u32::from(raw_dist[raw]) {
                d if d + 1 == own => row.down |= 1 << m,
                d if d == own => row.level |= 1 << m,
                _ => {}
            }
        }
        row
    };
    let mut rows = super::memory::huge_vec(classes.rep.len());
    rows.extend(classes.rep.iter().map(|&rep| row(rep)));
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::{CubieCube, Turn};
    use crate::solver::coord;
    use crate::solver::movetables::MoveTables;
    use crate::solver::tables::flipslice_move;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn classes_carried_by_the_class_move_table_match_the_cube() {
        let moves = MoveTables::build();
        let classes = SymClasses::flipslice();
        let slice_flip = crate::solver::pruning::build_byte_table(
            coord::N_SLICE,
            coord::N_FLIP,
            &(0..18).collect::<Vec<u8>>(),
            &crate::solver::tables::slice_move_table(&moves),
            &moves.flip,
        );
        let class_move = class_move_table(&classes, &slice_flip, |raw, m| {
            flipslice_move(&moves, raw, m)
        });
        let syms = Symmetries::get();
        let product = syms.d4h_products();
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let (mut cube, mut class, mut sym) = (CubieCube::default(), 0usize, 0usize);
        for _ in 0..5000 {
            let m = rng.random_range(0..18usize);
            cube = cube.turn(Turn::from_index(m));
            let (row, k) = (&class_move[class], syms.conj_move[sym][m] as usize);
            let step = [row.down, row.level].map(|mask| mask & 1 << k != 0);
            (class, sym) = (
                row.class[k] as usize,
                product[row.sym[k] as usize][sym] as usize,
            );
            let dist = class_move[class].dist();
            match step {
                [true, _] => assert_eq!(dist + 1, row.dist()),
                [_, true] => assert_eq!(dist, row.dist()),
                _ => assert_eq!(dist, row.dist() + 1),
            }
            let seen = syms.conjugate(&cube, sym);
            let raw = coord::slice_sorted(&seen) as usize / 24 * coord::N_FLIP
                + coord::flip(&seen) as usize;
            assert_eq!(raw as u32, classes.rep[class], "after {m}");
            assert_eq!(dist, slice_flip[raw] as usize);
        }
    }

    #[test]
    fn a_mask_in_a_symmetry_frame_maps_back_to_the_real_turns() {
        let syms = Symmetries::get();
        let remap = MaskRemap::get();
        for sym in 0..N_SYM_D4H {
            for mv in 0..18 {
                let k = syms.conj_move[sym][mv];
                assert_eq!(
                    remap.to_real(sym as u8, 1 << k),
                    1 << mv,
                    "sym {sym}, turn {mv}"
                );
            }
            assert_eq!(remap.to_real(sym as u8, ALL_TURNS), ALL_TURNS);
        }
    }

    #[test]
    fn closer_than_keeps_exactly_the_turns_whose_distance_is_below() {
        let row = ClassRow {
            down: 3 << 24 | 0b011,
            level: 0b100,
            ..ClassRow::default()
        };
        assert_eq!(row.closer_than(2), 0, "every child is at 2 or more");
        assert_eq!(row.closer_than(3), 0b011);
        assert_eq!(row.closer_than(4), 0b111);
        assert_eq!(row.closer_than(5), ALL_TURNS);
    }
}
