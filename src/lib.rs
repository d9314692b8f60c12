//! The `cubed` library: cube model, solver, and (as they land) robot planner, vision, link, simulator and daemon.
pub mod atomic_file;
pub mod cli;
pub mod cube;
pub mod daemon;
pub mod link;
pub mod pocket;
pub mod robot;
pub mod sim;
pub mod solver;
pub mod table_cache;
pub mod vision;
pub mod web;
