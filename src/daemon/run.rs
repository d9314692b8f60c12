//! One run end to end: scan → (already solved?) → robot-aware solve → plan → stream with progress and the journal → rescan to verify → solve again from what was seen if a turn slipped, up to the configured limit.

use super::api::{DaemonState, Progress};
use super::context::{show_link_event, stream_outcome, Phase, RunContext};
use super::outcome::Outcome;
use super::scanning::scan_cube;
use crate::cube::format_moves;
use crate::cube::{Move, Notation};
use crate::link::{LinkEvent, MotionGroup};
use crate::robot::{solve_for_robot, AwareOptions, PhysicsState, Plan, ProgramDoc, RobotState};
use crate::vision::classify::Classification;
use std::sync::Arc;
use std::time::Instant;

/// Runs the whole pipeline; the outcome says how it ended.
pub async fn run(ctx: &mut RunContext) -> Outcome {
    match run_steps(ctx).await {
        Ok(outcome) | Err(outcome) => outcome,
    }
}

async fn run_steps(ctx: &mut RunContext) -> Result<Outcome, Outcome> {
    ctx.board.set(
        DaemonState::Scanning,
        "connecting to the robot and homing it",
    );
    ctx.rig
        .ensure_link()
        .await
        .map_err(|e| Outcome::Failed(e.to_string()))?;
    let mut seen = scan_cube(ctx, 0).await?;
    if seen.cubies.is_solved() {
        return Ok(Outcome::AlreadySolved);
    }
    let mut moves = 0;
    for attempt in 1..=ctx.settings.max_solves {
        ctx.abort.check()?;
        let plan = solve(ctx, &seen, attempt).await?;
        moves += execute(ctx, &plan, &seen, attempt).await?;
        seen = scan_cube(ctx, attempt).await?;
        if seen.cubies.is_solved() {
            return Ok(Outcome::Solved { moves });
        }
        ctx.board.log(format!(
            "run {}: not solved after solve {attempt} (a slipped turn?); solving again from what the camera sees",
            ctx.run
        ));
    }
    Err(Outcome::Failed(format!(
        "still not solved after {} solve(s); see the photos of the last scan",
        ctx.settings.max_solves
    )))
}

async fn solve(ctx: &mut RunContext, seen: &Classification, attempt: u32) -> Result<Plan, Outcome> {
    ctx.board.set(
        DaemonState::Solving,
        "solving: looking for the fastest solution for this robot",
    );
    let phase = Phase::begin("solve", attempt);
    let start = ctx
        .rig
        .robot_state
        .ok_or_else(|| Outcome::Failed("the robot's pose is unknown".into()))?;
    let (planner, solver, cube) = (
        ctx.rig.planner.clone(),
        Arc::clone(&ctx.rig.solver),
        seen.cubies,
    );
    let options = AwareOptions {
        budget: ctx.settings.solve_budget,
        ..AwareOptions::default()
    };
    let solved = tokio::task::spawn_blocking(move || {
        solve_for_robot(&planner, &solver, &start, &cube, &options)
    })
    .await
    .map_err(|e| Outcome::Failed(format!("solver task: {e}")))?
    .map_err(|e| Outcome::Failed(format!("solving: {e}")))?;
    phase.end(ctx);
    Ok(solved.plan)
}

/// The cube, pose, turns and planned time after each step of a program.
struct Track {
    facelets: Vec<String>,
    poses: Vec<RobotState>,
    turns_after: Vec<usize>,
    ms_after: Vec<u64>,
}

fn track(ctx: &RunContext, plan: &Plan, seen: &Classification) -> Result<Track, Outcome> {
    let mut physics = PhysicsState::new(plan.start, &seen.facelets);
    let mut t = Track {
        facelets: Vec::new(),
        poses: Vec::new(),
        turns_after: Vec::new(),
        ms_after: Vec::new(),
    };
    let (mut turns, mut ms) = (0, 0u64);
    for (i, step) in plan.program.steps.iter().enumerate() {
        let effect = physics.apply_step(&ctx.rig.model, step).map_err(|v| {
            Outcome::Failed(format!(
                "the planned program breaks a rule at step {i}: {}",
                v.explain(&ctx.rig.model)
            ))
        })?;
        turns += effect.turns.len();
        ms += u64::from(effect.ms);
        t.facelets
            .push(physics.cube_frame().to_symbols(&seen.scheme));
        t.poses.push(physics.robot);
        t.turns_after.push(turns);
        t.ms_after.push(ms);
    }
    Ok(t)
}

/// Streams the plan with progress, journaling each acknowledged move; returns the turns made.
async fn execute(
    ctx: &mut RunContext,
    plan: &Plan,
    seen: &Classification,
    attempt: u32,
) -> Result<u32, Outcome> {
    let phase = Phase::begin("execute", attempt);
    let track = track(ctx, plan, seen)?;
    let moves: Vec<Move> = plan.solution.iter().map(|&t| Move::Turn(t)).collect();
    let text = format_moves(&moves, Notation::Singmaster).unwrap_or_default();
    let encoded = ctx.rig.encode(&plan.program).map_err(Outcome::Failed)?;
    let doc = ProgramDoc::new(
        &ctx.rig.model,
        &plan.program,
        plan.face_turns,
        plan.cube_rotations,
        text.clone(),
    );
    let program = serde_json::to_value(&doc).unwrap_or_default();
    let recorded = ctx.history.record_solution(
        ctx.run,
        attempt,
        &text,
        moves.len() as u32,
        &program,
        plan.total_ms,
    );
    ctx.note(recorded);
    let total_turns = track.turns_after.last().copied().unwrap_or(0);
    let total_ms = track.ms_after.last().copied().unwrap_or(0);
    ctx.board.update(|s| {
        s.state = DaemonState::Executing;
        s.message = format!("executing: move 0 of {total_turns}");
        s.solution = text.split_whitespace().map(str::to_string).collect();
        s.progress = Some(Progress {
            moves_done: 0,
            moves: total_turns,
            commands_done: 0,
            commands: encoded.groups.len(),
            elapsed_ms: 0,
            eta_ms: total_ms,
        });
    });
    ctx.rig.plan_motion(total_ms);
    let groups: Vec<MotionGroup> = encoded.groups.iter().map(|(_, g)| *g).collect();
    let steps: Vec<usize> = encoded.groups.iter().map(|(s, _)| *s).collect();
    let (history, board, run, abort) = (
        Arc::clone(&ctx.history),
        ctx.board.clone(),
        ctx.run,
        Arc::clone(&ctx.abort),
    );
    let began = Instant::now();
    let (mut last_step, mut ran) = (None, 0);
    let result = ctx
        .rig
        .stream(
            &groups,
            &move || abort.requested().is_some(),
            |done, event| match event {
                LinkEvent::MoveDone { move_id, .. } => {
                    if let Err(e) = history.journal_ack(run, *move_id) {
                        board.log(format!("could not journal move {move_id}: {e}"));
                    }
                    let Some(&step) = steps.get(done.wrapping_sub(1)) else {
                        return;
                    };
                    last_step = Some(step);
                    ran = done;
                    let (turns, planned) = (track.turns_after[step], track.ms_after[step]);
                    let elapsed = began.elapsed().as_millis() as u64;
                    let pace = if planned > 0 {
                        elapsed as f64 / planned as f64
                    } else {
                        1.0
                    };
                    board.update(|s| {
                        s.state = DaemonState::Executing;
                        s.message = format!("executing: move {turns} of {total_turns}");
                        s.facelets = Some(track.facelets[step].clone());
                        s.progress = Some(Progress {
                            moves_done: turns,
                            moves: total_turns,
                            commands_done: done,
                            commands: steps.len(),
                            elapsed_ms: elapsed,
                            eta_ms: ((total_ms - planned) as f64 * pace) as u64,
                        });
                    });
                }
                other => show_link_event(&board, other, DaemonState::Executing),
            },
        )
        .await;
    let turns_done = last_step.map_or(0, |s| track.turns_after[s]) as u32;
    let recorded = ctx.history.add_moves(ctx.run, turns_done);
    ctx.note(recorded);
    ctx.rig.advance(&encoded, ran);
    match result {
        Ok(_) => {
            ctx.rig.robot_state = Some(plan.end);
            phase.end(ctx);
            Ok(turns_done)
        }
        Err(e) => {
            if ctx.rig.robot_state.is_some() {
                ctx.rig.robot_state = Some(last_step.map_or(plan.start, |s| track.poses[s]));
            }
            Err(stream_outcome(e, "executing the solution", &ctx.abort))
        }
    }
}
