//! Robot model (config → rules), physics checker, gripper planner, scan plan and robot-aware solution choice. Pure: no I/O except the config loader's file read.

pub mod action_words;
pub mod actuators;
pub(crate) mod aware;
mod axial;
mod blocks;
pub(crate) mod candidates;
mod capable;
pub(crate) mod config;
mod cores;
pub(crate) mod direction;
pub mod drive;
pub(crate) mod estimate;
mod floor;
mod gear_ratio;
pub mod graph;
pub(crate) mod heuristic;
pub mod model;
pub mod physics;
pub(crate) mod planner;
pub mod pocket_plan;
pub mod program;
pub(crate) mod reach;
pub(crate) mod recovery;
pub mod replay;
pub(crate) mod scan;
pub(crate) mod search;
pub(crate) mod select;
mod shipped;
mod steps;
mod violation;
pub mod wiring;

#[cfg(test)]
mod aware_tests;
#[cfg(test)]
mod axial_tests;
#[cfg(test)]
mod heuristic_tests;
#[cfg(test)]
mod physics_tests;
#[cfg(test)]
mod steps_tests;
#[cfg(test)]
mod tests;

pub use actuators::ActuatorError;
pub use actuators::ActuatorMap;
pub use actuators::EncodedProgram;
pub use actuators::MotionGroup;
pub use actuators::Role;
pub use aware::solve_for_robot;
pub use aware::solve_naive;
pub use aware::AwareError;
pub use aware::AwareSolve;
pub use axial::axial_prices;
pub use candidates::AwareOptions;
pub use config::{
    load_robot, load_robot_for, parse_robot, planner_memory_limit, BadMemoryLimit, ConfigError,
};
pub use direction::{Direction, Orientation};
pub use drive::StepLimit;
pub use floor::{FloorError, TimeFloor, POSITIONS};
pub use graph::build::build_progress as graph_build_progress;
pub use graph::memory::{MemoryLimit, TooManyStates, PLANNER_MEMORY_VAR};
pub use model::{RobotModel, RobotState};
pub use physics::Violation;
pub use planner::Plan;
pub use planner::PlanError;
pub use planner::Planner;
pub use program::{Action, Program, ProgramDoc, Step};
pub use recovery::plan_recovery;
pub use recovery::RecoveryError;
pub use recovery::RecoveryInput;
pub use recovery::RecoveryPlan;
pub use recovery::RecoveryStep;
pub use replay::replay;
pub use replay::view;
pub use replay::IllegalStep;
pub use replay::PhysicsState;
pub use replay::Replay;
pub use scan::ScanPlan;
pub use select::Choice;
pub use shipped::shipped_design;
pub use shipped::SHIPPED_DESIGNS;
