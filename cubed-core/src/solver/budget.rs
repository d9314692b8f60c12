//! How much work a search may do: wall time (the daemon: its robot waits for the answer), or a count of search nodes, which gives the same answer on every machine and under any load (a seeded dry run, the Test Program with `--seed`).

use std::time::{Duration, Instant};

/// Search nodes counted for each millisecond of a time budget when it is made countable: about
/// what one core searches here (7–13 M nodes/s measured between machines of one kind), so a
/// counted budget takes roughly as long as the time it stands for.
pub const NODES_PER_MS: u64 = 10_000;

/// Wall time so long that only a node count ends a counted search.
const NO_DEADLINE: Duration = Duration::from_secs(24 * 3600);

/// A search's budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// Until this much time has passed: the answer depends on the machine and its load.
    Time(Duration),
    /// Until this many search nodes (and, for the robot-aware choice, every shortlisted
    /// candidate planned): the same answer everywhere.
    Nodes(u64),
}

impl Budget {
    /// This budget as a count of nodes ([`NODES_PER_MS`] for each millisecond of a time).
    pub fn counted(self) -> Budget {
        match self {
            Budget::Time(time) => {
                let ms = u64::try_from(time.as_millis()).unwrap_or(u64::MAX);
                Budget::Nodes(ms.saturating_mul(NODES_PER_MS).max(1))
            }
            nodes => nodes,
        }
    }

    /// Whether the answer is the same on every machine.
    pub fn is_counted(self) -> bool {
        matches!(self, Budget::Nodes(_))
    }

    /// What a search of this budget is told: its wall time and its node count (a count ends
    /// the search whatever the clock says).
    pub fn for_search(self) -> (Duration, Option<u64>) {
        match self {
            Budget::Time(time) => (time, None),
            Budget::Nodes(nodes) => (NO_DEADLINE, Some(nodes)),
        }
    }

    /// The share of what is left for search `index` of `count` searches sharing this budget,
    /// the first of which began at `began`.
    pub fn share(self, began: Instant, index: usize, count: usize) -> Budget {
        let left_searches = count.saturating_sub(index).max(1);
        match self {
            Budget::Time(time) => {
                Budget::Time(time.saturating_sub(began.elapsed()) / left_searches as u32)
            }
            Budget::Nodes(nodes) => Budget::Nodes((nodes / count.max(1) as u64).max(1)),
        }
    }

    /// Whether a time budget that began at `began` is spent; a count never is (the work it
    /// bounds is counted elsewhere).
    pub fn spent(self, began: Instant) -> bool {
        match self {
            Budget::Time(time) => began.elapsed() >= time,
            Budget::Nodes(_) => false,
        }
    }

    /// The time, for a time budget.
    pub fn time(self) -> Option<Duration> {
        match self {
            Budget::Time(time) => Some(time),
            Budget::Nodes(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_time_budget_counts_as_nodes_and_a_count_is_shared_evenly() {
        let counted = Budget::Time(Duration::from_millis(300)).counted();
        assert_eq!(counted, Budget::Nodes(300 * NODES_PER_MS));
        assert!(counted.is_counted() && !Budget::Time(Duration::ZERO).is_counted());
        assert_eq!(Budget::Time(Duration::ZERO).counted(), Budget::Nodes(1));
        let began = Instant::now();
        assert_eq!(
            counted.share(began, 0, 3),
            Budget::Nodes(100 * NODES_PER_MS)
        );
        assert_eq!(
            counted.share(began, 2, 3),
            Budget::Nodes(100 * NODES_PER_MS)
        );
        assert!(!counted.spent(began - Duration::from_secs(3600)));
        assert!(Budget::Time(Duration::ZERO).spent(began));
        assert_eq!(counted.for_search().1, Some(300 * NODES_PER_MS));
    }
}
