//! Robot model (config → rules), physics checker, gripper planner, scan plan and robot-aware solution choice. Pure: no I/O except the config loader's file read.

pub mod aware;
pub mod candidates;
pub mod config;
pub(crate) mod config_syntax;
pub mod direction;
pub mod estimate;
pub mod graph;
pub mod heuristic;
pub mod model;
pub mod physics;
pub mod planner;
pub mod pocket_plan;
pub mod program;
pub mod replay;
pub mod scan;
pub mod search;
pub mod select;
mod violation;

#[cfg(test)]
mod aware_tests;
#[cfg(test)]
mod physics_tests;
#[cfg(test)]
mod tests;

pub use aware::{solve_for_robot, solve_naive, AwareError, AwareOptions, AwareSolve};
pub use config::{load_robot, parse_robot, ConfigError};
pub use direction::{Direction, Orientation};
pub use model::{RobotModel, RobotState};
pub use physics::{replay, view, IllegalStep, PhysicsState, Replay, StepEffect, Violation};
pub use planner::{Plan, PlanError, Planner};
pub use program::{Action, Program, ProgramDoc, Step};
pub use scan::ScanPlan;
pub use select::Choice;
