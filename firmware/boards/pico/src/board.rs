//! What this firmware is and what its chip offers: the Pico's entry among the shipped
//! chips (`cubed_firmware::chips::PICO`: the name and version it reports, the RP2040's
//! GPIOs and the ones the Pico board keeps, its step generator's limits), described
//! there once so the host checks a design against it offline too.
//! The robot (which pin drives what, motors, sensors, servos) is not here: the host
//! sends it from the robot design at every connect (`[board]` and the `wiring` tables of
//! `config/robots/*.toml`); wiring: firmware/boards/pico/README.md.

use cubed_firmware::Chip;

/// This firmware on the Pico.
pub static CHIP: Chip = cubed_firmware::chips::PICO;
