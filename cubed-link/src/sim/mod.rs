//! The simulated robot: the real firmware core (`firmware/core`) on simulated motors, servos
//! and sensors, a machine model of the robot design of its own, fault injection, and the
//! pseudo-terminal server that makes it a real serial peer.

pub mod bench;
pub(crate) mod board;
mod clock;
pub mod faults;
pub(crate) mod firmware;
#[cfg(test)]
mod firmware_tests;
pub(crate) mod hardware;
pub mod inprocess;
pub(crate) mod mechanics;
mod mechanics_feel;
mod mechanics_robot;
pub mod pico;
pub mod pty;
#[cfg(test)]
mod recovery_witness_tests;
pub mod report;
pub(crate) mod rigid;
mod rigid_space;
pub mod spawn;
mod watch;

pub use board::BoardBuildError;
pub use firmware::FaultRecord;
pub use firmware::SimFirmware;
pub use firmware::SimStats;
pub use mechanics::MechanicalFault;
pub use mechanics::Mechanics;
pub use mechanics_robot::PhysicsMechanics;
