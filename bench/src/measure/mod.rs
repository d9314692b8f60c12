//! Measuring the reader (the vision bench's engine): the labelled scans split into development and held-out sets, seeded perturbations of readings and photos, the re-capture and the simulated camera measured, for the 3x3 and the 2x2.

pub mod evaluate;
pub mod frames;
pub mod perturb;
pub mod perturb_photo;
pub mod pocket;
pub mod pocket_frames;
pub mod recapture;
pub mod sim;
