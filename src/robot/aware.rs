//! Robot-aware solving: many candidate solutions within a compute budget, each rated by a fast estimate as it is found, the best few planned in full, the cheapest program kept; and the naive baseline it must beat.

use super::candidates::AwareOptions;
use super::candidates::{collect, first_solution};
use super::model::RobotState;
use super::planner::{Plan, PlanError, Planner};
use crate::cube::{CubieCube, Turn};
use crate::solver::{Flow, SolveError, Solver};
use std::time::{Duration, Instant};

/// Why a cube could not be solved and planned.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AwareError {
    #[error(transparent)]
    Solve(#[from] SolveError),
    #[error(transparent)]
    Plan(#[from] PlanError),
}

/// A robot-aware solution and how it was found.
#[derive(Clone, Debug)]
pub struct AwareSolve {
    pub plan: Plan,
    /// Distinct candidate solutions found (the naive one included).
    pub candidates: usize,
    /// Whether the naive baseline's own program won.
    pub naive_won: bool,
    /// Time finding and rating candidates (the budget, plus the naive baseline's first solution).
    pub solving: Duration,
    /// Time planning the shortlist in full and the naive program (everything after the budget).
    pub planning: Duration,
}

/// The baseline: the solver's first solution, each face turn planned alone.
pub fn solve_naive(
    planner: &Planner,
    solver: &Solver,
    start: &RobotState,
    cube: &CubieCube,
) -> Result<Plan, AwareError> {
    let solution = first_solution(solver, cube)?;
    Ok(planner.plan_naive(start, &solution)?)
}

/// Solves `cube` for this robot: never slower than [`solve_naive`] (its
/// solution is a candidate and its program is kept when nothing beats it).
pub fn solve_for_robot(
    planner: &Planner,
    solver: &Solver,
    start: &RobotState,
    cube: &CubieCube,
    opts: &AwareOptions,
) -> Result<AwareSolve, AwareError> {
    let began = Instant::now();
    let naive = first_solution(solver, cube)?;
    let mut shortlist = Shortlist::new(opts.full_plans);
    shortlist.offer(planner, start, naive.clone())?;
    let mut failed = None;
    let found = collect(solver, cube, opts, |s| {
        match shortlist.offer(planner, start, s) {
            Ok(()) => Flow::Continue,
            Err(e) => {
                failed = Some(e);
                Flow::Stop
            }
        }
    })?;
    if let Some(e) = failed {
        return Err(e.into());
    }
    let solving = began.elapsed();
    let planning_began = Instant::now();
    let chosen = planner.choose(
        start,
        shortlist.into_solutions(),
        opts.budget.time().map(|_| opts.planning_budget),
    )?;
    let naive_plan = planner.plan_naive(start, &naive)?;
    let (plan, naive_won) = match chosen {
        Some(c) if c.plan.total_ms <= naive_plan.total_ms => (c.plan, false),
        _ => (naive_plan, true),
    };
    Ok(AwareSolve {
        plan,
        candidates: found + 1,
        naive_won,
        solving,
        planning: planning_began.elapsed(),
    })
}

/// The candidates with the lowest estimates so far, best first.
struct Shortlist {
    keep: usize,
    best: Vec<(u32, usize, Vec<Turn>)>,
}

impl Shortlist {
    fn new(keep: usize) -> Shortlist {
        Shortlist {
            keep: keep.max(1),
            best: Vec::new(),
        }
    }

    fn offer(
        &mut self,
        planner: &Planner,
        start: &RobotState,
        solution: Vec<Turn>,
    ) -> Result<(), PlanError> {
        let ms = planner.estimate(start, &solution)?;
        let entry = (ms, solution.len(), solution);
        let at = self
            .best
            .partition_point(|(m, l, _)| (*m, *l) <= (entry.0, entry.1));
        if at < self.keep {
            self.best.insert(at, entry);
            self.best.truncate(self.keep);
        }
        Ok(())
    }

    fn into_solutions(self) -> Vec<Vec<Turn>> {
        self.best.into_iter().map(|e| e.2).collect()
    }
}
