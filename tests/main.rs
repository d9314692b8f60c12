//! Integration tests: one binary, one module per area.

mod browser;
mod cli_cube;
mod cli_moves;
mod cli_pocket;
mod cli_steps;
mod common;
mod config_discovery;
mod config_files;
mod daemon;
mod exec_cli;
mod firmware_timing;
mod link;
mod link_handshake;
mod memory_group;
mod pico;
mod plan_cli;
mod readme;
mod robot;
mod vision;
