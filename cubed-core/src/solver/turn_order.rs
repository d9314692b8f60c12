//! Which turn may follow which in a search (no face twice in a row, opposite faces in one order only), as bit masks over the 18 turns.

/// `table[last]`: bit `m` set when turn `m` may follow turn `last` (no same
/// face twice, opposite faces in one order only); `table[18]` allows all.
const FOLLOWERS: [u32; 19] = {
    let mut t = [(1u32 << 18) - 1; 19];
    let mut last = 0;
    while last < 18 {
        let mut m = 0;
        let mut mask = 0;
        while m < 18 {
            let (fl, fm) = (last / 3, m / 3);
            if fl != fm && fm + 3 != fl {
                mask |= 1 << m;
            }
            m += 1;
        }
        t[last] = mask;
        last += 1;
    }
    t
};

/// The turns that may follow `last` (None: any turn), as a bit mask.
#[inline(always)]
pub(crate) fn followers(last: Option<u8>) -> u32 {
    FOLLOWERS[last.map_or(18, usize::from)]
}

/// True if turn `m` may follow turn `last`.
#[inline(always)]
pub(crate) fn may_follow(last: Option<u8>, m: u8) -> bool {
    followers(last) & (1 << m) != 0
}

/// Iterates the set bits of a move mask.
#[inline(always)]
pub(crate) fn moves_in(mut mask: u32) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let m = mask.trailing_zeros() as u8;
            mask &= mask - 1;
            m
        })
    })
}
