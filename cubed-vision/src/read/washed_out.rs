//! Faces the light washed out, told by the camera's physics alone: once a sticker's brightest channel clips, a webcam's highlight roll-off fades the others towards it, and a channel in the roll-off (`ROLL_OFF_CODE` or over) no longer keeps its ratio to the others; so a clipped sticker recorded there in every channel has no hue, and two clipped stickers of different colours recorded there in what tells them apart (or alike) were pressed together at the top of the range. Such stickers set no colour with confidence; a refusal over them names the light, not the cube, and their faces are taken again darker. Pure.

use crate::cube::faces_of;
use crate::light::colour::Rgb;
// Only past full scale does a webcam's roll-off fade the other channels: a reading clipped
// nowhere kept its channels' ratios.
use crate::light::lighting::clipped;
use crate::light::lighting::ROLL_OFF_CODE;
use crate::read::face_consistency::alike_where_clipped;
use crate::recapture::overexposed_stickers;

/// Whether the sensor clipped any of `readings`: when none, no sticker shows its face washed
/// out (every sign `washed_out_stickers` looks for needs a clipped reading), and a reader can
/// skip working out the colours it would judge.
pub(crate) fn any_clipped(readings: &[Rgb]) -> bool {
    readings.iter().any(|&r| clipped(r))
}

/// Whether `reading` was clipped and every channel of it is in the highlight roll-off: the
/// camera recorded that the sticker was too bright, and next to no hue.
fn blank(reading: Rgb) -> bool {
    clipped(reading) && reading.iter().all(|&c| c >= ROLL_OFF_CODE)
}

/// The stickers that show their face was washed out by too much light: those recorded blank
/// (`blank`) but given another colour than `palest` (the colour a camera clips first), and
/// those clipped and pressed together at the top of the range with a sticker of their face
/// given another colour: in the roll-off both in the channel that tells the two colours apart
/// (`overexposed_stickers`), or alike where clipped. A reading clipped nowhere is evidence of
/// nothing, whatever colour a guess gives it. `colours[s]` is the
/// palette colour given sticker `s`, `references` the palette's colours (sRGB) and `palest`
/// the one a camera clips first; `per_face` stickers a face (9, or 4 for a 2x2).
pub(crate) fn washed_out_stickers(
    readings: &[Rgb],
    colours: &[usize],
    (references, palest): (&[Rgb; 6], usize),
    per_face: usize,
) -> Vec<usize> {
    let stickers = readings.len().min(colours.len());
    let per_face = per_face.max(1);
    // Pairs of clipped readings only: an unclipped one pairs with nothing.
    let clipped_only: Vec<Rgb> = (readings.iter())
        .map(|&r| if clipped(r) { r } else { [0; 3] })
        .collect();
    let pressed = overexposed_stickers(&clipped_only, colours, references, per_face);
    let alike = |s: usize| {
        let face = s - s % per_face;
        (face..(face + per_face).min(stickers))
            .any(|t| colours[t] != colours[s] && alike_where_clipped(readings[s], readings[t]))
    };
    let blank = |s: usize| colours[s] != palest && blank(readings[s]);
    (0..stickers)
        .filter(|&s| blank(s) || pressed.contains(&s) || alike(s))
        .collect()
}

/// Whether any of `stickers` lies on a face that one of `washed_out` lies on.
pub(crate) fn on_washed_out_faces(
    stickers: &[usize],
    washed_out: &[usize],
    per_face: usize,
) -> bool {
    let faces = faces_of(washed_out, per_face);
    faces_of(stickers, per_face)
        .iter()
        .any(|f| faces.contains(f))
}

#[cfg(test)]
mod tests;
