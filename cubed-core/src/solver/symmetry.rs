//! Cube symmetries: the 48 symmetry cubes (16 keep the UD axis), their inverses, and how they map face turns.

use crate::cube::cubie::turn_cubies;
use crate::cube::CubieCube;
use std::sync::OnceLock;

/// Symmetries that keep the UD axis (the group D4h), used to reduce the tables.
pub(crate) const N_SYM_D4H: usize = 16;

fn cube(cp: [u8; 8], co: [u8; 8], ep: [u8; 12], eo: [u8; 12]) -> CubieCube {
    CubieCube { cp, co, ep, eo }
}

/// 120° turn about the URF–DBL diagonal.
fn urf3() -> CubieCube {
    cube(
        [0, 4, 5, 1, 3, 7, 6, 2],
        [1, 2, 1, 2, 2, 1, 2, 1],
        [1, 8, 5, 9, 3, 11, 7, 10, 0, 4, 6, 2],
        [1, 0, 1, 0, 1, 0, 1, 0, 1, 1, 1, 1],
    )
}

/// 180° turn about the F–B axis.
fn f2() -> CubieCube {
    cube(
        [5, 4, 7, 6, 1, 0, 3, 2],
        [0; 8],
        [6, 5, 4, 7, 2, 1, 0, 3, 9, 8, 11, 10],
        [0; 12],
    )
}

/// 90° turn about the U–D axis.
fn u4() -> CubieCube {
    cube(
        [3, 0, 1, 2, 7, 4, 5, 6],
        [0; 8],
        [3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10],
        [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1],
    )
}

/// Reflection through the plane between L and R.
fn lr2() -> CubieCube {
    cube(
        [1, 0, 3, 2, 5, 4, 7, 6],
        [3; 8],
        [2, 1, 0, 3, 6, 5, 4, 7, 9, 8, 11, 10],
        [0; 12],
    )
}

/// All symmetry tables, computed once.
pub(crate) struct Symmetries {
    /// Symmetry cube `i` = URF3^a · F2^b · U4^c · LR2^d with i = 16a + 8b + 2c + d.
    pub cubes: Vec<CubieCube>,
    /// Index of the inverse of each symmetry.
    pub inverse: Vec<usize>,
    /// `conj_move[s][m]`: the turn equal to S_s · m · S_s⁻¹.
    pub conj_move: Vec<[u8; 18]>,
}

impl Symmetries {
    /// The shared instance.
    pub(crate) fn get() -> &'static Symmetries {
        static SYMS: OnceLock<Symmetries> = OnceLock::new();
        SYMS.get_or_init(Symmetries::compute)
    }

    fn compute() -> Symmetries {
        let mut cubes = Vec::with_capacity(48);
        let mut c = CubieCube::default();
        for _ in 0..3 {
            for _ in 0..2 {
                for _ in 0..4 {
                    for _ in 0..2 {
                        cubes.push(c);
                        c = c.multiply(&lr2());
                    }
                    c = c.multiply(&u4());
                }
                c = c.multiply(&f2());
            }
            c = c.multiply(&urf3());
        }
        let identity = CubieCube::default();
        let inverse = (0..48)
            .map(|i| {
                (0..48)
                    .find(|&j| cubes[i].multiply(&cubes[j]) == identity)
                    .expect("every symmetry has an inverse")
            })
            .collect::<Vec<_>>();
        let turns = turn_cubies();
        let conj_move = (0..48)
            .map(|s| {
                std::array::from_fn(|m| {
                    let image = cubes[s].multiply(&turns[m]).multiply(&cubes[inverse[s]]);
                    turns
                        .iter()
                        .position(|t| *t == image)
                        .expect("a conjugated turn is a turn") as u8
                })
            })
            .collect();
        Symmetries {
            cubes,
            inverse,
            conj_move,
        }
    }

    /// `table[a][b]`: the index of S_a · S_b, for the 16 symmetries that keep the UD axis.
    pub(crate) fn d4h_products(&self) -> [[u8; N_SYM_D4H]; N_SYM_D4H] {
        std::array::from_fn(|a| {
            std::array::from_fn(|b| {
                let product = self.cubes[a].multiply(&self.cubes[b]);
                (0..N_SYM_D4H)
                    .find(|&s| self.cubes[s] == product)
                    .expect("the UD-axis symmetries form a group") as u8
            })
        })
    }

    /// S_s · c · S_s⁻¹.
    pub(crate) fn conjugate(&self, c: &CubieCube, s: usize) -> CubieCube {
        self.cubes[s]
            .multiply(c)
            .multiply(&self.cubes[self.inverse[s]])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetries_form_a_group_of_48() {
        let s = Symmetries::get();
        for i in 0..48 {
            for j in 0..i {
                assert_ne!(s.cubes[i], s.cubes[j], "symmetries {i} and {j} coincide");
            }
        }
        assert_eq!(s.inverse[0], 0);
    }

    #[test]
    fn the_first_sixteen_keep_the_ud_axis() {
        let s = Symmetries::get();
        for sym in 0..N_SYM_D4H {
            for m in [0usize, 9] {
                let face = s.conj_move[sym][m] / 3;
                assert!(
                    face == 0 || face == 3,
                    "sym {sym} moves U/D turns to face {face}"
                );
            }
        }
        let image = s.conj_move[16][0] / 3;
        assert!(
            image == 1 || image == 2,
            "URF3 moves the U axis to R or F, got face {image}"
        );
    }
}
