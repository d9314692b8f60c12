//! A small allocation-free assignment solver (Hungarian method with potentials, shortest augmenting paths) for the 8x8 and 12x12 piece matrices. Pure.

/// Largest matrix side supported.
pub(crate) const MAX_N: usize = 12;

/// The permutation `p` (row `i` takes column `p[i]`) minimising the sum of
/// `cost(i, p[i])` over an `n` x `n` matrix, `n <= MAX_N`.
pub(crate) fn min_cost_assignment(n: usize, cost: impl Fn(usize, usize) -> f32) -> [u8; MAX_N] {
    assert!(
        n <= MAX_N,
        "assignment matrices are at most {MAX_N} x {MAX_N}"
    );
    // 1-based arrays as in the classic formulation; column 0 is the virtual start.
    let (mut u, mut v) = ([0f64; MAX_N + 1], [0f64; MAX_N + 1]);
    let mut row_of = [0usize; MAX_N + 1];
    let mut way = [0usize; MAX_N + 1];
    for i in 1..=n {
        row_of[0] = i;
        let mut j0 = 0;
        let mut min_v = [f64::INFINITY; MAX_N + 1];
        let mut used = [false; MAX_N + 1];
        loop {
            used[j0] = true;
            let i0 = row_of[j0];
            let (mut delta, mut j1) = (f64::INFINITY, 0);
            for j in 1..=n {
                if !used[j] {
                    let reduced = cost(i0 - 1, j - 1) as f64 - u[i0] - v[j];
                    if reduced < min_v[j] {
                        min_v[j] = reduced;
                        way[j] = j0;
                    }
                    if min_v[j] < delta {
                        delta = min_v[j];
                        j1 = j;
                    }
                }
            }
            for j in 0..=n {
                if used[j] {
                    u[row_of[j]] += delta;
                    v[j] -= delta;
                } else {
                    min_v[j] -= delta;
                }
            }
            j0 = j1;
            if row_of[j0] == 0 {
                break;
            }
        }
        loop {
            let j1 = way[j0];
            row_of[j0] = row_of[j1];
            j0 = j1;
            if j0 == 0 {
                break;
            }
        }
    }
    let mut perm = [0u8; MAX_N];
    for j in 1..=n {
        perm[row_of[j] - 1] = (j - 1) as u8;
    }
    perm
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn brute_force(n: usize, m: &[f32]) -> f32 {
        let mut perm: Vec<usize> = (0..n).collect();
        let mut best = f32::INFINITY;
        permute(&mut perm, 0, &mut |p| {
            best = best.min((0..n).map(|i| m[i * n + p[i]]).sum())
        });
        best
    }

    fn permute(p: &mut Vec<usize>, k: usize, f: &mut impl FnMut(&[usize])) {
        if k == p.len() {
            return f(p);
        }
        for i in k..p.len() {
            p.swap(k, i);
            permute(p, k + 1, f);
            p.swap(k, i);
        }
    }

    #[test]
    fn matches_brute_force_on_random_matrices() {
        let mut rng = ChaCha8Rng::seed_from_u64(8);
        for n in 1..=7 {
            for _ in 0..20 {
                let m: Vec<f32> = (0..n * n).map(|_| rng.random_range(0.0..100.0)).collect();
                let p = min_cost_assignment(n, |i, j| m[i * n + j]);
                let mut seen = [false; MAX_N];
                for &c in &p[..n] {
                    assert!(!seen[c as usize], "a permutation");
                    seen[c as usize] = true;
                }
                let total: f32 = (0..n).map(|i| m[i * n + p[i] as usize]).sum();
                assert!((total - brute_force(n, &m)).abs() < 1e-3);
            }
        }
    }
}
