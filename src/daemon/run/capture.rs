//! Photographing during a run: the robot runs the planner's scan program from its pose and the camera takes each wanted face on the way, at the exposure asked for; each photo is saved to the history and shown on the page, drawn as in the net.

use crate::daemon::docs::PhotoDoc;
use crate::daemon::run::context::RunContext;
use crate::daemon::run::error::RunError;
use crate::daemon::run::link_news::LinkNews;
use crate::robot::{Action, PhysicsState, RobotState};
use crate::robot::{EncodedProgram, MotionGroup};
use cubed_core::cube::Face;
use cubed_vision::camera::{CameraError, CaptureRequest, Exposure};
use cubed_vision::scan::FacePhoto;
use std::sync::Arc;

/// `faces`, each to be photographed at the camera's normal exposure.
pub(crate) fn at_normal_exposure(faces: &[Face]) -> Vec<(Face, Exposure)> {
    faces.iter().map(|&f| (f, Exposure::NORMAL)).collect()
}

/// Runs the scan program from the robot's pose and photographs the `wanted` faces on the way,
/// each at its exposure, for `purpose`; each photo is saved to the history and shown as it is
/// taken (a scan stopped midway keeps the photos it took).
pub(crate) async fn capture_scan(
    ctx: &mut RunContext,
    (attempt, purpose): (u32, Purpose),
    wanted: &[(Face, Exposure)],
) -> Result<Vec<FacePhoto>, RunError> {
    ctx.abort.check()?;
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
        move_robot(ctx, &encoded, (sent..upto, purpose), &poses)
            .await
            .map_err(|e| e.in_faces(photos.len(), wanted.len()))?;
        sent = upto;
        for mut request in captures {
            let Some(&(_, exposure)) = wanted.iter().find(|(f, _)| *f == request.face) else {
                continue;
            };
            request.exposure = exposure;
            photos.push(take_photo(ctx, (attempt, purpose), request).await?);
        }
    }
    move_robot(ctx, &encoded, (sent..encoded.groups.len(), purpose), &poses)
        .await
        .map_err(|e| e.in_faces(photos.len(), wanted.len()))?;
    ctx.rig.robot_state = Some(plan.end);
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
            exposure: Exposure::NORMAL,
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
    (range, purpose): (std::ops::Range<usize>, Purpose),
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
    let news = LinkNews::new(ctx, ctx.board.now().state);
    let mut done = 0;
    let stop = move || abort.requested().is_some();
    let result = ctx
        .rig
        .stream(&groups, (&stop, ctx.abort.emergency()), |d, event| {
            done = d;
            news.show(event);
        })
        .await;
    let ran = range.start + done;
    ctx.rig.advance(encoded, ran);
    if let Some((step, _)) = ran.checked_sub(1).and_then(|i| encoded.groups.get(i)) {
        if ctx.rig.robot_state.is_some() {
            ctx.rig.robot_state = poses.get(*step).copied();
        }
    }
    result.map(|_| ()).map_err(|e| {
        RunError::from_stream(e, purpose.doing(), &ctx.abort, |f| ctx.rig.fault_words(f))
    })
}

async fn take_photo(
    ctx: &mut RunContext,
    (attempt, purpose): (u32, Purpose),
    mut request: CaptureRequest,
) -> Result<FacePhoto, RunError> {
    if ctx.rig.camera_upright {
        // Files named after faces are drawn as in the net: the robot's turn does not apply.
        request.image_rotation = 0;
    }
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
    let upright = crate::vision::scan::photo::upright(&image, request.image_rotation);
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
            grid: None,
            check: purpose == Purpose::Verifying,
        });
        // Shown by scan, then in URFDLB order, whatever order the robot showed the faces in.
        s.photos
            .sort_by_key(|p| (p.attempt, Face::from_letter(p.face).map(Face::index)));
    });
    Ok(FacePhoto {
        face: request.face,
        image_rotation: request.image_rotation,
        image,
    })
}

/// What the camera's photos are for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Purpose {
    /// Finding the cube's state (before a solve, after a resume, or to calibrate).
    Scanning,
    /// Checking a solve the robot has just done.
    Verifying,
}

impl Purpose {
    /// The purpose in the run's words.
    pub(crate) fn doing(self) -> &'static str {
        match self {
            Purpose::Scanning => "scanning",
            Purpose::Verifying => "verifying",
        }
    }

    /// The daemon's state while photographing for it.
    pub(crate) fn state(self) -> crate::daemon::docs::DaemonState {
        match self {
            Purpose::Scanning => crate::daemon::docs::DaemonState::Scanning,
            Purpose::Verifying => crate::daemon::docs::DaemonState::Verifying,
        }
    }
}
