//! `BoardInfo`: what the firmware's chip offers, so that the host can say what a design
//! may use (the firmware refuses the rest itself).

use crate::wire::{Reader, Writer};
use crate::Error;

/// Bytes of a `BoardInfo` payload.
pub const BOARD_INFO_LEN: usize = 14;

/// The chip's pins and step generator (`BoardInfo` payload: gpio_count u8, max_actuators
/// u8, reserved_pins u32, max_step_rate u32, step_lead_us u32).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ChipInfo {
    /// GPIO numbers `0..gpio_count` exist.
    pub gpio_count: u8,
    /// Most actuators the firmware drives.
    pub max_actuators: u8,
    /// Bit `n` set: GPIO `n` is the board's own (LED, power sensing, flash…) and may not
    /// be wired to the robot.
    pub reserved_pins: u32,
    /// Most steps per second one stepper's step generator makes.
    pub max_step_rate: u32,
    /// How far ahead of their time steps are queued, µs (0: pulsed as they come due).
    pub step_lead_us: u32,
}

impl ChipInfo {
    /// Whether GPIO `pin` exists on this chip.
    pub const fn has_pin(&self, pin: u8) -> bool {
        pin < self.gpio_count
    }

    /// Whether GPIO `pin` is the board's own.
    pub const fn reserves(&self, pin: u8) -> bool {
        pin < 32 && self.reserved_pins & (1 << pin) != 0
    }

    pub(crate) fn write(&self, w: &mut Writer<'_>) -> Result<(), Error> {
        self.validate()?;
        w.u8(self.gpio_count)?;
        w.u8(self.max_actuators)?;
        w.u32(self.reserved_pins)?;
        w.u32(self.max_step_rate)?;
        w.u32(self.step_lead_us)
    }

    pub(crate) fn read(payload: &[u8], message_type: u8) -> Result<Self, Error> {
        let mut r = Reader::exact(payload, message_type, BOARD_INFO_LEN)?;
        let info = ChipInfo {
            gpio_count: r.u8()?,
            max_actuators: r.u8()?,
            reserved_pins: r.u32()?,
            max_step_rate: r.u32()?,
            step_lead_us: r.u32()?,
        };
        info.validate()?;
        Ok(info)
    }

    fn validate(&self) -> Result<(), Error> {
        let bad = |field, value: i64| Err(Error::BadValue { field, value });
        if self.gpio_count == 0 || self.gpio_count > 32 {
            return bad("gpio_count", self.gpio_count.into());
        }
        if self.max_actuators == 0 || usize::from(self.max_actuators) > super::MAX_ACTUATORS {
            return bad("max_actuators", self.max_actuators.into());
        }
        Ok(())
    }
}
