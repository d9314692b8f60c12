//! The scan and classify stages of a run: the robot shows each face to the camera (`capture`), the photos are read as the run's `CubeKind` (a 3x3 or a 2x2), unsure faces (and faces of a sure reading too bright to be sure of) are photographed again, and the classified cube is recorded or refused with the reason.

use crate::daemon::board::hex;
use crate::daemon::docs::{DaemonState, StickerDoc};
use crate::daemon::run::capture::{capture_scan, capture_scan_at, doing};
use crate::daemon::run::context::{Phase, RunContext};
use crate::daemon::run::cube_kind::CubeKind;
use crate::daemon::run::error::RunError;
use cubed_core::cube::Face;
use cubed_core::cube::{face_letters, faces_of};
use cubed_core::error_chain::error_chain;
use cubed_vision::camera::{Exposure, Retake};
use cubed_vision::grid::face_grid::FaceGrid;
use cubed_vision::grid::sample::SampleOptions;
use cubed_vision::light::colour::Rgb;
use cubed_vision::light::lighting::ROLL_OFF_CODE;
use cubed_vision::read::classify::ClassifyOptions;
use cubed_vision::read::reading::CubeReading;
use cubed_vision::read::reading::Unsure;
use cubed_vision::recapture::{step_for, Rounds};
use cubed_vision::scan::{FacePhoto, ScanError};

/// Scan: the robot shows each face to the camera; `attempt` 0 is the first scan, later ones
/// verify. Returns the six photos.
pub(crate) async fn scan(
    ctx: &mut RunContext,
    attempt: u32,
    faces: &[Face],
) -> Result<Vec<FacePhoto>, RunError> {
    ctx.board.set(
        state_of(ctx.verifying),
        format!("{}: photographing the six faces", doing(ctx.verifying)),
    );
    ctx.board
        .update(|s| s.photos.retain(|p| p.attempt != attempt));
    capture_scan(ctx, attempt, faces).await
}

/// Classify: reads the photos as a cube of `kind`; unreadable photos are all taken again, and
/// the faces of unsure stickers photographed again, up to `[vision] recaptures` times before the
/// run is refused.
pub(crate) async fn classify<K: CubeKind>(
    ctx: &mut RunContext,
    kind: &K,
    attempt: u32,
    mut photos: Vec<FacePhoto>,
) -> Result<K::Seen, RunError> {
    let retake = ctx.rig.camera_retake;
    let mut rounds = match retake {
        Retake::Exposure => Rounds::new(ctx.settings.recaptures),
        Retake::NextFrame => Rounds::at_normal_exposure(ctx.settings.recaptures),
        Retake::SamePhoto => Rounds::new(0),
    };
    loop {
        let phase = Phase::begin("classify", attempt);
        let read = read_and_classify(ctx, kind, attempt, &photos);
        phase.end(ctx);
        let (readings, result) = match read {
            Ok(pair) => pair,
            Err(error) if rounds.again_after_unreadable() => {
                ctx.board.say(format!(
                    "{}: {}; photographing again",
                    doing(ctx.verifying),
                    error_chain(&error)
                ));
                crate::metrics::recaptured();
                photos = capture_scan(ctx, attempt, &Face::ALL).await?;
                continue;
            }
            Err(error) => return Err(refuse(ctx, attempt, None, RunError::Unreadable(error))),
        };
        let unsure = match result {
            Ok(cube) => {
                let bright = cube.overexposed(readings.as_ref(), &ctx.rig.palette);
                let Some((again, why)) =
                    overexposed_again(ctx, &mut rounds, &readings, &bright, K::PER_FACE)
                else {
                    record::<K>(ctx, attempt, readings.as_ref(), &cube, None);
                    return Ok(cube);
                };
                record::<K>(ctx, attempt, readings.as_ref(), &cube, Some(&why));
                photos = photograph_again(ctx, attempt, (&again, &why), photos).await?;
                continue;
            }
            Err(Unsure {
                stickers,
                doubt,
                best_guess,
                ..
            }) => {
                record::<K>(ctx, attempt, readings.as_ref(), &best_guess, Some("unsure"));
                (stickers, doubt, best_guess)
            }
        };
        let (unsure, doubt, best_guess) = unsure;
        let stickers = cubed_core::cube::sticker_names(&unsure, K::PER_FACE);
        // Faces the light washed out are taken again darker, in doubt or not.
        let washed = best_guess.washed_out();
        let washed_out = faces_of(washed, K::PER_FACE);
        let doubtful = (unsure.as_slice(), washed);
        let Some(again) =
            rounds.again_after_doubt_in_light(readings.as_ref(), doubtful, K::PER_FACE)
        else {
            let rounds = rounds.done();
            let options = ClassifyOptions {
                min_confidence: ctx.settings.min_confidence,
                ..ClassifyOptions::default()
            };
            let error = RunError::Unsure {
                stickers,
                turned: kind.turned(&readings, &ctx.rig.palette, &options),
                rounds,
                doubt,
                light: step_for(readings.as_ref(), &unsure),
                retake,
                washed_out,
            };
            // The record keeps the best guess beside the reason it was not given.
            crate::metrics::vision_refused();
            let reason = error_chain(&error);
            record::<K>(ctx, attempt, readings.as_ref(), &best_guess, Some(&reason));
            return Err(error);
        };
        let why = match washed_out.as_slice() {
            [] => format!("unsure of {stickers}"),
            faces => format!(
                "unsure of {stickers} ({doubt}); {} washed out by the light",
                face_letters(faces)
            ),
        };
        photos = photograph_again(ctx, attempt, (&again, &why), photos).await?;
    }
}

/// Photographs the faces of `again` once more (saying `why` and how), in place of their photos.
async fn photograph_again(
    ctx: &mut RunContext,
    attempt: u32,
    (again, why): (&[(Face, Exposure)], &str),
    mut photos: Vec<FacePhoto>,
) -> Result<Vec<FacePhoto>, RunError> {
    crate::metrics::recaptured();
    ctx.board.say(format!(
        "{}: {why}; photographing again: {}",
        doing(ctx.verifying),
        faces_and_exposures(again)
    ));
    let faces: Vec<Face> = again.iter().map(|&(face, _)| face).collect();
    let retaken = capture_scan_at(ctx, attempt, again).await?;
    photos.retain(|p| !faces.contains(&p.face));
    photos.extend(retaken);
    Ok(photos)
}

/// The faces of a cube read surely to photograph again because its `bright` stickers were too
/// bright to tell apart, with why; `None` (said, when there were such stickers) when no round
/// is left or the camera cannot take another photo: the sure reading stands.
fn overexposed_again(
    ctx: &RunContext,
    rounds: &mut Rounds,
    readings: &impl AsRef<[Rgb]>,
    bright: &[usize],
    per_face: usize,
) -> Option<(Vec<(Face, Exposure)>, String)> {
    if bright.is_empty() {
        return None;
    }
    let why = overexposed_words(bright, per_face);
    let doubtful = (&[][..], bright);
    if let Some(again) = rounds.again_after_doubt_in_light(readings.as_ref(), doubtful, per_face) {
        return Some((again, why));
    }
    let left = match ctx.rig.camera_retake {
        Retake::SamePhoto => "these photos cannot be taken again".to_string(),
        _ => format!(
            "still after {} re-capture(s) (dim the lamp or lower `[camera] exposure`)",
            rounds.done()
        ),
    };
    ctx.board.say(format!(
        "{}: {why}; {left}: going on with the sure reading, which the verify scan checks",
        doing(ctx.verifying)
    ));
    None
}

/// Why a cube read surely is photographed again: its `stickers` were too bright to tell apart.
fn overexposed_words(stickers: &[usize], per_face: usize) -> String {
    format!(
        "{} were too bright to be sure of: what tells their colours apart came out near full scale ({ROLL_OFF_CODE} or over) in both",
        cubed_core::cube::sticker_names(stickers, per_face)
    )
}

fn state_of(verifying: bool) -> DaemonState {
    if verifying {
        DaemonState::Verifying
    } else {
        DaemonState::Scanning
    }
}

/// Where each photo's stickers were found (`grids`, URFDLB, as sampled), for the page to draw
/// what was read over them, now and in the history.
fn show_grids(ctx: &RunContext, attempt: u32, photos: &[FacePhoto], grids: &[FaceGrid]) {
    let boxes: Vec<(char, [f32; 4])> = (Face::ALL.iter().zip(grids))
        .filter_map(|(&face, grid)| {
            let photo = photos.iter().find(|p| p.face == face)?;
            // Shown as `upright` turns it: `image_rotation` quarter turns anticlockwise.
            let turns = photo.image_rotation;
            Some((face.letter(), grid.box_in(photo.image.dimensions(), turns)))
        })
        .collect();
    ctx.board.update(|s| {
        for doc in s.photos.iter_mut().filter(|p| p.attempt == attempt) {
            doc.grid = boxes.iter().find(|(f, _)| *f == doc.face).map(|&(_, b)| b);
        }
    });
    for &(face, grid) in &boxes {
        ctx.note(ctx.history.record_grid(ctx.run, attempt, face, grid));
    }
}

/// Records a refused scan with its reason and returns the error.
fn refuse(ctx: &RunContext, attempt: u32, readings: Option<&[Rgb]>, error: RunError) -> RunError {
    crate::metrics::vision_refused();
    let reason = error_chain(&error);
    let recorded = (ctx.history).record_scan(ctx.run, attempt, readings, None, &[], Some(&reason));
    ctx.note(recorded);
    error
}

type Read<K> = (
    <K as CubeKind>::Readings,
    Result<<K as CubeKind>::Seen, Unsure<<K as CubeKind>::Seen>>,
);

fn read_and_classify<K: CubeKind>(
    ctx: &RunContext,
    kind: &K,
    attempt: u32,
    photos: &[FacePhoto],
) -> Result<Read<K>, ScanError> {
    // A camera takes a clipped face again darker; photos that cannot be taken again are
    // read from the rims of their clipped stickers.
    let sampling = match ctx.rig.camera_retake {
        Retake::Exposure => SampleOptions::default(),
        Retake::NextFrame | Retake::SamePhoto => SampleOptions::for_kept_photos(),
    };
    let (readings, grids) = kind.read(photos, (&ctx.rig.grid, &sampling))?;
    show_grids(ctx, attempt, photos, &grids);
    let options = ClassifyOptions {
        min_confidence: ctx.settings.min_confidence,
        ..ClassifyOptions::default()
    };
    let (readings, settled) = kind.settle(
        readings,
        (&grids, &ctx.rig.grid),
        &ctx.rig.palette,
        &options,
    );
    if let Some(words) = settled {
        ctx.board.say(words);
    }
    let result = kind.classify(&readings, &ctx.rig.palette, &options);
    Ok((readings, result))
}

/// Records the scan (`error`: why it is not taken) and shows each photo's stickers on the page.
fn record<K: CubeKind>(
    ctx: &RunContext,
    attempt: u32,
    readings: &[Rgb],
    cube: &K::Seen,
    error: Option<&str>,
) {
    let symbols: Vec<char> = cube.symbols().chars().collect();
    let confidence = cube.confidence();
    let recorded = ctx.history.record_scan(
        ctx.run,
        attempt,
        Some(readings),
        Some(&cube.symbols()),
        &confidence,
        error,
    );
    ctx.note(recorded);
    let n = K::PER_FACE;
    ctx.board.update(|s| {
        for photo in s.photos.iter_mut().filter(|p| p.attempt == attempt) {
            let f = Face::from_letter(photo.face).map_or(0, Face::index);
            photo.stickers = (f * n..f * n + n)
                .map(|i| StickerDoc {
                    symbol: symbols.get(i).copied().unwrap_or('?'),
                    rgb: readings.get(i).map(|&r| hex(r)).unwrap_or_default(),
                    confidence: confidence.get(i).copied().unwrap_or(0.0),
                })
                .collect();
        }
        s.facelets = Some(cube.symbols());
        s.facelets_guessed = error.is_some();
    });
}

/// "U, R 1 stop darker; F as before": the faces to take again, grouped by their exposures.
fn faces_and_exposures(again: &[(Face, Exposure)]) -> String {
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
