//! Whether the set-up machine can honour a `Configure`, and whether a `Motion` fits the
//! accepted configuration. A refusal names the actuator and the reason.

use crate::board::{check_machine, stepper_move_time_us, Chip};
use firmware_protocol::message::{
    Action, Actuator, ActuatorConfig, ConfigRefusal, Configure, Machine, Motion, RotationRange,
    Stepper, TimedMove,
};

type Refusal = ConfigRefusal;

/// What the firmware checks at connect, in its order: the machine (wiring, motors, pins)
/// against the chip, then the configuration against the machine. The host runs the same
/// check offline against a shipped chip ([`crate::chips`]).
pub fn check_setup(chip: &Chip, machine: &Machine, configure: &Configure) -> Result<(), Refusal> {
    check_machine(chip, machine)?;
    check_configure(machine, configure)
}

/// Checks `configure` against the machine's actuators and ramps: one configuration per
/// actuator set up, of its kind, with times its ramp meets.
pub fn check_configure(machine: &Machine, configure: &Configure) -> Result<(), Refusal> {
    if configure.actuators.len() > machine.actuators.len() {
        return Err(Refusal::TooManyActuators {
            board: machine.actuators.len() as u8,
        });
    }
    if configure.actuators.len() < machine.actuators.len() {
        return Err(Refusal::NotSetUp {
            actuator: Some(configure.actuators.len() as u8),
        });
    }
    for (index, (config, hw)) in configure
        .actuators
        .iter()
        .zip(machine.actuators.iter())
        .enumerate()
    {
        check_actuator(index as u8, config, hw)?;
    }
    Ok(())
}

fn check_actuator(actuator: u8, config: &ActuatorConfig, hw: &Actuator) -> Result<(), Refusal> {
    match (*config, hw) {
        (ActuatorConfig::Jaw { open_ms, close_ms }, Actuator::Servo(servo)) => {
            let needed = u32::from(servo.travel_ms);
            let tightest = open_ms.min(close_ms);
            if needed > u32::from(tightest) {
                return Err(Refusal::TooFast {
                    actuator,
                    timed: TimedMove::Jaw,
                    needed_ms: needed,
                });
            }
            Ok(())
        }
        (
            ActuatorConfig::Rotation {
                range,
                quarter_turn_ms,
                half_turn_ms,
            },
            Actuator::Stepper(stepper),
        ) => {
            if range == RotationRange::Continuous && stepper.home.is_none() {
                return Err(Refusal::ContinuousWithoutSensor { actuator });
            }
            if range == (RotationRange::Limited { min: 0, max: 0 }) {
                // It never leaves 0: there is no turn to time.
                return Ok(());
            }
            check_time(actuator, stepper, TimedMove::QuarterTurn, quarter_turn_ms)?;
            check_time(actuator, stepper, TimedMove::HalfTurn, half_turn_ms)
        }
        // A gripper that never turns needs no motor.
        (
            ActuatorConfig::Rotation {
                range: RotationRange::Limited { min: 0, max: 0 },
                ..
            },
            Actuator::Fixed,
        ) => Ok(()),
        (ActuatorConfig::Flipper { step_ms, .. }, Actuator::Stepper(stepper)) => {
            check_time(actuator, stepper, TimedMove::FlipperStep, step_ms)
        }
        _ => Err(Refusal::WrongKind { actuator }),
    }
}

fn check_time(
    actuator: u8,
    stepper: &Stepper,
    timed: TimedMove,
    configured_ms: u16,
) -> Result<(), Refusal> {
    // Position units of the move: a half turn is two quarter turns, a flipper step one.
    let units = if timed == TimedMove::HalfTurn { 2 } else { 1 };
    let needed_us = stepper_move_time_us(stepper, units);
    if needed_us > u64::from(configured_ms) * 1000 {
        return Err(Refusal::TooFast {
            actuator,
            timed,
            needed_ms: needed_us.div_ceil(1000).min(i32::MAX as u64) as u32,
        });
    }
    Ok(())
}

/// Whether a `Home` mask names only configured actuators.
pub fn home_fits(configure: &Configure, mask: u16) -> bool {
    let configured = (1u32 << configure.actuators.len()) - 1;
    u32::from(mask) & !configured == 0
}

/// The actuators `motion` moves, as a mask.
pub fn motion_mask(motion: &Motion) -> u16 {
    motion
        .actions
        .iter()
        .fold(0, |mask, action| mask | 1u16 << (action.actuator() % 16))
}

/// Whether every action of `motion` fits `configure`: index in range, kind matching,
/// target within `min..=max`, each actuator at most once.
pub fn motion_fits(configure: &Configure, motion: &Motion) -> bool {
    let mut seen: u16 = 0;
    motion.actions.iter().all(|action| {
        let index = usize::from(action.actuator());
        let bit = 1u16 << (index % 16);
        let fresh = seen & bit == 0;
        seen |= bit;
        fresh
            && configure
                .actuators
                .get(index)
                .is_some_and(|config| action_fits(config, action))
    })
}

fn action_fits(config: &ActuatorConfig, action: &Action) -> bool {
    match (*config, *action) {
        (ActuatorConfig::Jaw { .. }, Action::Jaw { .. }) => true,
        (ActuatorConfig::Rotation { range, .. }, Action::Rotate { quarter_turns, .. }) => {
            match range {
                RotationRange::Continuous => true,
                RotationRange::Limited { min, max } => {
                    (i32::from(min)..=i32::from(max)).contains(&quarter_turns)
                }
            }
        }
        (ActuatorConfig::Flipper { min, max, .. }, Action::Flip { position, .. }) => {
            (i32::from(min)..=i32::from(max)).contains(&position)
        }
        _ => false,
    }
}
