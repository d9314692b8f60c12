//! The axial search: a two-phase search whose moves are blocks (one face, or two opposite faces turned together) and whose cost is a robot's price for each block, for robots that turn opposite faces at once.

mod bytes;
mod moves;
mod search;
mod tables;
#[cfg(test)]
mod tests;

pub use bytes::AXIAL_FORMAT_VERSION;
pub use moves::{AxialMove, AxialPrices, N_AXIAL};
pub use search::{search_axial, AxialOptions, AxialStats, PricedSet};
pub use tables::AxialTables;

use crate::cube::{CubieCube, Turn};
use crate::solver::{Flow, SolveError};
use std::sync::Arc;

/// The axial search for one robot's prices: shared tables and this robot's phase-2 price
/// tables. Cheap to clone.
#[derive(Clone)]
pub struct AxialSolver {
    tables: Arc<AxialTables>,
    prices: AxialPrices,
    priced: Arc<PricedSet>,
}

impl std::fmt::Debug for AxialSolver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AxialSolver")
            .field("unit", &self.priced.unit)
            .finish_non_exhaustive()
    }
}

impl AxialSolver {
    /// The search for `prices` over `tables` (builds the phase-2 price tables: well under a
    /// second).
    pub fn new(tables: Arc<AxialTables>, prices: &AxialPrices) -> AxialSolver {
        let priced = Arc::new(PricedSet::build(&tables, prices));
        AxialSolver {
            tables,
            prices: prices.clone(),
            priced,
        }
    }

    /// The prices it searches by.
    pub fn prices(&self) -> &AxialPrices {
        &self.prices
    }

    /// Calls `on_solution(turns, price)` with each solution cheaper than every one before.
    pub fn search(
        &self,
        cube: &CubieCube,
        opts: &AxialOptions,
        on_solution: impl FnMut(&[Turn], u32) -> Flow,
    ) -> Result<AxialStats, SolveError> {
        cube.check()?;
        Ok(search_axial(
            &self.tables,
            &self.priced,
            cube,
            opts,
            on_solution,
        ))
    }
}
