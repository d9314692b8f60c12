//! A 2x2 candidate checked and refined in the full-resolution photo, by what makes a cube face: each of its four cells holds one flat-coloured sticker, lit well above the dark body round it and enclosed by it in the photo (a patch that runs on out of its cell, or out of the photo, is part of something else), filling a good part of its cell; the body shows dark in every gap between neighbouring stickers, under the light the stickers share; and the lattice ends there (one that runs on into the cells round it is a window's panes or a frame's openings). Each sticker's middle is measured from its pixels, so the face's corners come from where its stickers are, not from the reduced photo's squares.

use crate::grid::pocket_lattice::Candidate;
use crate::light::colour::brightest_channel;
use image::RgbImage;

/// Samples per pitch when a cell is measured (a pixel every pitch/64: enough for a centre to
/// a pixel, whatever the photo's size).
const PER_PITCH: usize = 64;
/// How far round its expected middle a sticker is looked for, in pitches: its cell and a
/// little more, so that a sticker enclosed by the body is seen to end inside it.
const WINDOW: f32 = 0.625;
/// The body is black plastic: under the light a sticker has, it sends back at most about a
/// fifth of what the dimmest sticker's brightest channel does (0.5 in sRGB is 0.22 in linear
/// light; black plastic reflects a few per cent, the dimmest sticker colours a few tens).
const BODY_AT_MOST: f32 = 0.5;
/// A sticker covers at least this share of its cell (a sticker and its gap make the cell).
const LEAST_FILL: f32 = 0.35;
/// The body encloses a sticker: its colour reaches at most this share of the edge of the
/// window round it (a glint across a gap to a neighbour reaches a few per cent).
const MOST_EDGE: f32 = 0.25;
/// A 2x2 face ends at the cube's edge: a lattice holding stickers in this many of the twelve
/// cells round its four runs on (a window's panes, the openings of a frame, a 3x3's face),
/// and is no 2x2.
const RUN_ON: usize = 2;
/// Stickers of one lattice are one size: each side within this share of the others' mean.
const SAME_SIZE: f32 = 0.25;

/// One sticker as measured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Sticker {
    /// Its middle, photo pixels.
    pub(crate) centre: [f32; 2],
    /// Half its extent along the lattice's two axes, in pitches.
    pub(crate) half: [f32; 2],
    /// Its brightest channel, typical of its middle.
    pub(crate) value: u8,
}

/// What a candidate is found to be.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Verified {
    /// Its cells that hold stickers (row by row: top-left, top-right, bottom-left,
    /// bottom-right); none when a gap between two of them is not the dark body, or when its
    /// lattice runs on into the cells round it.
    pub(crate) stickers: [Option<Sticker>; 4],
    /// How many of its gaps' four lines still show the body dark half a pitch and more beyond
    /// the face: a cube's body ends at its edge, a frame's bars run on.
    pub(crate) body_beyond: usize,
}

impl Verified {
    pub(crate) fn count(&self) -> usize {
        self.stickers.iter().flatten().count()
    }

    /// More stickers; among as many, a body that ends sooner (a candidate found earlier wins
    /// a tie).
    pub(crate) fn more_face_like(&self, other: &Verified) -> bool {
        (self.count(), std::cmp::Reverse(self.body_beyond))
            > (other.count(), std::cmp::Reverse(other.body_beyond))
    }
}

/// The candidate checked: its stickers, and how far its body runs on.
pub(crate) fn verify(image: &RgbImage, candidate: &Candidate) -> Verified {
    let stickers = verified_stickers(image, candidate);
    let found: Vec<&Sticker> = stickers.iter().flatten().collect();
    let dimmest = found.iter().map(|s| s.value).min().unwrap_or(0);
    let body_beyond = if found.is_empty() {
        0
    } else {
        [[0.0, -1.0], [0.0, 1.0], [-1.0, 0.0], [1.0, 0.0]]
            .into_iter()
            .filter(|&outward| dark_beyond(image, candidate, outward, dimmest))
            .count()
    };
    Verified {
        stickers,
        body_beyond,
    }
}

/// The line between the stickers, followed `outward` (a lattice axis, either way) from half
/// a pitch to a pitch beyond the face's edge, is as dark as the body next to a sticker of
/// brightness `dimmest` may be.
fn dark_beyond(image: &RgbImage, candidate: &Candidate, outward: [f32; 2], dimmest: u8) -> bool {
    let mut values = Vec::with_capacity(15);
    for along in [1.25f32, 1.375, 1.5, 1.625, 1.75] {
        for across in [-0.05f32, 0.0, 0.05] {
            let (a, b) = if outward[0] == 0.0 {
                (across, along * outward[1])
            } else {
                (along * outward[0], across)
            };
            values.extend(pixel(image, candidate.at(a, b)).map(brightest_channel));
        }
    }
    if values.len() < 8 {
        return false;
    }
    let middle = values.len() / 2;
    let typical = *values.select_nth_unstable(middle).1;
    f32::from(typical) <= BODY_AT_MOST * f32::from(dimmest)
}

/// The stickers of a candidate that are stickers (row by row: top-left, top-right,
/// bottom-left, bottom-right), when every gap between two of them shows the dark body and
/// the lattice does not run on.
fn verified_stickers(image: &RgbImage, candidate: &Candidate) -> [Option<Sticker>; 4] {
    let stickers: [Option<Sticker>; 4] = std::array::from_fn(|k| {
        let (col, row) = ((k % 2) as f32 - 0.5, (k / 2) as f32 - 0.5);
        measure_sticker(image, candidate, [col, row])
    });
    // Neighbours along u (the gap's band runs along v), then along v.
    let pairs = [(0, 1, 0), (2, 3, 0), (0, 2, 1), (1, 3, 1)];
    for (a, b, axis) in pairs {
        if let (Some(sa), Some(sb)) = (stickers[a], stickers[b]) {
            let across = if axis == 0 { candidate.v } else { candidate.u };
            if !dark_gap(image, (&sa, &sb), (axis, across)) {
                return [None; 4];
            }
        }
    }
    let found: Vec<&Sticker> = stickers.iter().flatten().collect();
    if found.len() >= 3 && runs_on(image, candidate, &found) {
        return [None; 4];
    }
    stickers
}

/// The candidate's lattice holds stickers the size of its own (`face`) in at least
/// [`RUN_ON`] of the twelve cells round its four.
fn runs_on(image: &RgbImage, candidate: &Candidate, face: &[&Sticker]) -> bool {
    let typical: [f32; 2] = std::array::from_fn(|axis| {
        face.iter().map(|s| s.half[axis]).sum::<f32>() / face.len() as f32
    });
    let alike =
        |s: &Sticker| (0..2).all(|axis| (s.half[axis] / typical[axis] - 1.0).abs() < SAME_SIZE);
    let ring = [-1.5f32, -0.5, 0.5, 1.5]
        .into_iter()
        .flat_map(|b| [-1.5f32, -0.5, 0.5, 1.5].map(|a| [a, b]))
        .filter(|[a, b]| a.abs() > 1.0 || b.abs() > 1.0);
    let mut held = 0;
    for at in ring {
        held += usize::from(measure_sticker(image, candidate, at).is_some_and(|s| alike(&s)));
        if held >= RUN_ON {
            return true;
        }
    }
    false
}

/// The sticker expected at lattice coordinates `at` (in pitches from the face's centre), if a
/// sticker is there: measured once where expected, then again with the window on its middle
/// (so that the second look holds the sticker whole and nothing beyond its rim).
fn measure_sticker(image: &RgbImage, candidate: &Candidate, at: [f32; 2]) -> Option<Sticker> {
    let first = Look::at(image, candidate, at)?;
    let centred = [at[0] + first.offset[0], at[1] + first.offset[1]];
    let second = Look::at(image, candidate, centred)?;
    let middle = [centred[0] + second.offset[0], centred[1] + second.offset[1]];
    let off = (middle[0] - at[0]).hypot(middle[1] - at[1]);
    let fill = 4.0 * second.half[0] * second.half[1];
    let within_cell = second.half.iter().all(|&h| h <= 0.5);
    let enclosed = !second.cut && second.edge_share <= MOST_EDGE;
    if !enclosed || !within_cell || fill < LEAST_FILL || off > 0.2 {
        return None;
    }
    Some(Sticker {
        centre: candidate.at(middle[0], middle[1]),
        half: second.half,
        value: brightest_channel(second.core),
    })
}

/// What one window round a sticker shows.
struct Look {
    /// The sticker's middle from the window's, in pitches.
    offset: [f32; 2],
    /// Half its extent along each axis, in pitches.
    half: [f32; 2],
    /// The share of the window's edge its colour reaches.
    edge_share: f32,
    /// Its colour reaches the photo's edge: no body is seen to enclose it there.
    cut: bool,
    /// Its typical colour.
    core: [u8; 3],
}

impl Look {
    fn at(image: &RgbImage, candidate: &Candidate, at: [f32; 2]) -> Option<Look> {
        let window = CellWindow::sample(image, candidate, at);
        let core = window.core_colour()?;
        let body = window.body_colour();
        if f32::from(brightest_channel(body)) > BODY_AT_MOST * f32::from(brightest_channel(core)) {
            return None;
        }
        let region = window.sticker_region(core, body)?;
        let (offset, half) = window.extent(&region)?;
        Some(Look {
            offset,
            half,
            edge_share: region.edge_share,
            cut: region.cut,
            core,
        })
    }
}

/// A cell's samples on a square grid in lattice coordinates, `None` outside the photo.
struct CellWindow {
    side: usize,
    samples: Vec<Option<[u8; 3]>>,
}

impl CellWindow {
    fn sample(image: &RgbImage, candidate: &Candidate, at: [f32; 2]) -> CellWindow {
        let half = (WINDOW * PER_PITCH as f32).ceil() as usize;
        let side = 2 * half + 1;
        let step = 1.0 / PER_PITCH as f32;
        let mut samples = Vec::with_capacity(side * side);
        for j in 0..side {
            for i in 0..side {
                let a = at[0] + (i as f32 - half as f32) * step;
                let b = at[1] + (j as f32 - half as f32) * step;
                samples.push(pixel(image, candidate.at(a, b)));
            }
        }
        CellWindow { side, samples }
    }

    /// Offset (in pitches) of sample `k` from the window's middle.
    fn offset(&self, k: usize) -> [f32; 2] {
        let half = (self.side / 2) as f32;
        let step = 1.0 / PER_PITCH as f32;
        [
            ((k % self.side) as f32 - half) * step,
            ((k / self.side) as f32 - half) * step,
        ]
    }

    /// Sample `k` lies in the cell's middle: within a fifth of a pitch of the window's middle
    /// each way.
    fn in_core(&self, k: usize) -> bool {
        self.offset(k).iter().all(|d| d.abs() <= 0.2)
    }

    /// The typical colour (each channel's median) of the cell's middle.
    fn core_colour(&self) -> Option<[u8; 3]> {
        let core: Vec<[u8; 3]> = (0..self.samples.len())
            .filter(|&k| self.in_core(k))
            .map(|k| self.samples[k])
            .collect::<Option<_>>()?;
        Some(std::array::from_fn(|c| {
            let mut channel: Vec<u8> = core.iter().map(|p| p[c]).collect();
            let middle = channel.len() / 2;
            *channel.select_nth_unstable(middle).1
        }))
    }

    /// The body's colour: the mean of the darkest tenth of the window (the gaps and the rim).
    fn body_colour(&self) -> [u8; 3] {
        let mut seen: Vec<[u8; 3]> = self.samples.iter().flatten().copied().collect();
        let tenth = (seen.len() / 10).max(1).min(seen.len());
        if tenth == 0 {
            return [0; 3];
        }
        seen.select_nth_unstable_by_key(tenth - 1, |p| brightest_channel(*p));
        let sum = seen[..tenth].iter().fold([0u32; 3], |mut s, p| {
            (0..3).for_each(|c| s[c] += u32::from(p[c]));
            s
        });
        sum.map(|s| (s / tenth as u32) as u8)
    }

    /// The region of sticker-coloured samples joined to the middle: within half the way
    /// from the core colour to the body's, in any direction (a glint or a grey wall is not
    /// the sticker's colour).
    fn sticker_region(&self, core: [u8; 3], body: [u8; 3]) -> Option<Region> {
        let apart = distance(core, body);
        let like_core: Vec<bool> = (self.samples.iter())
            .map(|p| p.is_some_and(|p| distance(p, core) < apart / 2.0))
            .collect();
        let from_body: Vec<f32> = (self.samples.iter())
            .map(|p| p.map_or(0.0, |p| distance(p, body) / apart))
            .collect();
        // Seeded from the middle's samples of its colour (a glint may sit on the very middle).
        let mut stack: Vec<usize> = (0..like_core.len())
            .filter(|&k| like_core[k] && self.in_core(k))
            .collect();
        if stack.is_empty() {
            return None;
        }
        let mut member = vec![false; like_core.len()];
        stack.iter().for_each(|&k| member[k] = true);
        let (last, mut on_edge, mut cut) = (self.side - 1, 0usize, false);
        while let Some(k) = stack.pop() {
            let (x, y) = (k % self.side, k / self.side);
            on_edge += usize::from(x == 0 || y == 0 || x == last || y == last);
            let next = [
                (x > 0).then(|| k - 1),
                (x < last).then(|| k + 1),
                (y > 0).then(|| k - self.side),
                (y < last).then(|| k + self.side),
            ];
            for n in next.into_iter().flatten() {
                cut |= self.samples[n].is_none();
                if !member[n] && like_core[n] {
                    member[n] = true;
                    stack.push(n);
                }
            }
        }
        Some(Region {
            from_body,
            edge_share: on_edge as f32 / (4 * last) as f32,
            cut,
        })
    }

    /// Where the sticker's edges lie along each axis, from the runs through the window's
    /// middle: along every line of the middle 60 % of the cell, the run through the middle
    /// that the body does not interrupt, its two ends' medians (each end between its last
    /// sample in and first out, where the colour crosses half way to the body's). A glint or
    /// a neighbour joined across the rim at one place moves the ends of a few runs only. Its
    /// middle's offset and its half extent, in pitches.
    fn extent(&self, region: &Region) -> Option<([f32; 2], [f32; 2])> {
        let side = self.side;
        let (a, half_a) = region.run_ends(side, |line, along| along + line * side)?;
        let (b, half_b) = region.run_ends(side, |line, along| line + along * side)?;
        Some(([a, b], [half_a, half_b]))
    }
}

/// What a window shows of a sticker.
struct Region {
    /// Each sample's colour distance from the body's, 1 at the sticker's colour: the sticker
    /// ends where this falls below a half.
    from_body: Vec<f32>,
    /// The share of the window's edge the sticker's colour reaches, joined to its middle: none
    /// for a sticker the body encloses, a little where something of its colour touches it
    /// across the rim, much for a patch that runs on out of the cell.
    edge_share: f32,
    /// The sticker's colour reaches the photo's edge.
    cut: bool,
}

impl Region {
    /// The median ends of the runs through the middle, along lines `index(line, along)` of
    /// the middle 60 % of a window `side` samples wide: the runs' middle and half length, in
    /// pitches from the window's middle.
    fn run_ends(&self, side: usize, index: impl Fn(usize, usize) -> usize) -> Option<(f32, f32)> {
        let (half, lines) = (side / 2, PER_PITCH * 3 / 10);
        let lit = |k: usize| self.from_body[k] >= 0.5;
        let (mut starts, mut ends) = (Vec::new(), Vec::new());
        for line in half - lines..=half + lines {
            let at = |along: usize| index(line, along);
            if !lit(at(half)) {
                continue;
            }
            let out_before = (0..half).rev().find(|&i| !lit(at(i)));
            let out_after = (half..side).find(|&i| !lit(at(i)));
            starts.push(out_before.map_or(0.0, |i| i as f32 + self.crossing(at(i + 1), at(i))));
            ends.push(
                out_after.map_or(side as f32, |i| i as f32 - self.crossing(at(i - 1), at(i))),
            );
        }
        if starts.len() <= lines {
            return None;
        }
        let median = |v: &mut Vec<f32>| {
            let middle = v.len() / 2;
            *v.select_nth_unstable_by(middle, f32::total_cmp).1
        };
        let (start, end) = (median(&mut starts), median(&mut ends));
        let step = 1.0 / PER_PITCH as f32;
        Some((
            ((start + end) / 2.0 - half as f32) * step,
            (end - start) * step / 2.0,
        ))
    }

    /// Where between sample `inside` (lit) and its neighbour `outside` (the body) the colour
    /// crosses half way: the share of the way from `outside` to `inside`, 0..1.
    fn crossing(&self, inside: usize, outside: usize) -> f32 {
        let (i, o) = (self.from_body[inside].min(1.5), self.from_body[outside]);
        if i > o {
            ((0.5 - o) / (i - o)).clamp(0.0, 1.0)
        } else {
            0.5
        }
    }
}

/// The distance between two colours (0..255 units).
fn distance(p: [u8; 3], q: [u8; 3]) -> f32 {
    (0..3)
        .map(|c| (f32::from(p[c]) - f32::from(q[c])).powi(2))
        .sum::<f32>()
        .sqrt()
}

/// The photo's pixel at `p`, `None` outside.
fn pixel(image: &RgbImage, p: [f32; 2]) -> Option<[u8; 3]> {
    let inside = p[0] >= 0.0 && p[1] >= 0.0;
    let (x, y) = (p[0] as u32, p[1] as u32);
    (inside && x < image.width() && y < image.height()).then(|| image.get_pixel(x, y).0)
}

/// The gap between two neighbouring stickers shows the dark body: across the middle of the
/// gap between their edges along `axis` (0: u, 1: v), a band a bit over half a pitch long
/// (along `across`), its typical brightness at most what the body may have next to the dimmer
/// sticker.
fn dark_gap(
    image: &RgbImage,
    (a, b): (&Sticker, &Sticker),
    (axis, across): (usize, [f32; 2]),
) -> bool {
    let (ha, hb) = (a.half[axis], b.half[axis]);
    let gap = (1.0 - ha - hb).max(0.0);
    let (from, to) = (ha + 0.2 * gap, 1.0 - hb - 0.2 * gap);
    let d = [b.centre[0] - a.centre[0], b.centre[1] - a.centre[1]];
    let mut values = Vec::with_capacity(3 * 7);
    for s in 0..3 {
        let t = if to > from {
            from + (to - from) * s as f32 / 2.0
        } else {
            0.5
        };
        for r in -3..=3 {
            let w = r as f32 * 0.1;
            let p = [
                a.centre[0] + t * d[0] + w * across[0],
                a.centre[1] + t * d[1] + w * across[1],
            ];
            values.extend(pixel(image, p).map(brightest_channel));
        }
    }
    if values.is_empty() {
        return false;
    }
    let middle = values.len() / 2;
    let typical = *values.select_nth_unstable(middle).1;
    f32::from(typical) <= BODY_AT_MOST * f32::from(a.value.min(b.value))
}
