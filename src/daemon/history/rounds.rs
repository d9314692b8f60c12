//! What a person calls each round of a run's record ("scan 1", "solve 1", "check 1"), named once here for the page, the API and `cubed history` alike.

use crate::daemon::docs::RunDetail;

/// What a person calls each round of a run: the scans before solving "scan 1", "scan 2" (a
/// fresh one after each resumption), each solution "solve N" and the scan that checked it
/// "check N".
struct Rounds {
    /// The rounds (`attempt`) that have a solution, in order.
    solved: Vec<u32>,
    /// The rounds whose scan came before any solution of theirs, in order.
    scanned: Vec<u32>,
}

impl Rounds {
    fn of(d: &RunDetail) -> Rounds {
        let mut solved: Vec<u32> = d.solutions.iter().map(|s| s.attempt).collect();
        solved.sort_unstable();
        let mut scanned: Vec<u32> = (d.scans.iter().map(|s| s.attempt))
            .filter(|a| !solved.contains(a))
            .collect();
        scanned.sort_unstable();
        scanned.dedup();
        Rounds { solved, scanned }
    }

    /// A solution, or a solve that found none (a run stopped while solving): numbered after
    /// the solutions before it.
    fn solve(&self, attempt: u32) -> String {
        let before = self.solved.iter().filter(|&&a| a < attempt).count();
        format!("solve {}", before + 1)
    }

    /// A scan, or a phase of one (photographing, reading).
    fn scan(&self, attempt: u32) -> String {
        if let Some(i) = self.solved.iter().position(|&a| a == attempt) {
            return format!("check {}", i + 1);
        }
        match self.scanned.iter().position(|&a| a == attempt) {
            Some(i) => format!("scan {}", i + 1),
            None => format!("round {attempt}"),
        }
    }

    /// A timed phase: "scan" and "classify" belong to a scan or a check, the others to a solve.
    fn step(&self, name: &str, attempt: u32) -> String {
        match name {
            "scan" | "classify" => self.scan(attempt),
            _ => self.solve(attempt),
        }
    }
}

/// `detail` with each scan, solution and timed step labelled as a person reads the rounds.
pub(crate) fn named(mut detail: RunDetail) -> RunDetail {
    let rounds = Rounds::of(&detail);
    for scan in &mut detail.scans {
        scan.label = rounds.scan(scan.attempt);
    }
    for solution in &mut detail.solutions {
        solution.label = rounds.solve(solution.attempt);
    }
    for step in &mut detail.steps {
        step.label = rounds.step(&step.name, step.attempt);
    }
    detail
}

#[cfg(test)]
mod tests {
    use super::Rounds;

    #[test]
    fn a_solve_that_found_nothing_is_numbered_after_the_solutions_before_it() {
        let rounds = Rounds {
            solved: vec![1],
            scanned: vec![0],
        };
        assert_eq!(rounds.step("solve", 1), "solve 1");
        // Stopped while solving again, after the check of solve 1 (round 2).
        assert_eq!(rounds.step("solve", 2), "solve 2");
        // Stopped while solving the first time: no solution yet.
        let none = Rounds {
            solved: vec![],
            scanned: vec![0],
        };
        assert_eq!(none.step("solve", 0), "solve 1");
        assert_eq!(none.step("scan", 0), "scan 1");
    }
}
