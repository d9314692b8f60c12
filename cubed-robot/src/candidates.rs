//! Candidate solutions for robot-aware solving: the naive baseline's first solution, and many distinct solutions found by searching the cube as seen in several whole-cube orientations.
//!
//! The solver has no robot costs, so diversity comes from outside it: a
//! whole-cube rotation relabels the faces, the search then meets other
//! solutions first (its move order and its three search axes are fixed in
//! its own frame), and each solution maps back by relabelling its faces.
//! With `alternatives` each search also reports solutions as long as its
//! best, and every search reports its own progression from long to short.

use super::blocks::{axis_blocks, block_turns};
use crate::Orientation;
use cubed_core::cube::{CubieCube, Face, FaceletCube, Move, Turn};
use cubed_core::solver::axial::{AxialOptions, AxialSolver};
use cubed_core::solver::{Budget, Cancel, Flow, SearchOptions, SolveError, Solver};
use std::collections::HashSet;
use std::time::{Duration, Instant};

/// How hard to look for a cheap program.
#[derive(Clone, Debug)]
pub struct AwareOptions {
    /// What the solver may spend finding candidate solutions (rating each by
    /// [`Planner::estimate`](crate::Planner::estimate) as it comes counts in a time).
    /// A time also covers the planning after it: the search ends earlier by about what
    /// planning took on the last cubes. Counted in nodes, every shortlisted candidate is also
    /// planned: the same choice everywhere.
    pub budget: Budget,
    /// Whole-cube orientations the cube is searched in (1..=24), sharing the budget.
    pub orientations: usize,
    /// Threads searching at once (1..=6), each the solver's directions of its own and the
    /// whole budget: a time budget is spent on as many cores, a count by each thread (the
    /// result the same everywhere).
    pub threads: usize,
    /// Phase-2 completions reported per phase-1 path (see
    /// [`SearchOptions::phase2_alternatives`]): more candidates for nearly no search.
    pub phase2_alternatives: usize,
    /// Candidates may be this many turns longer than the shortest found so far
    /// (a longer solution can be quicker for the robot).
    pub slack: usize,
    /// Candidates (best by estimate) planned in full.
    pub full_plans: usize,
    /// Time after which no further candidate is planned in full (one always is), under a
    /// time budget.
    pub planning_budget: Duration,
    /// Ends the search for candidates early (those found so far are planned).
    pub cancel: Cancel,
}

impl Default for AwareOptions {
    fn default() -> Self {
        AwareOptions {
            budget: Budget::Time(Duration::from_millis(300)),
            orientations: 1,
            threads: 2,
            phase2_alternatives: 16,
            slack: 1,
            full_plans: 2,
            planning_budget: Duration::from_millis(25),
            cancel: Cancel::default(),
        }
    }
}

/// Budget of the naive baseline's search (its first solution is kept).
pub(crate) const NAIVE_BUDGET: Duration = Duration::from_millis(10);

/// The cube seen in a whole-cube orientation, and how its faces map back.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Seen {
    pub cube: CubieCube,
    /// `back[f]`: the real face that is face `f` of the seen cube.
    pub back: [Face; 6],
}

impl Seen {
    /// The cube after the whole-cube rotations that take home to `orientation`.
    pub(crate) fn new(cube: &CubieCube, orientation: Orientation) -> Result<Seen, SolveError> {
        let moves: Vec<Move> = orientation
            .rotations_from_home()
            .iter()
            .map(|&r| Move::Rotate(r))
            .collect();
        let rotated: FaceletCube = cube.to_facelets().apply_all(&moves);
        let back = std::array::from_fn(|f| rotated.stickers[f * 9 + 4]);
        let cube = CubieCube::from_facelets(&rotated.relabel_by_centres())?;
        Ok(Seen { cube, back })
    }

    /// A solution of the seen cube as a solution of the real one.
    pub(crate) fn map_back(&self, solution: &[Turn]) -> Vec<Turn> {
        solution
            .iter()
            .map(|t| Turn {
                face: self.back[t.face.index()],
                quarters: t.quarters,
            })
            .collect()
    }
}

/// The naive baseline's solution: the first one the solver finds (budget [`NAIVE_BUDGET`]).
pub(crate) fn first_solution(solver: &Solver, cube: &CubieCube) -> Result<Vec<Turn>, SolveError> {
    let opts = SearchOptions {
        budget: NAIVE_BUDGET,
        ..SearchOptions::default()
    };
    let mut first = None;
    solver.search(cube, &opts, |s| {
        first = Some(s.to_vec());
        Flow::Stop
    })?;
    first.ok_or(SolveError::NoSolution {
        max_length: opts.max_length,
    })
}

/// What one thread searches: the axial search or face turns, in its share of the six
/// directions (a mask).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Share {
    Axial(u8),
    FaceTurns(u8),
}

/// Each thread's share of the search. With the axial search, half the threads (the first, and
/// the odd one out) search with it and the others in face turns, each group sharing the six
/// directions: the axial search finds cheaper programs given time (on six-motor 0.980 of the
/// face-turn search's at 300 ms), the face-turn search sooner (1.044 at 100 ms), and
/// together they are as good as the better one at either budget.
pub(crate) fn thread_shares(opts: &AwareOptions, axial: bool) -> Vec<Share> {
    let threads = opts.threads.clamp(1, 6);
    let axial_threads = if axial { threads.div_ceil(2) } else { 0 };
    let face_threads = threads - axial_threads;
    let shares = |n: usize| match n {
        0 => Vec::new(),
        n => cubed_core::solver::direction_shares(n),
    };
    let axial_part = shares(axial_threads).into_iter().map(Share::Axial);
    let face_part = shares(face_threads).into_iter().map(Share::FaceTurns);
    axial_part.chain(face_part).collect()
}

/// Calls `on_candidate` with each distinct solution (same-axis runs in
/// canonical order) found within `opts.budget`, shared equally by searches of
/// the cube in `opts.orientations` orientations, up to `opts.slack` turns
/// longer than the best so far. The callback's time counts in the budget.
#[cfg(test)]
pub(crate) fn collect(
    solver: &Solver,
    cube: &CubieCube,
    opts: &AwareOptions,
    on_candidate: impl FnMut(Vec<Turn>) -> Flow,
) -> Result<usize, SolveError> {
    let all = cubed_core::solver::ALL_DIRECTIONS;
    Ok(collect_in(solver, cube, opts, all, on_candidate)?.len())
}

/// As [`collect`], searching only the solver's `directions` (one thread's share); returns
/// the distinct candidates found.
pub(crate) fn collect_in(
    solver: &Solver,
    cube: &CubieCube,
    opts: &AwareOptions,
    directions: u8,
    mut on_candidate: impl FnMut(Vec<Turn>) -> Flow,
) -> Result<HashSet<Vec<Turn>>, SolveError> {
    let began = Instant::now();
    let count = opts.orientations.clamp(1, 24);
    let mut seen_keys = HashSet::new();
    for (i, orientation) in Orientation::all().take(count).enumerate() {
        let (budget, node_budget) = opts.budget.share(began, i, count).for_search();
        let search = SearchOptions {
            budget,
            node_budget,
            alternatives: true,
            slack: opts.slack,
            phase2_alternatives: opts.phase2_alternatives,
            directions,
            cancel: opts.cancel.clone(),
            ..SearchOptions::default()
        };
        let seen = Seen::new(cube, orientation)?;
        let mut flow = Flow::Continue;
        solver.search(&seen.cube, &search, |s| {
            let canonical = block_turns(&axis_blocks(&seen.map_back(s)));
            if seen_keys.insert(canonical.clone()) {
                flow = on_candidate(canonical);
            }
            flow
        })?;
        if flow == Flow::Stop || opts.cancel.is_cancelled() {
            break;
        }
    }
    Ok(seen_keys)
}

/// As [`collect_in`], with the axial search: each solution it finds in `directions` cheaper
/// than the last and than `naive`.
pub(crate) fn collect_axial(
    axial: &AxialSolver,
    (cube, naive): (&CubieCube, &[Turn]),
    opts: &AwareOptions,
    directions: u8,
    mut on_candidate: impl FnMut(Vec<Turn>) -> Flow,
) -> Result<HashSet<Vec<Turn>>, SolveError> {
    let (budget, node_budget) = opts.budget.share(Instant::now(), 0, 1).for_search();
    let search = AxialOptions {
        budget,
        node_budget,
        directions,
        below: Some(axial.prices().of_turns(naive)),
        cancel: opts.cancel.clone(),
    };
    let mut seen_keys = HashSet::new();
    axial.search(cube, &search, |s, _| {
        let canonical = block_turns(&axis_blocks(s));
        if seen_keys.insert(canonical.clone()) {
            on_candidate(canonical)
        } else {
            Flow::Continue
        }
    })?;
    Ok(seen_keys)
}
