//! What to photograph again when stickers are in doubt: the faces they lie on, each at an exposure a stop on from its last photo (darker when its doubtful stickers came out near clipping, brighter near black), for a number of rounds (`Rounds`). Pure; the daemon's classify stage and the re-capture bench both go by it.

use super::camera::Exposure;
use super::colour::Rgb;
use crate::cube::Face;

/// The brightest channel's mean (0..255) over a face's doubtful stickers at or above which the
/// face is taken again darker: they came out near clipping.
pub const NEAR_CLIPPING: f32 = 230.0;
/// ... at or below which it is taken again brighter: they came out near black.
pub const NEAR_BLACK: f32 = 40.0;

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
/// confident error in any condition (`cubed bench vision --recaptures 1` and `2`).
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
        if !self.take_round() {
            return None;
        }
        let mut again = recapture_for(readings, stickers, per_face, &self.exposures);
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
pub fn recapture_for(
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
    fn the_faces_of_a_2x2_are_four_stickers_each() {
        let readings = [[250u8, 250, 250]; 24];
        let again = recapture_for(&readings, &[3, 5, 6, 23], 4, &[Exposure::NORMAL; 6]);
        let faces: Vec<Face> = again.iter().map(|(f, _)| *f).collect();
        assert_eq!(faces, vec![Face::U, Face::R, Face::B]);
        assert!(again.iter().all(|(_, e)| *e == Exposure::stops(-1)));
    }
}
