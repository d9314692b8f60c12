//! The 2x2's candidates in the reduced photo: under each mask, every 2x2 lattice that at least three similar sticker squares lie on (anchored at a corner sticker and its nearest neighbour, a step the size a sticker and its gap make), fitted by least squares, labelled upright, in photo pixels; the same lattice found under several masks kept once, the best first.

use crate::grid::blobs::{Blob, LatticePoint};
use crate::grid::finder::{least_squares_lattice, upright_axes};
use crate::grid::search::residual;

/// A 2x2 lattice some sticker squares lie on, in photo pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Candidate {
    /// The face's centre (where its four stickers meet).
    pub(crate) centre: [f32; 2],
    /// One sticker to the next along the face's top edge (nearest the photo's +x).
    pub(crate) u: [f32; 2],
    /// One sticker to the next down the face (u turned a quarter clockwise, as seen).
    pub(crate) v: [f32; 2],
    /// Sticker squares on it (3 or 4).
    pub(crate) matched: usize,
    /// Their distance from the fitted lattice, root mean square, in pitches.
    pub(crate) residual: f32,
}

impl Candidate {
    /// The pitch: one sticker to the next, pixels.
    pub(crate) fn pitch(&self) -> f32 {
        (self.u[0].hypot(self.u[1]) + self.v[0].hypot(self.v[1])) / 2.0
    }

    /// The photo point at lattice coordinates (a, b), in pitches from the face's centre.
    pub(crate) fn at(&self, a: f32, b: f32) -> [f32; 2] {
        [
            self.centre[0] + a * self.u[0] + b * self.v[0],
            self.centre[1] + a * self.u[1] + b * self.v[1],
        ]
    }

    /// The same face as `other`: centres within a fifth of a pitch, pitches within a fifth.
    fn same_face(&self, other: &Candidate) -> bool {
        let (p, q) = (self.pitch(), other.pitch());
        let apart = (self.centre[0] - other.centre[0]).hypot(self.centre[1] - other.centre[1]);
        apart < 0.2 * p.min(q) && (p / q - 1.0).abs() < 0.2
    }
}

/// Every mask's lattices (`masks`: each mask's blobs, in working pixels; `scale`: photo pixels
/// per working pixel), the best first (more stickers, then the smaller residual), each face
/// once; and the most stickers any lattice matched.
pub(crate) fn candidates(masks: &[Vec<Blob>], scale: f32) -> (Vec<Candidate>, usize) {
    let (mut all, mut most) = (Vec::new(), 0);
    for blobs in masks {
        let (lattices, matched) = mask_lattices(blobs);
        all.extend(lattices);
        most = most.max(matched);
    }
    all.sort_by(|a, b| (b.matched.cmp(&a.matched)).then(a.residual.total_cmp(&b.residual)));
    let mut kept: Vec<Candidate> = Vec::new();
    for c in all {
        if !kept.iter().any(|k| k.same_face(&c)) {
            kept.push(c);
        }
    }
    let to_photo = |p: [f32; 2]| p.map(|x| x * scale);
    let kept = (kept.into_iter())
        .map(|c| Candidate {
            centre: to_photo(c.centre),
            u: to_photo(c.u),
            v: to_photo(c.v),
            ..c
        })
        .collect();
    (kept, most)
}

/// The lattices of one mask's blobs with at least three on them, each fitted once; and the
/// most blobs any lattice matched.
fn mask_lattices(blobs: &[Blob]) -> (Vec<Candidate>, usize) {
    let (mut sets, mut most): (Vec<Vec<LatticePoint>>, usize) = (Vec::new(), 0);
    for anchor in blobs {
        let similar: Vec<&Blob> = (blobs.iter())
            .filter(|b| (b.side / anchor.side - 1.0).abs() < 0.35)
            .collect();
        let Some((u, v)) = axes(anchor, &similar) else {
            continue;
        };
        for [i, j] in [[0, 0], [1, 0], [0, 1], [1, 1]] {
            let origin = [
                anchor.centre[0] - i as f32 * u[0] - j as f32 * v[0],
                anchor.centre[1] - i as f32 * u[1] - j as f32 * v[1],
            ];
            let matched = matched_points(origin, u, v, &similar);
            most = most.max(matched.len());
            if matched.len() >= 3 && !sets.iter().any(|s| same_points(s, &matched)) {
                sets.push(matched);
            }
        }
    }
    (sets.iter().map(|matched| fitted(matched)).collect(), most)
}

/// The same blobs (by centre), whatever their indices.
fn same_points(a: &[LatticePoint], b: &[LatticePoint]) -> bool {
    a.len() == b.len() && a.iter().all(|(p, _)| b.iter().any(|(q, _)| p == q))
}

/// The lattice fitted to `matched` by least squares, labelled upright about its centre.
fn fitted(matched: &[LatticePoint]) -> Candidate {
    let (o, u, v) = least_squares_lattice(matched);
    let centre = [o[0] + 0.5 * (u[0] + v[0]), o[1] + 0.5 * (u[1] + v[1])];
    let residual = residual(matched, (o, u, v));
    let (u, v) = upright_axes(u, v);
    Candidate {
        centre,
        u,
        v,
        matched: matched.len(),
        residual,
    }
}

/// The lattice steps from `anchor` to its nearest similar neighbour: u (mostly +x), v (u
/// turned a quarter). A sticker and its gap make a step of little more than a sticker's side.
fn axes(anchor: &Blob, similar: &[&Blob]) -> Option<([f32; 2], [f32; 2])> {
    let step = (similar.iter())
        .map(|b| {
            [
                b.centre[0] - anchor.centre[0],
                b.centre[1] - anchor.centre[1],
            ]
        })
        .filter(|d| {
            let r = d[0].hypot(d[1]);
            r > anchor.side * 0.8 && r < anchor.side * 1.8
        })
        .min_by(|a, b| a[0].hypot(a[1]).total_cmp(&b[0].hypot(b[1])))?;
    let mut u = step;
    for _ in 0..4 {
        if u[0] >= u[1].abs() {
            break;
        }
        u = [u[1], -u[0]];
    }
    Some((u, [-u[1], u[0]]))
}

/// Blobs lying on `origin + i u + j v` for i, j in 0..=1, each with its lattice index.
fn matched_points(
    origin: [f32; 2],
    u: [f32; 2],
    v: [f32; 2],
    blobs: &[&Blob],
) -> Vec<LatticePoint> {
    let pitch = u[0].hypot(u[1]);
    let mut matched = Vec::new();
    for j in 0..=1 {
        for i in 0..=1 {
            let want = [
                origin[0] + i as f32 * u[0] + j as f32 * v[0],
                origin[1] + i as f32 * u[1] + j as f32 * v[1],
            ];
            let near =
                |b: &&&Blob| (b.centre[0] - want[0]).hypot(b.centre[1] - want[1]) < 0.25 * pitch;
            if let Some(b) = blobs.iter().find(near) {
                matched.push((b.centre, [i, j]));
            }
        }
    }
    matched
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blob(x: f32, y: f32, side: f32) -> Blob {
        Blob {
            centre: [x, y],
            side,
        }
    }

    #[test]
    fn four_squares_on_a_lattice_give_one_candidate_at_their_middle() {
        let four = vec![
            blob(10.0, 10.0, 8.0),
            blob(20.0, 10.0, 8.0),
            blob(10.0, 20.0, 8.0),
            blob(20.0, 20.0, 8.0),
        ];
        let (found, most) = candidates(&[four.clone(), four], 2.0);
        assert_eq!((found.len(), most), (1, 4), "{found:?}");
        let c = found[0];
        assert!((c.centre[0] - 30.0).abs() < 1e-3 && (c.centre[1] - 30.0).abs() < 1e-3);
        assert!((c.pitch() - 20.0).abs() < 1e-3, "{c:?}");
        assert!(c.u[0] > 19.0 && c.v[1] > 19.0, "{c:?}");
    }

    #[test]
    fn squares_too_far_apart_for_a_sticker_and_its_gap_are_no_lattice() {
        let apart = vec![
            blob(10.0, 10.0, 8.0),
            blob(40.0, 10.0, 8.0),
            blob(10.0, 40.0, 8.0),
        ];
        assert_eq!(candidates(&[apart], 1.0), (Vec::new(), 0));
    }
}
