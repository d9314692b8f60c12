//! Symmetry reduction: flip-slice and corner-permutation equivalence classes under the 16 UD-axis symmetries, and conjugation tables.

use super::coord::*;
use super::symmetry::{Symmetries, N_SYM_D4H};
use crate::cube::CubieCube;

/// Number of flip-slice classes under D4h.
pub(crate) const N_FLIPSLICE_CLASS: usize = 64430;
/// Number of corner-permutation classes under D4h.
pub(crate) const N_CORNER_CLASS: usize = 2768;

/// Equivalence classes of one raw coordinate under the 16 symmetries.
/// A raw value `x` with class `c` and symmetry `s` satisfies
/// `x = S_s⁻¹ · rep(c) · S_s`, so `rep(c) = S_s · x · S_s⁻¹`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct SymClasses {
    /// Per raw value: class in the low 16 bits, symmetry above (one memory read for both).
    pub class_sym: Vec<u32>,
    pub rep: Vec<u32>,
    /// Per class: bit `s` set when symmetry `s` maps the representative to itself.
    pub stabilizer: Vec<u16>,
}

impl SymClasses {
    fn build(
        n_raw: usize,
        set: impl Fn(usize) -> CubieCube,
        get: impl Fn(&CubieCube) -> usize,
    ) -> SymClasses {
        let syms = Symmetries::get();
        let mut class_sym = vec![u32::MAX; n_raw];
        let mut rep = Vec::new();
        let mut stabilizer = Vec::new();
        for raw in 0..n_raw {
            if class_sym[raw] != u32::MAX {
                continue;
            }
            let class = rep.len() as u32;
            let cube = set(raw);
            let mut stab = 0u16;
            for s in 0..N_SYM_D4H {
                let image = get(&syms.conjugate(&cube, syms.inverse[s]));
                if image == raw {
                    stab |= 1 << s;
                }
                if class_sym[image] == u32::MAX {
                    class_sym[image] = class | (s as u32) << 16;
                }
            }
            rep.push(raw as u32);
            stabilizer.push(stab);
        }
        SymClasses {
            class_sym,
            rep,
            stabilizer,
        }
    }

    /// Class and symmetry of raw value `raw`.
    #[inline(always)]
    pub(crate) fn class_and_sym(&self, raw: usize) -> (usize, usize) {
        let cs = self.class_sym[raw];
        ((cs & 0xffff) as usize, (cs >> 16) as usize)
    }

    /// Flip-slice classes; raw index `slice * 2048 + flip`.
    pub(crate) fn flipslice() -> SymClasses {
        SymClasses::build(
            N_SLICE * N_FLIP,
            |raw| {
                let mut c = CubieCube::default();
                set_slice_sorted(&mut c, (raw / N_FLIP * 24) as u16);
                set_flip(&mut c, (raw % N_FLIP) as u16);
                c
            },
            |c| slice_sorted(c) as usize / 24 * N_FLIP + flip(c) as usize,
        )
    }

    /// Corner-permutation classes.
    pub(crate) fn corners() -> SymClasses {
        SymClasses::build(
            N_PERM8,
            |raw| {
                let mut c = CubieCube::default();
                set_corners(&mut c, raw as u16);
                c
            },
            |c| corners(c) as usize,
        )
    }
}

/// `table[v * 16 + s]`: coordinate of S_s · c · S_s⁻¹ for a cube `c` with coordinate `v`.
pub(crate) fn conjugation_table(
    n: usize,
    set: impl Fn(&mut CubieCube, u16),
    get: impl Fn(&CubieCube) -> u16,
) -> Vec<u16> {
    let syms = Symmetries::get();
    let mut table = vec![0u16; n * N_SYM_D4H];
    let mut c = CubieCube::default();
    for v in 0..n {
        set(&mut c, v as u16);
        for s in 0..N_SYM_D4H {
            table[v * N_SYM_D4H + s] = get(&syms.conjugate(&c, s));
        }
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn class_counts_match_the_known_figures() {
        assert_eq!(SymClasses::corners().rep.len(), N_CORNER_CLASS);
        assert_eq!(SymClasses::flipslice().rep.len(), N_FLIPSLICE_CLASS);
    }
}
