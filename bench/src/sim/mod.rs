//! Whole programs run through the simulator: one scenario end to end over a pty, the soak of many with injected faults, and a program replayed on the simulator's own machine, and the emulated Pico's trace read back.

pub mod machine_replay;
pub mod pico_trace;
pub mod scenario;
pub mod soak;
