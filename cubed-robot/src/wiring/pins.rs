//! The pins of one gripper or flipper, as its design's `wiring` table gives them (types
//! only: the robot model holds them, the rest of `wiring` reads them).

use firmware_protocol::message::{HomeSensor, Signal};

/// A jaw servo's signal pin and pulse widths.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JawWiring {
    pub pin: u8,
    pub open_us: u16,
    pub closed_us: u16,
}

/// A stepper driver's STEP and DIR inputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MotorPins {
    pub step: u8,
    pub dir: u8,
}

/// One gripper's or flipper's wiring: its stepper driver's pins (none for a gripper
/// that never turns), its jaw servo, its home sensor and stall output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ActuatorWiring {
    pub motor: Option<MotorPins>,
    pub invert_dir: bool,
    pub jaw: Option<JawWiring>,
    pub home: Option<HomeSensor>,
    pub stall: Option<Signal>,
}
