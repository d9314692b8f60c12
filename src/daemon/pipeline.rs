//! One run, stage by stage: home → scan → classify → solve → plan → execute → verify, and if verifying finds the cube unsolved (a slipped turn), solve again from what the camera saw, up to `[run] max_solves`. After an interruption (e-stop, fault, firmware restart) the same stages run again from re-homing and a fresh scan, by themselves when nothing physical is in doubt, else when a person resumes. Each stage takes what it needs and returns what the next one needs; the stages that stream to the robot live in `scanning.rs` (scan, classify) and `execute.rs`.

use super::api::DaemonState;
use super::context::{Phase, RunContext};
use super::cube_size::RunCube;
use super::execute::{execute, AfterStep, Executable};
use super::interruption::{Interruption, MAX_AUTOMATIC};
use super::outcome::Outcome;
use super::run_error::RunError;
use super::scanning::{classify, scan};
use crate::cube::Face;
use crate::robot::{solve_for_robot, AwareOptions, PhysicsState, Plan};
use crate::vision::classify::Classification;
use std::sync::Arc;

/// Runs the whole pipeline; the outcome says how it ended.
pub(super) async fn run(ctx: &mut RunContext) -> Outcome {
    go_on(ctx, 0).await
}

/// Resumes a run after an interruption a person has seen to: re-home in the recovery plan's
/// order, rescan (the cube's state is never assumed), solve again and run to verified solved.
pub(super) async fn resume(ctx: &mut RunContext) -> Outcome {
    let first = ctx.note(ctx.history.next_attempt(ctx.run)).unwrap_or(1);
    go_on(ctx, first).await
}

/// The stages from scan `first` on; an interruption nothing physical is in doubt about (a
/// firmware restart between moves) is resumed here by itself, the others wait for a person.
async fn go_on(ctx: &mut RunContext, mut first: u32) -> Outcome {
    let mut automatic = 0;
    loop {
        let result = match ctx.settings.cube.clone() {
            RunCube::Three => stages(ctx, first).await,
            RunCube::Pocket(solver) => super::pocket_run::stages(ctx, solver, first).await,
        };
        let error = match result {
            Ok(outcome) => return outcome,
            Err(error) => error,
        };
        let words = |f: &firmware_protocol::message::Fault| ctx.rig.fault_words(f);
        let Some(interruption) = Interruption::of(&error, ctx.rig.motion_in_doubt(), &words) else {
            return error.into();
        };
        let advice = interruption.advice();
        let needs_person = interruption.needs_person() || automatic >= MAX_AUTOMATIC;
        let recorded =
            (ctx.history).record_interruption(ctx.run, interruption.cause(), &advice, needs_person);
        ctx.note(recorded);
        if automatic >= MAX_AUTOMATIC {
            return error.into();
        }
        if needs_person {
            return Outcome::Interrupted {
                interruption,
                error: Arc::new(error),
            };
        }
        automatic += 1;
        ctx.board.log(format!("run {}: {advice}", ctx.run));
        ctx.note(ctx.history.record_resumption(ctx.run, "automatic"));
        first = ctx
            .note(ctx.history.next_attempt(ctx.run))
            .unwrap_or(first + 1);
    }
}

async fn stages(ctx: &mut RunContext, first: u32) -> Result<Outcome, RunError> {
    home(ctx).await?;
    let photos = scan(ctx, first, &Face::ALL).await?;
    let mut seen = classify(ctx, first, photos).await?;
    let mut moves = 0;
    if seen.cubies.is_solved() {
        return Ok(match first {
            0 => Outcome::AlreadySolved,
            _ => Outcome::Solved { moves },
        });
    }
    for attempt in first + 1..=first + ctx.settings.max_solves {
        ctx.abort.check()?;
        let plan = solve(ctx, &seen, attempt).await?;
        let executable = plan_program(ctx, plan, &seen)?;
        moves += execute(ctx, &executable, attempt).await?;
        seen = verify(ctx, attempt).await?;
        if seen.cubies.is_solved() {
            return Ok(Outcome::Solved { moves });
        }
        ctx.board.log(format!(
            "run {}: not solved after solve {attempt} (a slipped turn?); solving again from what the camera sees",
            ctx.run
        ));
    }
    Err(RunError::NotSolved {
        solves: ctx.settings.max_solves,
    })
}

/// Home: opens the link and homes the robot if its pose is unknown.
pub(super) async fn home(ctx: &mut RunContext) -> Result<(), RunError> {
    ctx.board.set(
        DaemonState::Scanning,
        "connecting to the robot and homing it",
    );
    ctx.rig.ensure_link().await.map_err(RunError::Connect)?;
    Ok(())
}

/// Solve: the fastest solution for this robot (robot-aware choice among short solutions).
async fn solve(
    ctx: &mut RunContext,
    seen: &Classification,
    attempt: u32,
) -> Result<Plan, RunError> {
    ctx.board.set(
        DaemonState::Solving,
        "solving: looking for the fastest solution for this robot",
    );
    let phase = Phase::begin("solve", attempt);
    let start = ctx.rig.robot_state.ok_or(RunError::PoseUnknown)?;
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
    .map_err(|source| RunError::Task {
        what: "solver",
        source,
    })?
    .map_err(RunError::Solve)?;
    phase.end(ctx);
    Ok(solved.plan)
}

/// Plan: the gripper program as firmware commands, with the cube, pose, turns and planned
/// time after each step (what the page shows as the moves are acknowledged).
fn plan_program(
    ctx: &mut RunContext,
    plan: Plan,
    seen: &Classification,
) -> Result<Executable, RunError> {
    let mut physics = PhysicsState::new(plan.start, &seen.facelets);
    let mut after = Vec::with_capacity(plan.program.steps.len());
    let (mut turns, mut ms) = (0, 0u64);
    for (step, actions) in plan.program.steps.iter().enumerate() {
        let effect =
            physics
                .apply_step(&ctx.rig.model, actions)
                .map_err(|v| RunError::IllegalStep {
                    step,
                    why: v.explain(&ctx.rig.model),
                })?;
        turns += effect.turns.len();
        ms += u64::from(effect.ms);
        after.push(AfterStep {
            facelets: physics.cube_frame().to_symbols(&seen.scheme),
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

/// Verify: scans again and reads the cube as it is now.
async fn verify(ctx: &mut RunContext, attempt: u32) -> Result<Classification, RunError> {
    let photos = scan(ctx, attempt, &Face::ALL).await?;
    classify(ctx, attempt, photos).await
}
