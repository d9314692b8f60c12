//! What this firmware is and what its chip offers: the name and version it reports, the
//! RP2040's GPIOs and the ones the Pico board keeps, and its step generator's limits.
//! The robot (which pin drives what, motors, sensors, servos) is not here: the host
//! sends it from the robot design at every connect (`[board]` and the `wiring` tables of
//! `config/robots/*.toml`); wiring: firmware/boards/pico/README.md.

use crate::steps::MAX_STEP_RATE;
use cubed_firmware::Chip;

/// GPIO23 selects the power supply's mode, 24 senses VBUS, 25 drives the LED, 29
/// measures VSYS: none is on the header.
const RESERVED: u32 = (1 << 23) | (1 << 24) | (1 << 25) | (1 << 29);

/// This firmware on the Pico.
pub static CHIP: Chip = Chip {
    name: "cubed-fw-pico",
    version: (0, 3, 0),
    gpio_count: 30,
    reserved_pins: RESERVED,
    max_step_rate: MAX_STEP_RATE,
    // Eight PWM slices of two outputs: GPIO n and n + 16 share one.
    pwm_outputs: 16,
    step_lead_us: crate::steps::LEAD_US,
};
