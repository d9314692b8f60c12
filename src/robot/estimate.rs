//! A fast estimate of a solution's program time, to rank many candidate solutions before the best few are planned in full: each axis block planned alone from the state the previous one left, memoised per (state, block).

use super::model::RobotState;
use super::planner::{axis_blocks, Block, PlanError, Planner};
use crate::cube::Turn;
use std::collections::HashMap;
use std::sync::Mutex;

/// Most (state, block) results kept; the memo is cleared when it grows past this.
const MEMO_LIMIT: usize = 200_000;

/// One block planned alone from a state: `(end state id, ms)`, or `None` if impossible.
type BlockResult = Option<(u32, u32)>;
type MemoMap = HashMap<(u32, Block), BlockResult>;

/// Memo of blocks planned alone, keyed by (start state id, block).
#[derive(Debug, Default)]
pub struct BlockMemo(Mutex<MemoMap>);

impl BlockMemo {
    fn get(&self, key: &(u32, Block)) -> Option<BlockResult> {
        self.lock().get(key).copied()
    }

    fn put(&self, key: (u32, Block), value: BlockResult) {
        let mut memo = self.lock();
        if memo.len() >= MEMO_LIMIT {
            memo.clear();
        }
        memo.insert(key, value);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, MemoMap> {
        self.0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

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
