//! Integration tests: one binary.
mod vision;
