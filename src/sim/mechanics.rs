//! What the simulated firmware drives: the `Mechanics` seam, a plain actuator-position
//! tracker, the sim's own time formula, and (re-exported) the robot machine
//! (`PhysicsMechanics`, in `mechanics_robot.rs`: tracks the cube, faults on impossible steps).

pub use super::mechanics_robot::PhysicsMechanics;
use firmware_protocol::message::{
    Action, ActuatorConfig, ConfigRefusal, Configure, Fault, Motion, RotationRange, TimedMove,
};

/// A mechanical failure: the fault the firmware latches and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MechanicalFault {
    pub fault: Fault,
    pub reason: String,
}

/// The motors and whatever they hold.
pub trait Mechanics {
    /// Whether this hardware can be driven with `configure` (`ConfigureRefused` if not).
    fn accepts(&self, configure: &Configure) -> Result<(), ConfigRefusal>;
    /// Homes the actuators whose bits are set in `mask` (PROTOCOL.md, Home); returns the
    /// time it takes (ms at speed 1).
    fn home(&mut self, mask: u16) -> Result<u32, MechanicalFault>;
    /// Performs a motion (already checked against the configuration); returns its duration.
    fn run(&mut self, motion: &Motion) -> Result<u32, MechanicalFault>;
    /// Current absolute position of each configured actuator.
    fn positions(&self) -> Vec<i32>;
}

/// Tracks actuator positions only: any motion within the configured limits is fine.
#[derive(Debug, Clone, Default)]
pub struct PositionTracker {
    configs: Vec<ActuatorConfig>,
    positions: Vec<i32>,
}

impl PositionTracker {
    /// A tracker for the actuators of `configure` at home.
    pub fn new(configure: &Configure) -> PositionTracker {
        PositionTracker {
            configs: configure.actuators.to_vec(),
            positions: vec![0; configure.actuators.len()],
        }
    }
}

/// How long moving `actuator` configured as `config` from `from` to `to` takes.
pub fn action_ms(config: &ActuatorConfig, from: i32, to: i32) -> u32 {
    let distance = from.abs_diff(to);
    match *config {
        ActuatorConfig::Jaw { open_ms, .. } if to == 0 => u32::from(open_ms),
        ActuatorConfig::Jaw { close_ms, .. } => u32::from(close_ms),
        ActuatorConfig::Rotation {
            quarter_turn_ms,
            half_turn_ms,
            ..
        } => {
            let halves = distance / 2;
            halves * u32::from(half_turn_ms) + (distance % 2) * u32::from(quarter_turn_ms)
        }
        ActuatorConfig::Flipper { step_ms, .. } => distance * u32::from(step_ms),
    }
}

fn target_of(action: &Action) -> i32 {
    match *action {
        Action::Jaw { target, .. } => {
            i32::from(target == firmware_protocol::message::JawTarget::Closed)
        }
        Action::Rotate { quarter_turns, .. } => quarter_turns,
        Action::Flip { position, .. } => position,
    }
}

/// Whether motors that are `hardware` can honour `configure`: no more actuators than
/// there are, each of the same kind, no range beyond the motor's, no time shorter than
/// the motor takes. The first failure, in actuator order, is the reason.
pub fn check_configure(
    hardware: &[ActuatorConfig],
    configure: &Configure,
) -> Result<(), ConfigRefusal> {
    if configure.actuators.len() > hardware.len() {
        return Err(ConfigRefusal::TooManyActuators {
            board: hardware.len().min(usize::from(u8::MAX)) as u8,
        });
    }
    for (index, (wanted, motor)) in configure.actuators.iter().zip(hardware).enumerate() {
        check_actuator(index as u8, wanted, motor)?;
    }
    Ok(())
}

fn check_actuator(
    actuator: u8,
    wanted: &ActuatorConfig,
    motor: &ActuatorConfig,
) -> Result<(), ConfigRefusal> {
    let too_fast = |timed, configured: u16, needed: u16| {
        if configured < needed {
            Err(ConfigRefusal::TooFast {
                actuator,
                timed,
                needed_ms: needed,
            })
        } else {
            Ok(())
        }
    };
    let within = |min: i16, max: i16, lo: i16, hi: i16| {
        if lo <= min && max <= hi {
            Ok(())
        } else {
            Err(ConfigRefusal::RangeBeyondTravel { actuator })
        }
    };
    match (*wanted, *motor) {
        (
            ActuatorConfig::Jaw { open_ms, close_ms },
            ActuatorConfig::Jaw {
                open_ms: motor_open,
                close_ms: motor_close,
            },
        ) => too_fast(
            TimedMove::Jaw,
            open_ms.min(close_ms),
            motor_open.max(motor_close),
        ),
        (
            ActuatorConfig::Rotation {
                range,
                quarter_turn_ms,
                half_turn_ms,
            },
            ActuatorConfig::Rotation {
                range: motor_range,
                quarter_turn_ms: motor_quarter,
                half_turn_ms: motor_half,
            },
        ) => {
            match (range, motor_range) {
                (_, RotationRange::Continuous) => Ok(()),
                (RotationRange::Continuous, RotationRange::Limited { .. }) => {
                    Err(ConfigRefusal::ContinuousWithoutSensor { actuator })
                }
                (
                    RotationRange::Limited { min, max },
                    RotationRange::Limited { min: lo, max: hi },
                ) => within(min, max, lo, hi),
            }?;
            too_fast(TimedMove::QuarterTurn, quarter_turn_ms, motor_quarter)?;
            too_fast(TimedMove::HalfTurn, half_turn_ms, motor_half)
        }
        (
            ActuatorConfig::Flipper { min, max, step_ms },
            ActuatorConfig::Flipper {
                min: lo,
                max: hi,
                step_ms: motor_step,
            },
        ) => {
            within(min, max, lo, hi)?;
            too_fast(TimedMove::FlipperStep, step_ms, motor_step)
        }
        _ => Err(ConfigRefusal::WrongKind { actuator }),
    }
}

impl Mechanics for PositionTracker {
    fn accepts(&self, configure: &Configure) -> Result<(), ConfigRefusal> {
        if self.configs.is_empty() {
            return Ok(());
        }
        check_configure(&self.configs, configure)
    }

    fn home(&mut self, mask: u16) -> Result<u32, MechanicalFault> {
        // Rotations and flippers at 0, jaws closed (PROTOCOL.md, Home).
        let homed = self.positions.iter_mut().zip(&self.configs).enumerate();
        for (index, (slot, config)) in homed {
            if index < 16 && mask & (1 << index) != 0 {
                *slot = i32::from(matches!(config, ActuatorConfig::Jaw { .. }));
            }
        }
        Ok(0)
    }

    fn run(&mut self, motion: &Motion) -> Result<u32, MechanicalFault> {
        let mut ms = 0;
        for action in motion.actions.iter() {
            let index = usize::from(action.actuator());
            let (Some(config), Some(slot)) =
                (self.configs.get(index), self.positions.get_mut(index))
            else {
                continue;
            };
            let target = target_of(action);
            ms = ms.max(action_ms(config, *slot, target));
            *slot = target;
        }
        Ok(ms)
    }

    fn positions(&self) -> Vec<i32> {
        self.positions.clone()
    }
}

/// Whether `motion` fits the configured actuators (index, kind, limits).
pub fn motion_fits(configure: &Configure, motion: &Motion) -> bool {
    motion.actions.iter().all(|action| {
        let Some(config) = configure.actuators.get(usize::from(action.actuator())) else {
            return false;
        };
        match (*action, *config) {
            (Action::Jaw { .. }, ActuatorConfig::Jaw { .. }) => true,
            (Action::Rotate { quarter_turns, .. }, ActuatorConfig::Rotation { range, .. }) => {
                match range {
                    RotationRange::Limited { min, max } => {
                        (i32::from(min)..=i32::from(max)).contains(&quarter_turns)
                    }
                    RotationRange::Continuous => true,
                }
            }
            (Action::Flip { position, .. }, ActuatorConfig::Flipper { min, max, .. }) => {
                (i32::from(min)..=i32::from(max)).contains(&position)
            }
            _ => false,
        }
    })
}
