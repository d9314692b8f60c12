//! A design checked offline against a shipped board's chip, exactly as that board's
//! firmware checks it at connect (`check_setup`): what it would refuse, or which of the
//! board's pins stay free.

use super::RobotSetup;
use crate::actuators::{ActuatorMap, Role};
use crate::model::RobotModel;
use cubed_firmware::board::pins_of;
use cubed_firmware::{check_setup, Chip, ConfigRefusal};
use firmware_protocol::message::{SetupKey, TimedMove};

/// What a board would say to a design at connect.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BoardVerdict {
    /// It takes the design; these of its pins (not its own, not used) stay free.
    Takes { free_pins: Vec<u8> },
    /// The design gives no wiring: a real board refuses to guess one.
    Unwired,
    /// Its firmware refuses the setup, for this first reason.
    Refuses(ConfigRefusal),
}

/// What `chip`'s firmware would say to `setup`.
pub fn verdict_on(chip: &Chip, setup: &RobotSetup) -> BoardVerdict {
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

/// Where the cause of `refusal` is written in the design file: the section as validation
/// messages name it (`[[gripper]] #2 'right' wiring`, `[board]`) and the key; `None` for a
/// cause no one key holds (the number of actuators, a setup the firmware lost).
pub fn refusal_place(
    model: &RobotModel,
    map: &ActuatorMap,
    refusal: &ConfigRefusal,
) -> Option<(String, &'static str)> {
    let (actuator, key) = match *refusal {
        ConfigRefusal::OutOfRange { actuator, key, .. }
        | ConfigRefusal::PinTaken { actuator, key, .. }
        | ConfigRefusal::NoSuchPin { actuator, key, .. }
        | ConfigRefusal::PinReserved { actuator, key, .. } => (actuator, key),
        ConfigRefusal::PwmShared { actuator, .. } => (Some(actuator), SetupKey::ServoPin),
        ConfigRefusal::TooFast {
            actuator, timed, ..
        } => return own_key(model, map, actuator, timed_key(timed)),
        ConfigRefusal::ContinuousWithoutSensor { actuator }
        | ConfigRefusal::RangeBeyondTravel { actuator } => {
            return own_key(model, map, actuator, "range")
        }
        _ => return None,
    };
    let Some(actuator) = actuator else {
        return Some(("[board]".to_string(), board_key(key)?));
    };
    let (table, key) = actuator_key(key)?;
    let section = actuator_section(model, map, actuator)?;
    Some((
        table.map_or(section.clone(), |t| format!("{section} {t}")),
        key,
    ))
}

/// `key` of the actuator's own table.
fn own_key(
    model: &RobotModel,
    map: &ActuatorMap,
    actuator: u8,
    key: &'static str,
) -> Option<(String, &'static str)> {
    Some((actuator_section(model, map, actuator)?, key))
}

/// "[[gripper]] #2 'right'": the table of the gripper or flipper that firmware actuator
/// `actuator` belongs to.
fn actuator_section(model: &RobotModel, map: &ActuatorMap, actuator: u8) -> Option<String> {
    let (kind, index, name) = match map.roles.get(usize::from(actuator))? {
        Role::Jaw { gripper } | Role::Rotation { gripper } => {
            ("gripper", *gripper, &model.grippers.get(*gripper)?.name)
        }
        Role::Flipper { flipper } => ("flipper", *flipper, &model.flippers.get(*flipper)?.name),
    };
    Some(format!("[[{kind}]] #{} '{name}'", index + 1))
}

/// The design key that gives the time of a timed move.
fn timed_key(timed: TimedMove) -> &'static str {
    match timed {
        TimedMove::QuarterTurn => "quarter_ms",
        TimedMove::HalfTurn => "half_ms",
        TimedMove::FlipperStep => "flip_ms",
        TimedMove::Jaw => "open_ms",
    }
}

/// "[[gripper]] #2 'right' [gripper.wiring] (line 58): key 'step'": where `text`, the
/// design file, writes what `refusal` refuses (validation errors place keys the same way).
pub fn refusal_placed_in(
    text: &str,
    model: &RobotModel,
    map: &ActuatorMap,
    refusal: &ConfigRefusal,
) -> Option<String> {
    let (section, key) = refusal_place(model, map, refusal)?;
    let (named, line) = cubed_files::config_file::locate::locate_key(text, &section, key)?;
    Some(format!("{named} (line {line}): key '{key}'"))
}

/// The `[board]` key of a setup key of the board itself.
fn board_key(key: SetupKey) -> Option<&'static str> {
    Some(match key {
        SetupKey::Enable => "enable",
        SetupKey::Estop => "estop",
        SetupKey::Button => "button",
        SetupKey::DebounceSamples => "debounce_samples",
        SetupKey::IdleDisableMs => "idle_disable_ms",
        _ => return None,
    })
}

/// The sub-table (`wiring`, `motion`, or the actuator's own table) and key of an actuator's
/// setup key.
fn actuator_key(key: SetupKey) -> Option<(Option<&'static str>, &'static str)> {
    let wiring = |k| Some((Some("wiring"), k));
    let motion = |k| Some((Some("motion"), k));
    match key {
        SetupKey::StepPin => wiring("step"),
        SetupKey::DirPin => wiring("dir"),
        SetupKey::HomePin => wiring("home"),
        SetupKey::StallPin => wiring("stall"),
        SetupKey::ServoPin => wiring("jaw"),
        SetupKey::OpenUs => wiring("jaw_open_us"),
        SetupKey::ClosedUs => wiring("jaw_closed_us"),
        SetupKey::SeekDegS => wiring("home_seek_deg_s"),
        SetupKey::ApproachDegS => wiring("home_approach_deg_s"),
        SetupKey::BackoffDeg => wiring("home_backoff_deg"),
        SetupKey::MaxSeekDeg => wiring("home_max_seek_deg"),
        SetupKey::FullStepsPerRev => motion("full_steps_per_rev"),
        SetupKey::Microsteps => motion("microsteps"),
        SetupKey::Gear => motion("gear"),
        SetupKey::MaxDegS => motion("max_deg_s"),
        SetupKey::AccelDegS2 => motion("accel_deg_s2"),
        SetupKey::TravelMs => Some((None, "open_ms")),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{load_robot, ActuatorMap};
    use cubed_firmware::chips::PICO;
    use firmware_protocol::message::Actuator;
    use firmware_protocol::FixedList;
    use std::path::{Path, PathBuf};

    /// A shipped design's file in the workspace's `config/robots`.
    fn design_file(design: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../config/robots/{design}.toml"))
    }

    fn setup_of(design: &str) -> RobotSetup {
        let model = load_robot(&design_file(design)).expect("loads");
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
        let text = std::fs::read_to_string(design_file("four-arm")).expect("design");
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
    fn every_pin_a_board_could_refuse_is_placed_at_the_line_that_writes_it() {
        for design in ["four-arm", "turntable-flipper", "six-motor"] {
            let path = design_file(design);
            let model = load_robot(&path).expect("loads");
            let map = ActuatorMap::new(&model).expect("actuators");
            let setup = RobotSetup::for_design(&model, &map).expect("a setup");
            let text = std::fs::read_to_string(&path).expect("design");
            let mut placed = 0;
            for (actuator, key, pin) in pins_of(&setup.machine) {
                let refusal = ConfigRefusal::PinReserved { actuator, key, pin };
                let (section, name) = refusal_place(&model, &map, &refusal).expect("placed");
                let (_, line) = cubed_files::config_file::locate::locate_key(&text, &section, name)
                    .unwrap_or_else(|| panic!("{design}: {section} {name} not found"));
                // The file's own line, read apart from the parser: `key = pin`.
                let written = text.lines().nth(line - 1).expect("the line").trim();
                assert!(
                    written.starts_with(&format!("{name} = {pin}")),
                    "{design}: {section} {name}: line {line} is '{written}'"
                );
                placed += 1;
            }
            assert!(placed >= 8, "{design}: {placed} pins");
        }
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
