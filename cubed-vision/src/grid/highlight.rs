//! Highlight recovery: the colour of a sticker whose middle the camera clipped, read from its rim, where the lens blurs it into the dark plastic below full scale and keeps its own channel ratios (where the plastic is dark: not on a white-body cube). Pure.

use crate::grid::face_grid::{sticker_lattice, FaceGrid};
use crate::light::colour::{median_of_sorted, Rgb};
use crate::light::lighting::{encode, linearize, Linear};
use image::RgbImage;

/// A channel at or above this share of its full scale is in the camera's highlight roll-off:
/// it no longer keeps the sticker's ratios (240 of 255). The full scale is 255, or the photo's
/// own (a photo darkened or given a cast after it was taken keeps its clipping, scaled).
const ROLL_OFF: f32 = crate::light::lighting::ROLL_OFF_CODE as f32 / 255.0;
/// A full scale below this says nothing of clipping: a dark photo's brightest sticker.
const LEAST_FULL_SCALE: u8 = 100;
/// A sensor clips every channel at one level, and a cast after it moves them apart a little:
/// a channel whose full scale is under this share of the brightest channel's is no clipping
/// level (a photo whose brightest sticker is orange).
const SHARED_FULL_SCALE: f32 = 0.8;
/// The share of a face's pixels at or above its full scale, per channel.
const FULL_SCALE_SHARE: f32 = 0.005;
/// The rim's pixels whose largest channel, in linear light, lies in this range of the
/// middle's (the clipping level): bright enough that the plastic blurred into them adds
/// little, below the clipping.
const RIM: (f32, f32) = (0.5, 0.9);
/// A side of the rim (left, right, top, bottom) is heard when at least this many of the cell's
/// sampled points on it lie in the `RIM` range: a sharp photo's rim is a pixel or two wide, and
/// the median over the sides heard outvotes one that says otherwise. (With 18, a 0.2 % share,
/// U1's rim in the shipped photo set went unheard under a mild colour cast: 84 to 91 of 100
/// casts were read right, against 97 to 99 with 4; chosen on that set and the simulated
/// camera, the held-out photo sets read right either way.)
const MIN_SIDE_POINTS: usize = 4;
/// The rim's colour is the median of its sides' colours, and at least this many must be
/// heard: one side may be tinted by the lens (a colour fringe) or by what lies beyond the cube.
const MIN_SIDES: usize = 3;
/// Sampled pixels per side of a sticker's cell, and of a face for its full scale.
const POINTS: usize = 96;
/// The part of the cell sampled for the plastic around the sticker: the cell and 4 % of it
/// beyond each edge, into the gap between two stickers but short of the next sticker.
const AROUND: f32 = 1.08;
/// The band along each side where its plastic is looked for, this many of `AROUND`'s sampled
/// points deep: from 4 % beyond the cell's edge to 12 % inside it, which holds some of the gap
/// when the grid is a little off. (With the band inside the cell alone, a sticker's rim seen
/// as a sliver at the cell's edge went unheard: 72 of 100 simulated cubes under a lamp too
/// bright read right against 75 without any band; chosen on the simulated camera.)
const BAND_POINTS: usize = 14;
/// The share of a side's band that must be darker than the rim's range for the side to be dark.
const BAND_QUANTILE: f32 = 0.1;
/// The part of the cell sampled (the grid's own cell, a little inside its lines).
const CELL: f32 = 0.95;

/// The level per channel that the brightest `FULL_SCALE_SHARE` of the face's pixels reach.
pub(crate) fn full_scale(image: &RgbImage, grid: &FaceGrid) -> Rgb {
    let pixels: Vec<Rgb> = (sticker_lattice(image, grid, (0, 0), 1, (POINTS, 1.0)).into_iter())
        .flatten()
        .collect();
    std::array::from_fn(|c| {
        let mut channel: Vec<u8> = pixels.iter().map(|p| p[c]).collect();
        channel.sort_unstable();
        let rank = ((1.0 - FULL_SCALE_SHARE) * channel.len() as f32) as usize;
        let rank = rank.min(channel.len().saturating_sub(1));
        channel.get(rank).copied().unwrap_or(u8::MAX)
    })
}

/// Whether at least two channels of `middle` are clipped: in the roll-off of 255, or of the
/// photo's `full` scale where that is a clipping level.
fn clipped(middle: Rgb, full: Rgb) -> bool {
    let brightest = f32::from(full.iter().copied().max().unwrap_or(0));
    let shared = |c: usize| {
        full[c] >= LEAST_FULL_SCALE && f32::from(full[c]) >= SHARED_FULL_SCALE * brightest
    };
    let at = |c: usize| {
        let scale = if shared(c) { full[c] } else { u8::MAX };
        f32::from(middle[c]) >= ROLL_OFF * f32::from(scale)
    };
    (0..3).filter(|&c| at(c)).count() >= 2
}

/// The sticker's colour at `(row, col)` of a face `side` stickers wide: `middle` as sampled,
/// unless the camera clipped it (see [`clipped`]; `full` is the photo's full scale, `None`
/// when rims are not read), when it is its rim's channel ratios at the middle's brightness
/// (its largest channel kept). `middle` is kept when too few sides of the rim say: a rim is
/// heard only on a side where the plastic beyond it is dark (not on a white-body cube).
pub(crate) fn recover_clipped(
    image: &RgbImage,
    grid: &FaceGrid,
    (row, col, side): (usize, usize, usize),
    (middle, full): (Rgb, Option<Rgb>),
) -> Rgb {
    if !full.is_some_and(|full| clipped(middle, full)) {
        return middle;
    }
    // A sticker at the photo's edge is read from the sides of its rim inside the photo.
    let lattice = sticker_lattice(image, grid, (row, col), side, (POINTS, CELL));
    let level = largest(linearize(middle));
    let linear: Vec<Option<Linear>> = lattice.iter().map(|p| p.map(linearize)).collect();
    let around = sticker_lattice(image, grid, (row, col), side, (POINTS, AROUND));
    let around: Vec<Option<Linear>> = around.iter().map(|p| p.map(linearize)).collect();
    match rim_colour(&linear, level, dark_beyond(&around, level)) {
        Some(shares) if largest(shares) > 0.0 => encode(normalised(shares).map(|s| s * level)),
        _ => middle,
    }
}

/// The rim's channel ratios (the largest 1): per side, the median shares of its pixels between
/// `RIM` of `level` with the plastic taken out; then the median over the sides heard. `cell` is
/// the cell's lattice, row by row, `None` outside the photo.
fn rim_colour(cell: &[Option<Linear>], level: f32, dark: [bool; 4]) -> Option<Linear> {
    let (low, high) = (RIM.0 * level, RIM.1 * level);
    let inside: Vec<Linear> = cell.iter().flatten().copied().collect();
    let plastic = darkest(&inside)?;
    let mut sides: [Vec<Linear>; 4] = Default::default();
    for (i, p) in cell.iter().enumerate() {
        let Some(p) = p else { continue };
        if dark[side_of(i)] && (low..=high).contains(&largest(*p)) {
            sides[side_of(i)].push(std::array::from_fn(|c| (p[c] - plastic[c]).max(0.0)));
        }
    }
    let heard: Vec<Linear> = (sides.iter())
        .filter(|side| side.len() >= MIN_SIDE_POINTS)
        .filter_map(|side| median_shares(side).map(normalised))
        .collect();
    (heard.len() >= MIN_SIDES).then(|| {
        std::array::from_fn(|c| median(heard.iter().map(|e| e[c]).collect()).unwrap_or(0.0))
    })
}

/// Whether each side of the cell (left, right, top, bottom) has dark plastic near its edge:
/// the rim is where the lens blurs the sticker into dark plastic. On a cube whose plastic is
/// white the rim's range holds plastic, whose colour says nothing of the sticker's, and that
/// side is not heard. The plastic is the darkest `BAND_QUANTILE` of a band along the side
/// (`around` is the `AROUND` lattice, row by row); a side with no band in the photo is not
/// judged.
fn dark_beyond(around: &[Option<Linear>], level: f32) -> [bool; 4] {
    let in_band = |i: usize| {
        let edge = |k: usize| !(BAND_POINTS..POINTS - BAND_POINTS).contains(&k);
        edge(i % POINTS) || edge(i / POINTS)
    };
    let mut bands: [Vec<f32>; 4] = Default::default();
    for (i, p) in around.iter().enumerate() {
        if let (true, Some(p)) = (in_band(i), p) {
            bands[side_of(i)].push(largest(*p));
        }
    }
    bands.map(|mut band| {
        band.sort_by(f32::total_cmp);
        let at = (BAND_QUANTILE * band.len() as f32) as usize;
        band.get(at).is_none_or(|&plastic| plastic < RIM.0 * level)
    })
}

fn largest(v: Linear) -> f32 {
    v.iter().copied().fold(0.0, f32::max)
}

/// The median (the mean of the middle two of an even count).
fn median(mut values: Vec<f32>) -> Option<f32> {
    values.sort_by(f32::total_cmp);
    median_of_sorted(&values)
}

/// Which side of the cell lattice point `i` lies on: left, right, top, bottom.
fn side_of(i: usize) -> usize {
    let at = |k: usize| (k as f32 + 0.5) / POINTS as f32 - 0.5;
    let (x, y) = (at(i % POINTS), at(i / POINTS));
    match (x.abs() > y.abs(), x < 0.0, y < 0.0) {
        (true, true, _) => 0,
        (true, false, _) => 1,
        (false, _, true) => 2,
        (false, _, false) => 3,
    }
}

/// Shares scaled so the largest is 1.
fn normalised(shares: Linear) -> Linear {
    let top = largest(shares);
    if top > 0.0 {
        shares.map(|s| s / top)
    } else {
        shares
    }
}

/// The plastic around the sticker: per-channel medians of the darkest tenth of the cell
/// (`None` when no part of it is in the photo).
fn darkest(pixels: &[Linear]) -> Option<Linear> {
    let mut by_level: Vec<&Linear> = pixels.iter().collect();
    by_level.sort_by(|a, b| a.iter().sum::<f32>().total_cmp(&b.iter().sum::<f32>()));
    let dark = &by_level[..(by_level.len() / 10).max(1).min(by_level.len())];
    let channel = |c: usize| median(dark.iter().map(|p| p[c]).collect());
    Some([channel(0)?, channel(1)?, channel(2)?])
}

/// Per-channel medians of each pixel's channel shares (a channel over the sum), a logo or a
/// speck on the rim outvoted.
fn median_shares(pixels: &[Linear]) -> Option<Linear> {
    let shares: Vec<Linear> = (pixels.iter())
        .filter_map(|p| {
            let sum: f32 = p.iter().sum();
            (sum > 0.0).then(|| p.map(|c| c / sum))
        })
        .collect();
    let channel = |c: usize| median(shares.iter().map(|s| s[c]).collect());
    Some([channel(0)?, channel(1)?, channel(2)?])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Cell side in pixels of the drawn faces.
    const CELL_PX: f32 = 120.0;

    /// A 3x3 face drawn as a camera sees it: each sticker (linear light, may pass full scale)
    /// on dark plastic, the lens blurring each edge over `blur` pixels, then the sensor
    /// clipping each channel at full scale and the sRGB encoding.
    fn face(stickers: [Linear; 9], blur: f32) -> (RgbImage, FaceGrid) {
        face_on(stickers, blur, [0.012, 0.012, 0.015])
    }

    /// [`face`] on plastic of any colour (linear light).
    fn face_on(stickers: [Linear; 9], blur: f32, plastic: Linear) -> (RgbImage, FaceGrid) {
        let side = (CELL_PX * 3.0) as u32;
        let image = RgbImage::from_fn(side, side, |x, y| {
            let (fx, fy) = (x as f32 + 0.5, y as f32 + 0.5);
            let (col, row) = ((fx / CELL_PX) as usize, (fy / CELL_PX) as usize);
            let (u, v) = (fx - col as f32 * CELL_PX, fy - row as f32 * CELL_PX);
            // The sticker spans 15 %..85 % of its cell; coverage ramps over `blur` pixels.
            let ramp = |t: f32| {
                let (a, b) = (0.15 * CELL_PX, 0.85 * CELL_PX);
                ((t - a) / blur + 0.5).clamp(0.0, 1.0) * ((b - t) / blur + 0.5).clamp(0.0, 1.0)
            };
            let cover = ramp(u) * ramp(v);
            let sticker = stickers[row.min(2) * 3 + col.min(2)];
            let lit: Linear =
                std::array::from_fn(|c| cover * sticker[c] + (1.0 - cover) * plastic[c]);
            image::Rgb(encode(lit))
        });
        (image, FaceGrid::square(0.0, 0.0, CELL_PX * 3.0))
    }

    /// Sensor noise: every channel moved by up to `amplitude` codes, seeded.
    fn add_noise(image: &mut RgbImage, amplitude: i32) {
        let mut state: u32 = 0x9e37_79b9;
        for p in image.pixels_mut() {
            for c in p.0.iter_mut() {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                let delta = (state % (2 * amplitude as u32 + 1)) as i32 - amplitude;
                *c = (i32::from(*c) + delta).clamp(0, 255) as u8;
            }
        }
    }

    fn read(image: &RgbImage, grid: &FaceGrid, i: usize) -> Rgb {
        let full = full_scale(image, grid);
        let (row, col) = (i / 3, i % 3);
        let middle = image
            .get_pixel(
                (col as f32 * CELL_PX + CELL_PX / 2.0) as u32,
                (row as f32 * CELL_PX + CELL_PX / 2.0) as u32,
            )
            .0;
        recover_clipped(image, grid, (row, col, 3), (middle, Some(full)))
    }

    /// A yellow and a white lit twice past full scale both clip flat to white in their middles;
    /// their rims give yellow (blue well under red and green) and white (no channel well under
    /// the others) back.
    #[test]
    fn a_yellow_and_a_white_clipped_alike_are_told_apart_by_their_rims() {
        let (yellow, white, blue) = ([1.7, 1.9, 1.15], [1.9, 1.95, 2.0], [0.02, 0.15, 0.6]);
        let stickers = [yellow, white, blue, white, yellow, blue, blue, blue, blue];
        let (image, grid) = face(stickers, 10.0);
        let middle = |i: usize| {
            let (x, y) = ((i % 3) as u32 * 120 + 60, (i / 3) as u32 * 120 + 60);
            image.get_pixel(x, y).0
        };
        for i in [0, 1, 3, 4] {
            assert_eq!(middle(i), [255, 255, 255], "sticker {i} clips to white");
        }
        for i in [0, 4] {
            let got = read(&image, &grid, i);
            assert!(
                got[2] < 225 && got[0] > 235 && got[1] > 245,
                "yellow {i}: {got:?}"
            );
        }
        for i in [1, 3] {
            let got = read(&image, &grid, i);
            assert!(got.iter().all(|&c| c >= 245), "white {i}: {got:?}");
        }
        assert_eq!(read(&image, &grid, 2), middle(2), "the blue did not clip");
    }

    /// A photo that cuts through the bottom row of stickers (a face turned or framed tight):
    /// the clipped sticker there is read from the sides of its rim inside the photo, and the
    /// photo's full scale from the part of the face it shows.
    #[test]
    fn a_clipped_sticker_cut_by_the_photo_edge_is_read_from_the_rim_inside() {
        let (yellow, blue) = ([1.7, 1.9, 1.15], [0.02, 0.15, 0.6]);
        let mut stickers = [blue; 9];
        stickers[7] = yellow;
        let (image, grid) = face(stickers, 10.0);
        // The sticker's bottom edge lies at 342 px, its cell at 360: the photo ends at 330.
        let cut = image::imageops::crop_imm(&image, 0, 0, 360, 330).to_image();
        assert_eq!(cut.get_pixel(180, 300).0, [255, 255, 255]);
        let got = read(&cut, &grid, 7);
        assert!(got[2] < 225 && got[0] > 235, "yellow: {got:?}");
    }

    /// A sticker that did not clip is read as sampled, rim or no rim.
    #[test]
    fn a_sticker_that_did_not_clip_is_kept_as_sampled() {
        let orange: Linear = [0.8, 0.2, 0.03];
        let (image, grid) = face([orange; 9], 10.0);
        let middle = image.get_pixel(60, 60).0;
        assert_eq!(read(&image, &grid, 0), middle);
    }

    /// A photo darkened after it was taken keeps its clipped middles flat below 255: they are
    /// still found clipped (at the photo's own full scale), and the rim still tells them apart.
    #[test]
    fn a_photo_darkened_after_clipping_is_still_recovered() {
        let (yellow, white, blue) = ([1.7, 1.9, 1.2], [1.9, 1.95, 2.0], [0.02, 0.15, 0.6]);
        let (mut image, grid) = face(
            [yellow, white, blue, white, blue, blue, blue, blue, blue],
            10.0,
        );
        for p in image.pixels_mut() {
            p.0 = p.0.map(|c| (c as f32 * 0.7) as u8);
        }
        let (y, w) = (read(&image, &grid, 0), read(&image, &grid, 1));
        assert_eq!(
            image.get_pixel(60, 60).0,
            image.get_pixel(180, 60).0,
            "alike as sampled"
        );
        assert!(
            i32::from(w[2]) - i32::from(y[2]) > 25,
            "yellow {y:?}, white {w:?}"
        );
    }

    /// A sticker in the camera's roll-off (two channels 240 or more, one of them short of 255)
    /// is read from its rim, and still is once the photo is darkened: the roll-off is a share
    /// of the photo's own full scale, not a fixed distance below it.
    #[test]
    fn a_sticker_in_the_roll_off_stays_clipped_in_a_darkened_photo() {
        let (yellow, white, blue) = ([1.7, 0.93, 0.45], [1.9, 1.95, 2.0], [0.02, 0.15, 0.6]);
        let (mut image, grid) = face(
            [yellow, white, blue, blue, blue, blue, blue, blue, blue],
            10.0,
        );
        let middle = |image: &RgbImage| image.get_pixel(60, 60).0;
        assert!(middle(&image)[1] >= 240 && middle(&image)[1] < 250);
        assert_ne!(read(&image, &grid, 0), middle(&image), "read from its rim");
        for p in image.pixels_mut() {
            p.0 = p.0.map(|c| (f32::from(c) * 0.92) as u8);
        }
        assert_ne!(
            read(&image, &grid, 0),
            middle(&image),
            "darkened: {:?}",
            middle(&image)
        );
    }

    /// One side of a rim tinted (a lens's colour fringe, or what lies beyond the cube) is
    /// outvoted by the other three.
    #[test]
    fn one_tinted_side_of_a_rim_is_outvoted() {
        let yellow: Linear = [1.7, 1.9, 1.15];
        let (mut image, grid) = face([yellow; 9], 10.0);
        assert_eq!(image.get_pixel(60, 60).0, [255, 255, 255]);
        // A blue fringe along the right side of the first sticker.
        for y in 0..120 {
            for x in 95..120 {
                let p = image.get_pixel_mut(x, y);
                p.0[2] = p.0[2].max(p.0[0]);
            }
        }
        let got = read(&image, &grid, 0);
        assert!(got[2] < 225, "{got:?}");
    }

    /// A white-body cube: white stickers barely clipped on white plastic, in a noisy photo. The
    /// plastic fills the rim's range and says nothing of the stickers (its noise read as their
    /// ratios would make any colour): their clipped middles are kept, white.
    #[test]
    fn a_clipped_white_on_white_plastic_keeps_its_middle() {
        let (white, blue) = ([1.08, 1.08, 1.02], [0.02, 0.15, 0.6]);
        let stickers = [white, blue, white, blue, white, blue, white, white, blue];
        let (mut image, grid) = face_on(stickers, 3.0, [0.8, 0.8, 0.76]);
        add_noise(&mut image, 6);
        for i in [0, 2, 4, 6, 7] {
            let got = read(&image, &grid, i);
            assert!(got.iter().all(|&c| c >= 240), "white {i}: {got:?}");
        }
    }

    /// On white plastic a thin dark line round each sticker (a shadow in its gap) is dark beyond
    /// no side of the cell: the white beyond it is plastic, not rim, and a clipped yellow's
    /// middle is kept rather than read as that white.
    #[test]
    fn a_dark_outline_on_white_plastic_is_no_rim() {
        let yellow: Linear = [1.7, 1.9, 1.15];
        let (mut image, grid) = face_on([yellow; 9], 3.0, [0.8, 0.8, 0.78]);
        let outline = |t: f32| {
            let t = t % CELL_PX;
            (0.12 * CELL_PX..0.15 * CELL_PX).contains(&t)
                || (0.85 * CELL_PX..0.88 * CELL_PX).contains(&t)
        };
        for (x, y, p) in image.enumerate_pixels_mut() {
            if outline(x as f32) || outline(y as f32) {
                p.0 = [30, 30, 30];
            }
        }
        let middle = image.get_pixel(60, 60).0;
        assert_eq!(read(&image, &grid, 0), middle);
    }
}
