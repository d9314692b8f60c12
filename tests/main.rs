//! Integration tests: one binary, one module per area.

mod cli_cube;
mod common;
mod robot;
mod vision;
