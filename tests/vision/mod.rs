//! Integration tests of vision: real scans, real photos, robustness, simulated camera, CLI.

mod real_scans;
