//! `cubed-vision`: reading the cube's colours from camera images (re-exported by `cubed` as `cubed::vision`). `camera` takes the photos, `grid` finds and samples the stickers, `light` holds the colours and the light, `read` turns the readings into a cube or a refusal, `scan` runs it for the daemon, and `recapture` says what to photograph again. All but `camera` are pure (the vision bench that measures them is `cubed-bench`).

#![warn(unreachable_pub)]

use cubed_core::{cube, error_chain, pocket};
use cubed_files::{atomic_file, config_file, named_file};

pub(crate) mod assignment;
pub mod camera;
pub mod grid;
pub mod light;
pub mod read;
pub mod recapture;
pub mod scan;
pub mod scan_file;
