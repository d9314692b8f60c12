//! What a design's state graph and the planner's bounds on it take in memory, and the limit a build keeps to (a design with many jaws and wide ranges can outgrow a Raspberry Pi).

use std::fmt;

/// The environment variable that sets the planner's memory limit, in megabytes.
pub const PLANNER_MEMORY_VAR: &str = "CUBED_PLANNER_MEMORY_MB";

/// How much memory a design's state graph and bounds may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemoryLimit {
    /// No limit (the shipped designs, tests).
    None,
    /// A share of the memory this machine had available when the limit was read.
    Available { mb: u64 },
    /// Set by [`PLANNER_MEMORY_VAR`].
    Set { mb: u64 },
}

impl MemoryLimit {
    fn bytes(self) -> Option<u64> {
        match self {
            MemoryLimit::None => None,
            MemoryLimit::Available { mb } | MemoryLimit::Set { mb } => Some(mb << 20),
        }
    }

    /// What a person can do to allow more.
    fn how_to_raise(self) -> String {
        match self {
            MemoryLimit::Set { .. } => {
                format!("raise {PLANNER_MEMORY_VAR} if this machine has more memory to give")
            }
            _ => format!(
                "plan for it on a machine with more memory ({PLANNER_MEMORY_VAR} sets the limit)"
            ),
        }
    }

    /// Whether this limit allows less memory than `other`.
    pub(crate) fn allows_less_than(self, other: MemoryLimit) -> bool {
        match (self.bytes(), other.bytes()) {
            (Some(mine), Some(theirs)) => theirs > mine,
            (Some(_), None) => true,
            (None, _) => false,
        }
    }
}

impl fmt::Display for MemoryLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MemoryLimit::None => write!(f, "any amount of memory"),
            MemoryLimit::Available { mb } => write!(
                f,
                "the {mb} MB it may take (three quarters of the memory this machine has available)"
            ),
            MemoryLimit::Set { mb } => write!(f, "the {mb} MB {PLANNER_MEMORY_VAR} allows"),
        }
    }
}

/// A design whose states outgrew the memory limit while its state graph was being built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "robot '{robot}' has too many states for the planner to hold in {limit}: it had found {found} \
     states and {steps} steps between them, {needed_mb} MB with the planner's bounds, and still \
     had {unexplored} states to explore; narrow the grippers' `range`, or give fewer of them a \
     `jaw` (each one multiplies the states: docs/robot-design.md, \"How large a design may be\"), \
     or {}", .limit.how_to_raise()
)]
pub struct TooManyStates {
    pub robot: String,
    pub found: usize,
    pub unexplored: usize,
    pub steps: usize,
    pub needed_mb: u64,
    pub limit: MemoryLimit,
}

/// What a state graph holds, counted as it grows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Footprint {
    pub states: usize,
    /// Slots of the state index (its hash table's capacity).
    pub index_slots: usize,
    pub steps: usize,
    pub steps_keeping_faces: usize,
}

/// Bytes a state takes: itself, its edge offset, and the bounds (twelve times, and the
/// reverse graph's start and cursor while they are found, one backward search's distances).
const STATE_BYTES: u64 = 12 + 4 + 12 * 4 + 2 * 4 + 8;
/// Bytes a slot of the state index takes (the state, its id, a control byte).
const INDEX_SLOT_BYTES: u64 = 12 + 4 + 1;
/// Bytes an edge takes.
const STEP_BYTES: u64 = 16;
/// Bytes a step that turns no face takes again in the bounds' reverse graph.
const REVERSE_STEP_BYTES: u64 = 4 + 2;

impl Footprint {
    /// The most the graph and the bounds found on it take at once.
    pub(crate) fn bytes(&self) -> u64 {
        self.states as u64 * STATE_BYTES
            + self.index_slots as u64 * INDEX_SLOT_BYTES
            + self.steps as u64 * STEP_BYTES
            + self.steps_keeping_faces as u64 * REVERSE_STEP_BYTES
    }

    /// Whether the graph so far, with its bounds, passes `limit`.
    pub(crate) fn passes(&self, limit: MemoryLimit) -> bool {
        limit.bytes().is_some_and(|bytes| self.bytes() > bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_limit_is_passed_only_beyond_its_bytes() {
        let graph = Footprint {
            states: 1000,
            index_slots: 1024,
            steps: 100_000,
            steps_keeping_faces: 50_000,
        };
        let bytes = graph.bytes();
        assert_eq!(bytes, 1000 * 80 + 1024 * 17 + 1_600_000 + 300_000);
        let mb = bytes >> 20;
        assert!(graph.passes(MemoryLimit::Set { mb }), "{bytes} > {mb} MB");
        assert!(!graph.passes(MemoryLimit::Set { mb: mb + 1 }));
        assert!(!graph.passes(MemoryLimit::None));
    }

    #[test]
    fn the_limit_says_where_it_comes_from() {
        let set = MemoryLimit::Set { mb: 300 }.to_string();
        assert!(
            set.contains("300 MB") && set.contains(PLANNER_MEMORY_VAR),
            "{set}"
        );
        let available = MemoryLimit::Available { mb: 1400 }.to_string();
        assert!(available.contains("1400 MB") && available.contains("available"));
    }
}
