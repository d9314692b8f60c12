//! Robot-aware choice of solution: plan every candidate solution and keep the one whose program is fastest on this robot.

use super::model::RobotState;
use super::planner::{Plan, PlanError, Planner};
use cubed_core::cube::Turn;
use std::time::{Duration, Instant};

/// How the choice went: the winner, how many candidates were planned, and the planning time.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Choice {
    pub plan: Plan,
    /// Position of the winner among the candidates.
    pub index: usize,
    pub planned: usize,
    pub planning: Duration,
}

impl Planner {
    /// Plans each candidate (until `planning_budget`, if any, is spent; at least one is
    /// always planned) and keeps the cheapest program; ties go to fewer face
    /// turns, then to the earlier candidate. `None` when there is no candidate.
    pub fn choose<I>(
        &self,
        start: &RobotState,
        candidates: I,
        planning_budget: Option<Duration>,
    ) -> Result<Option<Choice>, PlanError>
    where
        I: IntoIterator<Item = Vec<Turn>>,
    {
        let began = Instant::now();
        let mut best: Option<Choice> = None;
        for (index, solution) in candidates.into_iter().enumerate() {
            if best.is_some() && planning_budget.is_some_and(|b| began.elapsed() >= b) {
                break;
            }
            let plan = self.plan(start, &solution)?;
            let planned = best.as_ref().map_or(0, |b| b.planned) + 1;
            let better = best.as_ref().is_none_or(|b| {
                (plan.total_ms, plan.face_turns) < (b.plan.total_ms, b.plan.face_turns)
            });
            match &mut best {
                Some(b) if !better => b.planned = planned,
                _ => {
                    best = Some(Choice {
                        plan,
                        index,
                        planned,
                        planning: Duration::ZERO,
                    })
                }
            }
        }
        Ok(best.map(|b| Choice {
            planning: began.elapsed(),
            ..b
        }))
    }
}
