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

/// The axial search for this design over `tables`, if the design is one it prices exactly.
pub(crate) fn axial_solver(
    planner: &Planner,
    tables: &Arc<AxialTables>,
) -> Result<Option<Arc<AxialSolver>>, PlanError> {
    Ok(
        axial_prices(planner)?
            .map(|prices| Arc::new(AxialSolver::new(Arc::clone(tables), &prices))),
    )
}
