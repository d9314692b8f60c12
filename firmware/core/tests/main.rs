//! Integration tests of the firmware core: a simulated board (motors, magnets, hall
//! sensors) written here independently of the core, driven through the public API.

mod rig;

mod drivers;
mod faults;
mod homing;
mod lead;
mod motion;
mod robustness;
mod session;
mod setup;
