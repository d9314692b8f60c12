//! The emulated Pico's trace, read back by the harness (`cubed_bench::sim::pico_trace`, built
//! optimised), and the four-arm machine the tests' emulator models.

pub use cubed_bench::sim::pico_trace::*;

/// The four-arm design's machine, as the emulator reads its wiring.
pub fn four_arm_machine() -> Machine {
    Machine::from_wiring_json(&super::emulator::four_arm_wiring_json())
}
