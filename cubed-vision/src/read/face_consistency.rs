//! Whether the stickers of one face agree with the colours given them: they share that face's light, so stickers of one colour can differ only by brightness (shading) and noise, and stickers of two colours can look alike only where the camera clipped what tells them apart. Pure.

use crate::light::colour::Rgb;
use crate::light::lighting::{clipped, CLIPPED};
/// Camera noise floor in sRGB codes: channel ratios are taken of `code + NOISE_FLOOR`.
const NOISE_FLOOR: f32 = 8.0;

/// How unlike two readings are once their brightness is set aside: the
/// spread (largest minus smallest) over the unclipped channels of the log
/// ratio of one to the other. 0 for readings that differ only in brightness.
pub(crate) fn pair_spread(a: Rgb, b: Rgb) -> f32 {
    let logs: Vec<f32> = (0..3)
        .filter(|&c| a[c] < CLIPPED && b[c] < CLIPPED)
        .map(|c| ((a[c] as f32 + NOISE_FLOOR) / (b[c] as f32 + NOISE_FLOOR)).ln())
        .collect();
    let max = logs.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let min = logs.iter().copied().fold(f32::INFINITY, f32::min);
    if logs.len() < 2 {
        0.0
    } else {
        max - min
    }
}

/// The largest `pair_spread` two stickers of one colour on one face may have:
/// a channel ratio 6 times (ln 6) another sticker's. Two stickers this unlike
/// cannot both be that colour under the one light of their face. On the
/// development scans under every bench condition the true colours reach 1.40
/// (dark channels, where the noise floor dominates).
pub(crate) const MAX_FACE_SPREAD: f32 = 1.79;

/// Stickers that look unlike at least half of the other stickers of their
/// own face given the same colour (the odd ones out; in a group of two, both).
pub(crate) fn unlike_stickers(readings: &[Rgb; 54], colours: &[usize; 54]) -> Vec<usize> {
    (0..54)
        .filter(|&s| {
            let mates: Vec<usize> = same_colour_on_face(colours, s).collect();
            let unlike = mates
                .iter()
                .filter(|&&t| pair_spread(readings[s], readings[t]) > MAX_FACE_SPREAD)
                .count();
            unlike > 0 && 2 * unlike >= mates.len()
        })
        .collect()
}

/// How far (sRGB codes, every channel) two readings on one face may be and
/// still look alike. Stickers of one colour on one face differ by shading
/// (a few per cent) and noise; stickers of two colours differ by far more in
/// some channel unless the camera clipped that channel in both.
pub(crate) const ALIKE_CODES: u8 = 12;

/// Whether two readings look alike in a way only clipping explains: both have
/// a clipped channel and a recorded one, and no channel differs by more than
/// `ALIKE_CODES`. (Readings clipped in every channel say nothing of their
/// colour at all; the pieces they belong to decide them.)
pub(crate) fn alike_where_clipped(a: Rgb, b: Rgb) -> bool {
    let recorded = |r: Rgb| r.iter().any(|&c| c < CLIPPED);
    clipped(a)
        && clipped(b)
        && recorded(a)
        && recorded(b)
        && (0..3).all(|c| a[c].abs_diff(b[c]) <= ALIKE_CODES)
}

/// Stickers read as another colour than a sticker of their own face that
/// looks just like them, with clipped channels: under one light two colours
/// give such readings only when the camera clipped what tells them apart (a
/// webcam's highlight roll-off fades an overexposed orange and yellow towards
/// white), which the per-face light correction does not model.
pub(crate) fn alike_stickers_told_apart(readings: &[Rgb; 54], colours: &[usize; 54]) -> Vec<usize> {
    given_another_colour_than_a_mate(readings, colours, alike_where_clipped)
}

/// Stickers that read exactly as a sticker of their own face given another
/// colour, nothing clipped: under the one light of a face one reading is one
/// colour, so the labels fit the light and not the cube. (A clipped pair that
/// reads the same is alike where clipped: `alike_stickers_told_apart`.)
pub(crate) fn one_reading_given_two_colours(
    readings: &[Rgb; 54],
    colours: &[usize; 54],
) -> Vec<usize> {
    given_another_colour_than_a_mate(readings, colours, |a, b| a == b && !clipped(a))
}

/// Stickers with a sticker of their own face given another colour whose
/// reading and theirs satisfy `pair`.
fn given_another_colour_than_a_mate(
    readings: &[Rgb; 54],
    colours: &[usize; 54],
    pair: impl Fn(Rgb, Rgb) -> bool,
) -> Vec<usize> {
    (0..54)
        .filter(|&s| {
            let face = s / 9;
            (face * 9..face * 9 + 9)
                .any(|t| colours[t] != colours[s] && pair(readings[s], readings[t]))
        })
        .collect()
}

/// Stickers read clipped in every channel but given another colour than
/// `palest` (the colour a camera clips first): such a reading recorded no hue,
/// only that the sticker was too bright for the camera, and a webcam's
/// highlight roll-off fades an overexposed yellow or orange to that same blank
/// white. What the best reading gives them is the pieces' guess, and a light
/// fitted to the labels makes any guess look consistent.
pub(crate) fn blank_stickers_given_a_hue(
    readings: &[Rgb],
    colours: &[usize],
    palest: usize,
) -> Vec<usize> {
    (0..readings.len())
        .filter(|&s| colours[s] != palest && readings[s].iter().all(|&c| c >= CLIPPED))
        .collect()
}

/// The other stickers of `s`'s face given its colour.
fn same_colour_on_face(colours: &[usize; 54], s: usize) -> impl Iterator<Item = usize> + '_ {
    let face = s / 9;
    (face * 9..face * 9 + 9).filter(move |&t| t != s && colours[t] == colours[s])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brightness_alone_is_no_spread_and_another_hue_is() {
        assert!(pair_spread([200, 40, 30], [100, 16, 11]) < 0.2);
        assert!(pair_spread([255, 7, 7], [255, 58, 0]) > MAX_FACE_SPREAD);
        assert_eq!(pair_spread([255, 255, 10], [255, 255, 200]), 0.0);
    }

    #[test]
    fn a_face_of_one_colour_that_shows_two_is_unlike_and_the_true_labels_are_not() {
        let mut readings = [[30u8, 150, 60]; 54];
        for s in [1, 3, 5, 7] {
            readings[s] = [200, 10, 10];
        }
        let one_colour = [0usize; 54];
        assert_eq!(unlike_stickers(&readings, &one_colour).len(), 9);
        let mut one_odd = [[30u8, 150, 60]; 54];
        one_odd[10] = [200, 10, 10];
        assert_eq!(unlike_stickers(&one_odd, &one_colour), vec![10]);
        let truth: [usize; 54] = std::array::from_fn(|s| usize::from([1, 3, 5, 7].contains(&s)));
        assert!(unlike_stickers(&readings, &truth).is_empty());
    }

    #[test]
    fn alike_clipped_stickers_told_apart_are_in_doubt_and_unclipped_or_distinct_ones_are_not() {
        let mut readings = [[30u8, 150, 60]; 54];
        let mut colours = [0usize; 54];
        let stickers: [(usize, Rgb, usize); 8] = [
            // Face 2: an overexposed yellow (2) and orange (3) that the camera made alike.
            (18, [255, 255, 113], 2),
            (19, [255, 255, 116], 3),
            // Face 3: a clipped yellow and an orange that still differ in green.
            (27, [255, 255, 117], 2),
            (28, [255, 221, 125], 3),
            // Face 5: two readings clipped white: no colour recorded, no pair.
            (45, [255, 255, 255], 1),
            (46, [255, 255, 255], 2),
            // Face 4: dark stickers alike but unclipped: told apart by the light, not in doubt here.
            (36, [20, 8, 6], 4),
            (37, [22, 10, 6], 5),
        ];
        for (s, reading, colour) in stickers {
            readings[s] = reading;
            colours[s] = colour;
        }
        assert_eq!(alike_stickers_told_apart(&readings, &colours), vec![18, 19]);
        colours[19] = 2;
        assert!(alike_stickers_told_apart(&readings, &colours).is_empty());
    }

    #[test]
    fn stickers_reading_the_same_but_given_two_colours_are_alike_where_clipped_else_unlike() {
        let mut readings = [[30u8, 150, 60]; 54];
        let mut colours = [0usize; 54];
        let stickers: [(usize, Rgb, usize); 8] = [
            // Face 0: the same dark reading given two colours: no light does that.
            (0, [40, 12, 9], 4),
            (1, [40, 12, 9], 5),
            // Face 1: clipped in red, equal in the rest: the camera lost the difference.
            (9, [255, 120, 20], 2),
            (10, [254, 120, 20], 3),
            // Face 2: one code apart: a real, if small, difference; not judged here.
            (18, [40, 12, 9], 4),
            (19, [40, 13, 9], 5),
            // Face 3: blank white given two colours: nothing recorded, not judged here.
            (27, [255, 255, 255], 1),
            (28, [255, 255, 255], 2),
        ];
        for (s, reading, colour) in stickers {
            readings[s] = reading;
            colours[s] = colour;
        }
        let (alike, unlike) = (
            alike_stickers_told_apart(&readings, &colours),
            one_reading_given_two_colours(&readings, &colours),
        );
        assert_eq!(alike, vec![9, 10]);
        assert_eq!(unlike, vec![0, 1]);
        colours[1] = 4;
        colours[10] = 2;
        let (alike, unlike) = (
            alike_stickers_told_apart(&readings, &colours),
            one_reading_given_two_colours(&readings, &colours),
        );
        assert!(alike.is_empty() && unlike.is_empty());
    }

    #[test]
    fn only_stickers_clipped_in_every_channel_and_given_a_hue_are_blank() {
        let readings: [Rgb; 5] = [
            [255, 255, 255],
            [255, 255, 255],
            [254, 255, 254],
            [255, 255, 240],
            [255, 255, 255],
        ];
        let colours = [0, 3, 4, 3, 0];
        assert_eq!(
            blank_stickers_given_a_hue(&readings, &colours, 0),
            vec![1, 2]
        );
        assert_eq!(
            blank_stickers_given_a_hue(&readings, &colours, 3),
            vec![0, 2, 4]
        );
    }
}
