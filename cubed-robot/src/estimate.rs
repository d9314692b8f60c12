//! A fast estimate of a solution's program time, to rank many candidate solutions before the best few are planned in full: each axis block planned alone from the state the previous one left, memoised per (state, block).

use super::blocks::{axis_blocks, Block, BlockResult};
use super::model::RobotState;
use super::planner::{PlanError, Planner};
use cubed_core::cube::Turn;

impl Planner {
    /// An estimate of the program time of `solution` from `start`: each axis
    /// block planned alone (no look-ahead), so usually somewhat above what
    /// [`Planner::plan`] finds and below [`Planner::plan_naive`]; cheap
    /// (tens of µs per block), and free for (state, block) pairs seen before.
    pub fn estimate(&self, start: &RobotState, solution: &[Turn]) -> Result<u32, PlanError> {
        let mut state = self
            .graph
            .id(start)
            .ok_or_else(|| PlanError::UnknownStart {
                robot: self.model.name.clone(),
            })?;
        let mut total = 0;
        for (i, block) in axis_blocks(solution).into_iter().enumerate() {
            let (end, ms) = self
                .block_alone(state, block)
                .ok_or_else(|| PlanError::NoPlan {
                    robot: self.model.name.clone(),
                    block: i,
                })?;
            state = end;
            total += ms;
        }
        Ok(total)
    }

    fn block_alone(&self, state: u32, block: Block) -> BlockResult {
        let key = (state, block);
        if let Some(known) = self.memo.get(&key) {
            return known;
        }
        let start = self.graph.states[state as usize];
        let result = self.plan_blocks(&start, &[block]).ok().and_then(|plan| {
            let end = self.graph.id(&plan.end)?;
            Some((end, plan.total_ms))
        });
        self.memo.put(key, result);
        result
    }
}
