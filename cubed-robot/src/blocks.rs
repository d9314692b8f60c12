//! A solution's axis blocks (turns of one axis in a row, planned as one), and the memo of blocks planned alone that ranks candidate solutions quickly.

use cubed_core::cube::{Face, Turn};
use std::collections::HashMap;
use std::sync::Mutex;

/// Turns on one axis: quarter turns owed to its positive face (U, R, F) and to the opposite face.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct Block {
    pub faces: [Face; 2],
    pub quarters: [u8; 2],
}

/// Cuts a solution into axis blocks, merging turns of the same face and dropping what cancels.
pub(crate) fn axis_blocks(solution: &[Turn]) -> Vec<Block> {
    let mut blocks: Vec<Block> = Vec::new();
    for t in solution {
        let positive = Face::from_index(t.face.index() % 3);
        let side = usize::from(t.face != positive);
        match blocks.last_mut() {
            Some(b) if b.faces[0] == positive => {
                b.quarters[side] = (b.quarters[side] + t.quarters) % 4
            }
            _ => {
                let mut b = Block {
                    faces: [positive, positive.opposite()],
                    quarters: [0, 0],
                };
                b.quarters[side] = t.quarters % 4;
                blocks.push(b);
            }
        }
        if blocks.last().is_some_and(|b| b.quarters == [0, 0]) {
            blocks.pop();
        }
    }
    blocks
}

/// The turns of a list of blocks, positive face first.
pub(crate) fn block_turns(blocks: &[Block]) -> Vec<Turn> {
    blocks
        .iter()
        .flat_map(|b| {
            (0..2).filter(|&i| b.quarters[i] != 0).map(|i| Turn {
                face: b.faces[i],
                quarters: b.quarters[i],
            })
        })
        .collect()
}

/// Most (state, block) results kept; the memo is cleared when it grows past this.
const MEMO_LIMIT: usize = 200_000;

/// One block planned alone from a state: `(end state id, ms)`, or `None` if impossible.
pub(crate) type BlockResult = Option<(u32, u32)>;
type MemoMap = HashMap<(u32, Block), BlockResult>;

/// Memo of blocks planned alone, keyed by (start state id, block).
#[derive(Debug, Default)]
pub(crate) struct BlockMemo(Mutex<MemoMap>);

impl BlockMemo {
    pub(crate) fn get(&self, key: &(u32, Block)) -> Option<BlockResult> {
        self.lock().get(key).copied()
    }

    pub(crate) fn put(&self, key: (u32, Block), value: BlockResult) {
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
