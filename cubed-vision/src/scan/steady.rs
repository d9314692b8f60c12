//! Grids lent between the photos of a camera that did not move: a robot (or a camera on a stand) shows every face in the same place, so a face whose grid is not found in its own photo (white stickers on a white-bodied cube, a glint across the gaps) is read on the grid the other photos agree on, when they agree as only a steady camera makes them.

use crate::cube::Face;
use crate::grid::face_grid::FaceGrid;
use crate::grid::finder::GridError;
use crate::scan::ScanError;

/// How many photos must have had their grid found, all agreeing, before it is lent to another.
const LENDERS: usize = 3;

/// How far a found grid's corner may lie from the found grids' median, in sticker pitches: the
/// finder's own tolerance for a sticker on its lattice. Further apart, the cube was not shown
/// in one place, and nothing is lent.
const AGREE_PITCHES: f32 = 0.25;

/// The grid each photo was read on (URFDLB), and the faces lent one because none was found in
/// their own photo.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FaceGrids {
    pub grids: Vec<FaceGrid>,
    pub lent: Vec<Face>,
}

impl std::ops::Deref for FaceGrids {
    type Target = [FaceGrid];
    fn deref(&self) -> &[FaceGrid] {
        &self.grids
    }
}

impl FaceGrids {
    /// What to tell the person when a face was lent a grid: which, and why it may be.
    pub fn lent_words(&self) -> Option<String> {
        let faces: Vec<String> = self.lent.iter().map(|f| f.to_string()).collect();
        let others = self.grids.len() - self.lent.len();
        (!faces.is_empty()).then(|| {
            format!(
                "no grid found in the photo of {} {}: read on the grid the other {others} photos agree on (the camera did not move between them)",
                if faces.len() == 1 { "face" } else { "faces" },
                faces.join(", ")
            )
        })
    }
}

/// Each face's grid (URFDLB as `found` is): the one found in its photo, or, where none was
/// found, the median of those found, when at least [`LENDERS`] were and every one lies within
/// a quarter of a sticker's pitch of it (`stickers_across`: 3 for a 3x3, 2 for a 2x2). With
/// nothing to lend, the first face's error stands.
pub(crate) fn lend_grids(
    found: Vec<(Face, Result<FaceGrid, ScanError>)>,
    stickers_across: f32,
) -> Result<FaceGrids, ScanError> {
    let grids: Vec<FaceGrid> = (found.iter())
        .filter_map(|(_, r)| r.as_ref().ok().copied())
        .collect();
    let agreed = agreed_grid(&grids, stickers_across);
    let mut out = FaceGrids::default();
    for (face, result) in found {
        match (result, agreed) {
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

/// The median of `grids`, corner by corner, when there are at least [`LENDERS`] of them and
/// each lies within [`AGREE_PITCHES`] of it at every corner.
fn agreed_grid(grids: &[FaceGrid], stickers_across: f32) -> Option<FaceGrid> {
    if grids.len() < LENDERS {
        return None;
    }
    let median = FaceGrid {
        corners: std::array::from_fn(|c| {
            std::array::from_fn(|k| median(grids.iter().map(|g| g.corners[c][k]).collect()))
        }),
    };
    let [a, b, c, d] = median.corners;
    let edge = |p: [f32; 2], q: [f32; 2]| (p[0] - q[0]).hypot(p[1] - q[1]);
    let pitch = (edge(a, b) + edge(b, c) + edge(c, d) + edge(d, a)) / 4.0 / stickers_across;
    let agrees = |g: &FaceGrid| {
        (g.corners.iter().zip(median.corners)).all(|(p, m)| edge(*p, m) <= AGREE_PITCHES * pitch)
    };
    grids.iter().all(agrees).then_some(median)
}

/// The median of some numbers (the mean of the middle two when there is an even count).
fn median(mut values: Vec<f32>) -> f32 {
    values.sort_by(f32::total_cmp);
    let n = values.len();
    if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
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
    fn the_median_of_an_even_count_is_the_mean_of_the_middle_two() {
        assert_eq!(median(vec![4.0, 1.0, 3.0, 2.0]), 2.5);
        assert_eq!(median(vec![5.0, 1.0, 3.0]), 3.0);
    }
}
