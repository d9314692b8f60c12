//! The axial search priced for a design: each block's time planned from the design's home state, for designs whose every block leaves the robot as it was (so that time never depends on what came before).

use super::planner::{PlanError, Planner};
use cubed_core::solver::axial::{AxialMove, AxialPrices, AxialSolver, AxialTables, N_AXIAL};
use std::sync::Arc;

/// Each axial move's time on this design, planned alone from home; `None` where some block
/// leaves the robot in another state (a block's time would then depend on what came before).
pub fn axial_prices(planner: &Planner) -> Result<Option<AxialPrices>, PlanError> {
    let home = planner.home();
    let mut price = [0u16; N_AXIAL];
    for (k, slot) in price.iter_mut().enumerate() {
        let turns: Vec<_> = AxialMove::from_index(k).turns().collect();
        let plan = planner.plan(&home, &turns)?;
        if plan.end != home {
            return Ok(None);
        }
        *slot = u16::try_from(plan.total_ms).unwrap_or(u16::MAX);
    }
    Ok(Some(AxialPrices { price }))
}

impl Planner {
    /// This planner with the axial search over `tables`, priced in this design's block times,
    /// where every block leaves the robot as it was (see [`axial_prices`]); unchanged
    /// elsewhere.
    pub fn with_axial(mut self, tables: &Arc<AxialTables>) -> Result<Planner, PlanError> {
        let prices = axial_prices(&self)?;
        self.axial = prices.map(|p| Arc::new(AxialSolver::new(Arc::clone(tables), &p)));
        Ok(self)
    }
}
