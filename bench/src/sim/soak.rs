//! The soak: many cubes, each solved through its own simulator over a pty with injected
//! faults and an unplug during the solve; totals from the simulators' reports.

use crate::sim::scenario::{program_groups, Scenario};
use cubed::cube::FaceletCube;
use cubed::error_chain::error_chain;
use cubed::link::LinkSettings;
use cubed::robot::ActuatorMap;
use cubed::robot::{Program, RobotModel};
use cubed::sim::faults::FaultPlan;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use std::sync::Arc;
use tokio::sync::Semaphore;
use tokio::task::JoinSet;

/// Totals over every cube.
#[derive(Debug, Clone, Default, Serialize)]
pub struct SoakSummary {
    pub cubes: usize,
    pub solved: usize,
    pub commands_sent: u64,
    pub moves_executed: u64,
    pub moves_lost: u64,
    pub moves_run_twice: u64,
    pub duplicates_rejected: u64,
    pub unplugs: u64,
    pub links_restored: u64,
    pub bytes_corrupted: u64,
    pub bytes_dropped: u64,
    pub failures: Vec<String>,
}

impl SoakSummary {
    /// Every cube solved, nothing lost, nothing run twice.
    pub fn passed(&self) -> bool {
        self.solved == self.cubes
            && self.moves_lost == 0
            && self.moves_run_twice == 0
            && self.failures.is_empty()
    }
}

/// Runs every `(cube, program)` case, `parallel` at a time, with `base` faults plus an
/// unplug at a random command of each solve.
pub async fn run_soak(
    model: &RobotModel,
    cases: Vec<(FaceletCube, Program)>,
    base: &FaultPlan,
    parallel: usize,
    seed: u64,
    mut on_cube: impl FnMut(&SoakSummary),
) -> SoakSummary {
    let map = ActuatorMap::new(model).ok();
    let gate = Arc::new(Semaphore::new(parallel.max(1)));
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut tasks = JoinSet::new();
    let mut summary = SoakSummary {
        cubes: cases.len(),
        ..SoakSummary::default()
    };
    for (index, (cube, program)) in cases.into_iter().enumerate() {
        let commands = map
            .as_ref()
            .and_then(|m| program_groups(m, &program, &model.home()).ok())
            .map_or(2, |g| g.len() as u64);
        let mut faults = base.clone();
        faults.unplug_at_moves = vec![rng.random_range(1..commands.max(2))];
        let scenario = Scenario {
            model: model.clone(),
            cube,
            faults,
            seed: seed.wrapping_add(index as u64),
            speed: 0.0,
            settings: LinkSettings::default(),
            deadline: std::time::Duration::from_secs(60),
        };
        let gate = gate.clone();
        tasks.spawn(async move {
            let _permit = gate.acquire_owned().await;
            (index, scenario.run(&program).await)
        });
    }
    while let Some(joined) = tasks.join_next().await {
        match joined {
            Ok((index, result)) => tally(&mut summary, index, result),
            Err(e) => summary
                .failures
                .push(format!("task failed: {}", error_chain(&e))),
        }
        on_cube(&summary);
    }
    summary
}

fn tally(
    summary: &mut SoakSummary,
    index: usize,
    result: Result<crate::sim::scenario::ScenarioResult, crate::sim::scenario::ScenarioError>,
) {
    let result = match result {
        Ok(result) => result,
        Err(e) => {
            return summary
                .failures
                .push(format!("cube {index}: {e}", e = error_chain(&e)))
        }
    };
    let report = &result.report;
    summary.commands_sent += result.commands as u64;
    summary.moves_executed += report.moves_executed;
    summary.moves_lost += (result.commands as u64).saturating_sub(report.moves_executed);
    summary.moves_run_twice += report.move_ids_run_twice;
    summary.duplicates_rejected += report.duplicates_rejected;
    summary.unplugs += report.unplugs;
    summary.bytes_corrupted += report.bytes_corrupted;
    summary.bytes_dropped += report.bytes_dropped;
    match &result.outcome {
        Ok(outcome) => summary.links_restored += outcome.links_restored as u64,
        Err(e) => {
            let last: Vec<String> = result
                .events
                .iter()
                .rev()
                .take(6)
                .map(|e| format!("{e:?}"))
                .collect();
            summary.failures.push(format!(
                "cube {index}: {e}; last events (newest first): {last:?}",
                e = error_chain(&e)
            ))
        }
    }
    if report.solved {
        summary.solved += 1;
    } else {
        summary.failures.push(format!(
            "cube {index}: not solved, cube {}",
            report.cube.as_deref().unwrap_or("none")
        ));
    }
}
