//! Robot model (config → rules), physics checker, gripper planner, scan plan and robot-aware solution choice. Pure: no I/O except the config loader's file read.

pub(crate) mod actuators;
pub(crate) mod aware;
mod blocks;
pub(crate) mod candidates;
mod capable;
pub(crate) mod config;
pub(crate) mod direction;
pub(crate) mod drive;
pub(crate) mod estimate;
pub(crate) mod graph;
pub(crate) mod heuristic;
pub(crate) mod model;
pub(crate) mod physics;
pub(crate) mod planner;
pub mod pocket_plan;
pub(crate) mod program;
pub(crate) mod recovery;
pub(crate) mod replay;
pub(crate) mod scan;
pub(crate) mod search;
pub(crate) mod select;
mod shipped;
mod violation;
pub mod wiring;

#[cfg(test)]
mod aware_tests;
#[cfg(test)]
mod physics_tests;
#[cfg(test)]
mod tests;

pub use actuators::{ActuatorError, ActuatorMap, EncodedProgram, MotionGroup, Role};
pub use aware::{solve_for_robot, solve_naive, AwareError, AwareSolve};
pub use candidates::AwareOptions;
pub use config::{load_robot, parse_robot, ConfigError};
pub use direction::{Direction, Orientation};
pub use graph::build_progress as graph_build_progress;
pub use model::{RobotModel, RobotState};
pub use physics::Violation;
pub use planner::{Plan, PlanError, Planner};
pub use program::{Action, Program, ProgramDoc, Step};
pub use recovery::{plan_recovery, RecoveryError, RecoveryInput, RecoveryPlan, RecoveryStep};
pub use replay::{replay, view, IllegalStep, PhysicsState, Replay, StepEffect};
pub use scan::ScanPlan;
pub use select::Choice;
pub use shipped::{shipped_design, SHIPPED_DESIGNS};
