//! The cube size a design sweep runs on (`--size`): its solver, its random cubes and their
//! naive and robot-aware plans, the positions a floor counts against, and what solved
//! means on the simulator's machine (a 2x2 rides in the corners of the machine's 3x3,
//! `PocketFacelets::to_3x3`).

use anyhow::Context;
use cubed::command_line::tables::TableArgs;
use cubed::cube::random::random_cube;
use cubed::cube::{CubieCube, FaceletCube};
use cubed::pocket::{random_pocket, Metric, PocketFacelets, PocketSolver};
use cubed::robot::pocket_plan::PocketAwareOptions;
use cubed::robot::pocket_plan::{check_holds_a_2x2, pocket_naive, solve_pocket_for_robot};
use cubed::robot::{solve_for_robot, solve_naive, AwareOptions, Plan, Planner, RobotModel};
use cubed::robot::{RobotState, POSITIONS};
use cubed::sim::PhysicsMechanics;
use cubed::solver::{Budget, Solver};
use rand_chacha::ChaCha8Rng;
use std::time::Duration;

/// The solver of the size asked for.
pub enum SizedCubes {
    Three(Solver),
    Two(PocketSolver),
}

/// One random cube as the machine holds it at home (a 2x2 as its 3x3's corners), and its
/// naive plan: the solver's solution, each turn planned alone.
pub struct NaiveTrial {
    pub cube: FaceletCube,
    pub naive: Plan,
}

impl SizedCubes {
    /// `--size` (2 or 3) with its tables loaded or built.
    pub fn new(size: u8, tables: &TableArgs) -> SizedCubes {
        match size {
            2 => SizedCubes::Two(tables.pocket_solver()),
            _ => SizedCubes::Three(tables.solver()),
        }
    }

    /// "uniformly random cube" or "... 2x2", singular and plural.
    pub fn words(&self) -> (&'static str, &'static str) {
        match self {
            SizedCubes::Three(_) => ("uniformly random cube", "uniformly random cubes"),
            SizedCubes::Two(_) => ("uniformly random 2x2", "uniformly random 2x2s"),
        }
    }

    /// The positions a floor counts against.
    pub fn positions(&self) -> f64 {
        match self {
            SizedCubes::Three(_) => POSITIONS,
            SizedCubes::Two(_) => cubed::pocket::POSITIONS as f64,
        }
    }

    /// Why `model` cannot hold a cube of this size, if it cannot (a 2x2 has no centre caps).
    pub fn refusal(&self, model: &RobotModel) -> Option<String> {
        match self {
            SizedCubes::Three(_) => None,
            SizedCubes::Two(_) => check_holds_a_2x2(model).err().map(|e| e.to_string()),
        }
    }

    /// The next random cube and its naive plan.
    pub fn naive(
        &self,
        planner: &Planner,
        start: &RobotState,
        rng: &mut ChaCha8Rng,
    ) -> anyhow::Result<NaiveTrial> {
        Ok(match self {
            SizedCubes::Three(solver) => {
                let cube = random_cube(rng);
                let naive = solve_naive(planner, solver, start, &cube).context("naive plan")?;
                NaiveTrial {
                    cube: cube.to_facelets(),
                    naive,
                }
            }
            SizedCubes::Two(solver) => {
                let facelets = random_pocket(rng).to_facelets();
                let naive = pocket_naive(planner, solver, start, &facelets, Metric::Htm)
                    .context("naive plan")?;
                NaiveTrial {
                    cube: facelets.to_3x3(),
                    naive,
                }
            }
        })
    }

    /// The robot-aware plan of `cube` (as [`SizedCubes::naive`] gave it), in `budget`.
    pub fn aware(
        &self,
        planner: &Planner,
        start: &RobotState,
        cube: &FaceletCube,
        budget: Duration,
    ) -> anyhow::Result<Plan> {
        let plan = match self {
            SizedCubes::Three(solver) => {
                let cube = CubieCube::from_facelets(cube).context("the random cube reads back")?;
                let opts = AwareOptions {
                    budget: Budget::Time(budget),
                    ..AwareOptions::default()
                };
                solve_for_robot(planner, solver, start, &cube, &opts)?.plan
            }
            SizedCubes::Two(solver) => {
                let opts = PocketAwareOptions {
                    budget: Budget::Time(budget),
                    ..PocketAwareOptions::default()
                };
                let facelets = PocketFacelets::from_3x3(cube);
                solve_pocket_for_robot(planner, solver, start, &facelets, &opts)?
            }
        };
        Ok(plan)
    }

    /// Whether the machine's cube is solved: a 2x2's stickers are its 3x3's corners (whose
    /// edges the 2x2's turns leave scrambled).
    pub fn solved(&self, mechanics: &PhysicsMechanics) -> bool {
        match self {
            SizedCubes::Three(_) => mechanics.cube_solved(),
            SizedCubes::Two(_) => PocketFacelets::from_3x3(&mechanics.machine.cube).is_solved(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cubed::pocket::{PocketSolver, PocketTables};
    use cubed::robot::ActuatorMap;
    use std::sync::Arc;

    fn on_machine(cube: &FaceletCube) -> PhysicsMechanics {
        let model = cubed::robot::shipped_design("four-arm").expect("four-arm loads");
        let map = ActuatorMap::new(&model).expect("fits the protocol");
        PhysicsMechanics::new(model, map, cube)
    }

    #[test]
    fn a_2x2_is_solved_by_its_corners_alone_and_a_3x3_by_every_sticker() {
        let two = SizedCubes::Two(PocketSolver::new(Arc::new(PocketTables::build())));
        // Corners solved, two edge stickers of U and R swapped (U2 and R2).
        let mut edges_off = FaceletCube::default();
        edges_off.stickers.swap(1, 10);
        assert!(two.solved(&on_machine(&edges_off)));
        assert!(
            !on_machine(&edges_off).cube_solved(),
            "the 3x3 check sees the edges"
        );
        // A corner sticker out of place: U9 (UFR's) with R1 (also UFR's: a twist).
        let mut corner_off = FaceletCube::default();
        corner_off.stickers.swap(8, 9);
        assert!(!two.solved(&on_machine(&corner_off)));
        assert!(two.solved(&on_machine(&FaceletCube::default())));
    }
}
