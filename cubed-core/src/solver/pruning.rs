//! Pruning tables: exact-depth byte tables for the small mode, and symmetry-reduced packed tables for the full mode (2-bit depth mod 3, or 4-bit depth capped at 14).

use super::symtables::SymClasses;

/// Entries of `BITS` bits each (2 or 4), packed in words; all ones marks an
/// entry not yet filled while a table is built.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct Packed<const BITS: usize> {
    pub words: Vec<u64>,
}

/// Largest depth a 4-bit table tells apart: the few, costly last layers of
/// the breadth-first fill are skipped and their entries hold `CAP4`.
pub(crate) const CAP4: u8 = 14;

/// Depth mod 3 per entry (the exact depth follows from a neighbour's).
pub(crate) type Packed2 = Packed<2>;
/// Exact depth per entry, `CAP4` meaning `CAP4` or more.
pub(crate) type Packed4 = Packed<4>;

impl<const BITS: usize> Packed<BITS> {
    const PER_WORD: usize = 64 / BITS;
    const MASK: u64 = (1 << BITS) - 1;
    const EMPTY: u8 = Self::MASK as u8;
    /// The lowest bit of every entry.
    const LOW_BITS: u64 = u64::MAX / Self::MASK;

    /// Number of words that hold `len` entries.
    pub(crate) fn words_for(len: usize) -> usize {
        len.div_ceil(Self::PER_WORD)
    }

    fn new(len: usize) -> Self {
        let mut words = super::memory::huge_vec(Self::words_for(len));
        words.resize(Self::words_for(len), u64::MAX);
        Packed { words }
    }

    #[inline(always)]
    pub(crate) fn get(&self, i: usize) -> u8 {
        ((self.words[i / Self::PER_WORD] >> ((i % Self::PER_WORD) * BITS)) & Self::MASK) as u8
    }

    #[inline(always)]
    fn set(&mut self, i: usize, v: u8) {
        let shift = (i % Self::PER_WORD) * BITS;
        let w = &mut self.words[i / Self::PER_WORD];
        *w = (*w & !(Self::MASK << shift)) | ((v as u64) << shift);
    }

    /// The lowest bit of each entry of word `w` equal to `v` set.
    fn matches(&self, w: usize, v: u8) -> u64 {
        let mut x = self.words[w] ^ (Self::LOW_BITS * v as u64);
        let mut width = 1;
        while width < BITS {
            x |= x >> width;
            width *= 2;
        }
        !x & Self::LOW_BITS
    }

    /// What an entry at `depth` holds, or None if the table stops short of it.
    fn stored(depth: u8) -> Option<u8> {
        match BITS {
            2 => Some(depth % 3),
            _ => (depth < CAP4).then_some(depth),
        }
    }
}

/// Depth after one move, from the parent's exact depth and the child's depth mod 3.
#[inline(always)]
pub(crate) fn next_depth(parent: u8, child_mod3: u8) -> u8 {
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
pub(crate) struct SymPruneSpec<'a> {
    pub classes: &'a SymClasses,
    /// Number of values of the coordinate that is not reduced (twist, ud_edges).
    pub n_inner: usize,
    pub moves: &'a [u8],
    /// Row length of `inner_move` (18 face turns, or 45 axial moves).
    pub stride: usize,
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
        let i1 = self.inner_conj[self.inner_move[inner * self.stride + m] as usize * 16 + s1];
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
    fn fill<const B: usize>(&self, table: &mut Packed<B>, idx: usize, v: u8) -> usize {
        let (c, inner) = (idx / self.n_inner, idx % self.n_inner);
        let mut filled = 0;
        let stab = self.classes.stabilizer[c];
        for s in 0..16 {
            if stab & (1 << s) == 0 {
                continue;
            }
            let twin = c * self.n_inner + self.inner_conj[inner * 16 + s] as usize;
            if table.get(twin) == Packed::<B>::EMPTY {
                table.set(twin, v);
                filled += 1;
            }
        }
        filled
    }

    /// Breadth-first fill from the goal (class 0, inner 0); forward while
    /// the frontier is small, then backward (each empty entry looks for a
    /// neighbour at the current depth). A 4-bit table stops at depth 14: what
    /// is left then holds `CAP4`.
    pub(crate) fn build<const B: usize>(&self) -> Packed<B> {
        let total = self.classes.rep.len() * self.n_inner;
        let mut table = Packed::<B>::new(total);
        let mut filled = self.fill(&mut table, 0, 0);
        let mut frontier = filled;
        let mut depth = 0u8;
        while filled < total && Packed::<B>::stored(depth + 1).is_some() {
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
        if B == 4 {
            for w in 0..table.words.len() {
                let empty = table.matches(w, Packed::<B>::EMPTY);
                table.words[w] =
                    (table.words[w] & !(empty * Packed::<B>::MASK)) | (empty * CAP4 as u64);
            }
        }
        table
    }

    /// Calls `visit(table, index, inner, neighbours of its class)` for every
    /// entry equal to `value` (word by word), and sums what it returns.
    fn scan<const B: usize>(
        &self,
        table: &mut Packed<B>,
        total: usize,
        value: u8,
        mut visit: impl FnMut(&mut Packed<B>, usize, usize, &[(usize, usize)]) -> usize,
    ) -> usize {
        let mut added = 0;
        let mut cached = (usize::MAX, Vec::new());
        for w in 0..table.words.len() {
            let mut mask = table.matches(w, value);
            while mask != 0 {
                let idx = w * (64 / B) + mask.trailing_zeros() as usize / B;
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
    fn forward_pass<const B: usize>(
        &self,
        table: &mut Packed<B>,
        total: usize,
        depth: u8,
    ) -> usize {
        let (cur, next) = Self::values::<B>(depth);
        self.scan(table, total, cur, |table, _, inner, neigh| {
            let mut added = 0;
            for k in 0..self.moves.len() {
                let idx1 = self.neighbour(neigh, k, inner);
                if table.get(idx1) == Packed::<B>::EMPTY {
                    added += self.fill(table, idx1, next);
                }
            }
            added
        })
    }

    /// Every empty entry with a neighbour at `depth` is filled.
    fn backward_pass<const B: usize>(
        &self,
        table: &mut Packed<B>,
        total: usize,
        depth: u8,
    ) -> usize {
        let (cur, next) = Self::values::<B>(depth);
        self.scan(
            table,
            total,
            Packed::<B>::EMPTY,
            |table, idx, inner, neigh| {
                let found = (0..self.moves.len())
                    .any(|k| table.get(self.neighbour(neigh, k, inner)) == cur);
                if found && table.get(idx) == Packed::<B>::EMPTY {
                    self.fill(table, idx, next)
                } else {
                    0
                }
            },
        )
    }
}

impl SymPruneSpec<'_> {
    /// Stored values of entries at `depth` and at `depth + 1` (which exists while building).
    fn values<const B: usize>(depth: u8) -> (u8, u8) {
        let stored = |d| Packed::<B>::stored(d).unwrap_or(Packed::<B>::EMPTY);
        (stored(depth), stored(depth + 1))
    }
}

/// Exact depths (bytes) over two coordinates, `table[a * n_b + b]`, by breadth-first search from (0, 0).
pub(crate) fn build_byte_table(
    n_a: usize,
    n_b: usize,
    moves: &[u8],
    move_a: &[u16],
    move_b: &[u16],
) -> Vec<u8> {
    build_byte_table_strided(n_a, n_b, moves, 18, move_a, move_b)
}

/// As [`build_byte_table`], over move tables with rows of `stride` moves.
pub(crate) fn build_byte_table_strided(
    n_a: usize,
    n_b: usize,
    moves: &[u8],
    stride: usize,
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
                let idx1 = move_a[a * stride + m] as usize * n_b + move_b[b * stride + m] as usize;
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

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip<const B: usize>() {
        let len = 1000;
        let mut t = Packed::<B>::new(len);
        for i in 0..len {
            t.set(i, (i * 7 % 5 % (1 << B)) as u8);
        }
        for i in 0..len {
            assert_eq!(t.get(i), (i * 7 % 5 % (1 << B)) as u8);
        }
        for w in 0..Packed::<B>::words_for(len) {
            for v in 0..(1u8 << B) {
                let mut mask = t.matches(w, v);
                let mut found = Vec::new();
                while mask != 0 {
                    found.push(w * (64 / B) + mask.trailing_zeros() as usize / B);
                    mask &= mask - 1;
                }
                let expected: Vec<usize> = (w * (64 / B)..(w + 1) * (64 / B))
                    .filter(|&i| t.get(i) == v)
                    .collect();
                assert_eq!(found, expected, "word {w}, value {v}");
            }
        }
    }

    #[test]
    fn packed_entries_read_back_and_match() {
        round_trip::<2>();
        round_trip::<4>();
    }
}
