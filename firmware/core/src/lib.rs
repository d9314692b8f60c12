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
pub mod examples;
mod firmware;
mod inputs;
mod observe;
pub mod queue;
pub mod ramp;
mod run;
mod servo;
mod stepper;

pub use board::{check_machine, stepper_move_time_us, Chip};
pub use check::{check_configure, home_fits, motion_fits, motion_mask};
pub use firmware::{Counters, FaultCause, Firmware, NOTIFY_WINDOW, QUEUE_DEPTH, RX_WINDOW};
pub use firmware_protocol::message::{
    Actuator, BoardSetup, ChipInfo, ConfigRefusal, HomeSensor, Machine, SensorKind, Servo, Signal,
    Stepper,
};
pub use observe::Activity;
pub use stepper::StepperFault;

/// The board's outputs. Direction is set before a move's first step (each step is at
/// least a few µs after it); `step` is one pulse (high then low, as the driver needs).
///
/// A board whose steps are timed by hardware (a timer alarm) gets each ramp step up to
/// the board's `step_lead_us` ahead of its time and pulses it at that time; the core
/// changes a stepper's direction only once its scheduled steps are all issued, and asks
/// for the ones not yet issued back when it stops.
pub trait Pins {
    /// Enables or disables a stepper driver (actuator index).
    fn set_enable(&mut self, actuator: u8, enabled: bool);
    /// Sets a stepper's direction pin level (already inverted per the board config).
    fn set_dir(&mut self, actuator: u8, high: bool);
    /// One step pulse at `at_us` (the board's clock): now, or up to the board's
    /// `step_lead_us` later. A board that pulses at once may ignore the time.
    fn step(&mut self, actuator: u8, at_us: u64);
    /// Drops the steps of `actuator` scheduled and not yet issued; returns how many.
    fn cancel_steps(&mut self, actuator: u8) -> u32 {
        let _ = actuator;
        0
    }
    /// Sets a servo's pulse width, µs (repeated at 50 Hz by the board's PWM).
    fn set_servo(&mut self, actuator: u8, pulse_us: u16);
    /// Wires the board's pins for `machine` (called once a new machine is accepted,
    /// before any other call for it): outputs for STEP, DIR, ENABLE (drivers off) and
    /// the servos (no pulse), inputs for the sensors and switches; pins of the previous
    /// machine released. A board whose pins are fixed may ignore it.
    fn apply(&mut self, machine: &Machine) {
        let _ = machine;
    }
}
