//! Automatic grid finding: the sticker squares of a face (bright or coloured blobs separated by the dark cube body) and a 3x3 lattice fitted to them.

use crate::grid::blobs::{Blob, LatticePoint};
use crate::grid::face_grid::FaceGrid;
use crate::grid::search::{best_lattice, residual, AmongEquals, LatticeFit};
use image::RgbImage;

/// Why no grid was found.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GridError {
    #[error("no 3x3 grid of stickers found: at best {found} of the 9 stickers lined up ({candidates} sticker-like squares in the photo); {}", what_to_check(*.pocket_found))]
    NotFound {
        found: usize,
        candidates: usize,
        /// A 2x2's face was found in the photo instead.
        pocket_found: bool,
    },
    #[error("no 2x2 grid of stickers found: at best {found} of the 4 stickers lined up ({candidates} sticker-like squares in the photo); {LOOK_AGAIN}")]
    PocketNotFound { found: usize, candidates: usize },
    #[error("the image is empty")]
    EmptyImage,
}

/// What to check when no grid was found in a photo.
const LOOK_AGAIN: &str = "is the whole face in the picture, lit, and nothing in front of it (a hand)? Or give the grid (`--corners`, `[camera] grid`)";

/// What to check when no 3x3 was found: the cube's size when a 2x2's face is there (its finder
/// tells one apart from clutter and from a 3x3's face; the 3x3 finder, made for close-ups, takes
/// a grid of openings in a whole frame for a face, so a 2x2 refused is not said to be a 3x3).
fn what_to_check(pocket_found: bool) -> &'static str {
    if pocket_found {
        "a 2x2's four stickers are there, though: if the cube is a 2x2, give `--size 2` (the daemon: `[run] cube_size = 2` in cubed.toml)"
    } else {
        LOOK_AGAIN
    }
}

/// Finds the face's grid in a photo where the cube may not be where the config says (whether
/// a 2x2's face is there instead is for the caller to ask: `pocket_found` is false here).
pub fn find_grid(image: &RgbImage) -> Result<FaceGrid, GridError> {
    if image.width() == 0 || image.height() == 0 {
        return Err(GridError::EmptyImage);
    }
    best_lattice(image, fit_lattice, AmongEquals::EarlierMask { stickers: 9 }).map_err(
        |(found, candidates)| GridError::NotFound {
            found,
            candidates,
            pocket_found: false,
        },
    )
}

/// The 3x3 lattice that explains the most blobs (at least five), refined by least squares: each
/// blob is tried at each of the nine places with its nearest neighbour's step as the pitch (the
/// centre sticker itself may be lost, e.g. joined to a neighbour by a glint across the gap).
/// `Err` holds the most blobs any lattice matched.
fn fit_lattice(blobs: &[Blob]) -> Result<LatticeFit, usize> {
    let mut best: Option<(usize, f32, Vec<LatticePoint>)> = None;
    for anchor in blobs {
        let similar: Vec<&Blob> = blobs
            .iter()
            .filter(|b| (b.side / anchor.side - 1.0).abs() < 0.35)
            .collect();
        let Some((u, v)) = lattice_axes(anchor, &similar) else {
            continue;
        };
        let area: f32 = similar.iter().map(|b| b.side).sum();
        for (i, j) in (-1..=1).flat_map(|j| (-1..=1).map(move |i| (i as f32, j as f32))) {
            let origin = [
                anchor.centre[0] - i * u[0] - j * v[0],
                anchor.centre[1] - i * u[1] - j * v[1],
            ];
            let matched = match_lattice(origin, u, v, &similar);
            if best
                .as_ref()
                .is_none_or(|(n, a, _)| matched.len() > *n || (matched.len() == *n && area > *a))
            {
                best = Some((matched.len(), area, matched));
            }
        }
    }
    let (found, _, matched) = best.unwrap_or((0, 0.0, Vec::new()));
    if found < 5 {
        return Err(found);
    }
    let (origin, u, v) = least_squares_lattice(&matched);
    let residual = residual(&matched, (origin, u, v));
    let (u, v) = upright_axes(u, v);
    let corner = |i: f32, j: f32| {
        [
            origin[0] + i * u[0] + j * v[0],
            origin[1] + i * u[1] + j * v[1],
        ]
    };
    Ok(LatticeFit {
        matched: found,
        residual,
        grid: FaceGrid {
            corners: [
                corner(-1.5, -1.5),
                corner(1.5, -1.5),
                corner(1.5, 1.5),
                corner(-1.5, 1.5),
            ],
        },
    })
}

/// The lattice's axes relabelled by quarter turns so that `u` is the one nearest +x (the
/// photo's right): fitted to every matched sticker, this decides a face turned by nearly 45
/// degrees better than the first neighbour's step alone.
pub(crate) fn upright_axes(mut u: [f32; 2], mut v: [f32; 2]) -> ([f32; 2], [f32; 2]) {
    for _ in 0..4 {
        if lattice_turn(u, v).abs() <= std::f32::consts::FRAC_PI_4 {
            break;
        }
        (u, v) = (v, [-u[0], -u[1]]);
    }
    (u, v)
}

/// The turn (radians, image y downwards) of a lattice with axes `u` (rightwards) and `v`
/// (downwards): u's angle and v's less a quarter, averaged (a photo taken at a slant skews the
/// two apart).
fn lattice_turn(u: [f32; 2], v: [f32; 2]) -> f32 {
    let (along_u, along_v) = (u[1].atan2(u[0]), (-v[0]).atan2(v[1]));
    let apart = (along_v - along_u).sin().atan2((along_v - along_u).cos());
    along_u + apart / 2.0
}

/// How near 45 degrees a face's fitted turn must come for its top to be in doubt: the camera
/// looks at a face a little from one side, and on the real photo sets that slant moved the
/// turn at which the labels flip by up to about 1.5 degrees.
const TOP_DOUBT_DEGREES: f32 = 3.0;

/// When a found grid is turned so near 45 degrees that which edge is the face's top cannot be
/// told, the quarter turns clockwise (1 or 3, as `turned` counts them) that take the face's
/// nine readings to the other labelling.
pub(crate) fn top_in_doubt(grid: &FaceGrid) -> Option<u8> {
    let [tl, tr, _, bl] = grid.corners;
    let (u, v) = (
        [tr[0] - tl[0], tr[1] - tl[1]],
        [bl[0] - tl[0], bl[1] - tl[1]],
    );
    let turn = lattice_turn(u, v).to_degrees();
    (turn.abs() >= 45.0 - TOP_DOUBT_DEGREES).then_some(if turn > 0.0 { 1 } else { 3 })
}

/// The lattice steps from `centre` to its nearest similar neighbours: u (mostly along x) and v (mostly along y).
fn lattice_axes(centre: &Blob, similar: &[&Blob]) -> Option<([f32; 2], [f32; 2])> {
    let mut nearest = similar
        .iter()
        .map(|b| {
            [
                b.centre[0] - centre.centre[0],
                b.centre[1] - centre.centre[1],
            ]
        })
        .filter(|d| d[0].hypot(d[1]) > centre.side * 0.8 && d[0].hypot(d[1]) < centre.side * 1.8)
        .collect::<Vec<_>>();
    nearest.sort_by(|a, b| a[0].hypot(a[1]).total_cmp(&b[0].hypot(b[1])));
    let step = *nearest.first()?;
    let pitch = step[0].hypot(step[1]);
    let (c, s) = (step[0] / pitch, step[1] / pitch);
    // Rotate the first step into the quadrant where it is mostly +x.
    let mut u = [c * pitch, s * pitch];
    for _ in 0..4 {
        if u[0] >= u[1].abs() {
            break;
        }
        u = [u[1], -u[0]];
    }
    Some((u, [-u[1], u[0]]))
}

/// Blobs lying on `origin + i u + j v` for i, j in -1..=1, each with its lattice index.
fn match_lattice(origin: [f32; 2], u: [f32; 2], v: [f32; 2], blobs: &[&Blob]) -> Vec<LatticePoint> {
    let pitch = u[0].hypot(u[1]);
    let mut matched = Vec::new();
    for j in -1..=1 {
        for i in -1..=1 {
            let want = [
                origin[0] + i as f32 * u[0] + j as f32 * v[0],
                origin[1] + i as f32 * u[1] + j as f32 * v[1],
            ];
            let hit = blobs
                .iter()
                .find(|b| (b.centre[0] - want[0]).hypot(b.centre[1] - want[1]) < 0.25 * pitch);
            if let Some(b) = hit {
                matched.push((b.centre, [i, j]));
            }
        }
    }
    matched
}

/// Least-squares fit of `p = o + i u + j v` to matched blobs.
pub(crate) fn least_squares_lattice(matched: &[LatticePoint]) -> ([f32; 2], [f32; 2], [f32; 2]) {
    // Normal equations for the three unknown 2-vectors (o, u, v), one axis at a time.
    let mut ata = [[0f64; 3]; 3];
    let mut atb = [[0f64; 2]; 3];
    for (p, [i, j]) in matched {
        let row = [1.0, *i as f64, *j as f64];
        for a in 0..3 {
            for b in 0..3 {
                ata[a][b] += row[a] * row[b];
            }
            for k in 0..2 {
                atb[a][k] += row[a] * p[k] as f64;
            }
        }
    }
    let solve = |k: usize| solve3(ata, [atb[0][k], atb[1][k], atb[2][k]]);
    let (x, y) = (solve(0), solve(1));
    (
        [x[0] as f32, y[0] as f32],
        [x[1] as f32, y[1] as f32],
        [x[2] as f32, y[2] as f32],
    )
}

/// Solves a 3x3 linear system by Cramer's rule (the lattice system is well conditioned with 5+ points).
fn solve3(m: [[f64; 3]; 3], b: [f64; 3]) -> [f64; 3] {
    let det = |m: [[f64; 3]; 3]| {
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    };
    let d = det(m);
    std::array::from_fn(|c| {
        let mut mc = m;
        for r in 0..3 {
            mc[r][c] = b[r];
        }
        det(mc) / d
    })
}

/// Test support: the grid's corners are within 8 pixels of the square at (left, top) of `side`.
#[cfg(test)]
pub(crate) fn assert_near_square(grid: &FaceGrid, left: f32, top: f32, side: f32) {
    let want = FaceGrid::square(left, top, side);
    for (got, want) in grid.corners.iter().zip(want.corners) {
        assert!(
            (got[0] - want[0]).abs() < 8.0 && (got[1] - want[1]).abs() < 8.0,
            "{:?}",
            grid.corners
        );
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::grid::blobs::otsu;
    use crate::light::colour::brightest_channel;

    /// A face of `cell`-pixel cells at (left, top) on grey, dark gaps between the stickers,
    /// sticker (column, row) coloured `colour(column, row)`.
    pub(crate) fn drawn_face(
        left: u32,
        top: u32,
        cell: u32,
        colour: impl Fn(u32, u32) -> [u8; 3],
    ) -> RgbImage {
        let mut image = RgbImage::from_pixel(400, 300, image::Rgb([90, 90, 90]));
        for y in top..top + 3 * cell {
            for x in left..left + 3 * cell {
                let (cx, cy) = ((x - left) % cell, (y - top) % cell);
                let inside =
                    cx > cell / 10 && cx < cell * 9 / 10 && cy > cell / 10 && cy < cell * 9 / 10;
                let sticker = colour((x - left) / cell, (y - top) / cell);
                image.put_pixel(
                    x,
                    y,
                    image::Rgb(if inside { sticker } else { [15, 15, 15] }),
                );
            }
        }
        image
    }

    /// Three colours in diagonals.
    fn synthetic_face(left: u32, top: u32, cell: u32) -> RgbImage {
        let three = [[200, 30, 30], [240, 240, 240], [30, 60, 200]];
        drawn_face(left, top, cell, |col, row| {
            three[((col + row) % 3) as usize]
        })
    }

    #[test]
    fn finds_a_face_placed_off_centre() {
        let image = synthetic_face(150, 60, 50);
        let grid = find_grid(&image).expect("found");
        assert_near_square(&grid, 150.0, 60.0, 150.0);
    }

    #[test]
    fn finds_a_face_turned_by_thirty_degrees_with_the_lattice_turned_alike() {
        let image = synthetic_face(125, 75, 50);
        let turned = crate::grid::tilt::rotate(&image, 30.0);
        let grid = find_grid(&turned).expect("found");
        // The face's centre stays at the image centre; its first edge turns by 30 degrees
        // (counter-clockwise as seen: y grows downwards, so the angle is negative).
        let c = grid.corners;
        let centre = [(c[0][0] + c[2][0]) / 2.0, (c[0][1] + c[2][1]) / 2.0];
        assert!(
            (centre[0] - 200.0).abs() < 6.0 && (centre[1] - 150.0).abs() < 6.0,
            "{c:?}"
        );
        let angle = (c[1][1] - c[0][1]).atan2(c[1][0] - c[0][0]).to_degrees();
        assert!((angle + 30.0).abs() < 3.0, "{angle} {c:?}");
        let side = (c[1][0] - c[0][0]).hypot(c[1][1] - c[0][1]);
        assert!((side - 150.0).abs() < 8.0, "{side}");
    }

    #[test]
    fn a_centre_sticker_joined_to_its_neighbour_by_a_glint_still_places_the_grid() {
        let mut image = synthetic_face(150, 60, 50);
        // A bright bar across the gap between the centre and the middle-right stickers makes
        // them one blob that is not square: the centre is lost as a blob.
        for y in 130..140 {
            for x in 240..262 {
                image.put_pixel(x, y, image::Rgb([255, 255, 255]));
            }
        }
        let grid = find_grid(&image).expect("found");
        assert_near_square(&grid, 150.0, 60.0, 150.0);
    }

    #[test]
    fn the_axes_are_labelled_upright_from_any_quarter_even_skewed() {
        // The same lattice with its indices turned a quarter: (u, v) becomes (v, -u).
        let relabel = |(u, v): ([f32; 2], [f32; 2])| (v, [-u[0], -u[1]]);
        // Skewed: u at +40 degrees, v a little less than a quarter further (a slanted photo).
        let (u, v) = ([0.766, 0.643], [-0.574, 0.819]);
        let mut given = (u, v);
        for _ in 0..4 {
            let (gu, gv) = upright_axes(given.0, given.1);
            assert!(
                (gu[0] - u[0]).abs() < 1e-6 && (gu[1] - u[1]).abs() < 1e-6,
                "{gu:?}"
            );
            assert!(
                (gv[0] - v[0]).abs() < 1e-6 && (gv[1] - v[1]).abs() < 1e-6,
                "{gv:?}"
            );
            given = relabel(given);
        }
        // Upside down by a hair either way: turned back, not taken as upright.
        let (gu, _) = upright_axes([-1.0, 0.02], [-0.02, -1.0]);
        assert!(gu[0] > 0.9, "{gu:?}");
    }

    /// The face set in a lit frame: the outer stickers touch a bright background with no dark
    /// border, so under one threshold between the gaps and the rest they join it.
    #[test]
    fn finds_a_face_whose_outer_stickers_touch_a_bright_background() {
        let (left, top, cell) = (130u32, 60u32, 60u32);
        let mut image = RgbImage::from_pixel(400, 300, image::Rgb([180, 180, 180]));
        let colours = [[235, 30, 30], [245, 245, 240], [40, 70, 240]];
        for y in top..top + 3 * cell {
            for x in left..left + 3 * cell {
                let (col, row) = ((x - left) / cell, (y - top) / cell);
                let (cx, cy) = ((x - left) % cell, (y - top) % cell);
                // Gaps only between stickers: none along the face's outer edge.
                let gap = |c: u32, i: u32| (c < cell / 10 && i > 0) || (c > cell * 9 / 10 && i < 2);
                let colour = if gap(cx, col) || gap(cy, row) {
                    [15, 15, 15]
                } else {
                    colours[((col + row) % 3) as usize]
                };
                image.put_pixel(x, y, image::Rgb(colour));
            }
        }
        let value: Vec<u8> = (image.pixels()).map(|p| brightest_channel(p.0)).collect();
        assert!(
            otsu(&value) < 180,
            "the case needs one threshold to keep the background"
        );
        let grid = find_grid(&image).expect("found");
        assert_near_square(&grid, left as f32, top as f32, 3.0 * cell as f32);
    }

    /// Nine stickers of nine colours: a face's reading order shows in its readings.
    fn nine_colour_face(left: u32, top: u32, cell: u32) -> RgbImage {
        drawn_face(left, top, cell, |col, row| {
            let k = (row * 3 + col) as u8;
            [120 + 15 * k, 250 - 20 * k, 60 + 10 * k]
        })
    }

    /// Turned by up to 46 degrees, the face is read upright or, past 45, a quarter off; where
    /// the turn is within a few degrees of 45 the top is in doubt, and the quarter turns named
    /// take a reading labelled either way to the other.
    #[test]
    fn a_face_turned_near_45_degrees_has_its_top_in_doubt_and_names_the_other_labelling() {
        let upright = nine_colour_face(125, 75, 50);
        let read = |image: &RgbImage| {
            let grid = find_grid(image).expect("found");
            let nine = crate::grid::sample::sample_face(
                image,
                &grid,
                &crate::grid::sample::SampleOptions::default(),
            )
            .expect("inside");
            (nine, top_in_doubt(&grid))
        };
        let (want, none) = read(&upright);
        assert_eq!(none, None);
        let alike = |a: &[[u8; 3]; 9], b: &[[u8; 3]; 9]| {
            a.iter()
                .zip(b)
                .all(|(x, y)| x.iter().zip(y).all(|(p, q)| p.abs_diff(*q) < 40))
        };
        for side in [-1.0f32, 1.0] {
            let turned = |degrees: f32| read(&crate::grid::tilt::rotate(&upright, side * degrees));
            let ((inside, inside_doubt), (past, past_doubt)) = (turned(44.0), turned(46.0));
            let inside_turns =
                inside_doubt.unwrap_or_else(|| panic!("{side}: 44 degrees, no doubt"));
            let past_turns = past_doubt.unwrap_or_else(|| panic!("{side}: 46 degrees, no doubt"));
            // Inside 45 the face reads upright, and its other labelling is what past 45 reads;
            // past 45 it reads a quarter off, and its other labelling is upright.
            assert!(alike(&inside, &want), "{side}: 44 degrees {inside:?}");
            assert!(
                alike(&crate::grid::sample::rotate(&inside, inside_turns), &past),
                "{side}"
            );
            assert!(!alike(&past, &want), "{side}: 46 degrees reads upright");
            assert!(
                alike(&crate::grid::sample::rotate(&past, past_turns), &want),
                "{side}"
            );
        }
        for degrees in [-30.0f32, 10.0, 40.0] {
            let (_, doubt) = read(&crate::grid::tilt::rotate(&upright, degrees));
            assert_eq!(doubt, None, "{degrees}");
        }
    }

    #[test]
    fn an_image_without_stickers_is_refused() {
        let image = RgbImage::from_pixel(200, 200, image::Rgb([20, 20, 20]));
        assert!(matches!(find_grid(&image), Err(GridError::NotFound { .. })));
    }
}
