//! A second, separately written model of the pocket cube for tests: the sticker cycles of U, R and F typed in from a drawn net (not derived from the 3x3 geometry or the corner model), and a brute-force breadth-first search over it.
//!
//! ```text
//!              0  1                  U: 0 back-left, 1 back-right, 2 front-left, 3 front-right
//!              2  3                  R: 4 up-front, 5 up-back, 6 down-front, 7 down-back
//!    16 17   8  9   4  5  20 21      F: 8 up-left, 9 up-right, 10 down-left, 11 down-right
//!    18 19  10 11   6  7  22 23      D: 12 front-left, 13 front-right, 14 back-left, 15 back-right
//!             12 13                  L: 16 up-back, 17 up-front, 18 down-back, 19 down-front
//!             14 15                  B: 20 up-right, 21 up-left, 22 down-right, 23 down-left
//! ```

use std::collections::HashMap;

/// Colours of the 24 stickers (0..6 = U R F D L B).
pub(super) type Stickers = [u8; 24];

/// For each quarter turn, "sticker at a moves to b" pairs.
#[rustfmt::skip]
const U: [(usize, usize); 12] = [
    (0, 1), (1, 3), (3, 2), (2, 0),
    (8, 16), (9, 17), (16, 20), (17, 21), (20, 4), (21, 5), (4, 8), (5, 9),
];
#[rustfmt::skip]
const R: [(usize, usize); 12] = [
    (4, 5), (5, 7), (7, 6), (6, 4),
    (9, 1), (11, 3), (1, 22), (3, 20), (22, 13), (20, 15), (13, 9), (15, 11),
];
#[rustfmt::skip]
const F: [(usize, usize); 12] = [
    (8, 9), (9, 11), (11, 10), (10, 8),
    (2, 4), (3, 6), (4, 13), (6, 12), (12, 17), (13, 19), (17, 3), (19, 2),
];

pub(super) fn solved() -> Stickers {
    std::array::from_fn(|i| (i / 4) as u8)
}

/// One clockwise quarter turn of face `face` ('U', 'R' or 'F').
pub(super) fn quarter(s: &Stickers, face: char) -> Stickers {
    let cycles = match face {
        'U' => &U,
        'R' => &R,
        'F' => &F,
        _ => panic!("the witness knows only U, R and F"),
    };
    let mut out = *s;
    for &(from, to) in cycles {
        out[to] = s[from];
    }
    out
}

/// `face` turned `quarters` times clockwise.
pub(super) fn turn(s: &Stickers, face: char, quarters: u8) -> Stickers {
    (0..quarters).fold(*s, |c, _| quarter(&c, face))
}

pub(super) fn is_solved(s: &Stickers) -> bool {
    s.chunks(4).all(|f| f.iter().all(|&c| c == f[0]))
}

/// Every state within `depth` of solved and its distance, by brute force; half
/// turns count 1 when `half_turns`, else only quarter turns are steps.
pub(super) fn distances(depth: u8, half_turns: bool) -> HashMap<Stickers, u8> {
    let steps: &[u8] = if half_turns { &[1, 2, 3] } else { &[1, 3] };
    let mut seen = HashMap::from([(solved(), 0u8)]);
    let mut frontier = vec![solved()];
    for d in 1..=depth {
        let mut next = Vec::new();
        for s in &frontier {
            for face in ['U', 'R', 'F'] {
                for &q in steps {
                    let n = turn(s, face, q);
                    if let std::collections::hash_map::Entry::Vacant(e) = seen.entry(n) {
                        e.insert(d);
                        next.push(n);
                    }
                }
            }
        }
        frontier = next;
    }
    seen
}
