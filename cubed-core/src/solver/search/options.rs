//! What a search looks for and for how long: its options.

use super::Cancel;
use std::time::Duration;

/// Every direction (see [`SearchOptions::directions`]).
pub const ALL_DIRECTIONS: u8 = 0b11_1111;

/// What to search for and for how long.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// Time after which the search stops (it runs on past it only until a first solution exists).
    pub budget: Duration,
    /// Stop as soon as a solution of at most this many turns is found.
    pub target_length: Option<usize>,
    /// Also report solutions as long as the best so far (not only shorter ones).
    pub alternatives: bool,
    /// With `alternatives`: also report solutions up to this many turns longer
    /// than the best so far (more varied candidates for the robot planner).
    pub slack: usize,
    /// With `alternatives`: report up to this many phase-2 completions of each phase-1
    /// path (all of the shortest length that has one), not only the first (0 or 1: the
    /// first). Phase 2 is cheap, so many more candidates for the robot planner.
    pub phase2_alternatives: usize,
    /// Which of the six directions (bit i: direction i; 0..3 the cube along each axis, 3..6
    /// its inverse) are searched: threads searching disjoint directions share one search.
    pub directions: u8,
    /// Longest solution worth reporting.
    pub max_length: usize,
    /// Stop after this many search nodes (once a solution exists): makes results
    /// reproducible whatever the machine's speed.
    pub node_budget: Option<u64>,
    /// Ends the search early when another thread asks (with or without a solution).
    pub cancel: Cancel,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            budget: Duration::from_millis(100),
            target_length: None,
            alternatives: false,
            slack: 0,
            phase2_alternatives: 0,
            directions: ALL_DIRECTIONS,
            max_length: 30,
            node_budget: None,
            cancel: Cancel::default(),
        }
    }
}
