//! Pruning tables: exact-depth byte tables for the small mode, and symmetry-reduced 2-bit (depth mod 3) tables for the full mode.

use super::symtables::SymClasses;

/// Entries of two bits each; 3 marks an entry not yet filled.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Packed2 {
    pub words: Vec<u64>,
}

const EMPTY: u8 = 3;
const LOW_BITS: u64 = 0x5555_5555_5555_5555;

impl Packed2 {
    fn new(len: usize) -> Packed2 {
        Packed2 {
            words: vec![u64::MAX; len.div_ceil(32)],
        }
    }

    #[inline(always)]
    pub fn get(&self, i: usize) -> u8 {
        ((self.words[i >> 5] >> ((i & 31) * 2)) & 3) as u8
    }

    #[inline(always)]
    fn set(&mut self, i: usize, v: u8) {
        let shift = (i & 31) * 2;
        let w = &mut self.words[i >> 5];
        *w = (*w & !(3u64 << shift)) | ((v as u64) << shift);
    }

    /// Bit 2k set for each entry k of word `w` equal to `v`.
    fn matches(&self, w: usize, v: u8) -> u64 {
        let pattern = LOW_BITS * v as u64;
        let x = self.words[w] ^ pattern;
        !(x | (x >> 1)) & LOW_BITS
    }
}

/// Depth after one move, from the parent's exact depth and the child's depth mod 3.
#[inline(always)]
pub fn next_depth(parent: u8, child_mod3: u8) -> u8 {
    let p = parent % 3;
    if child_mod3 == p {
        parent
    } else if child_mod3 == (p + 1) % 3 {
        parent + 1
    } else {
        parent.saturating_sub(1)
    }
}

/// What a symmetry-reduced table needs to know about its coordinates.
pub struct SymPruneSpec<'a> {
    pub classes: &'a SymClasses,
    /// Number of values of the coordinate that is not reduced (twist, ud_edges).
    pub n_inner: usize,
    pub moves: &'a [u8],
    /// Class-representative raw coordinate after turn `m`.
    pub rep_move: &'a dyn Fn(u32, u8) -> usize,
    pub inner_move: &'a [u16],
    pub inner_conj: &'a [u16],
}

impl SymPruneSpec<'_> {
    /// Table index after turn number `k` of `moves`, from class `c` (given its neighbours) and inner value `inner`.
    #[inline(always)]
    fn neighbour(&self, neigh: &[(usize, usize)], k: usize, inner: usize) -> usize {
        let (c1, s1) = neigh[k];
        let m = self.moves[k] as usize;
        let i1 = self.inner_conj[self.inner_move[inner * 18 + m] as usize * 16 + s1];
        c1 * self.n_inner + i1 as usize
    }

    fn class_neighbours(&self, c: usize) -> Vec<(usize, usize)> {
        let rep = self.classes.rep[c];
        self.moves
            .iter()
            .map(|&m| {
                let raw = (self.rep_move)(rep, m);
                self.classes.class_and_sym(raw)
            })
            .collect()
    }

    /// Sets entry `idx` and its symmetric twins; returns how many were newly filled.
    fn fill(&self, table: &mut Packed2, idx: usize, v: u8) -> usize {
        let (c, inner) = (idx / self.n_inner, idx % self.n_inner);
        let mut filled = 0;
        let stab = self.classes.stabilizer[c];
        for s in 0..16 {
            if stab & (1 << s) == 0 {
                continue;
            }
            let twin = c * self.n_inner + self.inner_conj[inner * 16 + s] as usize;
            if table.get(twin) == EMPTY {
                table.set(twin, v);
                filled += 1;
            }
        }
        filled
    }

    /// Breadth-first fill from the goal (class 0, inner 0); forward while
    /// the frontier is small, then backward (each empty entry looks for a
    /// neighbour at the current depth).
    pub fn build(&self) -> Packed2 {
        let total = self.classes.rep.len() * self.n_inner;
        let mut table = Packed2::new(total);
        let mut filled = self.fill(&mut table, 0, 0);
        let mut frontier = filled;
        let mut depth = 0u8;
        while filled < total {
            // Forward costs a neighbour look-up per frontier entry and move;
            // backward a few per empty entry (it stops at the first hit).
            let backward = frontier * self.moves.len() > (total - filled) * 6;
            let added = if backward {
                self.backward_pass(&mut table, total, depth)
            } else {
                self.forward_pass(&mut table, total, depth)
            };
            if added == 0 {
                break;
            }
            filled += added;
            frontier = added;
            depth += 1;
        }
        table
    }

    /// Calls `visit(table, index, inner, neighbours of its class)` for every
    /// entry equal to `value` (word by word), and sums what it returns.
    fn scan(
        &self,
        table: &mut Packed2,
        total: usize,
        value: u8,
        mut visit: impl FnMut(&mut Packed2, usize, usize, &[(usize, usize)]) -> usize,
    ) -> usize {
        let mut added = 0;
        let mut cached = (usize::MAX, Vec::new());
        for w in 0..table.words.len() {
            let mut mask = table.matches(w, value);
            while mask != 0 {
                let idx = w * 32 + mask.trailing_zeros() as usize / 2;
                mask &= mask - 1;
                if idx >= total {
                    break;
                }
                let (c, inner) = (idx / self.n_inner, idx % self.n_inner);
                if cached.0 != c {
                    cached = (c, self.class_neighbours(c));
                }
                added += visit(table, idx, inner, &cached.1);
            }
        }
        added
    }

    /// Every entry at `depth` fills its empty neighbours.
    fn forward_pass(&self, table: &mut Packed2, total: usize, depth: u8) -> usize {
        let (cur, next) = (depth % 3, (depth + 1) % 3);
        self.scan(table, total, cur, |table, _, inner, neigh| {
            let mut added = 0;
            for k in 0..self.moves.len() {
                let idx1 = self.neighbour(neigh, k, inner);
                if table.get(idx1) == EMPTY {
                    added += self.fill(table, idx1, next);
                }
            }
            added
        })
    }

    /// Every empty entry with a neighbour at `depth` is filled.
    fn backward_pass(&self, table: &mut Packed2, total: usize, depth: u8) -> usize {
        let (cur, next) = (depth % 3, (depth + 1) % 3);
        self.scan(table, total, EMPTY, |table, idx, inner, neigh| {
            let found =
                (0..self.moves.len()).any(|k| table.get(self.neighbour(neigh, k, inner)) == cur);
            if found && table.get(idx) == EMPTY {
                self.fill(table, idx, next)
            } else {
                0
            }
        })
    }
}

/// Exact depths (bytes) over two coordinates, `table[a * n_b + b]`, by breadth-first search from (0, 0).
pub fn build_byte_table(
    n_a: usize,
    n_b: usize,
    moves: &[u8],
    move_a: &[u16],
    move_b: &[u16],
) -> Vec<u8> {
    let mut table = vec![u8::MAX; n_a * n_b];
    table[0] = 0;
    let mut depth = 0u8;
    let mut frontier = vec![0usize];
    while !frontier.is_empty() {
        let mut next = Vec::new();
        for idx in frontier {
            let (a, b) = (idx / n_b, idx % n_b);
            for &m in moves {
                let m = m as usize;
                let idx1 = move_a[a * 18 + m] as usize * n_b + move_b[b * 18 + m] as usize;
                if table[idx1] == u8::MAX {
                    table[idx1] = depth + 1;
                    next.push(idx1);
                }
            }
        }
        frontier = next;
        depth += 1;
    }
    table
}
