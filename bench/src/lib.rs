//! cubed's measuring harness, beside the library it measures: the vision bench's engine
//! (labelled scans split into development and held-out sets, seeded perturbations of readings
//! and photos, the re-capture and the simulated camera measured, for the 3x3 and the 2x2), and
//! the simulator's soak, scenarios and machine replay. The `cubed-bench` binary prints every
//! figure in BENCHMARKS.md.

pub mod measure;
pub mod sim;
