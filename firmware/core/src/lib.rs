//! The cubed robot firmware's whole brain as a pure, `no_std`, allocation-free state
//! machine: time (µs), received bytes and input levels in; bytes, step/dir/enable edges
//! and servo pulse widths out.
//!
//! A board's main loop is tiny:
//!
//! ```
//! use cubed_firmware::{Chip, Firmware, Pins};
//! # struct NoPins;
//! # impl Pins for NoPins {
//! #     fn set_enable(&mut self, _: u8, _: bool) {}
//! #     fn set_dir(&mut self, _: u8, _: bool) {}
//! #     fn step(&mut self, _: u8, _: u64) {}
//! #     fn set_servo(&mut self, _: u8, _: u16) {}
//! # }
//! # static CHIP: Chip = cubed_firmware::examples::EXAMPLE_CHIP;
//! # let (now_us, mut pins) = (0, NoPins);
//! let mut firmware = Firmware::new(&CHIP, now_us);
//! // loop {
//! #   let received: &[u8] = &[];
//!     for &byte in received { firmware.on_byte(now_us, byte); }
//!     // firmware.set_input(index, level) for each home sensor / switch that changed
//!     let _next_deadline_us = firmware.poll(now_us, &mut pins);
//!     while let Some(byte) = firmware.pop_tx() { /* write byte to the serial port */ let _ = byte; }
//!     // sleep until the deadline or the next received byte
//! // }
//! ```
//!
//! The link follows PROTOCOL.md §9–10 (next to the `firmware-protocol` crate): handshake,
//! the robot's hardware sent by the host (`SetupBoard`, `SetupActuator`) and applied with
//! the `Configure` after it, both checked against the chip (`ConfigureRefused` naming the
//! actuator and key if they cannot be honoured),
//! a queue of up to [`QUEUE_DEPTH`] commands, `MoveDone` for each, e-stop, latched faults.
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod board;
mod check;
pub mod chips;
pub mod examples;
mod firmware;
mod inputs;
mod observe;
mod pins;
pub mod queue;
pub mod ramp;
mod run;
mod servo;
mod stepper;

pub use board::{check_machine, stepper_move_time_us, Chip};
pub use check::{check_configure, check_setup, home_fits, motion_fits, motion_mask};
pub use firmware::{Counters, FaultCause, Firmware, NOTIFY_WINDOW, QUEUE_DEPTH, RX_WINDOW};
pub use firmware_protocol::message::{
    Actuator, BoardSetup, ChipInfo, ConfigRefusal, HomeSensor, Machine, SensorKind, Servo, Signal,
    Stepper,
};
pub use observe::Activity;
pub use pins::Pins;
pub use stepper::StepperFault;
