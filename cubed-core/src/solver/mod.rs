//! Solver: the two-phase search over move, symmetry and pruning tables, with an anytime interface. Pure: no I/O.

pub mod axial;
pub(crate) mod budget;
pub(crate) mod class_move;
pub(crate) mod coord;
pub(crate) mod endings;
pub(crate) mod memory;
pub(crate) mod movetables;
pub(crate) mod near;
pub(crate) mod near_masks;
pub(crate) mod optimal;
pub(crate) mod phase1;
pub(crate) mod pruning;
pub(crate) mod search;
pub(crate) mod symmetry;
pub(crate) mod symtables;
pub(crate) mod table_bytes;
pub(crate) mod tables;
pub(crate) mod turn_order;

#[cfg(test)]
pub(crate) mod tests;

pub use budget::Budget;
pub use budget::NODES_PER_MS;
pub use search::Cancel;
pub use search::Flow;
pub use search::SearchOptions;
pub use search::SearchStats;
pub use search::ALL_DIRECTIONS;
pub use table_bytes::TableBytesError;
pub use table_bytes::FORMAT_VERSION as TABLE_FORMAT_VERSION;
pub use tables::TableMode;
pub use tables::Tables;

use crate::cube::{CubeError, CubieCube, Turn};
use std::sync::Arc;
use std::time::Duration;

/// Threads [`Solver::solve`] searches on (the daemon's plain solve among them).
pub const SOLVE_THREADS: usize = 2;

/// The solver's six directions dealt round-robin to `threads` threads (1..=6): a mask each.
pub fn direction_shares(threads: usize) -> Vec<u8> {
    let threads = threads.clamp(1, 6);
    (0..threads)
        .map(|t| {
            (0..6)
                .filter(|i| i % threads == t)
                .fold(0u8, |mask, i| mask | 1 << i)
        })
        .collect()
}

/// Solves cubes with shared tables. Cheap to clone.
#[derive(Clone)]
pub struct Solver {
    tables: Arc<Tables>,
    /// The axial search's tables, where a robot design will price blocks with them.
    axial: Option<Arc<axial::AxialTables>>,
}

impl Solver {
    pub fn new(tables: Arc<Tables>) -> Solver {
        Solver {
            tables,
            axial: None,
        }
    }

    /// This solver, carrying the axial search's tables for a robot planner to price.
    pub fn with_axial_tables(self, axial: Arc<axial::AxialTables>) -> Solver {
        Solver {
            axial: Some(axial),
            ..self
        }
    }

    /// The axial search's tables, if loaded.
    pub fn axial_tables(&self) -> Option<&Arc<axial::AxialTables>> {
        self.axial.as_ref()
    }

    /// The tables this solver searches with.
    pub fn tables(&self) -> &Tables {
        &self.tables
    }

    /// Calls `on_solution` with every solution found within the budget, each
    /// shorter than the one before (with `alternatives`, also as long).
    /// A solved cube gets one empty solution.
    pub fn search(
        &self,
        cube: &CubieCube,
        opts: &SearchOptions,
        mut on_solution: impl FnMut(&[Turn]) -> Flow,
    ) -> Result<SearchStats, SolveError> {
        cube.check()?;
        if cube.is_solved() {
            on_solution(&[]);
            return Ok(SearchStats {
                solutions: 1,
                exhausted: true,
                ..SearchStats::default()
            });
        }
        let deadline = std::time::Instant::now() + opts.budget;
        let mut short = optimal::Optimal::new(&self.tables, deadline);
        if short.lower_bound(cube) <= optimal::SHORT_DEPTH {
            if let Some(s) = short.solve(cube) {
                on_solution(&s);
                return Ok(SearchStats {
                    solutions: 1,
                    exhausted: true,
                    ..SearchStats::default()
                });
            }
        }
        Ok(search::Search::new(&self.tables, opts, &mut on_solution).run(cube))
    }

    /// The shortest solution found within `budget`, on [`SOLVE_THREADS`] threads.
    pub fn solve(&self, cube: &CubieCube, budget: Duration) -> Result<Vec<Turn>, SolveError> {
        let opts = SearchOptions {
            budget,
            ..SearchOptions::default()
        };
        self.solve_on_threads(cube, &opts, SOLVE_THREADS)
    }

    /// As [`Solver::solve_with`], the six directions shared by `threads` threads, each with
    /// the whole budget: the shortest of their solutions, ties going to the earlier thread
    /// (under a node budget the same answer however the threads interleave).
    pub fn solve_on_threads(
        &self,
        cube: &CubieCube,
        opts: &SearchOptions,
        threads: usize,
    ) -> Result<Vec<Turn>, SolveError> {
        let shares = direction_shares(threads);
        if shares.len() == 1 {
            return self.solve_with(cube, opts);
        }
        let results = crate::parallel::each_on_its_thread(&shares, |&share| {
            let opts = SearchOptions {
                directions: opts.directions & share,
                ..opts.clone()
            };
            self.solve_with(cube, &opts)
        });
        let mut best: Option<Vec<Turn>> = None;
        let mut failed = None;
        for result in results {
            match result {
                Ok(s) if best.as_ref().is_none_or(|b| s.len() < b.len()) => best = Some(s),
                Ok(_) => {}
                Err(e) => failed = Some(e),
            }
        }
        best.ok_or_else(|| {
            failed.unwrap_or(SolveError::NoSolution {
                max_length: opts.max_length,
            })
        })
    }

    /// The shortest solution found with these options.
    pub fn solve_with(
        &self,
        cube: &CubieCube,
        opts: &SearchOptions,
    ) -> Result<Vec<Turn>, SolveError> {
        let mut best: Option<Vec<Turn>> = None;
        self.search(cube, opts, |s| {
            if best.as_ref().is_none_or(|b| s.len() < b.len()) {
                best = Some(s.to_vec());
            }
            Flow::Continue
        })?;
        best.ok_or(SolveError::NoSolution {
            max_length: opts.max_length,
        })
    }
}

/// Why the solver returned no solution.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    #[error("not a valid cube")]
    InvalidCube(#[from] CubeError),
    #[error("no solution of at most {max_length} turns was found")]
    NoSolution { max_length: usize },
}

impl SolveError {
    /// A short machine-readable name of what went wrong (for JSON output).
    pub fn kind(&self) -> &'static str {
        match self {
            SolveError::InvalidCube(e) => e.kind(),
            SolveError::NoSolution { .. } => "no_solution",
        }
    }
}
