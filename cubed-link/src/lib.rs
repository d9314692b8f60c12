//! cubed's serial link to the robot's firmware ([`link`]) and the simulated robot at its other
//! end ([`sim`]): the code whose timing is real (protocol timeouts, the firmware's comms
//! watchdog, a pseudo-terminal's bytes), kept in a crate of its own so that it is built
//! optimised wherever the daemon above it is not. The `cubed` crate re-exports both modules.

#![warn(unreachable_pub)]

// The robot's designs, under the name the modules moved here knew them by.
use cubed_robot as robot;

pub mod link;
pub mod sim;
