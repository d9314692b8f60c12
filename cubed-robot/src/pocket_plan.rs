//! Robot-aware 2x2 solving: among the optimal solutions, and among the ways to perform each (a turn of a 2x2 face is a turn of the opposite face with the cube held turned), the program that is fastest on this robot.
//!
//! A 2x2 has no centres, so `U` and `D` (same suffix) do the same to the
//! pieces, differing only in how the cube ends up held; later turns are then
//! named in that new holding. The 3x3 planner plans 2x2 turns unchanged: a
//! gripper turns a half of a 2x2 as it turns an outer layer of a 3x3.

use super::model::RobotState;
use super::planner::{Plan, PlanError, Planner};
use cubed_core::cube::{Move, Turn};
use cubed_core::pocket::{Metric, PocketCube, PocketFacelets, PocketSolver};
use cubed_core::solver::{Budget, Cancel};
use std::time::{Duration, Instant};

/// How hard to look for a quick program.
#[derive(Clone, Debug)]
pub struct PocketAwareOptions {
    pub metric: Metric,
    /// Optimal solutions considered.
    pub solutions: usize,
    /// Ways of performing each kept while stepping through it (by estimate).
    pub beam: usize,
    /// Time for rating candidates by the planner's estimate (and for planning the best in
    /// full); counted in nodes, every optimal solution asked for is rated and every shortlisted
    /// one planned: the same choice everywhere.
    pub budget: Budget,
    /// Candidates (best by estimate) planned in full.
    pub full_plans: usize,
    /// Ends the rating early (those rated so far are planned).
    pub cancel: Cancel,
}

impl Default for PocketAwareOptions {
    fn default() -> Self {
        PocketAwareOptions {
            metric: Metric::Htm,
            solutions: 24,
            beam: 8,
            budget: Budget::Time(Duration::from_millis(200)),
            full_plans: 4,
            cancel: Cancel::default(),
        }
    }
}

/// The baseline: the solver's optimal solution, each face turn planned alone.
pub fn pocket_naive(
    planner: &Planner,
    solver: &PocketSolver,
    start: &RobotState,
    facelets: &PocketFacelets,
    metric: Metric,
) -> Result<Plan, PlanError> {
    check_holds_a_2x2(&planner.model)?;
    let solution = solver.solve(&seen(facelets), metric);
    planner.plan_naive(start, &solution)
}

/// An optimal solution of `facelets` (as held) performed as quickly as this robot can:
/// never slower than [`pocket_naive`].
pub fn solve_pocket_for_robot(
    planner: &Planner,
    solver: &PocketSolver,
    start: &RobotState,
    facelets: &PocketFacelets,
    opts: &PocketAwareOptions,
) -> Result<Plan, PlanError> {
    check_holds_a_2x2(&planner.model)?;
    let began = Instant::now();
    let cube = seen(facelets);
    let mut rated: Vec<(u32, Vec<Turn>)> = Vec::new();
    for solution in solver.optimal_solutions(&cube, opts.metric, opts.solutions.max(1)) {
        for way in ways_to_perform(planner, start, facelets, &solution, opts.beam)? {
            rated.push(way);
        }
        if opts.budget.spent(began) || opts.cancel.is_cancelled() {
            break;
        }
    }
    rated.sort_by_key(|(ms, _)| *ms);
    rated.dedup_by(|a, b| a.1 == b.1);
    let shortlist = rated.into_iter().take(opts.full_plans.max(1)).map(|r| r.1);
    let chosen = planner.choose(start, shortlist, opts.budget.time())?;
    let naive = pocket_naive(planner, solver, start, facelets, opts.metric)?;
    Ok(match chosen {
        Some(c) if c.plan.total_ms <= naive.total_ms => c.plan,
        _ => naive,
    })
}

/// Refuses a design that turns faces by their centre caps: a 2x2 has none to grip.
pub fn check_holds_a_2x2(model: &crate::RobotModel) -> Result<(), PlanError> {
    match model.centre_grippers() {
        grippers if grippers.is_empty() => Ok(()),
        grippers => Err(PlanError::NoCentreCaps {
            robot: model.name.clone(),
            grippers: grippers.join(", "),
        }),
    }
}

/// The pieces of the cube as held, seen from its fixed corner.
fn seen(facelets: &PocketFacelets) -> PocketCube {
    match PocketCube::read(&facelets.relabel_by_fixed_corner()) {
        Ok(c) => c,
        Err(_) => unreachable!("parsed stickers are a cube"),
    }
}

/// Beam search over the ways to perform each turn of `solution` (this face or
/// the opposite one, named as the cube is held by then: every turn that brings
/// the pieces to the same state), each prefix rated by the planner's estimate;
/// the best ways with their estimates.
fn ways_to_perform(
    planner: &Planner,
    start: &RobotState,
    facelets: &PocketFacelets,
    solution: &[Turn],
    beam: usize,
) -> Result<Vec<(u32, Vec<Turn>)>, PlanError> {
    let mut target = seen(facelets);
    let mut ways: Vec<(u32, Vec<Turn>, PocketFacelets)> = vec![(0, Vec::new(), *facelets)];
    for &turn in solution {
        target = target.turn(turn);
        let mut next = Vec::new();
        for (_, prefix, held) in &ways {
            for t in Turn::all() {
                let after = held.apply(Move::Turn(t));
                if seen(&after) != target {
                    continue;
                }
                let mut longer = prefix.clone();
                longer.push(t);
                let ms = planner.estimate(start, &longer)?;
                next.push((ms, longer, after));
            }
        }
        next.sort_by_key(|w| w.0);
        next.truncate(beam.max(1));
        ways = next;
    }
    Ok(ways.into_iter().map(|(ms, turns, _)| (ms, turns)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn planner(design: &str) -> Planner {
        Planner::new(crate::shipped_design(design).expect("the shipped design loads"))
    }

    #[test]
    fn only_designs_that_grip_layers_hold_a_2x2() {
        for design in ["four-arm", "turntable-flipper"] {
            assert_eq!(
                check_holds_a_2x2(&planner(design).model),
                Ok(()),
                "{design}"
            );
        }
        let six = planner("six-motor");
        let refused = check_holds_a_2x2(&six.model).expect_err("six motors on centre caps");
        let names: Vec<&str> = six.model.grippers.iter().map(|g| g.name.as_str()).collect();
        assert_eq!(
            refused,
            PlanError::NoCentreCaps {
                robot: "six-motor".into(),
                grippers: names.join(", "),
            }
        );
        let solver = PocketSolver::new(std::sync::Arc::new(
            cubed_core::pocket::PocketTables::build(),
        ));
        let solved = PocketFacelets::from_3x3(&cubed_core::cube::FaceletCube::default());
        let naive = pocket_naive(&six, &solver, &six.home(), &solved, Metric::Htm);
        assert_eq!(naive.map(|p| p.total_ms), Err(refused));
    }
}
