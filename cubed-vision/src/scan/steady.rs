//! Grids lent between the photos of a camera that did not move: a robot (or a camera on a stand) shows every face in the same place, so a face whose grid is not found in its own photo (white stickers on a white-bodied cube, a glint across the gaps) is read on the grid the other photos agree on, when they agree as only a steady camera makes them.

use crate::cube::Face;
use crate::grid::face_grid::FaceGrid;
use crate::grid::finder::GridError;
use crate::light::colour::median_of_sorted;
use crate::scan::ScanError;

/// How many photos must have had their grid found, agreeing, before it is lent to another.
const LENDERS: usize = 3;

/// How far a found grid's corner may lie from the found grids' median, in sticker pitches: the
/// finder's own tolerance for a sticker on its lattice. Further apart (and not by a whole
/// sticker), the cube was not shown in one place, and nothing is lent.
const AGREE_PITCHES: f32 = 0.25;

/// The grid each photo was read on (URFDLB), the faces lent one because none was found in
/// their own photo, and those whose grid was found a sticker off the others' (read on theirs).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FaceGrids {
    pub grids: Vec<FaceGrid>,
    pub lent: Vec<Face>,
    pub realigned: Vec<Face>,
}

impl std::ops::Deref for FaceGrids {
    type Target = [FaceGrid];
    fn deref(&self) -> &[FaceGrid] {
        &self.grids
    }
}

impl FaceGrids {
    /// What to tell the person when a face was lent a grid or read on the others': which,
    /// and why it may be.
    pub fn lent_words(&self) -> Option<String> {
        let letters = |faces: &[Face]| {
            let names: Vec<String> = faces.iter().map(|f| f.to_string()).collect();
            let noun = if faces.len() == 1 { "face" } else { "faces" };
            format!("{noun} {}", names.join(", "))
        };
        let others = self.grids.len() - self.lent.len() - self.realigned.len();
        let mut said = Vec::new();
        if !self.lent.is_empty() {
            said.push(format!(
                "no grid found in the photo of {}",
                letters(&self.lent)
            ));
        }
        if !self.realigned.is_empty() {
            said.push(format!(
                "the grid found in the photo of {} lay a whole sticker off the others'",
                letters(&self.realigned)
            ));
        }
        (!said.is_empty()).then(|| {
            format!(
                "{}: read on the grid the other {others} photos agree on (the camera did not move between them)",
                said.join("; ")
            )
        })
    }
}

/// Each face's grid (URFDLB as `found` is): the one found in its photo, or the one the found
/// grids agree on ([`agreement`]) where none was found or the one found lies a whole sticker
/// off it (the finder's lattice placed a column or row off, as on a white-bodied face whose
/// white stickers it cannot see). With nothing agreed, the first face's error stands.
pub(crate) fn lend_grids(
    found: Vec<(Face, Result<FaceGrid, ScanError>)>,
    stickers_across: f32,
) -> Result<FaceGrids, ScanError> {
    let grids: Vec<FaceGrid> = (found.iter())
        .filter_map(|(_, r)| r.as_ref().ok().copied())
        .collect();
    let agreed = agreement(&grids, stickers_across);
    let mut out = FaceGrids::default();
    for (face, result) in found {
        match (result, agreed) {
            (Ok(grid), Some(agreed)) if fit(&grid, &agreed, stickers_across) == Fit::StickerOff => {
                out.realigned.push(face);
                out.grids.push(agreed);
            }
            (Ok(grid), _) => out.grids.push(grid),
            (Err(e), Some(grid)) if not_found(&e) => {
                out.lent.push(face);
                out.grids.push(grid);
            }
            (Err(e), _) => return Err(e),
        }
    }
    Ok(out)
}

/// Whether the error is a grid not found in a photo that has one to find (not an empty image).
fn not_found(error: &ScanError) -> bool {
    matches!(
        error,
        ScanError::Grid {
            source: GridError::NotFound { .. } | GridError::PocketNotFound { .. },
            ..
        }
    )
}

/// How a found grid lies against the one the others agree on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fit {
    /// Every corner within [`AGREE_PITCHES`] of it.
    Agrees,
    /// So once moved a whole sticker (or one diagonally): a lattice placed off.
    StickerOff,
    /// Neither: the cube was somewhere else in that photo.
    Apart,
}

/// How `grid` lies against `agreed`, a face of `stickers_across` stickers a side.
fn fit(grid: &FaceGrid, agreed: &FaceGrid, stickers_across: f32) -> Fit {
    let [a, b, _, d] = agreed.corners;
    let step = |p: [f32; 2], q: [f32; 2]| {
        [
            (q[0] - p[0]) / stickers_across,
            (q[1] - p[1]) / stickers_across,
        ]
    };
    let (u, v) = (step(a, b), step(a, d));
    let pitch = (u[0].hypot(u[1]) + v[0].hypot(v[1])) / 2.0;
    let near = |(i, j): (f32, f32)| {
        (grid.corners.iter().zip(agreed.corners)).all(|(p, m)| {
            let moved = [m[0] + i * u[0] + j * v[0], m[1] + i * u[1] + j * v[1]];
            (p[0] - moved[0]).hypot(p[1] - moved[1]) <= AGREE_PITCHES * pitch
        })
    };
    let steps = (-1..=1).flat_map(|i| (-1..=1).map(move |j| (i as f32, j as f32)));
    if near((0.0, 0.0)) {
        Fit::Agrees
    } else if steps.filter(|&s| s != (0.0, 0.0)).any(near) {
        Fit::StickerOff
    } else {
        Fit::Apart
    }
}

/// The grid the found ones agree on: the median, corner by corner, of those within
/// [`AGREE_PITCHES`] of the median of all, when those are at least [`LENDERS`] and a
/// majority, and every other lies a whole sticker off (none elsewhere: a camera that moved).
fn agreement(grids: &[FaceGrid], stickers_across: f32) -> Option<FaceGrid> {
    if grids.len() < LENDERS {
        return None;
    }
    let all = median_grid(grids);
    let agreeing: Vec<FaceGrid> = (grids.iter())
        .filter(|g| fit(g, &all, stickers_across) == Fit::Agrees)
        .copied()
        .collect();
    if agreeing.len() < LENDERS || 2 * agreeing.len() <= grids.len() {
        return None;
    }
    let agreed = median_grid(&agreeing);
    let steady = (grids.iter()).all(|g| fit(g, &agreed, stickers_across) != Fit::Apart);
    steady.then_some(agreed)
}

/// The median of `grids` (at least one), corner by corner.
fn median_grid(grids: &[FaceGrid]) -> FaceGrid {
    let median = |c: usize, k: usize| {
        let mut values: Vec<f32> = grids.iter().map(|g| g.corners[c][k]).collect();
        values.sort_by(f32::total_cmp);
        median_of_sorted(&values).unwrap_or(0.0)
    };
    FaceGrid {
        corners: std::array::from_fn(|c| std::array::from_fn(|k| median(c, k))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn not_found_on(face: Face) -> ScanError {
        ScanError::Grid {
            face,
            source: GridError::NotFound {
                found: 4,
                candidates: 6,
                pocket_found: false,
            },
        }
    }

    /// Five faces found within a few pixels of one another (sticker pitch 50): the sixth,
    /// not found, is read on their median.
    #[test]
    fn a_face_not_found_is_read_on_the_grid_the_others_agree_on() {
        let shifts = [0.0, 3.0, -2.0, 1.0, -4.0];
        let mut found: Vec<_> = (Face::ALL[1..].iter().zip(shifts))
            .map(|(&f, s)| (f, Ok(FaceGrid::square(100.0 + s, 80.0 - s, 150.0))))
            .collect();
        found.insert(0, (Face::U, Err(not_found_on(Face::U))));
        let grids = lend_grids(found, 3.0).expect("lent");
        assert_eq!(grids.len(), 6);
        assert_eq!(grids[0], FaceGrid::square(100.0, 80.0, 150.0));
        assert_eq!(
            grids[2],
            FaceGrid::square(103.0, 77.0, 150.0),
            "found: kept"
        );
        assert_eq!(grids.lent, [Face::U]);
        let words = grids.lent_words().expect("said");
        assert!(words.starts_with("no grid found in the photo of face U: read on the grid the other 5 photos agree on"), "{words}");
    }

    /// One found grid a third of a pitch away from the rest: the cube was not shown in one
    /// place, and the face not found stays refused, naming itself.
    #[test]
    fn grids_that_disagree_lend_nothing() {
        let lefts = [100.0, 100.0, 100.0, 100.0, 117.0];
        let mut found: Vec<_> = (Face::ALL[..5].iter().zip(lefts))
            .map(|(&f, left)| (f, Ok(FaceGrid::square(left, 80.0, 150.0))))
            .collect();
        found.push((Face::B, Err(not_found_on(Face::B))));
        let refused = lend_grids(found, 3.0).expect_err("nothing lent");
        assert!(
            matches!(refused, ScanError::Grid { face: Face::B, .. }),
            "{refused:?}"
        );
    }

    /// One face's lattice placed a whole sticker to the right of where the other five agree
    /// (the finder saw two of its columns only): read on theirs, and said.
    #[test]
    fn a_grid_found_a_whole_sticker_off_is_read_on_the_others() {
        let lefts = [100.0, 102.0, 150.0, 98.0, 101.0, 99.0];
        let found: Vec<_> = (Face::ALL.iter().zip(lefts))
            .map(|(&f, left)| (f, Ok(FaceGrid::square(left, 80.0, 150.0))))
            .collect();
        let grids = lend_grids(found, 3.0).expect("agreed");
        assert_eq!(grids.realigned, [Face::F]);
        assert_eq!(grids[2], FaceGrid::square(100.0, 80.0, 150.0));
        assert_eq!(grids[1], FaceGrid::square(102.0, 80.0, 150.0), "kept");
        let words = grids.lent_words().expect("said");
        assert!(
            words.starts_with("the grid found in the photo of face F lay a whole sticker off the others': read on the grid the other 5 photos agree on"),
            "{words}"
        );
    }

    /// Two found are too few to tell a steady camera from chance; an empty photo is not lent
    /// a grid either.
    #[test]
    fn too_few_found_or_an_empty_photo_lend_nothing() {
        let square = FaceGrid::square(100.0, 80.0, 150.0);
        let mut found: Vec<_> = (Face::ALL.iter())
            .map(|&f| (f, Err(not_found_on(f))))
            .collect();
        found[4].1 = Ok(square);
        found[5].1 = Ok(square);
        assert!(lend_grids(found, 3.0).is_err());
        let mut found: Vec<_> = (Face::ALL.iter()).map(|&f| (f, Ok(square))).collect();
        found[3].1 = Err(ScanError::Grid {
            face: Face::D,
            source: GridError::EmptyImage,
        });
        assert!(lend_grids(found, 3.0).is_err());
    }

    #[test]
    fn the_median_of_an_even_count_of_grids_is_the_mean_of_the_middle_two() {
        let lefts = [4.0, 1.0, 3.0, 2.0];
        let grids: Vec<FaceGrid> = lefts
            .iter()
            .map(|&l| FaceGrid::square(l, 0.0, 9.0))
            .collect();
        assert_eq!(median_grid(&grids), FaceGrid::square(2.5, 0.0, 9.0));
        assert_eq!(median_grid(&grids[..3]), FaceGrid::square(3.0, 0.0, 9.0));
    }
}
