//! One run, stage by stage: home → scan → classify → solve → plan → execute → verify, and if verifying finds the cube unsolved (a slipped turn), solve again from what the camera saw, up to `[run] max_solves`. After an interruption (e-stop, fault, firmware restart) the same stages run again from re-homing and a fresh scan, by themselves when nothing physical is in doubt, else when a person resumes. Each stage takes what it needs and returns what the next one needs; the stages that stream to the robot live in `scanning.rs` (scan, classify) and `execute.rs`. One generic path serves a 3x3 and a 2x2: what differs (reading, solving, the cube's stickers) is the `CubeKind`.

use crate::daemon::cube_size::RunCube;
use crate::daemon::docs::{DaemonState, LinkDoc, LinkState};
use crate::daemon::run::context::{Phase, RunContext};
use crate::daemon::run::cube_kind::{CubeKind, Pocket, Three};
use crate::daemon::run::error::RunError;
use crate::daemon::run::execute::{execute, AfterStep, Executable};
use crate::daemon::run::interruption::Interruption;
use crate::daemon::run::outcome::Outcome;
use crate::daemon::run::scanning::{classify, scan};
use crate::robot::{PhysicsState, Plan};
use cubed_core::cube::Face;
use cubed_core::error_chain::error_chain;
use cubed_core::solver::Cancel;
use cubed_vision::read::reading::CubeReading;
use std::sync::Arc;

/// Runs the whole pipeline; the outcome says how it ended.
pub(crate) async fn run(ctx: &mut RunContext) -> Outcome {
    go_on(ctx, 0).await
}

/// Resumes a run after an interruption a person has seen to: re-home in the recovery plan's
/// order, rescan (the cube's state is never assumed), solve again and run to verified solved.
pub(crate) async fn resume(ctx: &mut RunContext) -> Outcome {
    let first = ctx.note(ctx.history.next_attempt(ctx.run)).unwrap_or(1);
    go_on(ctx, first).await
}

/// The stages from scan `first` on; an interruption nothing physical is in doubt about (a
/// firmware restart between moves) is resumed here by itself, the others wait for a person.
async fn go_on(ctx: &mut RunContext, mut first: u32) -> Outcome {
    let mut automatic = 0;
    loop {
        let result = match ctx.settings.cube.clone() {
            RunCube::Three => stages(ctx, Three(Arc::clone(&ctx.rig.solver)), first).await,
            RunCube::Pocket(solver) => stages(ctx, Pocket(solver), first).await,
        };
        let error = match result {
            Ok(Outcome::Solved { moves }) => {
                return Outcome::Solved {
                    moves: run_turns(ctx).unwrap_or(moves),
                }
            }
            Ok(outcome) => return outcome,
            Err(error) => error,
        };
        let words = |f: &firmware_protocol::message::Fault| ctx.rig.fault_words(f);
        let asked = ctx.abort.requested() == Some(crate::daemon::run::abort::Abort::EStop);
        let in_doubt = ctx.rig.motion_in_doubt();
        let Some(interruption) = Interruption::of(&error, in_doubt, asked, &words) else {
            return error.into();
        };
        let interruption = interruption.after_automatic(automatic);
        end_the_lost_link(ctx, &interruption);
        let advice = interruption.advice();
        let needs_person = interruption.needs_person();
        let recorded =
            (ctx.history).record_interruption(ctx.run, interruption.cause(), &advice, needs_person);
        ctx.note(recorded);
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

/// A firmware restart found as a lost link came back ends the link's interruption: the link
/// is back ("rebooted": to a restarted firmware, whose own interruption follows).
fn end_the_lost_link(ctx: &RunContext, interruption: &Interruption) {
    let was_lost = || {
        ctx.link_lost
            .swap(false, std::sync::atomic::Ordering::Relaxed)
    };
    if interruption.is_reboot() && was_lost() {
        ctx.note(ctx.history.record_resumption(ctx.run, "rebooted"));
    }
}

/// The face turns the run made in all, before and after any interruption, as journaled (a
/// read that fails leaves the caller's count: it is no fault of the run).
fn run_turns(ctx: &RunContext) -> Option<u32> {
    let detail = ctx.history.run(ctx.run).ok()??;
    detail.summary.moves
}

/// The stages of a run of a cube of `kind`, from scan `first` on.
async fn stages<K: CubeKind>(
    ctx: &mut RunContext,
    kind: K,
    first: u32,
) -> Result<Outcome, RunError> {
    home(ctx).await?;
    if let Some(words) = K::ANNOUNCE {
        ctx.board.say(words);
    }
    ctx.verifying = false;
    let photos = scan(ctx, first, &Face::ALL).await?;
    let mut seen = classify(ctx, &kind, first, photos).await?;
    ctx.board.log(format!(
        "run {}: read the {}: {}",
        ctx.run,
        K::NAME,
        seen.symbols()
    ));
    let mut moves = 0;
    if seen.is_solved() {
        return Ok(match first {
            0 => Outcome::AlreadySolved,
            _ => Outcome::Solved { moves },
        });
    }
    for attempt in first + 1..=first + ctx.settings.max_solves {
        ctx.abort.check()?;
        let before = seen.symbols();
        let plan = solve(ctx, &kind, &seen, attempt).await?;
        let executable = plan_program::<K>(ctx, plan, &seen)?;
        let turned = execute(ctx, &executable, attempt).await?;
        moves += turned;
        ctx.verifying = true;
        ctx.board.log(format!(
            "run {}: verifying: photographing the {} again",
            ctx.run,
            K::NAME
        ));
        let photos = scan(ctx, attempt, &Face::ALL).await?;
        seen = classify(ctx, &kind, attempt, photos).await?;
        if seen.is_solved() {
            ctx.board.log(format!(
                "run {}: the camera sees the {} solved",
                ctx.run,
                K::NAME
            ));
            return Ok(Outcome::Solved { moves });
        }
        if seen.symbols() == before {
            // No slipped turn leaves every sticker where it was: solving again would only
            // turn the real cube further from solved.
            return Err(RunError::Unchanged { turns: turned });
        }
        ctx.board.log(format!(
            "run {}: the {} is not solved after solve {attempt} (a slipped turn?); solving again from what the camera sees",
            ctx.run,
            K::NAME
        ));
    }
    Err(RunError::NotSolved {
        solves: ctx.settings.max_solves,
    })
}

/// Home: opens the link and homes the robot if its pose is unknown.
pub(crate) async fn home(ctx: &mut RunContext) -> Result<(), RunError> {
    ctx.board.set(
        DaemonState::Scanning,
        "connecting to the robot and homing it",
    );
    let news = crate::daemon::run::context::LinkNews::new(ctx, DaemonState::Scanning);
    let opened = (ctx.rig)
        .ensure_link(|event| news.show(event))
        .await
        .map(|_| ());
    ctx.board.link(match &opened {
        Ok(()) => LinkDoc::open(),
        Err(e) => LinkDoc::down(LinkState::Unreachable, error_chain(e)),
    });
    opened.map_err(RunError::Connect)
}

/// Solve: the fastest solution for this robot (for a 3x3 a robot-aware choice among short
/// solutions, for a 2x2 among optimal ones).
async fn solve<K: CubeKind>(
    ctx: &mut RunContext,
    kind: &K,
    seen: &K::Seen,
    attempt: u32,
) -> Result<Plan, RunError> {
    ctx.board.set(DaemonState::Solving, K::SOLVING);
    let phase = Phase::begin("solve", attempt);
    let start = ctx.rig.robot_state.ok_or(RunError::PoseUnknown)?;
    let (planner, kind, seen) = (ctx.rig.planner.clone(), kind.clone(), seen.clone());
    let budget = ctx.settings.solve_budget;
    let cancel = StopSolverOnDrop(Cancel::default());
    let solver_cancel = cancel.0.clone();
    let solving = tokio::task::spawn_blocking(move || {
        kind.solve(&planner, &start, &seen, budget, solver_cancel)
    });
    let abort = Arc::clone(&ctx.abort);
    // A stop or an e-stop ends the run at once (nothing moves while solving); leaving
    // here in any way, the run task dropped at shutdown too, ends the solver's search.
    let plan = tokio::select! {
        joined = solving => joined.map_err(|source| RunError::Task {
            what: "solver",
            source,
        })??,
        asked = abort.raised() => return Err(RunError::Aborted(asked)),
    };
    phase.end(ctx);
    Ok(plan)
}

/// Ends a solver search still running on its worker thread when the run stops waiting for it.
struct StopSolverOnDrop(Cancel);

impl Drop for StopSolverOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

/// Plan: the gripper program as firmware commands, with the cube, pose, turns and planned
/// time after each step (what the page shows as the moves are acknowledged).
fn plan_program<K: CubeKind>(
    ctx: &mut RunContext,
    plan: Plan,
    seen: &K::Seen,
) -> Result<Executable, RunError> {
    let mut physics = PhysicsState::new(plan.start, &K::held(seen));
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
            facelets: K::symbols_of(seen, &physics.cube_frame()),
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
