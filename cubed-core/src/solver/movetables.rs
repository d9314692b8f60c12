//! Move tables: for each coordinate value and each of the 18 turns, the coordinate after the turn.

use super::coord::*;
use crate::cube::cubie::turn_cubies;
use crate::cube::CubieCube;

/// The 10 turns of phase 2 (the group ⟨U, D, R2, F2, L2, B2⟩), by turn index.
pub(crate) const PHASE2_MOVES: [u8; 10] = [0, 1, 2, 9, 10, 11, 4, 7, 13, 16];

/// Bit `m` set for each phase-2 turn `m`.
pub(crate) const PHASE2_MASK: u32 = {
    let mut mask = 0;
    let mut i = 0;
    while i < PHASE2_MOVES.len() {
        mask |= 1 << PHASE2_MOVES[i];
        i += 1;
    }
    mask
};

/// True if turn `m` keeps a cube in the phase-2 group.
#[cfg(test)]
pub(crate) fn is_phase2_move(m: u8) -> bool {
    PHASE2_MASK & (1 << m) != 0
}

/// `table[v * 18 + m]`: coordinate `v` after turn `m`, for the listed turns (others stay 0).
fn build(
    n: usize,
    moves: &[u8],
    set: impl Fn(&mut CubieCube, u16),
    get: impl Fn(&CubieCube) -> u16,
) -> Vec<u16> {
    let turns = turn_cubies();
    let mut table = vec![0u16; n * 18];
    let mut c = CubieCube::default();
    for v in 0..n {
        set(&mut c, v as u16);
        for &m in moves {
            table[v * 18 + m as usize] = get(&c.multiply(&turns[m as usize]));
        }
    }
    table
}

/// All move tables of the search.
pub(crate) struct MoveTables {
    pub twist: Vec<u16>,
    pub flip: Vec<u16>,
    pub slice_sorted: Vec<u16>,
    pub u_edges: Vec<u16>,
    pub d_edges: Vec<u16>,
    pub corners: Vec<u16>,
    /// Phase-2 turns only.
    pub ud_edges: Vec<u16>,
}

impl MoveTables {
    pub(crate) fn build() -> MoveTables {
        let all: Vec<u8> = (0..18).collect();
        MoveTables {
            twist: build(N_TWIST, &all, set_twist, twist),
            flip: build(N_FLIP, &all, set_flip, flip),
            slice_sorted: build(N_SLICE_SORTED, &all, set_slice_sorted, slice_sorted),
            u_edges: build(N_SLICE_SORTED, &all, set_u_edges, u_edges),
            d_edges: build(N_SLICE_SORTED, &all, set_d_edges, d_edges),
            corners: build(N_PERM8, &all, set_corners, corners),
            ud_edges: build(N_PERM8, &PHASE2_MOVES, set_ud_edges, ud_edges),
        }
    }
}

/// Joins the U-edge and D-edge coordinates of a phase-2 cube into its ud_edges coordinate.
pub(crate) struct UdEdgeMerge {
    /// Dense index (0..1680) of each u_edges value whose edges lie in the U/D layers, else u16::MAX.
    u_index: Vec<u16>,
    /// `table[u_index * 24 + d_edges % 24]`.
    table: Vec<u16>,
}

impl UdEdgeMerge {
    pub(crate) fn build() -> UdEdgeMerge {
        let mut u_index = vec![u16::MAX; N_SLICE_SORTED];
        let mut table = Vec::with_capacity(1680 * 24);
        let mut c = CubieCube::default();
        for u in 0..N_SLICE_SORTED as u16 {
            set_u_edges(&mut c, u);
            if c.ep[8..].iter().any(|&e| e < 4) {
                continue;
            }
            u_index[u as usize] = (table.len() / 24) as u16;
            let free: Vec<usize> = (0..8).filter(|&p| c.ep[p] >= 4).collect();
            for d_order in 0..24u16 {
                let mut d = CubieCube::default();
                set_d_edges(&mut d, d_order);
                let mut e = c;
                for (slot, &pos) in free.iter().enumerate() {
                    e.ep[pos] = d.ep[8 + slot];
                }
                table.push(ud_edges(&e));
            }
        }
        UdEdgeMerge { u_index, table }
    }

    /// The ud_edges coordinate, given u_edges and d_edges of a cube in phase 2.
    pub(crate) fn merge(&self, u_edges: u16, d_edges: u16) -> u16 {
        let u = self.u_index[u_edges as usize] as usize;
        self.table[u * 24 + d_edges as usize % 24]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::Turn;

    #[test]
    fn tables_follow_cubie_turns() {
        let t = MoveTables::build();
        let merge = UdEdgeMerge::build();
        let mut c = CubieCube::default();
        let seq = [3usize, 7, 10, 14, 0, 17, 5, 12, 1];
        let (mut tw, mut fl, mut sl, mut co) = (0u16, 0u16, 0u16, 0u16);
        for &m in &seq {
            c = c.turn(Turn::from_index(m));
            tw = t.twist[tw as usize * 18 + m];
            fl = t.flip[fl as usize * 18 + m];
            sl = t.slice_sorted[sl as usize * 18 + m];
            co = t.corners[co as usize * 18 + m];
        }
        assert_eq!(
            (tw, fl, sl, co),
            (twist(&c), flip(&c), slice_sorted(&c), corners(&c))
        );
        let mut p2 = CubieCube::default();
        for &m in &[0u8, 4, 9, 13, 2, 16, 7] {
            p2 = p2.turn(Turn::from_index(m as usize));
        }
        assert_eq!(merge.merge(u_edges(&p2), d_edges(&p2)), ud_edges(&p2));
    }
}
