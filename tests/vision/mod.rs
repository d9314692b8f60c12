//! Integration tests of vision: real scans, real photos, robustness, simulated camera, CLI.

mod cli;
mod config_files;
mod held_out_photos;
mod photos;
mod real_scans;
mod sim_camera;
