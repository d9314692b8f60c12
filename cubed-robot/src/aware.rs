//! Robot-aware solving: many candidate solutions within a compute budget, each rated by a fast estimate as it is found, the best few planned in full, the cheapest program kept; and the naive baseline it must beat.

use super::candidates::AwareOptions;
use super::candidates::{collect_axial, collect_in, first_solution, thread_shares, Share};
use super::model::RobotState;
use super::planner::{Plan, PlanError, Planner};
use cubed_core::cube::{CubieCube, Turn};
use cubed_core::solver::{Budget, Flow, SolveError, Solver};
use std::collections::HashSet;
use std::sync::atomic::Ordering;
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
    let reserved = reserve_for_planning(planner, opts, began.elapsed());
    let opts = &reserved;
    let mut distinct = HashSet::new();
    // Each thread rates its own candidates; the shortlists merge in thread order, so a
    // counted budget gives the same choice however the threads interleave.
    for part in rate_on_threads(planner, solver, start, (cube, &naive), opts) {
        let (found, keys) = part?;
        distinct.extend(keys);
        shortlist.merge(found);
    }
    let solving = began.elapsed();
    let planning_began = Instant::now();
    let chosen = choose_on_threads(
        planner,
        start,
        shortlist.into_solutions(),
        opts.threads,
        opts.budget.time().map(|_| opts.planning_budget),
    )?;
    let naive_plan = planner.plan_naive(start, &naive)?;
    note_planning(planner, planning_began.elapsed());
    let (plan, naive_won) = match chosen {
        Some(c) if c.total_ms <= naive_plan.total_ms => (c, false),
        _ => (naive_plan, true),
    };
    Ok(AwareSolve {
        plan,
        candidates: distinct.len() + 1,
        naive_won,
        solving,
        planning: planning_began.elapsed(),
    })
}

/// `opts` with a time budget shortened by what was `spent` already (the naive baseline's
/// solution) and by what planning took lately (twice its moving
/// average, which covers the slow plans: on four-arm the p99 is about twice the median; a
/// quarter of the budget before any cube was planned; at most half the budget), so that the
/// whole answer comes within the budget; a count is kept as it is (the same answer
/// everywhere).
fn reserve_for_planning(planner: &Planner, opts: &AwareOptions, spent: Duration) -> AwareOptions {
    let mut opts = opts.clone();
    if let Budget::Time(time) = opts.budget {
        let recent = Duration::from_micros(planner.planning_us.load(Ordering::Relaxed));
        let reserve = if recent.is_zero() {
            time / 4
        } else {
            (recent * 2).min(time / 2)
        };
        opts.budget = Budget::Time(time.saturating_sub(reserve + spent));
    }
    opts
}

/// Folds the planning stage's time into the planner's moving average.
fn note_planning(planner: &Planner, took: Duration) {
    let took = u64::try_from(took.as_micros()).unwrap_or(u64::MAX);
    let old = planner.planning_us.load(Ordering::Relaxed);
    let new = if old == 0 {
        took
    } else {
        (old.saturating_mul(7).saturating_add(took)) / 8
    };
    planner.planning_us.store(new.max(1), Ordering::Relaxed);
}

/// What one thread found: its shortlist and every distinct candidate it met.
type Rated = Result<(Shortlist, HashSet<Vec<Turn>>), AwareError>;

/// Finds and rates candidates on `opts.threads` threads, each searching its share of the
/// solver's directions with the whole budget; the results in thread order.
fn rate_on_threads(
    planner: &Planner,
    solver: &Solver,
    start: &RobotState,
    (cube, naive): (&CubieCube, &[Turn]),
    opts: &AwareOptions,
) -> Vec<Rated> {
    let parts = thread_shares(opts, planner.axial().is_some());
    let rate = |share: Share| -> Rated {
        let mut shortlist = Shortlist::new(opts.full_plans);
        let mut failed = None;
        let offer = |s| match shortlist.offer(planner, start, s) {
            Ok(()) => Flow::Continue,
            Err(e) => {
                failed = Some(e);
                Flow::Stop
            }
        };
        let keys = match (share, planner.axial()) {
            (Share::Axial(directions), Some(axial)) => {
                collect_axial(axial, (cube, naive), opts, directions, offer)?
            }
            (Share::Axial(directions) | Share::FaceTurns(directions), _) => {
                collect_in(solver, cube, opts, directions, offer)?
            }
        };
        match failed {
            Some(e) => Err(e.into()),
            None => Ok((shortlist, keys)),
        }
    };
    cubed_core::parallel::each_on_its_thread(&parts, |&share| rate(share))
}

/// Plans the shortlist in full, its candidates dealt round-robin to `threads` threads, each
/// planning its own until `planning_budget` (at least one each): the cheapest program, ties
/// going to fewer face turns, then to the earlier candidate, as one thread would choose.
fn choose_on_threads(
    planner: &Planner,
    start: &RobotState,
    solutions: Vec<Vec<Turn>>,
    threads: usize,
    planning_budget: Option<Duration>,
) -> Result<Option<Plan>, PlanError> {
    let threads = threads.clamp(1, solutions.len().max(1));
    let mut parts = vec![Vec::new(); threads];
    for (i, solution) in solutions.into_iter().enumerate() {
        parts[i % threads].push((i, solution));
    }
    let plan_part = |part: &[(usize, Vec<Turn>)]| {
        let chosen = planner.choose(start, part.iter().map(|p| p.1.clone()), planning_budget)?;
        Ok::<_, PlanError>(chosen.map(|c| (part[c.index].0, c.plan)))
    };
    let results = cubed_core::parallel::each_on_its_thread(&parts, |part| plan_part(part));
    let mut best: Option<(usize, Plan)> = None;
    for result in results {
        let Some((index, plan)) = result? else {
            continue;
        };
        let key = |i: usize, p: &Plan| (p.total_ms, p.face_turns, i);
        if best
            .as_ref()
            .is_none_or(|(i, p)| key(index, &plan) < key(*i, p))
        {
            best = Some((index, plan));
        }
    }
    Ok(best.map(|b| b.1))
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
        self.insert((ms, solution.len(), solution));
        Ok(())
    }

    /// Puts a rated entry after the equal ones already kept, if it is among the best `keep`.
    fn insert(&mut self, entry: (u32, usize, Vec<Turn>)) {
        let at = self
            .best
            .partition_point(|(m, l, _)| (*m, *l) <= (entry.0, entry.1));
        if at < self.keep {
            self.best.insert(at, entry);
            self.best.truncate(self.keep);
        }
    }

    /// Offers another shortlist's entries (already rated), after this one's equal ones.
    fn merge(&mut self, other: Shortlist) {
        for entry in other.best {
            if !self.best.iter().any(|e| e.2 == entry.2) {
                self.insert(entry);
            }
        }
    }

    fn into_solutions(self) -> Vec<Vec<Turn>> {
        self.best.into_iter().map(|e| e.2).collect()
    }
}
