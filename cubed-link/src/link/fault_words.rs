//! A firmware fault or a refused configuration in words for a person: the actuator named by
//! the robot config (its gripper, jaw or motor, and flipper names) and the cause. The one
//! place that maps the protocol's fault and refusal codes and actuator indices to words;
//! extend it when codes are added.

use crate::robot::actuators::{ActuatorMap, Role};
use crate::robot::RobotModel;
use firmware_protocol::message::{
    Actuator, ActuatorConfig, ConfigRefusal, Configure, Fault, FaultFlags, HomeSensor, NakReason,
    RotationRange, SensorKind, SetupKey, TimedMove,
};

/// The actuator at firmware index `actuator` by its config name, e.g. `the rotation of
/// gripper 'right'` (or `actuator 9` if the design has none there).
pub(crate) fn actuator_name(map: &ActuatorMap, model: &RobotModel, actuator: u8) -> String {
    let gripper = |g: usize| model.grippers.get(g).map_or("?", |g| g.name.as_str());
    match map.roles.get(usize::from(actuator)) {
        Some(Role::Jaw { gripper: g }) => format!("the jaw of gripper '{}'", gripper(*g)),
        Some(Role::Rotation { gripper: g }) => format!("the motor of gripper '{}'", gripper(*g)),
        Some(Role::Flipper { flipper }) => format!(
            "flipper '{}'",
            model
                .flippers
                .get(*flipper)
                .map_or("?", |f| f.name.as_str())
        ),
        None => format!("actuator {actuator} (not in robot '{}')", model.name),
    }
}

/// Every actuator of the design by its config name, in firmware order (for
/// [`crate::link::LinkSettings::actuator_names`]).
pub fn actuator_names(map: &ActuatorMap, model: &RobotModel) -> Vec<String> {
    (0..map.roles.len())
        .map(|index| actuator_name(map, model, index.min(usize::from(u8::MAX)) as u8))
        .collect()
}

/// The fault in words without the robot's names (the actuator by its firmware index), for
/// messages of the link layer, which knows no design.
pub fn fault_by_index(fault: &Fault) -> String {
    match *fault {
        Fault::Stall { actuator } => format!("actuator {actuator} stalled"),
        Fault::Limit { actuator } => format!("actuator {actuator} reached a limit"),
        Fault::BrownOut => "the motor supply voltage dropped (brown-out)".into(),
        Fault::CommsTimeout => "the firmware heard nothing from the host for too long".into(),
        Fault::EStopLatched => "the emergency stop is latched".into(),
        Fault::HomeNotFound { actuator } => {
            format!("actuator {actuator} did not find its home sensor")
        }
    }
}

/// The faults latched in a `Status` in words, e.g. `the emergency stop and a stall`
/// (`None` when no flag is set).
pub fn latched_in_words(faults: FaultFlags) -> Option<String> {
    let named = [
        (FaultFlags::ESTOP, "the emergency stop"),
        (FaultFlags::STALL, "a stall"),
        (FaultFlags::LIMIT, "a limit switch"),
        (FaultFlags::BROWN_OUT, "a supply brown-out"),
        (FaultFlags::COMMS_TIMEOUT, "a host timeout while moving"),
        (FaultFlags::HOME_NOT_FOUND, "a home sensor not found"),
    ];
    let words: Vec<&str> = named
        .iter()
        .filter(|(bit, _)| faults.any(*bit))
        .map(|(_, words)| *words)
        .collect();
    match words.as_slice() {
        [] => None,
        [one] => Some((*one).to_string()),
        [first @ .., last] => Some(format!("{} and {last}", first.join(", "))),
    }
}

/// What a clear the firmware took before a failure undid, in words.
pub fn cleared_in_words(cleared: FaultFlags) -> String {
    let what = latched_in_words(cleared).unwrap_or_else(|| "what it held latched".into());
    format!("before that, the firmware cleared {what}, latched from before, as asked")
}

/// Why the firmware refused a frame, in words.
pub(crate) fn nak_in_words(reason: NakReason) -> &'static str {
    match reason {
        NakReason::BadCrc => "a corrupted frame (bad CRC)",
        NakReason::BadFrame => "a malformed frame",
        NakReason::UnknownMessage => "a message it does not know",
        NakReason::UnsupportedVersion => "a frame of another protocol version",
        NakReason::OutOfOrder => "a frame out of order (one was lost)",
        NakReason::OutOfWindow => "a frame outside its window",
        NakReason::QueueFull => "its command queue is full",
        NakReason::NoSession => "no session (it rebooted or was never greeted)",
        NakReason::BadState => "not allowed in its current state",
        NakReason::EStopLatched => "the emergency stop is latched",
        NakReason::InvalidCommand => "impossible for this robot's configuration",
    }
}

/// The fault in words: what stopped, and why.
pub fn fault_in_words(fault: &Fault, map: &ActuatorMap, model: &RobotModel) -> String {
    match *fault {
        Fault::Stall { actuator } => format!(
            "{} stalled: something blocks it (a layer held by another gripper, a jaw on a moving layer, or the cube in the way)",
            actuator_name(map, model, actuator)
        ),
        Fault::Limit { actuator } => format!(
            "{} reached a limit: it was sent beyond its range",
            actuator_name(map, model, actuator)
        ),
        Fault::BrownOut => "the motor supply voltage dropped (brown-out)".into(),
        Fault::CommsTimeout => {
            "the firmware heard nothing from the host for too long while moving and stopped".into()
        }
        Fault::EStopLatched => "the emergency stop is latched".into(),
        Fault::HomeNotFound { actuator } => format!(
            "{} did not find its home sensor{} while homing: {}",
            actuator_name(map, model, actuator),
            home_pin_words(map, model, actuator),
            match home_sensor(map, model, actuator).map(|h| h.kind) {
                Some(SensorKind::EndStop) => "check the switch, its wiring, and that the seek direction runs towards it",
                _ => "check the sensor, its wiring and its magnet",
            }
        ),
    }
}

/// The home sensor `actuator` seeks, as the design wires it (none on a design without
/// wiring: the simulator's own pins mean nothing to a builder).
fn home_sensor(map: &ActuatorMap, model: &RobotModel, actuator: u8) -> Option<HomeSensor> {
    let setup = crate::robot::wiring::RobotSetup::for_design(model, map).ok()?;
    if !setup.wired {
        return None;
    }
    match setup.machine.actuators.get(usize::from(actuator))? {
        Actuator::Stepper(stepper) => stepper.home,
        _ => None,
    }
}

/// Where the home sensor is wired, e.g. ` (GP14, the \`home\` key of its \`wiring\`)`.
fn home_pin_words(map: &ActuatorMap, model: &RobotModel, actuator: u8) -> String {
    home_sensor(map, model, actuator).map_or(String::new(), |h| {
        format!(" (GP{}, the `home` key of its `wiring`)", h.input.pin)
    })
}

/// A refused `Configure` in words: which actuator (by `names`, else by index and kind) and why.
pub fn refusal_in_words(
    refusal: &ConfigRefusal,
    configure: &Configure,
    names: &[String],
) -> String {
    let config = |a: u8| configure.actuators.get(usize::from(a)).copied();
    let name = |a: u8| match names.get(usize::from(a)) {
        Some(name) => name.clone(),
        None => format!(
            "actuator {a} ({})",
            config(a).map_or("not configured", kind)
        ),
    };
    match *refusal {
        ConfigRefusal::TooManyActuators { board } => format!(
            "this robot needs {} actuators, the board drives only {board}",
            configure.actuators.len()
        ),
        ConfigRefusal::WrongKind { actuator } => format!(
            "{} is configured as a {} but the board has another kind of motor there (jaws are servos; rotations and flippers are steppers)",
            name(actuator),
            config(actuator).map_or("?", kind)
        ),
        ConfigRefusal::ContinuousWithoutSensor { actuator } => format!(
            "{} is configured to turn without end, but the board has no home sensor for it (its position is counted from home, so it must be found)",
            name(actuator)
        ),
        ConfigRefusal::RangeBeyondTravel { actuator } => format!(
            "{}: the configured range{} reaches beyond its travel on the board",
            name(actuator),
            config(actuator).map_or(String::new(), range)
        ),
        ConfigRefusal::TooFast {
            actuator,
            timed,
            needed_ms,
        } => format!(
            "{}: {} is faster than the board can move it (it needs at least {needed_ms} ms); raise the time in the robot config or the board's speed and acceleration",
            name(actuator),
            timed_in_words(timed, config(actuator))
        ),
        _ => setup_refusal_in_words(refusal, &|a| name(a)),
    }
}

/// A refused setup (the robot's wiring and motors) in words, naming the design's key.
fn setup_refusal_in_words(refusal: &ConfigRefusal, name: &dyn Fn(u8) -> String) -> String {
    let who = |actuator: Option<u8>| actuator.map_or_else(|| "[board]".to_string(), name);
    // "the motor of gripper 'left': wiring step", or "[board] estop" (the key says the table).
    let at = |actuator: Option<u8>, key: SetupKey, joint: &str| match actuator {
        Some(a) => format!("{}{joint}{}", name(a), design_key(key)),
        None => design_key(key).to_string(),
    };
    match *refusal {
        ConfigRefusal::NotSetUp { actuator } => format!(
            "the firmware did not get the wiring of {} before the configuration (a damaged line?): reconnect",
            who(actuator)
        ),
        ConfigRefusal::OutOfRange {
            actuator,
            key,
            value,
            min,
            max,
        } => format!(
            "{} = {value} is out of range for this firmware; allowed {min}..={max}{}",
            at(actuator, key, ": "),
            if key == SetupKey::MaxDegS {
                " (what its step generator can make with this gearing and microstepping)"
            } else {
                ""
            }
        ),
        ConfigRefusal::PinTaken {
            actuator,
            key,
            pin,
            by_actuator,
            by_key,
        } => format!(
            "{} is pin {pin}, already used by {}",
            at(actuator, key, ": "),
            at(by_actuator, by_key, " ")
        ),
        ConfigRefusal::NoSuchPin {
            actuator,
            key,
            pin,
            pins,
        } => format!(
            "{} is pin {pin}, which this board does not have (GPIO 0..={})",
            at(actuator, key, ": "),
            pins.saturating_sub(1)
        ),
        ConfigRefusal::PinReserved { actuator, key, pin } => format!(
            "{} is pin {pin}, which the board keeps for itself (LED, power sensing…): wire it to another pin",
            at(actuator, key, ": ")
        ),
        ConfigRefusal::PwmShared {
            actuator,
            pin,
            by_actuator,
            by_pin,
        } => format!(
            "{}: wiring jaw is pin {pin}, which shares its PWM output with pin {by_pin} of {}: the two servos would move together; wire one to another pin",
            name(actuator),
            name(by_actuator)
        ),
        other => format!("refused: {other:?}"),
    }
}

/// Where a setup key is in a design file.
fn design_key(key: SetupKey) -> &'static str {
    match key {
        SetupKey::Actuators => "the number of actuators",
        SetupKey::Enable => "[board] enable",
        SetupKey::Estop => "[board] estop",
        SetupKey::Button => "[board] button",
        SetupKey::DebounceSamples => "[board] debounce_samples",
        SetupKey::IdleDisableMs => "[board] idle_disable_ms",
        SetupKey::StepPin => "wiring step",
        SetupKey::DirPin => "wiring dir",
        SetupKey::HomePin => "wiring home",
        SetupKey::StallPin => "wiring stall",
        SetupKey::ServoPin => "wiring jaw",
        SetupKey::OpenUs => "wiring jaw_open_us",
        SetupKey::ClosedUs => "wiring jaw_closed_us",
        SetupKey::TravelMs => "open_ms / close_ms (the servo's travel)",
        SetupKey::FullStepsPerRev => "motion full_steps_per_rev",
        SetupKey::Microsteps => "motion microsteps",
        SetupKey::Gear => "motion gear",
        SetupKey::UnitsPerRev => "positions per revolution",
        SetupKey::MaxDegS => "motion max_deg_s",
        SetupKey::AccelDegS2 => "motion accel_deg_s2",
        SetupKey::SeekDegS => "wiring home_seek_deg_s",
        SetupKey::ApproachDegS => "wiring home_approach_deg_s",
        SetupKey::BackoffDeg => "wiring home_backoff_deg",
        SetupKey::MaxSeekDeg => "wiring home_max_seek_deg",
    }
}

fn kind(config: ActuatorConfig) -> &'static str {
    match config {
        ActuatorConfig::Jaw { .. } => "jaw",
        ActuatorConfig::Rotation { .. } => "rotation",
        ActuatorConfig::Flipper { .. } => "flipper",
    }
}

fn range(config: ActuatorConfig) -> String {
    match config {
        ActuatorConfig::Rotation {
            range: RotationRange::Limited { min, max },
            ..
        }
        | ActuatorConfig::Flipper { min, max, .. } => format!(" {min}..{max}"),
        _ => String::new(),
    }
}

/// "a quarter turn in 140 ms" (the configured time, when the configuration has it).
fn timed_in_words(timed: TimedMove, config: Option<ActuatorConfig>) -> String {
    let (what, ms) = match (timed, config) {
        (
            TimedMove::QuarterTurn,
            Some(ActuatorConfig::Rotation {
                quarter_turn_ms, ..
            }),
        ) => ("a quarter turn", Some(quarter_turn_ms)),
        (TimedMove::HalfTurn, Some(ActuatorConfig::Rotation { half_turn_ms, .. })) => {
            ("a half turn", Some(half_turn_ms))
        }
        (TimedMove::FlipperStep, Some(ActuatorConfig::Flipper { step_ms, .. })) => {
            ("a flip", Some(step_ms))
        }
        (TimedMove::Jaw, Some(ActuatorConfig::Jaw { open_ms, close_ms })) => {
            ("opening or closing", Some(open_ms.min(close_ms)))
        }
        (TimedMove::QuarterTurn, _) => ("a quarter turn", None),
        (TimedMove::HalfTurn, _) => ("a half turn", None),
        (TimedMove::FlipperStep, _) => ("a flip", None),
        (TimedMove::Jaw, _) => ("opening or closing", None),
    };
    match ms {
        Some(ms) => format!("{what} in {ms} ms"),
        None => what.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn link_fault_words_name_the_actuator_from_the_config() {
        let model = crate::robot::shipped_design("turntable-flipper").expect("loads");
        let map = ActuatorMap::new(&model).expect("fits");
        let stall = fault_in_words(&Fault::Stall { actuator: 0 }, &map, &model);
        assert!(
            stall.starts_with("the motor of gripper 'turntable' stalled"),
            "{stall}"
        );
        let limit = fault_in_words(&Fault::Limit { actuator: 3 }, &map, &model);
        assert!(
            limit.starts_with("flipper 'flipper' reached a limit"),
            "{limit}"
        );
        let jaw = fault_in_words(&Fault::Stall { actuator: 1 }, &map, &model);
        assert!(jaw.contains("jaw of gripper 'holder'"), "{jaw}");
        let none = fault_in_words(&Fault::Stall { actuator: 9 }, &map, &model);
        assert!(none.contains("actuator 9"), "{none}");
        let home = fault_in_words(&Fault::HomeNotFound { actuator: 3 }, &map, &model);
        assert!(
            home.starts_with("flipper 'flipper' did not find its home sensor"),
            "{home}"
        );
        // Where the design wires it: four-arm's front gripper's sensor is on GP13.
        let model = crate::robot::shipped_design("four-arm").expect("loads");
        let map = ActuatorMap::new(&model).expect("fits");
        let front = map
            .roles
            .iter()
            .position(|r| *r == Role::Rotation { gripper: 2 })
            .expect("a front motor");
        let home = fault_in_words(
            &Fault::HomeNotFound {
                actuator: front as u8,
            },
            &map,
            &model,
        );
        assert!(
            home.contains("(GP13, the `home` key of its `wiring`) while homing"),
            "{home}"
        );
    }

    #[test]
    fn link_refusal_words_name_the_actuator_the_time_and_the_need() {
        let configure = Configure::new(&[
            ActuatorConfig::Jaw {
                open_ms: 90,
                close_ms: 80,
            },
            ActuatorConfig::Rotation {
                range: RotationRange::Limited { min: -1, max: 2 },
                quarter_turn_ms: 140,
                half_turn_ms: 250,
            },
        ])
        .expect("two");
        let names = vec!["the jaw of gripper 'left'".to_string()];
        let fast = refusal_in_words(
            &ConfigRefusal::TooFast {
                actuator: 1,
                timed: TimedMove::QuarterTurn,
                needed_ms: 144,
            },
            &configure,
            &names,
        );
        assert!(
            fast.starts_with("actuator 1 (rotation): a quarter turn in 140 ms is faster"),
            "{fast}"
        );
        assert!(fast.contains("at least 144 ms"), "{fast}");
        let jaw = refusal_in_words(
            &ConfigRefusal::TooFast {
                actuator: 0,
                timed: TimedMove::Jaw,
                needed_ms: 120,
            },
            &configure,
            &names,
        );
        assert!(
            jaw.starts_with("the jaw of gripper 'left': opening or closing in 80 ms"),
            "{jaw}"
        );
        let many = refusal_in_words(
            &ConfigRefusal::TooManyActuators { board: 1 },
            &configure,
            &names,
        );
        assert_eq!(
            many,
            "this robot needs 2 actuators, the board drives only 1"
        );
        let wide = refusal_in_words(
            &ConfigRefusal::RangeBeyondTravel { actuator: 1 },
            &configure,
            &names,
        );
        assert!(wide.contains("range -1..2 reaches beyond"), "{wide}");
        let board = refusal_in_words(
            &ConfigRefusal::PinReserved {
                actuator: None,
                key: SetupKey::Button,
                pin: 29,
            },
            &configure,
            &names,
        );
        assert!(
            board.starts_with("[board] button is pin 29, which the board keeps"),
            "{board}"
        );
        let shared = refusal_in_words(
            &ConfigRefusal::PinTaken {
                actuator: Some(0),
                key: SetupKey::ServoPin,
                pin: 10,
                by_actuator: None,
                by_key: SetupKey::Enable,
            },
            &configure,
            &names,
        );
        assert_eq!(
            shared,
            "the jaw of gripper 'left': wiring jaw is pin 10, already used by [board] enable"
        );
    }
}
