//! A run of a 2x2 (`[run] cube_size = 2`): the same stages as a 3x3's (home → scan → classify → solve → plan → execute → verify, re-solving after a slipped turn), with the 2x2's reading (four stickers a face, no centres), its optimal robot-aware solve and its net of 24 stickers on the page.

use super::api::{DaemonState, StickerDoc};
use super::board::hex;
use super::context::{Phase, RunContext};
use super::execute::{execute, AfterStep, Executable};
use super::outcome::Outcome;
use super::pipeline::home;
use super::run_error::RunError;
use super::scanning::{capture_scan, scan};
use crate::cube::Face;
use crate::error_chain::error_chain;
use crate::pocket::stickers::{PocketSticker, STICKERS};
use crate::pocket::{Metric, PocketSolver};
use crate::robot::pocket_plan::{solve_pocket_for_robot, PocketAwareOptions};
use crate::robot::{AwareError, PhysicsState, Plan};
use crate::vision::classify::ClassifyOptions;
use crate::vision::colour::Rgb;
use crate::vision::pocket_classify::{classify_pocket, PocketClassification, PocketClassifyError};
use crate::vision::pocket_sample::read_pocket_photos;
use crate::vision::sample::SampleOptions;
use crate::vision::scan::{FacePhoto, ScanError};
use std::sync::Arc;

/// The stages of a 2x2 run.
pub(super) async fn stages(
    ctx: &mut RunContext,
    solver: Arc<PocketSolver>,
    first: u32,
) -> Result<Outcome, RunError> {
    home(ctx).await?;
    ctx.board.say("the cube is a 2x2 ([run] cube_size = 2)");
    let photos = scan(ctx, first, &Face::ALL).await?;
    let mut seen = classify(ctx, first, photos).await?;
    let mut moves = 0;
    if seen.facelets.is_solved() {
        return Ok(match first {
            0 => Outcome::AlreadySolved,
            _ => Outcome::Solved { moves },
        });
    }
    for attempt in first + 1..=first + ctx.settings.max_solves {
        ctx.abort.check()?;
        let plan = solve(ctx, &solver, &seen, attempt).await?;
        let executable = plan_program(ctx, plan, &seen)?;
        moves += execute(ctx, &executable, attempt).await?;
        let photos = scan(ctx, attempt, &Face::ALL).await?;
        seen = classify(ctx, attempt, photos).await?;
        if seen.facelets.is_solved() {
            return Ok(Outcome::Solved { moves });
        }
        ctx.board.log(format!(
            "run {}: the 2x2 is not solved after solve {attempt} (a slipped turn?); solving again from what the camera sees",
            ctx.run
        ));
    }
    Err(RunError::NotSolved {
        solves: ctx.settings.max_solves,
    })
}

/// Solve: an optimal solution performed as quickly as this robot can.
async fn solve(
    ctx: &mut RunContext,
    solver: &Arc<PocketSolver>,
    seen: &PocketClassification,
    attempt: u32,
) -> Result<Plan, RunError> {
    ctx.board.set(
        DaemonState::Solving,
        "solving the 2x2: the fastest optimal solution for this robot",
    );
    let phase = Phase::begin("solve", attempt);
    let start = ctx.rig.robot_state.ok_or(RunError::PoseUnknown)?;
    let (planner, solver, facelets) = (ctx.rig.planner.clone(), Arc::clone(solver), seen.facelets);
    let options = PocketAwareOptions {
        metric: Metric::Htm,
        budget: ctx.settings.solve_budget,
        ..PocketAwareOptions::default()
    };
    let plan = tokio::task::spawn_blocking(move || {
        solve_pocket_for_robot(&planner, &solver, &start, &facelets, &options)
    })
    .await
    .map_err(|source| RunError::Task {
        what: "solver",
        source,
    })?
    .map_err(|e| RunError::Solve(AwareError::Plan(e)))?;
    phase.end(ctx);
    Ok(plan)
}

/// Plan: the program as firmware commands, with the 2x2 (riding in a 3x3's corners, as the
/// planner plans it), pose, turns and planned time after each step.
fn plan_program(
    ctx: &mut RunContext,
    plan: Plan,
    seen: &PocketClassification,
) -> Result<Executable, RunError> {
    let mut physics = PhysicsState::new(plan.start, &seen.facelets.to_3x3());
    let mut after = Vec::with_capacity(plan.program.steps.len());
    let (mut turns, mut ms) = (0, 0u64);
    for (step, actions) in plan.program.steps.iter().enumerate() {
        let effect =
            (physics.apply_step(&ctx.rig.model, actions)).map_err(|v| RunError::IllegalStep {
                step,
                why: v.explain(&ctx.rig.model),
            })?;
        turns += effect.turns.len();
        ms += u64::from(effect.ms);
        let corners = crate::pocket::PocketFacelets::from_3x3(&physics.cube_frame());
        after.push(AfterStep {
            facelets: corners.to_symbols(&seen.scheme),
            pose: physics.robot,
            turns,
            ms,
        });
    }
    let encoded = ctx.rig.encode(&plan.program)?;
    Ok(Executable {
        plan,
        encoded,
        after,
    })
}

/// Classify: reads the 2x2; unreadable photos are all taken again and the faces of unsure
/// stickers photographed again, up to `[vision] recaptures` times before the run is refused.
async fn classify(
    ctx: &mut RunContext,
    attempt: u32,
    mut photos: Vec<FacePhoto>,
) -> Result<PocketClassification, RunError> {
    let mut rounds = 0;
    loop {
        let phase = Phase::begin("classify", attempt);
        let read = read_and_classify(ctx, &photos);
        phase.end(ctx);
        let (readings, result) = match read {
            Ok(pair) => pair,
            Err(error) if rounds < ctx.settings.recaptures => {
                ctx.board.say(format!(
                    "{}; photographing the 2x2 again",
                    error_chain(&error)
                ));
                rounds += 1;
                photos = capture_scan(ctx, attempt, &Face::ALL).await?;
                continue;
            }
            Err(error) => return Err(refuse(ctx, attempt, None, RunError::Unreadable(error))),
        };
        let unsure = match result {
            Ok(cube) => {
                record(ctx, attempt, &readings, &cube, None);
                return Ok(cube);
            }
            Err(PocketClassifyError::Unsure {
                stickers,
                best_guess,
                ..
            }) => {
                record(ctx, attempt, &readings, &best_guess, Some("unsure"));
                stickers
            }
        };
        let stickers = sticker_names(&unsure);
        if rounds >= ctx.settings.recaptures {
            let error = RunError::Unsure { stickers, rounds };
            return Err(refuse(ctx, attempt, Some(&readings), error));
        }
        rounds += 1;
        let faces = faces_of(&unsure);
        ctx.board.say(format!(
            "unsure of {stickers} of the 2x2; photographing those faces again"
        ));
        let again = capture_scan(ctx, attempt, &faces).await?;
        photos.retain(|p| !faces.contains(&p.face));
        photos.extend(again);
    }
}

type Read = (
    [Rgb; STICKERS],
    Result<PocketClassification, PocketClassifyError>,
);

fn read_and_classify(ctx: &RunContext, photos: &[FacePhoto]) -> Result<Read, ScanError> {
    let readings = read_pocket_photos(photos, &ctx.rig.grid, &SampleOptions::default())?;
    let options = ClassifyOptions {
        min_confidence: ctx.settings.min_confidence,
        ..ClassifyOptions::default()
    };
    let result = classify_pocket(&readings, &ctx.rig.palette, &options);
    Ok((readings, result))
}

/// Records a refused scan with its reason and returns the error.
fn refuse(
    ctx: &RunContext,
    attempt: u32,
    readings: Option<&[Rgb; STICKERS]>,
    error: RunError,
) -> RunError {
    let reason = error_chain(&error);
    let readings = readings.map(|r| &r[..]);
    let recorded = (ctx.history).record_scan(ctx.run, attempt, readings, None, &[], Some(&reason));
    ctx.note(recorded);
    error
}

/// The confidence shown for a sticker with no legal alternative colour (JSON has no infinity).
const CERTAIN: f32 = 99.0;

/// Records the scan and shows each photo's four stickers and the 24-sticker net on the page.
fn record(
    ctx: &RunContext,
    attempt: u32,
    readings: &[Rgb; STICKERS],
    cube: &PocketClassification,
    error: Option<&str>,
) {
    let symbols: Vec<char> = cube.symbols().chars().collect();
    let confidence: Vec<f32> = cube.confidence.iter().map(|c| c.min(CERTAIN)).collect();
    let recorded = ctx.history.record_scan(
        ctx.run,
        attempt,
        Some(&readings[..]),
        Some(&cube.symbols()),
        &confidence,
        error,
    );
    ctx.note(recorded);
    ctx.board.update(|s| {
        for photo in s.photos.iter_mut().filter(|p| p.attempt == attempt) {
            let f = (Face::ALL.iter())
                .position(|x| x.letter() == photo.face)
                .unwrap_or(0);
            photo.stickers = (f * 4..f * 4 + 4)
                .map(|i| StickerDoc {
                    symbol: symbols.get(i).copied().unwrap_or('?'),
                    rgb: hex(readings[i]),
                    confidence: confidence[i],
                })
                .collect();
        }
        s.facelets = Some(cube.symbols());
    });
}

/// "F3, R1" for 2x2 sticker indices (face letter, 1-based position in the face).
fn sticker_names(stickers: &[usize]) -> String {
    let names: Vec<String> = (stickers.iter())
        .map(|&s| {
            let sticker = PocketSticker(s);
            format!("{}{}", sticker.face().letter(), s % 4 + 1)
        })
        .collect();
    names.join(", ")
}

fn faces_of(stickers: &[usize]) -> Vec<Face> {
    let mut faces: Vec<Face> = stickers.iter().map(|&s| PocketSticker(s).face()).collect();
    faces.sort_by_key(|f| f.index());
    faces.dedup();
    faces
}
