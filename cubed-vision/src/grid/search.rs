//! The search shared by the 3x3 and 2x2 grid finders: the photo reduced, the masks the sticker squares are looked for in (brightness above each of a sweep of thresholds between the dark and bright classes, and colourfulness), a lattice fitted to each mask's squares and the best kept. One global threshold fails where the stickers sit among bright things (a lit robot frame joins the outer stickers to it) or where dim stickers are as dark as the background.

use crate::grid::blobs::{otsu, square_blobs, Blob, LatticePoint};
use crate::grid::face_grid::FaceGrid;
use crate::light::colour::brightest_channel;
use image::RgbImage;

/// The working width the image is reduced to before searching.
const WORK_WIDTH: u32 = 240;
/// Brightness thresholds tried, evenly spread between the dark class's mean and the bright class's mean.
const SWEEP_STEPS: usize = 12;

/// The photo reduced to the working width: per pixel, its brightest channel and its chroma (brightest minus darkest).
struct WorkImage {
    w: usize,
    h: usize,
    /// Photo pixels per working pixel.
    scale: f32,
    value: Vec<u8>,
    chroma: Vec<u8>,
}

impl WorkImage {
    fn reduce(image: &RgbImage) -> WorkImage {
        let scale = (image.width() as f32 / WORK_WIDTH as f32).max(1.0);
        let (w, h) = (
            (image.width() as f32 / scale) as usize,
            (image.height() as f32 / scale) as usize,
        );
        let pixel = |i: usize| {
            let x = ((i % w) as f32 * scale) as u32;
            let y = ((i / w) as f32 * scale) as u32;
            image.get_pixel(x, y).0
        };
        let (mut value, mut chroma) = (Vec::with_capacity(w * h), Vec::with_capacity(w * h));
        for p in (0..w * h).map(pixel) {
            let (hi, lo) = (brightest_channel(p), p[0].min(p[1]).min(p[2]));
            value.push(hi);
            chroma.push(hi - lo);
        }
        WorkImage {
            w,
            h,
            scale,
            value,
            chroma,
        }
    }

    /// The masks tried: brightness above each swept threshold (Otsu's first), then chroma above its Otsu threshold.
    fn masks(&self) -> impl Iterator<Item = Vec<bool>> + '_ {
        let above = |channel: &[u8], t: u8| channel.iter().map(|&v| v > t).collect::<Vec<bool>>();
        let brightness =
            (brightness_thresholds(&self.value).into_iter()).map(move |t| above(&self.value, t));
        brightness.chain(std::iter::once_with(move || {
            above(&self.chroma, otsu(&self.chroma))
        }))
    }
}

/// A lattice fitted to one mask's sticker squares.
#[derive(Clone, Debug)]
pub(crate) struct LatticeFit {
    /// Sticker squares on the lattice.
    pub(crate) matched: usize,
    /// Root-mean-square distance of the matched squares from the fitted lattice, in pitches.
    pub(crate) residual: f32,
    /// The face's outer corners, in working pixels.
    pub(crate) grid: FaceGrid,
}

/// Which of two lattices matching as many stickers is kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AmongEquals {
    /// The earlier mask's (Otsu's first): another mask is taken only for matching more, so a
    /// lattice matching every one of the face's `stickers` ends the search.
    EarlierMask { stickers: usize },
    /// The one with the smaller residual.
    SmallerResidual,
}

impl LatticeFit {
    /// More stickers matched wins; among equals, as `among_equals` says.
    fn better_than(&self, other: &LatticeFit, among_equals: AmongEquals) -> bool {
        self.matched > other.matched
            || (self.matched == other.matched
                && among_equals == AmongEquals::SmallerResidual
                && self.residual < other.residual)
    }

    /// No later mask can be kept instead of this lattice.
    fn final_under(&self, among_equals: AmongEquals) -> bool {
        matches!(among_equals, AmongEquals::EarlierMask { stickers } if self.matched >= stickers)
    }
}

/// Root-mean-square distance of `matched` from the lattice `o + i u + j v`, in pitches.
pub(crate) fn residual(matched: &[LatticePoint], (o, u, v): ([f32; 2], [f32; 2], [f32; 2])) -> f32 {
    let pitch = (u[0].hypot(u[1]) + v[0].hypot(v[1])) / 2.0;
    let squared: f32 = (matched.iter())
        .map(|(p, [i, j])| {
            let (i, j) = (*i as f32, *j as f32);
            let q = [o[0] + i * u[0] + j * v[0], o[1] + i * u[1] + j * v[1]];
            (p[0] - q[0]).powi(2) + (p[1] - q[1]).powi(2)
        })
        .sum();
    (squared / matched.len().max(1) as f32).sqrt() / pitch.max(f32::EPSILON)
}

/// The best of `fit` over every mask of the photo, its corners in photo pixels; or, when no
/// mask gives a lattice, the most squares any lattice matched and the most candidate squares
/// any mask had.
pub(crate) fn best_lattice(
    image: &RgbImage,
    fit: impl Fn(&[Blob]) -> Result<LatticeFit, usize>,
    among_equals: AmongEquals,
) -> Result<FaceGrid, (usize, usize)> {
    let work = WorkImage::reduce(image);
    let (mut best, mut most_found, mut candidates) = (None::<LatticeFit>, 0, 0);
    for mask in work.masks() {
        let blobs = square_blobs(&mask, work.w, work.h);
        candidates = candidates.max(blobs.len());
        match fit(&blobs) {
            Ok(found)
                if best
                    .as_ref()
                    .is_none_or(|b| found.better_than(b, among_equals)) =>
            {
                best = Some(found)
            }
            Ok(_) => {}
            Err(found) => most_found = most_found.max(found),
        }
        if best.as_ref().is_some_and(|b| b.final_under(among_equals)) {
            break;
        }
    }
    let best = best.ok_or((most_found, candidates))?;
    Ok(FaceGrid {
        corners: (best.grid.corners).map(|[x, y]| [x * work.scale, y * work.scale]),
    })
}

/// The sticker squares under each mask of the photo reduced to the working width (in working
/// pixels, mask by mask), and the photo pixels per working pixel: what a finder that weighs
/// every mask's lattices itself starts from.
pub(crate) fn blobs_per_mask(image: &RgbImage) -> (Vec<Vec<Blob>>, f32) {
    let work = WorkImage::reduce(image);
    let blobs = (work.masks())
        .map(|mask| square_blobs(&mask, work.w, work.h))
        .collect();
    (blobs, work.scale)
}

/// Otsu's threshold, then a sweep from the mean of the values below it to the mean of those above it.
fn brightness_thresholds(value: &[u8]) -> Vec<u8> {
    let t0 = otsu(value);
    let mean = |keep: &dyn Fn(u8) -> bool| {
        let (sum, n) = (value.iter().filter(|&&v| keep(v)))
            .fold((0f64, 0usize), |(s, n), &v| (s + v as f64, n + 1));
        if n == 0 {
            t0 as f64
        } else {
            sum / n as f64
        }
    };
    let (dark, bright) = (mean(&|v| v <= t0), mean(&|v| v > t0));
    let mut thresholds = vec![t0];
    for k in 1..SWEEP_STEPS {
        let t = (dark + (bright - dark) * k as f64 / SWEEP_STEPS as f64).round() as u8;
        if t != t0 && !thresholds.contains(&t) {
            thresholds.push(t);
        }
    }
    thresholds
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sweep_starts_at_otsu_and_stays_between_the_two_classes() {
        let value: Vec<u8> = (0..100).map(|i| if i < 60 { 20 } else { 220 }).collect();
        let t = brightness_thresholds(&value);
        assert_eq!(t[0], otsu(&value));
        assert!(t.iter().all(|&x| (20..=220).contains(&x)), "{t:?}");
        assert_eq!(t.len(), SWEEP_STEPS, "{t:?}");
    }
}
