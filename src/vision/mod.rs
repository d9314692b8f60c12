//! Vision: reading the cube's colours from camera images. `camera` takes the photos, `grid` finds and samples the stickers, `light` holds the colours and the light, `read` turns the readings into a cube or a refusal, `scan` runs it for the daemon, and `recapture` says what to photograph again. All but `camera` are pure (the vision bench that measures them is `cubed-bench`).

pub mod camera;
pub mod grid;
pub mod light;
pub mod read;
pub mod recapture;
pub mod scan;
pub mod scan_file;
