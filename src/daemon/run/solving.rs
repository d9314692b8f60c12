//! The solve and plan stages of a run: the fastest solution for this robot from the cube as read (on a worker thread, ended at once by a stop), and its gripper program as firmware commands with what is true after each step (`Executable`, what the execute stage streams).

use crate::daemon::board::StatusBoard;
use crate::daemon::docs::DaemonState;
use crate::daemon::rig::Rig;
use crate::daemon::run::abort::AbortFlag;
use crate::daemon::run::cube_kind::CubeKind;
use crate::daemon::run::error::RunError;
use crate::robot::{EncodedProgram, PhysicsState, Plan, RobotState};
use cubed_core::solver::{Budget, Cancel};

/// A plan ready to stream: its firmware commands and what is true after each of its steps.
pub(crate) struct Executable {
    pub plan: Plan,
    pub encoded: EncodedProgram,
    pub after: Vec<AfterStep>,
}

/// The cube, the robot's pose, the face turns made and the planned time after one step.
pub(crate) struct AfterStep {
    pub facelets: String,
    pub pose: RobotState,
    pub turns: usize,
    pub ms: u64,
}

impl Executable {
    pub(crate) fn total_turns(&self) -> usize {
        self.after.last().map_or(0, |a| a.turns)
    }

    pub(crate) fn total_ms(&self) -> u64 {
        self.after.last().map_or(0, |a| a.ms)
    }
}

/// Solve: the fastest solution for this robot (for a 3x3 a robot-aware choice among short
/// solutions, for a 2x2 among optimal ones), searched within `budget` from the robot's pose.
pub(crate) async fn solve<K: CubeKind>(
    kind: &K,
    seen: &K::Seen,
    rig: &Rig,
    (board, abort): (&StatusBoard, &AbortFlag),
    budget: Budget,
) -> Result<Plan, RunError> {
    board.set(DaemonState::Solving, K::SOLVING);
    let start = rig.robot_state.ok_or(RunError::PoseUnknown)?;
    let (planner, kind, seen) = (rig.planner.clone(), kind.clone(), seen.clone());
    let cancel = StopSolverOnDrop(Cancel::default());
    let solver_cancel = cancel.0.clone();
    let solving = tokio::task::spawn_blocking(move || {
        kind.solve(&planner, &start, &seen, budget, solver_cancel)
    });
    // A stop or an e-stop ends the run at once (nothing moves while solving); leaving
    // here in any way, the run task dropped at shutdown too, ends the solver's search.
    tokio::select! {
        joined = solving => joined.map_err(|source| RunError::Task {
            what: "solver",
            source,
        })?,
        asked = abort.raised() => Err(RunError::Aborted(asked)),
    }
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
pub(crate) fn plan_program<K: CubeKind>(
    rig: &mut Rig,
    plan: Plan,
    seen: &K::Seen,
) -> Result<Executable, RunError> {
    let mut physics = PhysicsState::new(plan.start, &K::held(seen));
    let mut after = Vec::with_capacity(plan.program.steps.len());
    let (mut turns, mut ms) = (0, 0u64);
    for (step, actions) in plan.program.steps.iter().enumerate() {
        let effect =
            physics
                .apply_step(&rig.model, actions)
                .map_err(|v| RunError::IllegalStep {
                    step,
                    why: v.explain(&rig.model),
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
    let encoded = rig.encode(&plan.program)?;
    Ok(Executable {
        plan,
        encoded,
        after,
    })
}
