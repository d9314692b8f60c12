//! Integration tests: one binary, one module per area.

mod cli_cube;
mod common;
mod link;
mod robot;
