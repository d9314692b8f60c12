//! The chips the shipped boards run on, each described once: a board crate runs its
//! firmware on its entry here, and the host checks a robot design against it offline
//! (`cubed config wiring --board NAME`) with the same [`crate::check_setup`] the firmware
//! runs at connect.

use crate::board::Chip;

/// GPIO23 selects the Pico's power supply mode, 24 senses VBUS, 25 drives the LED, 29
/// measures VSYS: none is on the header.
const PICO_RESERVED: u32 = (1 << 23) | (1 << 24) | (1 << 25) | (1 << 29);

/// The Raspberry Pi Pico's firmware (`firmware/boards/pico`): the RP2040's 30 GPIOs, the
/// board's own kept, steps handed 2 ms ahead to the timer interrupt that pulses them (its
/// per-stepper queue sets the top rate), eight PWM slices of two outputs (GPIO n and
/// n + 16 share one).
pub const PICO: Chip = Chip {
    name: "cubed-fw-pico",
    version: (0, 3, 0),
    gpio_count: 30,
    reserved_pins: PICO_RESERVED,
    max_step_rate: 15_000,
    pwm_outputs: 16,
    step_lead_us: 2_000,
};

/// Every shipped board by the name a builder gives (`--board`), with what it is.
pub const SHIPPED: [(&str, &str, &Chip); 1] = [("pico", "Raspberry Pi Pico", &PICO)];

/// The shipped board called `name`: its name, what it is, its chip.
pub fn shipped(name: &str) -> Option<(&'static str, &'static str, &'static Chip)> {
    SHIPPED.into_iter().find(|(known, _, _)| *known == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_picos_kept_pins_exist_and_leave_its_header_free() {
        let info = PICO.info();
        for pin in [23, 24, 25, 29] {
            assert!(info.has_pin(pin) && info.reserves(pin), "GP{pin}");
        }
        // The header's GP0..=GP22, GP26..=GP28 stay for the robot.
        let free = (0..PICO.gpio_count).filter(|&p| !info.reserves(p)).count();
        assert_eq!(free, 26);
        assert!(!info.has_pin(30));
        assert_eq!(shipped("pico").map(|(_, _, chip)| chip), Some(&PICO));
        assert_eq!(shipped("uno"), None);
    }
}
