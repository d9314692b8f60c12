//! Coordinates of a cubie cube used by the two-phase search, with their inverse (set) functions.
//!
//! - twist 0..2187 (orientation of 7 corners), flip 0..2048 (11 edges),
//! - slice_sorted 0..11880: positions and order of the four UD-slice edges (FR FL BL BR);
//!   `slice_sorted / 24` is the phase-1 slice coordinate, `< 24` in phase 2,
//! - u_edges / d_edges 0..11880: the same for the U-layer and D-layer edges,
//! - corners 0..40320: corner permutation, ud_edges 0..40320: permutation of the
//!   eight U/D edges (phase 2 only).

use crate::cube::CubieCube;

pub(crate) const N_TWIST: usize = 2187;
pub(crate) const N_FLIP: usize = 2048;
pub(crate) const N_SLICE: usize = 495;
pub(crate) const N_SLICE_SORTED: usize = 11880;
pub(crate) const N_PERM8: usize = 40320;

/// Binomial coefficient for the small values used here.
pub(crate) fn choose(n: usize, k: usize) -> usize {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

pub(crate) fn twist(c: &CubieCube) -> u16 {
    c.co[..7].iter().fold(0u16, |acc, &o| acc * 3 + o as u16)
}

pub(crate) fn set_twist(c: &mut CubieCube, mut t: u16) {
    let mut sum = 0u16;
    for i in (0..7).rev() {
        c.co[i] = (t % 3) as u8;
        sum += t % 3;
        t /= 3;
    }
    c.co[7] = ((3 - sum % 3) % 3) as u8;
}

pub(crate) fn flip(c: &CubieCube) -> u16 {
    c.eo[..11].iter().fold(0u16, |acc, &o| acc * 2 + o as u16)
}

pub(crate) fn set_flip(c: &mut CubieCube, mut f: u16) {
    let mut sum = 0u16;
    for i in (0..11).rev() {
        c.eo[i] = (f % 2) as u8;
        sum += f % 2;
        f /= 2;
    }
    c.eo[11] = (sum % 2) as u8;
}

/// Rank of a permutation of `0..n` values (Lehmer code); `perm` holds distinct small values.
fn perm_rank(perm: &[u8]) -> usize {
    let n = perm.len();
    let mut rank = 0;
    for i in 0..n {
        let smaller = perm[i + 1..].iter().filter(|&&v| v < perm[i]).count();
        rank = rank * (n - i) + smaller;
    }
    rank
}

/// Inverse of `perm_rank`: the `rank`-th ordering of `items` (sorted ascending).
fn perm_unrank(mut rank: usize, items: &mut [u8]) {
    let n = items.len();
    let mut digits = [0usize; 12];
    for i in (0..n).rev() {
        digits[i] = rank % (n - i);
        rank /= n - i;
    }
    let mut pool: Vec<u8> = items.to_vec();
    pool.sort_unstable();
    for (i, item) in items.iter_mut().enumerate() {
        *item = pool.remove(digits[i]);
    }
}

/// Positions (as a combination index) and order of the four edges `first..first+4`.
fn edges4(c: &CubieCube, first: u8) -> u16 {
    let mut comb = 0;
    let mut found = 0;
    let mut order = [0u8; 4];
    for pos in (0..12).rev() {
        let e = c.ep[pos];
        if (first..first + 4).contains(&e) {
            comb += choose(11 - pos, found + 1);
            order[3 - found] = e - first;
            found += 1;
        }
    }
    (comb * 24 + perm_rank(&order)) as u16
}

fn set_edges4(c: &mut CubieCube, first: u8, coord: u16) {
    let (mut comb, rank) = (coord as usize / 24, coord as usize % 24);
    let mut order = [0u8, 1, 2, 3];
    perm_unrank(rank, &mut order);
    let others: Vec<u8> = (0..12u8)
        .filter(|e| !(first..first + 4).contains(e))
        .collect();
    let mut others = others.into_iter();
    let mut placed = 4;
    for pos in 0..12 {
        let need = choose(11 - pos, placed);
        if placed > 0 && comb >= need {
            comb -= need;
            placed -= 1;
            c.ep[pos] = order[3 - placed] + first;
        } else {
            c.ep[pos] = others.next().unwrap_or(0);
        }
    }
}

pub(crate) fn slice_sorted(c: &CubieCube) -> u16 {
    edges4(c, 8)
}

pub(crate) fn set_slice_sorted(c: &mut CubieCube, v: u16) {
    set_edges4(c, 8, v)
}

pub(crate) fn u_edges(c: &CubieCube) -> u16 {
    edges4(c, 0)
}

pub(crate) fn set_u_edges(c: &mut CubieCube, v: u16) {
    set_edges4(c, 0, v)
}

pub(crate) fn d_edges(c: &CubieCube) -> u16 {
    edges4(c, 4)
}

pub(crate) fn set_d_edges(c: &mut CubieCube, v: u16) {
    set_edges4(c, 4, v)
}

pub(crate) fn corners(c: &CubieCube) -> u16 {
    perm_rank(&c.cp) as u16
}

pub(crate) fn set_corners(c: &mut CubieCube, v: u16) {
    c.cp = [0, 1, 2, 3, 4, 5, 6, 7];
    perm_unrank(v as usize, &mut c.cp);
}

/// Permutation of the eight U/D edges; meaningful only when they sit in the U and D layers.
pub(crate) fn ud_edges(c: &CubieCube) -> u16 {
    perm_rank(&c.ep[..8]) as u16
}

pub(crate) fn set_ud_edges(c: &mut CubieCube, v: u16) {
    let mut e = [0u8, 1, 2, 3, 4, 5, 6, 7];
    perm_unrank(v as usize, &mut e);
    c.ep[..8].copy_from_slice(&e);
    c.ep[8..].copy_from_slice(&[8, 9, 10, 11]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::random::random_cube;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn solved_cube_has_zero_phase_coordinates() {
        let c = CubieCube::default();
        assert_eq!(
            (
                twist(&c),
                flip(&c),
                slice_sorted(&c),
                corners(&c),
                ud_edges(&c)
            ),
            (0, 0, 0, 0, 0)
        );
    }

    #[test]
    fn coordinates_round_trip() {
        let mut c = CubieCube::default();
        for v in 0..N_SLICE_SORTED as u16 {
            set_slice_sorted(&mut c, v);
            assert_eq!(slice_sorted(&c), v);
            set_u_edges(&mut c, v);
            assert_eq!(u_edges(&c), v);
        }
        for v in (0..N_PERM8 as u16).step_by(7) {
            set_corners(&mut c, v);
            assert_eq!(corners(&c), v);
            set_ud_edges(&mut c, v);
            assert_eq!(ud_edges(&c), v);
        }
        for v in 0..N_TWIST as u16 {
            set_twist(&mut c, v);
            assert_eq!(twist(&c), v);
        }
        for v in 0..N_FLIP as u16 {
            set_flip(&mut c, v);
            assert_eq!(flip(&c), v);
        }
    }

    #[test]
    fn random_cubes_read_back_through_coordinates() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for _ in 0..200 {
            let c = random_cube(&mut rng);
            let mut d = CubieCube::default();
            set_twist(&mut d, twist(&c));
            set_flip(&mut d, flip(&c));
            set_corners(&mut d, corners(&c));
            assert_eq!((d.co, d.eo, d.cp), (c.co, c.eo, c.cp));
            set_slice_sorted(&mut d, slice_sorted(&c));
            assert_eq!(slice_sorted(&d), slice_sorted(&c));
        }
    }
}
