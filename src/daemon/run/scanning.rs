//! The classify stage of a run: reads the photos as the run's `CubeKind` (a 3x3 or a 2x2) and judges the reading: sure, or which faces to photograph again and why (unsure faces, and faces of a sure reading too bright to be sure of), or refused with the reason. It writes nothing down: the pipeline records and shows what it returns.

use crate::daemon::rig::Rig;
use crate::daemon::run::cube_kind::CubeKind;
use crate::daemon::run::error::RunError;
use cubed_core::cube::Face;
use cubed_core::cube::{face_letters, faces_of};
use cubed_vision::camera::{Exposure, Retake};
use cubed_vision::light::lighting::ROLL_OFF_CODE;
use cubed_vision::read::advice::{light_explains, light_for_advice};
use cubed_vision::read::classify::ClassifyOptions;
use cubed_vision::read::reading::CubeReading;
use cubed_vision::read::reading::Unsure;
use cubed_vision::recapture::Rounds;
use cubed_vision::scan::{FaceGrids, FacePhoto, ScanError};

/// What one reading of the photos made: what it found on them, and the cube as classified
/// (or the best guess with what was unsure).
pub(crate) struct Read<K: CubeKind> {
    pub found: Found<K>,
    pub result: Classified<K>,
}

/// What a reading found on the photos: the sticker readings, the grid each face was sampled
/// on (URFDLB, with the faces lent one), and what to tell the person when faces turned in the
/// photo were settled.
pub(crate) struct Found<K: CubeKind> {
    pub readings: K::Readings,
    pub grids: FaceGrids,
    pub settled: Option<String>,
}

/// The cube as classified, or the best guess with what was unsure.
pub(crate) type Classified<K> = Result<<K as CubeKind>::Seen, Unsure<<K as CubeKind>::Seen>>;

/// Reads the photos as a cube of `kind`, with the rig's grid finder and palette.
pub(crate) fn read<K: CubeKind>(
    kind: &K,
    rig: &Rig,
    min_confidence: f32,
    photos: &[FacePhoto],
) -> Result<Read<K>, ScanError> {
    let sampling = rig.sampling();
    let (readings, grids) = kind.read(photos, (&rig.grid, &sampling))?;
    let options = classify_options(min_confidence);
    let (readings, settled) = kind.settle(readings, (&grids, &rig.grid), &rig.palette, &options);
    let result = kind.classify(&readings, &rig.palette, &options);
    Ok(Read {
        found: Found {
            readings,
            grids,
            settled,
        },
        result,
    })
}

fn classify_options(min_confidence: f32) -> ClassifyOptions {
    ClassifyOptions {
        min_confidence,
        ..ClassifyOptions::default()
    }
}

/// What a reading comes to.
pub(crate) enum Verdict<Seen> {
    /// The cube as read; `said` tells the person why stickers too bright to be sure of were
    /// not photographed again (no round left, or a camera that cannot).
    Sure { cube: Seen, said: Option<String> },
    /// Photograph `faces` again, at their exposures, because of `why`; the reading is recorded
    /// meanwhile as `cube` with the reason `recorded_as`.
    Again {
        cube: Seen,
        recorded_as: String,
        faces: Vec<(Face, Exposure)>,
        why: String,
    },
    /// Refused: the record keeps the best guess beside the reason it was not given.
    Refused { guess: Seen, error: RunError },
}

/// Judges a reading of `kind` (`result` of `readings`) with the `rounds` of photographing
/// again left; `doing` is what the photos are for, in the run's words.
pub(crate) fn judge<K: CubeKind>(
    kind: &K,
    (readings, result): (&K::Readings, Classified<K>),
    rounds: &mut Rounds,
    (rig, min_confidence): (&Rig, f32),
    doing: &str,
) -> Verdict<K::Seen> {
    match result {
        Ok(cube) => judge_sure::<K>(cube, readings, rounds, rig, doing),
        Err(unsure) => judge_unsure(kind, readings, unsure, rounds, (rig, min_confidence)),
    }
}

/// A sure reading stands unless some of its stickers were too bright to tell apart and a
/// round is left to photograph their faces darker.
fn judge_sure<K: CubeKind>(
    cube: K::Seen,
    readings: &K::Readings,
    rounds: &mut Rounds,
    rig: &Rig,
    doing: &str,
) -> Verdict<K::Seen> {
    let bright = cube.overexposed(readings.as_ref(), &rig.palette);
    if bright.is_empty() {
        return Verdict::Sure { cube, said: None };
    }
    let why = overexposed_words(&bright, K::PER_FACE);
    let doubtful = (&[][..], &bright[..]);
    if let Some(faces) = rounds.again_after_doubt_in_light(readings.as_ref(), doubtful, K::PER_FACE)
    {
        let recorded_as = why.clone();
        return Verdict::Again {
            cube,
            recorded_as,
            faces,
            why,
        };
    }
    let left = match rig.camera_retake {
        Retake::SamePhoto => "these photos cannot be taken again".to_string(),
        _ => format!(
            "still after {} (dim the lamp or lower `[camera] exposure`)",
            crate::words::count(rounds.done(), "re-capture", "re-captures")
        ),
    };
    let said = format!(
        "{doing}: {why}; {left}: going on with the sure reading, which the verify scan checks"
    );
    Verdict::Sure {
        cube,
        said: Some(said),
    }
}

/// An unsure reading: the faces of its unsure stickers, and faces the light washed out
/// (taken again darker, in doubt or not), are photographed again while a round is left; then
/// it is refused, saying what was unsure and what might help.
fn judge_unsure<K: CubeKind>(
    kind: &K,
    readings: &K::Readings,
    unsure: Unsure<K::Seen>,
    rounds: &mut Rounds,
    (rig, min_confidence): (&Rig, f32),
) -> Verdict<K::Seen> {
    let Unsure {
        stickers: unsure,
        doubt,
        best_guess,
        ..
    } = unsure;
    let stickers = format!(
        "{} {}",
        crate::words::count(unsure.len(), "sticker", "stickers"),
        cubed_core::cube::sticker_names(&unsure, K::PER_FACE)
    );
    let washed = best_guess.washed_out();
    let washed_out = faces_of(washed, K::PER_FACE);
    let doubtful = (unsure.as_slice(), washed);
    let Some(faces) = rounds.again_after_doubt_in_light(readings.as_ref(), doubtful, K::PER_FACE)
    else {
        let options = classify_options(min_confidence);
        let error = RunError::Unsure {
            stickers,
            turned: (!light_explains(doubt, washed))
                .then(|| kind.turned(readings, &rig.palette, &options))
                .flatten(),
            rounds: rounds.done(),
            doubt,
            light: light_for_advice(readings.as_ref(), &unsure, (&*best_guess, &rig.palette)),
            retake: rig.camera_retake,
            washed_out,
        };
        return Verdict::Refused {
            guess: *best_guess,
            error,
        };
    };
    let why = match washed_out.as_slice() {
        [] => format!("unsure of {stickers}"),
        faces => format!(
            "unsure of {stickers} ({doubt}); {} washed out by the light",
            face_letters(faces)
        ),
    };
    Verdict::Again {
        cube: *best_guess,
        recorded_as: "unsure".to_string(),
        faces,
        why,
    }
}

/// Why a cube read surely is photographed again: its `stickers` were too bright to tell apart.
fn overexposed_words(stickers: &[usize], per_face: usize) -> String {
    format!(
        "{} were too bright to be sure of: what tells their colours apart came out near full scale ({ROLL_OFF_CODE} or over) in both",
        cubed_core::cube::sticker_names(stickers, per_face)
    )
}

/// "U, R 1 stop darker; F as before": the faces to take again, grouped by their exposures.
pub(crate) fn faces_and_exposures(again: &[(Face, Exposure)]) -> String {
    let mut exposures: Vec<Exposure> = again.iter().map(|&(_, e)| e).collect();
    exposures.sort_by_key(|e| e.in_stops());
    exposures.dedup();
    (exposures.iter())
        .map(|&exposure| {
            let faces: Vec<String> = (again.iter())
                .filter(|(_, e)| *e == exposure)
                .map(|(f, _)| f.letter().to_string())
                .collect();
            match exposure.words() {
                words if words.is_empty() => format!("{} as before", faces.join(", ")),
                words => format!("{} {words}", faces.join(", ")),
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faces_taken_again_are_grouped_by_exposure_darkest_first() {
        let again = [
            (Face::U, Exposure::stops(-1)),
            (Face::F, Exposure::NORMAL),
            (Face::D, Exposure::stops(-1)),
            (Face::B, Exposure::stops(2)),
        ];
        assert_eq!(
            faces_and_exposures(&again),
            "U, D 1 stop darker; F as before; B 2 stops brighter"
        );
    }
}
