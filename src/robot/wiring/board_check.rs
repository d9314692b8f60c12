//! A design checked offline against a shipped board's chip, exactly as that board's
//! firmware checks it at connect (`check_setup`): what it would refuse, or which of the
//! board's pins stay free.

use super::RobotSetup;
use cubed_firmware::board::pins_of;
use cubed_firmware::{check_setup, Chip, ConfigRefusal};

/// What a board would say to a design at connect.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum BoardVerdict {
    /// It takes the design; these of its pins (not its own, not used) stay free.
    Takes { free_pins: Vec<u8> },
    /// The design gives no wiring: a real board refuses to guess one.
    Unwired,
    /// Its firmware refuses the setup, for this first reason.
    Refuses(ConfigRefusal),
}

/// What `chip`'s firmware would say to `setup`.
pub(crate) fn verdict_on(chip: &Chip, setup: &RobotSetup) -> BoardVerdict {
    if !setup.wired {
        return BoardVerdict::Unwired;
    }
    if let Err(refusal) = check_setup(chip, &setup.machine, &setup.configure) {
        return BoardVerdict::Refuses(refusal);
    }
    let info = chip.info();
    let used: Vec<u8> = pins_of(&setup.machine).map(|(_, _, pin)| pin).collect();
    let free_pins = (0..chip.gpio_count)
        .filter(|pin| !info.reserves(*pin) && !used.contains(pin))
        .collect();
    BoardVerdict::Takes { free_pins }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::robot::{load_robot, ActuatorMap};
    use cubed_firmware::chips::PICO;
    use firmware_protocol::message::{Actuator, SetupKey};
    use firmware_protocol::FixedList;
    use std::path::Path;

    fn setup_of(design: &str) -> RobotSetup {
        let model = load_robot(Path::new(&format!("config/robots/{design}.toml"))).expect("loads");
        let map = ActuatorMap::new(&model).expect("actuators");
        RobotSetup::for_design(&model, &map).expect("a setup")
    }

    #[test]
    fn the_pico_takes_the_four_arm_design_leaving_the_header_pins_it_does_not_use() {
        let BoardVerdict::Takes { free_pins } = verdict_on(&PICO, &setup_of("four-arm")) else {
            panic!("refused");
        };
        // Counted apart from the core: the design file's own pins, against the Pico's
        // header (GP0..=GP22, GP26..=GP28).
        let text = std::fs::read_to_string("config/robots/four-arm.toml").expect("design");
        let mut used: Vec<u8> = Vec::new();
        for line in text.lines().map(str::trim) {
            let Some((key, value)) = line.split_once('=') else {
                continue;
            };
            let key = key.trim();
            let pin_keys = [
                "step", "dir", "home", "jaw", "enable", "estop", "button", "stall",
            ];
            if pin_keys.contains(&key) {
                if let Ok(pin) = value.split('#').next().unwrap_or("").trim().parse::<u8>() {
                    used.push(pin);
                }
            }
        }
        let header: Vec<u8> = (0..=22).chain(26..=28).collect();
        let expected: Vec<u8> = header.into_iter().filter(|p| !used.contains(p)).collect();
        assert_eq!(free_pins, expected, "used by the file: {used:?}");
    }

    #[test]
    fn a_pin_the_pico_keeps_is_refused_naming_the_actuator_and_key() {
        let mut setup = setup_of("four-arm");
        let mut actuators = setup.machine.actuators.as_slice().to_vec();
        let Some(Actuator::Stepper(stepper)) = actuators.get_mut(1) else {
            panic!("actuator 1 is the left rotation's stepper");
        };
        stepper.step_pin = 25;
        setup.machine.actuators = FixedList::from_slice(&actuators, "actuators").expect("fits");
        let verdict = verdict_on(&PICO, &setup);
        assert_eq!(
            verdict,
            BoardVerdict::Refuses(ConfigRefusal::PinReserved {
                actuator: Some(1),
                key: SetupKey::StepPin,
                pin: 25
            })
        );
    }

    #[test]
    fn a_design_without_wiring_is_refused_before_any_pin() {
        let virtual_wiring = RobotSetup {
            wired: false,
            ..setup_of("six-motor")
        };
        assert_eq!(verdict_on(&PICO, &virtual_wiring), BoardVerdict::Unwired);
    }
}
