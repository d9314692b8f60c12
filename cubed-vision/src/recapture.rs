//! What to photograph again when stickers are in doubt: the faces they lie on, each at an exposure a stop on from its last photo (darker when its doubtful stickers came out near clipping, brighter near black), for a number of rounds (`Rounds`). Pure; the daemon's classify stage and the re-capture bench both go by it.

use crate::camera::{Exposure, Retake};
use crate::cube::faces_of;
use crate::cube::Face;
use crate::light::colour::Rgb;
use crate::light::lighting::ROLL_OFF_CODE;
use crate::light::palette::Palette;

/// The brightest channel's mean (0..255) over a face's doubtful stickers at or above which the
/// face is taken again darker: they came out near clipping.
pub(crate) const NEAR_CLIPPING: f32 = 230.0;
/// ... at or below which it is taken again brighter: they came out near black.
pub(crate) const NEAR_BLACK: f32 = 40.0;

/// Stickers of a reading given as a cube that were too bright to be told apart: two stickers of
/// one face given different colours where the channel that tells those colours apart most (in
/// the palette's `references`) is in the highlight roll-off in both. A webcam's roll-off bends
/// that channel towards full scale (an orange and a yellow under a lamp too bright read
/// (255, 246, 163) and (255, 255, 204): green tells them apart, and both are near 255 in it), so
/// a sure reading can still be wrong; such a face was overexposed and is taken again darker
/// while rounds are left. A yellow at (255, 245, 27) beside a white at (255, 255, 255) is not:
/// blue tells them apart, and it is far from full scale in the yellow. `colours[s]` is the
/// palette colour given sticker `s`; `per_face` stickers a face.
pub fn overexposed_stickers(
    readings: &[Rgb],
    colours: &[usize],
    references: &[Rgb; 6],
    per_face: usize,
) -> Vec<usize> {
    let stickers = readings.len().min(colours.len());
    let per_face = per_face.max(1);
    let in_roll_off = |s: usize, c: usize| readings[s][c] >= ROLL_OFF_CODE;
    let unsure_pair = |s: usize, t: usize| {
        let (a, b) = (colours[s], colours[t]);
        a != b
            && a < 6
            && b < 6
            && in_roll_off(s, telling_channel(references[a], references[b]))
            && in_roll_off(t, telling_channel(references[a], references[b]))
    };
    (0..stickers)
        .filter(|&s| {
            let face = s - s % per_face;
            (face..(face + per_face).min(stickers)).any(|t| unsure_pair(s, t))
        })
        .collect()
}

/// `overexposed_stickers` of a cube read with each sticker named by `faces` (the face whose
/// centre has its colour) and each face's colour by `names` (palette indices).
pub fn overexposed_cube(
    readings: &[Rgb],
    (faces, names): (&[Face], &[usize; 6]),
    palette: &Palette,
    per_face: usize,
) -> Vec<usize> {
    let colours: Vec<usize> = faces.iter().map(|f| names[f.index()]).collect();
    overexposed_stickers(readings, &colours, &palette.references_rgb(), per_face)
}

/// The channel in which two colours differ most.
fn telling_channel(a: Rgb, b: Rgb) -> usize {
    (0..3).max_by_key(|&c| a[c].abs_diff(b[c])).unwrap_or(0)
}

/// Which way to take a face again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    Darker,
    Brighter,
    /// The same exposure: another photo, another view.
    Same,
}

impl Step {
    /// The exposure a step on from `last`.
    pub fn from(self, last: Exposure) -> Exposure {
        match self {
            Step::Darker => last.darker(),
            Step::Brighter => last.brighter(),
            Step::Same => last,
        }
    }
}

/// The default `[vision] recaptures`: two rounds. On the bench's simulated
/// roll-off lamp one round (a stop darker) leaves 14 of 200 cubes refused and
/// two read all 200; on the development scans a second round adds no
/// confident error in any condition (`cubed-bench vision --recaptures 1` and `2`).
pub const DEFAULT_RECAPTURES: u32 = 2;

/// The re-capture rounds of one scan: how many are left and the exposure each face's photo
/// was last taken at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rounds {
    allowed: u32,
    done: u32,
    exposures: [Exposure; 6],
    /// Step the exposure (false: always the normal one, for comparison).
    step_exposure: bool,
}

impl Rounds {
    /// `allowed` rounds (the daemon's `[vision] recaptures`), the exposure stepped as `recapture_for` says.
    pub fn new(allowed: u32) -> Rounds {
        Rounds {
            allowed,
            done: 0,
            exposures: [Exposure::NORMAL; 6],
            step_exposure: true,
        }
    }

    /// `allowed` rounds, every photo at the normal exposure.
    pub fn at_normal_exposure(allowed: u32) -> Rounds {
        Rounds {
            step_exposure: false,
            ..Rounds::new(allowed)
        }
    }

    /// The rounds a scan by a camera that retakes photos as `retake` says may take:
    /// `recaptures` with one that can take a face darker or take another frame, none with
    /// one whose photos cannot be taken again.
    pub fn for_camera(retake: Retake, recaptures: u32) -> Rounds {
        match retake {
            Retake::Exposure => Rounds::new(recaptures),
            Retake::NextFrame => Rounds::at_normal_exposure(recaptures),
            Retake::SamePhoto => Rounds::new(0),
        }
    }

    /// These rounds, the first photos taken at `exposures` (URFDLB: the light an earlier scan
    /// of the same robot was read in); every photo at the normal exposure if not stepped.
    pub fn starting_at(self, exposures: [Exposure; 6]) -> Rounds {
        match self.step_exposure {
            true => Rounds { exposures, ..self },
            false => self,
        }
    }

    /// The exposure each face's photo was last taken at (URFDLB).
    pub fn exposures(&self) -> [Exposure; 6] {
        self.exposures
    }

    /// Rounds taken so far.
    pub fn done(&self) -> u32 {
        self.done
    }

    /// Whether another round is allowed (a round is then counted).
    fn take_round(&mut self) -> bool {
        let allowed = self.done < self.allowed;
        self.done += u32::from(allowed);
        allowed
    }

    /// After the photos could not be read: whether to take all six again (at the normal
    /// exposure), or `false` when the rounds are used up.
    pub fn again_after_unreadable(&mut self) -> bool {
        let again = self.take_round();
        if again {
            self.exposures = [Exposure::NORMAL; 6];
        }
        again
    }

    /// After `readings` left `stickers` in doubt: the faces to photograph again and their
    /// exposures, or `None` when the rounds are used up.
    pub fn again_after_doubt(
        &mut self,
        readings: &[Rgb],
        stickers: &[usize],
        per_face: usize,
    ) -> Option<Vec<(Face, Exposure)>> {
        self.again_after_doubt_in_light(readings, (stickers, &[]), per_face)
    }

    /// `again_after_doubt`, with the faces of `washed_out` stickers (`read::washed_out`: the
    /// light washed them out, whether or not the reading doubts them) taken again too, and
    /// darker: one lamp lights every face, and a face left as bright keeps misleading the
    /// reading of the others.
    pub fn again_after_doubt_in_light(
        &mut self,
        readings: &[Rgb],
        (stickers, washed_out): (&[usize], &[usize]),
        per_face: usize,
    ) -> Option<Vec<(Face, Exposure)>> {
        if !self.take_round() {
            return None;
        }
        let last = &self.exposures;
        let mut again = recapture_in_light(readings, (stickers, washed_out), per_face, last);
        for (face, exposure) in again.iter_mut() {
            if !self.step_exposure {
                *exposure = Exposure::NORMAL;
            }
            self.exposures[face.index()] = *exposure;
        }
        Some(again)
    }

    /// The exposure `face`'s photo was last taken at.
    pub fn exposure_of(&self, face: Face) -> Exposure {
        self.exposures[face.index()]
    }
}

/// The faces the doubtful `stickers` of `readings` lie on (a cube of `per_face` stickers a
/// face: 9 for a 3x3, 4 for a 2x2), in URFDLB order, each with the exposure to take it again
/// at: a step on from `last[face]`, the exposure of the photo the readings came from.
pub(crate) fn recapture_for(
    readings: &[Rgb],
    stickers: &[usize],
    per_face: usize,
    last: &[Exposure; 6],
) -> Vec<(Face, Exposure)> {
    Face::ALL
        .iter()
        .filter_map(|&face| {
            let on_face = face.index() * per_face..(face.index() + 1) * per_face;
            let doubtful: Vec<usize> = (stickers.iter().copied())
                .filter(|s| on_face.contains(s))
                .collect();
            (!doubtful.is_empty())
                .then(|| (face, step_for(readings, &doubtful).from(last[face.index()])))
        })
        .collect()
}

/// `recapture_for`, with the faces of `washed_out` stickers taken again a stop darker.
fn recapture_in_light(
    readings: &[Rgb],
    (stickers, washed_out): (&[usize], &[usize]),
    per_face: usize,
    last: &[Exposure; 6],
) -> Vec<(Face, Exposure)> {
    let mut again = recapture_for(readings, stickers, per_face, last);
    for face in faces_of(washed_out, per_face) {
        let darker = Step::Darker.from(last[face.index()]);
        match again.iter_mut().find(|(f, _)| *f == face) {
            Some((_, exposure)) => *exposure = darker,
            None => again.push((face, darker)),
        }
    }
    again.sort_by_key(|(face, _)| face.index());
    again
}

/// Which way to photograph the doubtful `stickers` again: darker when they came out near
/// clipping (the brightest channel at `NEAR_CLIPPING` or more on average), brighter when near
/// black (at most `NEAR_BLACK`), otherwise the same.
pub fn step_for(readings: &[Rgb], stickers: &[usize]) -> Step {
    let brightest: Vec<f32> = stickers
        .iter()
        .filter_map(|&s| readings.get(s))
        .map(|rgb| f32::from(rgb.iter().copied().max().unwrap_or(0)))
        .collect();
    if brightest.is_empty() {
        return Step::Same;
    }
    let mean = brightest.iter().sum::<f32>() / brightest.len() as f32;
    if mean >= NEAR_CLIPPING {
        Step::Darker
    } else if mean <= NEAR_BLACK {
        Step::Brighter
    } else {
        Step::Same
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_camera_gets_the_rounds_its_retakes_allow() {
        let mut readings = [[120u8, 90, 60]; 54];
        readings[4] = [250, 252, 255];
        let mut darker = Rounds::for_camera(Retake::Exposure, 2);
        let again = darker.again_after_doubt(&readings, &[4], 9);
        assert_eq!(again, Some(vec![(Face::U, Exposure::stops(-1))]));
        let mut next_frame = Rounds::for_camera(Retake::NextFrame, 2);
        let again = next_frame.again_after_doubt(&readings, &[4], 9);
        assert_eq!(again, Some(vec![(Face::U, Exposure::NORMAL)]));
        let mut same_photo = Rounds::for_camera(Retake::SamePhoto, 2);
        assert_eq!(same_photo.again_after_doubt(&readings, &[4], 9), None);
        assert!(!same_photo.again_after_unreadable());
    }

    #[test]
    fn doubtful_stickers_near_white_are_taken_darker_near_black_brighter() {
        let mut readings = [[120u8, 90, 60]; 54];
        readings[4] = [250, 252, 255];
        readings[13] = [255, 240, 236];
        readings[20] = [20, 30, 25];
        readings[21] = [35, 10, 12];
        assert_eq!(step_for(&readings, &[4, 13]), Step::Darker);
        assert_eq!(step_for(&readings, &[20, 21]), Step::Brighter);
        assert_eq!(step_for(&readings, &[0, 4]), Step::Same);
        assert_eq!(step_for(&readings, &[]), Step::Same);
        assert_eq!(step_for(&readings, &[99]), Step::Same, "out of range");
    }

    #[test]
    fn each_face_steps_on_from_its_last_exposure_by_its_own_stickers() {
        let mut readings = [[120u8, 90, 60]; 54];
        readings[4] = [250, 252, 255];
        readings[22] = [20, 30, 25];
        let mut last = [Exposure::NORMAL; 6];
        last[0] = Exposure::stops(-1);
        let again = recapture_for(&readings, &[4, 22, 40, 99], 9, &last);
        assert_eq!(
            again,
            vec![
                (Face::U, Exposure::stops(-2)),
                (Face::F, Exposure::stops(1)),
                (Face::L, Exposure::NORMAL),
            ]
        );
        let limit = [Exposure::stops(-Exposure::MAX_STOPS); 6];
        let again = recapture_for(&readings, &[4], 9, &limit);
        assert_eq!(
            again,
            vec![(Face::U, Exposure::stops(-Exposure::MAX_STOPS))]
        );
    }

    #[test]
    fn rounds_step_each_face_on_until_they_are_used_up() {
        let mut readings = [[120u8, 90, 60]; 54];
        readings[4] = [250, 252, 255];
        let mut rounds = Rounds::new(2);
        let first = rounds.again_after_doubt(&readings, &[4], 9);
        assert_eq!(first, Some(vec![(Face::U, Exposure::stops(-1))]));
        let second = rounds.again_after_doubt(&readings, &[4], 9);
        assert_eq!(second, Some(vec![(Face::U, Exposure::stops(-2))]));
        assert_eq!(rounds.again_after_doubt(&readings, &[4], 9), None);
        assert!(!rounds.again_after_unreadable(), "used up");
        assert_eq!(rounds.done(), 2);
        let mut plain = Rounds::at_normal_exposure(1);
        let again = plain.again_after_doubt(&readings, &[4], 9);
        assert_eq!(again, Some(vec![(Face::U, Exposure::NORMAL)]));
        let mut reset = Rounds::new(2);
        let _ = reset.again_after_doubt(&readings, &[4], 9);
        assert!(reset.again_after_unreadable());
        assert_eq!(
            reset.exposure_of(Face::U),
            Exposure::NORMAL,
            "all six again, as locked"
        );
    }

    #[test]
    fn washed_out_faces_are_taken_again_darker_in_doubt_or_not() {
        let mut readings = [[120u8, 90, 60]; 54];
        readings[22] = [20, 30, 25];
        let mut rounds = Rounds::new(2);
        // F's doubtful sticker came out near black, but F was washed out too: darker. L was
        // washed out with nothing in doubt: darker. U is in doubt only: as its stickers say.
        let again = rounds.again_after_doubt_in_light(&readings, (&[4, 22], &[19, 38]), 9);
        let expected = vec![
            (Face::U, Exposure::NORMAL),
            (Face::F, Exposure::stops(-1)),
            (Face::L, Exposure::stops(-1)),
        ];
        assert_eq!(again, Some(expected));
        let again = rounds.again_after_doubt_in_light(&readings, (&[], &[38]), 9);
        assert_eq!(again, Some(vec![(Face::L, Exposure::stops(-2))]));
        assert_eq!(
            rounds.again_after_doubt_in_light(&readings, (&[], &[38]), 9),
            None
        );
    }

    /// The standard palette's references: white, red, green, yellow, orange, blue.
    const REFERENCES: [Rgb; 6] = [
        [235, 235, 235],
        [190, 30, 40],
        [30, 160, 80],
        [230, 215, 40],
        [250, 120, 30],
        [30, 80, 190],
    ];
    const WHITE: usize = 0;
    const YELLOW: usize = 3;
    const ORANGE: usize = 4;

    #[test]
    fn two_colours_both_near_full_scale_in_what_tells_them_apart_are_overexposed() {
        let mut readings = [[120u8, 90, 60]; 54];
        let mut colours = [1usize; 54];
        // R face: an orange and a yellow washed out by a lamp too bright (green tells them apart).
        (readings[9], colours[9]) = ([255, 246, 163], ORANGE);
        (readings[16], colours[16]) = ([255, 255, 204], YELLOW);
        assert_eq!(
            overexposed_stickers(&readings, &colours, &REFERENCES, 9),
            vec![9, 16]
        );
        // The orange a little darker in green: its green is out of the roll-off.
        readings[9] = [255, 236, 163];
        assert!(overexposed_stickers(&readings, &colours, &REFERENCES, 9).is_empty());
    }

    #[test]
    fn a_bright_yellow_beside_white_is_told_apart_by_blue_and_is_not_overexposed() {
        let mut readings = [[120u8, 90, 60]; 54];
        let mut colours = [1usize; 54];
        (readings[27], colours[27]) = ([255, 245, 27], YELLOW);
        (readings[28], colours[28]) = ([255, 255, 255], WHITE);
        assert!(overexposed_stickers(&readings, &colours, &REFERENCES, 9).is_empty());
        // Blue near full scale in the yellow too: white and yellow can no longer be told apart.
        readings[27] = [255, 255, 242];
        assert_eq!(
            overexposed_stickers(&readings, &colours, &REFERENCES, 9),
            vec![27, 28]
        );
    }

    #[test]
    fn overexposed_stickers_pair_only_within_a_face_and_only_across_colours() {
        let mut readings = [[120u8, 90, 60]; 54];
        let mut colours = [1usize; 54];
        // One on U, one on R: different faces, different light.
        (readings[8], colours[8]) = ([255, 246, 163], ORANGE);
        (readings[9], colours[9]) = ([255, 255, 204], YELLOW);
        // Two whites on F: one colour.
        (readings[18], colours[18]) = ([255, 255, 255], WHITE);
        (readings[19], colours[19]) = ([255, 255, 250], WHITE);
        assert!(overexposed_stickers(&readings, &colours, &REFERENCES, 9).is_empty());
        // A 2x2's faces are four stickers: 3 and 4 lie on U and R, 0 and 1 both on U.
        let bright = [[255u8, 246, 163], [255, 255, 204]];
        let mut pocket = [[9u8, 9, 9]; 8];
        (pocket[3], pocket[4]) = (bright[0], bright[1]);
        let colours = [1, 1, 1, ORANGE, YELLOW, 1, 1, 1];
        assert!(overexposed_stickers(&pocket, &colours, &REFERENCES, 4).is_empty());
        let mut pocket = [[9u8, 9, 9]; 8];
        (pocket[0], pocket[1]) = (bright[0], bright[1]);
        let colours = [ORANGE, YELLOW, 1, 1, 1, 1, 1, 1];
        assert_eq!(
            overexposed_stickers(&pocket, &colours, &REFERENCES, 4),
            vec![0, 1]
        );
        // A colour not in the palette (a symbol it does not have) pairs with nothing.
        let unknown = [usize::MAX, YELLOW, 1, 1, 1, 1, 1, 1];
        assert!(overexposed_stickers(&pocket, &unknown, &REFERENCES, 4).is_empty());
    }

    #[test]
    fn the_faces_of_a_2x2_are_four_stickers_each() {
        let readings = [[250u8, 250, 250]; 24];
        let again = recapture_for(&readings, &[3, 5, 6, 23], 4, &[Exposure::NORMAL; 6]);
        let faces: Vec<Face> = again.iter().map(|(f, _)| *f).collect();
        assert_eq!(faces, vec![Face::U, Face::R, Face::B]);
        assert!(again.iter().all(|(_, e)| *e == Exposure::stops(-1)));
    }
}
