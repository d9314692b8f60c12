//! The simulated robot: firmware state machine, mechanics (physics of the robot design),
//! fault injection, and the pseudo-terminal server that makes it a real serial peer.

pub(crate) mod bench;
pub mod faults;
pub(crate) mod firmware;
#[cfg(test)]
mod firmware_tests;
pub mod machine_replay;
pub mod mechanics;
mod mechanics_robot;
pub mod pty;
#[cfg(test)]
mod recovery_witness_tests;
pub mod report;
pub mod rigid;
mod rigid_space;
pub mod scenario;
pub mod soak;
pub mod spawn;

pub use firmware::{FaultRecord, SimFirmware, SimStats};
pub use mechanics::{Mechanics, PhysicsMechanics, PositionTracker};
