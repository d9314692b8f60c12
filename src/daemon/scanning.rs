//! The scan and classify stages of a run: the robot shows each face to the camera (the planner's scan program), the photos are saved and read as the run's `CubeKind` (a 3x3 or a 2x2), unsure faces are photographed again, and the classified cube is recorded or refused with the reason.

use super::api::{DaemonState, PhotoDoc, StickerDoc};
use super::board::hex;
use super::context::{show_link_event, Phase, RunContext};
use super::cube_kind::{CubeKind, Unsure};
use super::run_error::RunError;
use crate::cube::Face;
use crate::error_chain::error_chain;
use crate::robot::{Action, PhysicsState, RobotState};
use crate::robot::{EncodedProgram, MotionGroup};
use crate::vision::camera::{CameraError, CaptureRequest, Exposure};
use crate::vision::classify::ClassifyOptions;
use crate::vision::colour::Rgb;
use crate::vision::scan::{FacePhoto, ScanError};
use std::sync::Arc;

/// Scan: the robot shows each face to the camera; `attempt` 0 is the first scan, later ones
/// verify. Returns the six photos.
pub(crate) async fn scan(
    ctx: &mut RunContext,
    attempt: u32,
    faces: &[Face],
) -> Result<Vec<FacePhoto>, RunError> {
    ctx.board.set(
        state_of(attempt),
        format!("{}: photographing the six faces", doing(attempt)),
    );
    ctx.board
        .update(|s| s.photos.retain(|p| p.attempt != attempt));
    capture_scan(ctx, attempt, faces).await
}

/// Classify: reads the photos as a cube of `kind`; unreadable photos are all taken again, and
/// the faces of unsure stickers photographed again, up to `[run] recaptures` times before the
/// run is refused.
pub(super) async fn classify<K: CubeKind>(
    ctx: &mut RunContext,
    kind: &K,
    attempt: u32,
    mut photos: Vec<FacePhoto>,
) -> Result<K::Seen, RunError> {
    let mut rounds = 0;
    loop {
        let phase = Phase::begin("classify", attempt);
        let read = read_and_classify(ctx, kind, &photos);
        phase.end(ctx);
        let (readings, result) = match read {
            Ok(pair) => pair,
            Err(error) if rounds < ctx.settings.recaptures => {
                ctx.board.say(format!(
                    "{}: {}; photographing again",
                    doing(attempt),
                    error_chain(&error)
                ));
                rounds += 1;
                super::metrics::recaptured();
                photos = capture_scan(ctx, attempt, &Face::ALL).await?;
                continue;
            }
            Err(error) => return Err(refuse(ctx, attempt, None, RunError::Unreadable(error))),
        };
        let unsure = match result {
            Ok(cube) => {
                record::<K>(ctx, attempt, readings.as_ref(), &cube, None);
                return Ok(cube);
            }
            Err(Unsure {
                stickers,
                best_guess,
            }) => {
                record::<K>(ctx, attempt, readings.as_ref(), &best_guess, Some("unsure"));
                stickers
            }
        };
        let stickers = sticker_names::<K>(&unsure);
        if rounds >= ctx.settings.recaptures {
            let error = RunError::Unsure { stickers, rounds };
            return Err(refuse(ctx, attempt, Some(readings.as_ref()), error));
        }
        rounds += 1;
        super::metrics::recaptured();
        let faces = faces_of::<K>(&unsure);
        let exposure = exposure_for(readings.as_ref(), &unsure);
        ctx.board.say(format!(
            "{}: unsure of {stickers}; photographing those faces again{}",
            doing(attempt),
            match exposure {
                Exposure::Normal => String::new(),
                other => format!(", {}", other.words()),
            }
        ));
        let again = capture_scan_at(ctx, attempt, &faces, exposure).await?;
        photos.retain(|p| !faces.contains(&p.face));
        photos.extend(again);
    }
}

fn state_of(attempt: u32) -> DaemonState {
    if attempt == 0 {
        DaemonState::Scanning
    } else {
        DaemonState::Verifying
    }
}

fn doing(attempt: u32) -> &'static str {
    if attempt == 0 {
        "scanning"
    } else {
        "verifying"
    }
}

/// Records a refused scan with its reason and returns the error.
fn refuse(ctx: &RunContext, attempt: u32, readings: Option<&[Rgb]>, error: RunError) -> RunError {
    super::metrics::vision_refused();
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
    photos: &[FacePhoto],
) -> Result<Read<K>, ScanError> {
    let readings = kind.read(photos, &ctx.rig.grid)?;
    let options = ClassifyOptions {
        min_confidence: ctx.settings.min_confidence,
        ..ClassifyOptions::default()
    };
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
    let symbols: Vec<char> = K::symbols(cube).chars().collect();
    let confidence = K::confidence(cube);
    let recorded = ctx.history.record_scan(
        ctx.run,
        attempt,
        Some(readings),
        Some(&K::symbols(cube)),
        &confidence,
        error,
    );
    ctx.note(recorded);
    let n = K::PER_FACE;
    ctx.board.update(|s| {
        for photo in s.photos.iter_mut().filter(|p| p.attempt == attempt) {
            let f = (Face::ALL.iter())
                .position(|x| x.letter() == photo.face)
                .unwrap_or(0);
            photo.stickers = (f * n..f * n + n)
                .map(|i| StickerDoc {
                    symbol: symbols.get(i).copied().unwrap_or('?'),
                    rgb: readings.get(i).map(|&r| hex(r)).unwrap_or_default(),
                    confidence: confidence.get(i).copied().unwrap_or(0.0),
                })
                .collect();
        }
        s.facelets = Some(K::symbols(cube));
    });
}

/// The photo turned so the face is drawn as in the net (what the page overlays the stickers on).
fn upright(image: &image::RgbImage, image_rotation: u8) -> image::RgbImage {
    use image::imageops::{rotate180, rotate270, rotate90};
    match image_rotation % 4 {
        1 => rotate270(image),
        2 => rotate180(image),
        3 => rotate90(image),
        _ => image.clone(),
    }
}

/// "F3, R7" for sticker indices (face letter, 1-based position in the face's net order).
fn sticker_names<K: CubeKind>(stickers: &[usize]) -> String {
    (stickers.iter())
        .map(|&s| format!("{}{}", K::face_of(s).letter(), s % K::PER_FACE + 1))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The exposure to photograph the doubtful `stickers` again at: darker when they came out
/// near clipping (the brightest channel at 230 of 255 or more on average), brighter when
/// near black (at most 40), otherwise the same exposure (another photo, another view).
fn exposure_for(readings: &[Rgb], stickers: &[usize]) -> Exposure {
    let brightest: Vec<f32> = stickers
        .iter()
        .filter_map(|&s| readings.get(s))
        .map(|rgb| f32::from(rgb.iter().copied().max().unwrap_or(0)))
        .collect();
    if brightest.is_empty() {
        return Exposure::Normal;
    }
    let mean = brightest.iter().sum::<f32>() / brightest.len() as f32;
    if mean >= 230.0 {
        Exposure::Darker
    } else if mean <= 40.0 {
        Exposure::Brighter
    } else {
        Exposure::Normal
    }
}

fn faces_of<K: CubeKind>(stickers: &[usize]) -> Vec<Face> {
    let mut faces: Vec<Face> = stickers.iter().map(|&s| K::face_of(s)).collect();
    faces.sort_by_key(|f| f.index());
    faces.dedup();
    faces
}

/// Runs the scan program from the robot's pose and photographs `wanted` faces on the way.
pub(crate) async fn capture_scan(
    ctx: &mut RunContext,
    attempt: u32,
    wanted: &[Face],
) -> Result<Vec<FacePhoto>, RunError> {
    capture_scan_at(ctx, attempt, wanted, Exposure::Normal).await
}

/// `capture_scan` with the photos taken at `exposure`.
async fn capture_scan_at(
    ctx: &mut RunContext,
    attempt: u32,
    wanted: &[Face],
    exposure: Exposure,
) -> Result<Vec<FacePhoto>, RunError> {
    ctx.abort.check()?;
    let phase = Phase::begin("scan", attempt);
    let start = ctx.rig.robot_state.ok_or(RunError::PoseUnknown)?;
    let plan = ctx
        .rig
        .planner
        .plan_scan(&start)
        .map_err(RunError::PlanScan)?;
    let encoded = ctx.rig.encode(&plan.program)?;
    let (poses, motion_ms) = robot_poses(ctx, &start, &plan.program)?;
    ctx.rig.plan_motion(motion_ms);
    let mut photos = Vec::new();
    let mut sent = 0;
    for (index, step) in plan.program.steps.iter().enumerate() {
        let captures: Vec<CaptureRequest> =
            step.actions.iter().filter_map(capture_request).collect();
        if captures.is_empty() {
            continue;
        }
        let upto = encoded
            .groups
            .iter()
            .take_while(|(s, _)| *s < index)
            .count();
        move_robot(ctx, &encoded, sent..upto, &poses).await?;
        sent = upto;
        for mut request in captures.into_iter().filter(|r| wanted.contains(&r.face)) {
            request.exposure = exposure;
            photos.push(take_photo(ctx, attempt, request).await?);
        }
    }
    move_robot(ctx, &encoded, sent..encoded.groups.len(), &poses).await?;
    ctx.rig.robot_state = Some(plan.end);
    phase.end(ctx);
    Ok(photos)
}

fn capture_request(action: &Action) -> Option<CaptureRequest> {
    match *action {
        Action::Capture {
            camera,
            face,
            image_rotation,
        } => Some(CaptureRequest {
            camera,
            face,
            image_rotation,
            exposure: Exposure::Normal,
        }),
        _ => None,
    }
}

/// The robot's pose after each step of `program` (the cube does not matter for the pose),
/// and the planned time of its motions (photos excluded).
pub(crate) fn robot_poses(
    ctx: &RunContext,
    start: &RobotState,
    program: &crate::robot::Program,
) -> Result<(Vec<RobotState>, u64), RunError> {
    let mut physics = PhysicsState::new(*start, &Default::default());
    let mut motion_ms = 0;
    let mut poses = Vec::new();
    for (i, step) in program.steps.iter().enumerate() {
        let effect =
            physics
                .apply_step(&ctx.rig.model, step)
                .map_err(|v| RunError::IllegalStep {
                    step: i,
                    why: v.explain(&ctx.rig.model),
                })?;
        if effect.captures.is_empty() {
            motion_ms += u64::from(effect.ms);
        }
        poses.push(physics.robot);
    }
    Ok((poses, motion_ms))
}

/// Streams scan motions; a stop keeps the pose of the last step done.
async fn move_robot(
    ctx: &mut RunContext,
    encoded: &EncodedProgram,
    range: std::ops::Range<usize>,
    poses: &[RobotState],
) -> Result<(), RunError> {
    let groups: Vec<MotionGroup> = encoded.groups[range.clone()]
        .iter()
        .map(|(_, g)| *g)
        .collect();
    if groups.is_empty() {
        return Ok(());
    }
    let abort = Arc::clone(&ctx.abort);
    let (board, resume) = (ctx.board.clone(), ctx.board.now().state);
    let mut done = 0;
    let result = ctx
        .rig
        .stream(&groups, &move || abort.requested().is_some(), |d, event| {
            done = d;
            show_link_event(&board, event, resume);
        })
        .await;
    let ran = range.start + done;
    ctx.rig.advance(encoded, ran);
    if let Some((step, _)) = ran.checked_sub(1).and_then(|i| encoded.groups.get(i)) {
        if ctx.rig.robot_state.is_some() {
            ctx.rig.robot_state = poses.get(*step).copied();
        }
    }
    result
        .map(|_| ())
        .map_err(|e| RunError::from_stream(e, "scanning", &ctx.abort, |f| ctx.rig.fault_words(f)))
}

async fn take_photo(
    ctx: &mut RunContext,
    attempt: u32,
    request: CaptureRequest,
) -> Result<FacePhoto, RunError> {
    let camera = Arc::clone(&ctx.rig.camera);
    let shot = tokio::task::spawn_blocking(move || {
        let mut camera = camera
            .lock()
            .map_err(|_| CameraError::Backend("the camera's lock was poisoned".into()))?;
        camera.capture(&request)
    })
    .await
    .map_err(|source| RunError::Task {
        what: "camera",
        source,
    })?;
    let image = shot.map_err(|source| RunError::Photo {
        face: request.face,
        source,
    })?;
    let upright = upright(&image, request.image_rotation);
    let url = ctx.note(
        ctx.history
            .save_image(ctx.run, attempt, request.face.letter(), &upright),
    );
    let face = request.face.letter();
    ctx.board.update(|s| {
        s.photos
            .retain(|p| !(p.attempt == attempt && p.face == face));
        s.photos.push(PhotoDoc {
            face,
            attempt,
            url: url.unwrap_or_default(),
            stickers: Vec::new(),
        });
    });
    Ok(FacePhoto {
        face: request.face,
        image_rotation: request.image_rotation,
        image,
    })
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
        assert_eq!(exposure_for(&readings, &[4, 13]), Exposure::Darker);
        assert_eq!(exposure_for(&readings, &[20, 21]), Exposure::Brighter);
        assert_eq!(exposure_for(&readings, &[0, 4]), Exposure::Normal);
        assert_eq!(exposure_for(&readings, &[]), Exposure::Normal);
        assert_eq!(
            exposure_for(&readings, &[99]),
            Exposure::Normal,
            "out of range"
        );
    }
}
