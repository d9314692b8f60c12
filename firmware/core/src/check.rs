//! Whether this board can honour a `Configure`, and whether a `Motion` fits the
//! accepted configuration. A refusal names the actuator and the reason.

use crate::board::{Actuator, BoardConfig, Stepper};
use firmware_protocol::message::{Action, ActuatorConfig, Configure, Motion, RotationRange};

/// Why a `Configure` was refused (`Nak InvalidCommand` on the wire).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// More actuators configured than the board drives.
    TooManyActuators {
        /// Actuators in the `Configure`.
        configured: u8,
        /// Actuators on the board.
        board: u8,
    },
    /// A jaw configured on a stepper, or a rotation/flipper on a servo.
    WrongKind {
        /// Actuator index.
        actuator: u8,
    },
    /// The board's ramp cannot move this far in the configured time.
    TooFast {
        /// Actuator index.
        actuator: u8,
        /// Position units of the move (1 = quarter turn, 2 = half turn, 1 flipper step).
        units: u8,
        /// What the host configured, ms.
        configured_ms: u16,
        /// What the board's ramp needs, ms (rounded up).
        needed_ms: u32,
    },
    /// A continuous rotation cannot be homed without a home sensor.
    ContinuousWithoutSensor {
        /// Actuator index.
        actuator: u8,
    },
}

impl Refusal {
    /// A one-line English reason, for board logs and the simulator.
    pub const fn reason(&self) -> &'static str {
        match self {
            Refusal::TooManyActuators { .. } => "more actuators configured than the board drives",
            Refusal::WrongKind { .. } => {
                "actuator kind does not match the board (jaw = servo, rotation/flipper = stepper)"
            }
            Refusal::TooFast { .. } => "the configured time is shorter than the board's ramp takes",
            Refusal::ContinuousWithoutSensor { .. } => "a continuous rotation needs a home sensor",
        }
    }
}

/// Checks `configure` against the board's actuators and ramps.
pub fn check_configure(board: &BoardConfig, configure: &Configure) -> Result<(), Refusal> {
    if configure.actuators.len() > board.actuators.len() {
        return Err(Refusal::TooManyActuators {
            configured: configure.actuators.len() as u8,
            board: board.actuators.len() as u8,
        });
    }
    for (index, (config, hw)) in configure.actuators.iter().zip(board.actuators).enumerate() {
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
                    units: 1,
                    configured_ms: tightest,
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
            check_time(actuator, stepper, 1, quarter_turn_ms)?;
            check_time(actuator, stepper, 2, half_turn_ms)
        }
        (ActuatorConfig::Flipper { step_ms, .. }, Actuator::Stepper(stepper)) => {
            check_time(actuator, stepper, 1, step_ms)
        }
        _ => Err(Refusal::WrongKind { actuator }),
    }
}

fn check_time(
    actuator: u8,
    stepper: &Stepper,
    units: u8,
    configured_ms: u16,
) -> Result<(), Refusal> {
    let needed_us = stepper.move_time_us(u32::from(units));
    if needed_us > u64::from(configured_ms) * 1000 {
        return Err(Refusal::TooFast {
            actuator,
            units,
            configured_ms,
            needed_ms: needed_us.div_ceil(1000).min(u64::from(u32::MAX)) as u32,
        });
    }
    Ok(())
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
