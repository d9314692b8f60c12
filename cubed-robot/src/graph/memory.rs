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
    /// A share of the room left under this process's control-group limit (systemd's
    /// `MemoryMax=`, a container's memory limit), when that was less than the machine had.
    InGroup { mb: u64 },
    /// Set by [`PLANNER_MEMORY_VAR`].
    Set { mb: u64 },
}

impl MemoryLimit {
    fn bytes(self) -> Option<u64> {
        match self {
            MemoryLimit::None => None,
            MemoryLimit::Available { mb }
            | MemoryLimit::InGroup { mb }
            | MemoryLimit::Set { mb } => Some(mb << 20),
        }
    }

    /// What a person can do to allow more.
    fn how_to_raise(self) -> String {
        match self {
            MemoryLimit::Set { .. } => {
                format!("raise {PLANNER_MEMORY_VAR} if this machine has more memory to give")
            }
            MemoryLimit::InGroup { .. } => format!(
                "raise the service's MemoryMax= or the container's memory limit \
                 ({PLANNER_MEMORY_VAR} sets the planner's limit)"
            ),
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
            MemoryLimit::InGroup { mb } => write!(
                f,
                "the {mb} MB it may take (three quarters of the room left under this process's \
                 control-group memory limit: systemd's MemoryMax=, or a container's)"
            ),
            MemoryLimit::Set { mb } => write!(f, "the {mb} MB {PLANNER_MEMORY_VAR} allows"),
        }
    }
}

/// A design whose states outgrew the memory limit while its state graph was being built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "robot '{robot}' has too many states for the planner to hold in {limit}: it had explored \
     {explored} of the {found} states found so far, with {steps} steps between them, and {}; \
     narrow the grippers' `range`, or give fewer of them a `jaw` (each one multiplies the \
     states: docs/robot-design.md, \"How large a design may be\"), or {}",
    .need.words(), .limit.how_to_raise()
)]
pub struct TooManyStates {
    pub robot: String,
    pub explored: usize,
    pub found: usize,
    pub steps: usize,
    pub need: Need,
    pub limit: MemoryLimit,
}

/// What a refused build found it needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Need {
    /// What the graph so far, the bounds it will need and the batch under way took.
    Already { mb: u64 },
    /// Every state found so far with as many steps as those explored have on average, when
    /// that is more than twice the limit.
    Foreseen { mb: u64, steps_per_state: usize },
}

impl Need {
    fn words(self) -> String {
        match self {
            Need::Already { mb } => format!("already needed {mb} MB with the planner's bounds"),
            Need::Foreseen {
                mb,
                steps_per_state,
            } => format!(
                "with the {steps_per_state} steps each state explored has on average, those \
                 found would need about {mb} MB, more than twice the limit"
            ),
        }
    }

    /// Megabytes needed (already, or foreseen).
    pub fn mb(self) -> u64 {
        match self {
            Need::Already { mb } | Need::Foreseen { mb, .. } => mb,
        }
    }
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

    /// The footprint once the `explored` first states' steps are in it and every other state
    /// found has as many, and keeps faces as often, as they do on average.
    pub(crate) fn foreseen(&self, explored: usize) -> Footprint {
        let scale =
            |count: usize| (count as u128 * self.states as u128 / explored.max(1) as u128) as usize;
        Footprint {
            steps: scale(self.steps),
            steps_keeping_faces: scale(self.steps_keeping_faces),
            ..*self
        }
    }
}

impl MemoryLimit {
    /// Whether `bytes` pass this limit.
    pub(crate) fn passed_by(self, bytes: u64) -> bool {
        self.bytes().is_some_and(|limit| bytes > limit)
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
        assert!(
            MemoryLimit::Set { mb }.passed_by(bytes),
            "{bytes} > {mb} MB"
        );
        assert!(!MemoryLimit::Set { mb: mb + 1 }.passed_by(bytes));
        assert!(!MemoryLimit::None.passed_by(bytes));
        // A quarter explored: four times the steps foreseen, the states as found.
        let all = graph.foreseen(250);
        assert_eq!((all.steps, all.steps_keeping_faces), (400_000, 200_000));
        assert_eq!((all.states, all.index_slots), (1000, 1024));
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
        let in_group = MemoryLimit::InGroup { mb: 223 }.to_string();
        assert!(in_group.contains("223 MB") && in_group.contains("MemoryMax="));
    }
}
