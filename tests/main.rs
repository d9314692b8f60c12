//! Integration tests: one binary.
mod robot;
