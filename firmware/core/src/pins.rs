//! The board's outputs as the core drives them: the `Pins` trait a board implements (enable, direction, timed steps, servo pulses, wiring for a machine).

use firmware_protocol::message::Machine;

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
