//! Host → firmware payloads with structure: `Configure` (actuator limits) and `Motion` (actions).

use crate::crc::crc16;
use crate::fixed::FixedList;
use crate::wire::{expect_zero, Reader, Writer};
use crate::Error;

/// Most actuators a `Configure` may describe (and a `Status` may report positions for).
pub const MAX_ACTUATORS: usize = 12;
/// Most actions one `Motion` may start together.
pub const MAX_ACTIONS: usize = 12;
/// Bytes per actuator record in a `Configure` payload.
pub const ACTUATOR_RECORD_LEN: usize = 10;
/// Bytes per action record in a `Motion` payload.
pub const ACTION_RECORD_LEN: usize = 6;

const KIND_JAW: u8 = 1;
const KIND_ROTATION: u8 = 2;
const KIND_FLIPPER: u8 = 3;
const FLAG_CONTINUOUS: u8 = 0x01;

/// Range of absolute quarter-turn positions a rotation actuator may reach.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RotationRange {
    /// Positions `min..=max` (quarter turns from home; `min <= max`).
    Limited {
        /// Lowest reachable position.
        min: i16,
        /// Highest reachable position.
        max: i16,
    },
    /// Any position: the actuator turns without end stops.
    Continuous,
}

/// Limits and timings of one actuator, as the host's robot config describes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ActuatorConfig {
    /// A gripper jaw: open or closed.
    Jaw {
        /// Time to open, ms.
        open_ms: u16,
        /// Time to close, ms.
        close_ms: u16,
    },
    /// A gripper's rotation, in absolute quarter turns.
    Rotation {
        /// Reachable positions.
        range: RotationRange,
        /// Time for one quarter turn, ms.
        quarter_turn_ms: u16,
        /// Time for one half turn, ms.
        half_turn_ms: u16,
    },
    /// A flipper with absolute positions `min..=max` (`min <= max`).
    Flipper {
        /// Lowest position.
        min: i16,
        /// Highest position.
        max: i16,
        /// Time to move one position, ms.
        step_ms: u16,
    },
}

impl Default for ActuatorConfig {
    fn default() -> Self {
        ActuatorConfig::Jaw {
            open_ms: 0,
            close_ms: 0,
        }
    }
}

fn check_order(field: &'static str, min: i16, max: i16) -> Result<(), Error> {
    if min <= max {
        Ok(())
    } else {
        Err(Error::BadValue {
            field,
            value: i64::from(max),
        })
    }
}

impl ActuatorConfig {
    /// A jaw's time to close (`closed`) or to open, ms; `None` for any other actuator.
    pub const fn jaw_ms(&self, closed: bool) -> Option<u16> {
        match *self {
            ActuatorConfig::Jaw { close_ms, .. } if closed => Some(close_ms),
            ActuatorConfig::Jaw { open_ms, .. } => Some(open_ms),
            _ => None,
        }
    }

    fn validate(&self) -> Result<(), Error> {
        match *self {
            ActuatorConfig::Rotation {
                range: RotationRange::Limited { min, max },
                ..
            } => check_order("rotation_max", min, max),
            ActuatorConfig::Flipper { min, max, .. } => check_order("flipper_max", min, max),
            _ => Ok(()),
        }
    }

    /// Record layout: kind u8, flags u8, min i16, max i16, time_a u16, time_b u16.
    fn write(&self, w: &mut Writer<'_>) -> Result<(), Error> {
        self.validate()?;
        let (kind, flags, min, max, time_a, time_b) = match *self {
            ActuatorConfig::Jaw { open_ms, close_ms } => (KIND_JAW, 0, 0, 0, open_ms, close_ms),
            ActuatorConfig::Rotation {
                range,
                quarter_turn_ms,
                half_turn_ms,
            } => {
                let (flags, min, max) = match range {
                    RotationRange::Limited { min, max } => (0, min, max),
                    RotationRange::Continuous => (FLAG_CONTINUOUS, 0, 0),
                };
                (
                    KIND_ROTATION,
                    flags,
                    min,
                    max,
                    quarter_turn_ms,
                    half_turn_ms,
                )
            }
            ActuatorConfig::Flipper { min, max, step_ms } => {
                (KIND_FLIPPER, 0, min, max, step_ms, 0)
            }
        };
        w.u8(kind)?;
        w.u8(flags)?;
        w.i16(min)?;
        w.i16(max)?;
        w.u16(time_a)?;
        w.u16(time_b)
    }

    fn read(r: &mut Reader<'_>) -> Result<Self, Error> {
        let kind = r.u8()?;
        let flags = r.u8()?;
        let min = r.i16()?;
        let max = r.i16()?;
        let time_a = r.u16()?;
        let time_b = r.u16()?;
        let config = match kind {
            KIND_JAW => {
                expect_zero("jaw_flags", flags.into())?;
                expect_zero("jaw_min", min.into())?;
                expect_zero("jaw_max", max.into())?;
                ActuatorConfig::Jaw {
                    open_ms: time_a,
                    close_ms: time_b,
                }
            }
            KIND_ROTATION => ActuatorConfig::Rotation {
                range: read_rotation_range(flags, min, max)?,
                quarter_turn_ms: time_a,
                half_turn_ms: time_b,
            },
            KIND_FLIPPER => {
                expect_zero("flipper_flags", flags.into())?;
                expect_zero("flipper_time_b", time_b.into())?;
                ActuatorConfig::Flipper {
                    min,
                    max,
                    step_ms: time_a,
                }
            }
            other => {
                return Err(Error::BadValue {
                    field: "actuator_kind",
                    value: other.into(),
                })
            }
        };
        config.validate()?;
        Ok(config)
    }
}

fn read_rotation_range(flags: u8, min: i16, max: i16) -> Result<RotationRange, Error> {
    match flags {
        0 => Ok(RotationRange::Limited { min, max }),
        FLAG_CONTINUOUS => {
            expect_zero("rotation_min", min.into())?;
            expect_zero("rotation_max", max.into())?;
            Ok(RotationRange::Continuous)
        }
        other => Err(Error::BadValue {
            field: "rotation_flags",
            value: other.into(),
        }),
    }
}

/// `Configure` payload: the actuators, indexed 0.. in the order given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Configure {
    /// One entry per actuator (1..=[`MAX_ACTUATORS`]).
    pub actuators: FixedList<ActuatorConfig, MAX_ACTUATORS>,
}

impl Configure {
    /// A configuration of the given actuators.
    pub fn new(actuators: &[ActuatorConfig]) -> Result<Self, Error> {
        Ok(Configure {
            actuators: FixedList::from_slice(actuators, "actuator_count")?,
        })
    }

    /// The checksum the firmware echoes in `ConfigureReply`: CRC-16/CCITT-FALSE of the
    /// whole `Configure` payload (count byte and records).
    pub fn checksum(&self) -> Result<u16, Error> {
        let mut payload = [0u8; 1 + MAX_ACTUATORS * ACTUATOR_RECORD_LEN];
        let mut w = Writer::new(&mut payload);
        self.write(&mut w)?;
        let len = w.len();
        Ok(crc16(&payload[..len]))
    }

    pub(crate) fn write(&self, w: &mut Writer<'_>) -> Result<(), Error> {
        check_count("actuator_count", self.actuators.len(), MAX_ACTUATORS)?;
        w.u8(self.actuators.len() as u8)?;
        self.actuators
            .iter()
            .try_for_each(|actuator| actuator.write(w))
    }

    pub(crate) fn read(payload: &[u8], message_type: u8) -> Result<Self, Error> {
        let count = read_count(payload.first().copied(), "actuator_count", MAX_ACTUATORS)?;
        let expected = 1 + count * ACTUATOR_RECORD_LEN;
        let mut r = Reader::exact(payload, message_type, expected)?;
        r.u8()?;
        let mut configure = Configure::default();
        for _ in 0..count {
            configure
                .actuators
                .push(ActuatorConfig::read(&mut r)?, "actuator_count")?;
        }
        Ok(configure)
    }
}

/// Target of a jaw action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JawTarget {
    /// Open (wire value 0).
    Open,
    /// Closed (wire value 1).
    Closed,
}

/// One actuator movement inside a `Motion`; all targets are absolute, so running a
/// duplicate again changes nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Move a jaw to open or closed.
    Jaw {
        /// Actuator index (as in `Configure`).
        actuator: u8,
        /// Target state.
        target: JawTarget,
    },
    /// Turn a rotation actuator to an absolute position in quarter turns from home.
    Rotate {
        /// Actuator index.
        actuator: u8,
        /// Absolute target, quarter turns.
        quarter_turns: i32,
    },
    /// Move a flipper to an absolute position.
    Flip {
        /// Actuator index.
        actuator: u8,
        /// Absolute target position.
        position: i32,
    },
}

impl Default for Action {
    fn default() -> Self {
        Action::Jaw {
            actuator: 0,
            target: JawTarget::Open,
        }
    }
}

impl Action {
    /// The actuator this action moves.
    pub const fn actuator(&self) -> u8 {
        match *self {
            Action::Jaw { actuator, .. }
            | Action::Rotate { actuator, .. }
            | Action::Flip { actuator, .. } => actuator,
        }
    }

    /// Record layout: kind u8, actuator u8, target i32.
    fn write(&self, w: &mut Writer<'_>) -> Result<(), Error> {
        let (kind, target) = match *self {
            Action::Jaw { target, .. } => (KIND_JAW, i32::from(target == JawTarget::Closed)),
            Action::Rotate { quarter_turns, .. } => (KIND_ROTATION, quarter_turns),
            Action::Flip { position, .. } => (KIND_FLIPPER, position),
        };
        w.u8(kind)?;
        w.u8(self.actuator())?;
        w.i32(target)
    }

    fn read(r: &mut Reader<'_>) -> Result<Self, Error> {
        let kind = r.u8()?;
        let actuator = r.u8()?;
        let target = r.i32()?;
        match kind {
            KIND_JAW => Ok(Action::Jaw {
                actuator,
                target: read_jaw_target(target)?,
            }),
            KIND_ROTATION => Ok(Action::Rotate {
                actuator,
                quarter_turns: target,
            }),
            KIND_FLIPPER => Ok(Action::Flip {
                actuator,
                position: target,
            }),
            other => Err(Error::BadValue {
                field: "action_kind",
                value: other.into(),
            }),
        }
    }
}

fn read_jaw_target(value: i32) -> Result<JawTarget, Error> {
    match value {
        0 => Ok(JawTarget::Open),
        1 => Ok(JawTarget::Closed),
        other => Err(Error::BadValue {
            field: "jaw_target",
            value: other.into(),
        }),
    }
}

/// `Motion` payload: actions that start together, reported done by `MoveDone { move_id }`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Motion {
    /// Host-chosen id echoed in `MoveDone` (non-zero by convention; 0 means "none").
    pub move_id: u32,
    /// 1..=[`MAX_ACTIONS`] actions, each on a different actuator index below
    /// [`MAX_ACTUATORS`].
    pub actions: FixedList<Action, MAX_ACTIONS>,
}

impl Motion {
    /// A motion of the given actions.
    pub fn new(move_id: u32, actions: &[Action]) -> Result<Self, Error> {
        let motion = Motion {
            move_id,
            actions: FixedList::from_slice(actions, "action_count")?,
        };
        motion.validate()?;
        Ok(motion)
    }

    fn validate(&self) -> Result<(), Error> {
        check_count("action_count", self.actions.len(), MAX_ACTIONS)?;
        let mut seen: u16 = 0;
        for action in self.actions.iter() {
            let actuator = action.actuator();
            if usize::from(actuator) >= MAX_ACTUATORS || seen & (1 << actuator) != 0 {
                return Err(Error::BadValue {
                    field: "action_actuator",
                    value: actuator.into(),
                });
            }
            seen |= 1 << actuator;
        }
        Ok(())
    }

    pub(crate) fn write(&self, w: &mut Writer<'_>) -> Result<(), Error> {
        self.validate()?;
        w.u32(self.move_id)?;
        w.u8(self.actions.len() as u8)?;
        self.actions.iter().try_for_each(|action| action.write(w))
    }

    pub(crate) fn read(payload: &[u8], message_type: u8) -> Result<Self, Error> {
        let count = read_count(payload.get(4).copied(), "action_count", MAX_ACTIONS)?;
        let mut r = Reader::exact(payload, message_type, 5 + count * ACTION_RECORD_LEN)?;
        let move_id = r.u32()?;
        r.u8()?;
        let mut motion = Motion {
            move_id,
            actions: FixedList::new(),
        };
        for _ in 0..count {
            motion.actions.push(Action::read(&mut r)?, "action_count")?;
        }
        motion.validate()?;
        Ok(motion)
    }
}

/// Fails unless `1 <= count <= max`.
fn check_count(field: &'static str, count: usize, max: usize) -> Result<(), Error> {
    if (1..=max).contains(&count) {
        Ok(())
    } else {
        Err(Error::BadValue {
            field,
            value: count as i64,
        })
    }
}

/// Checks a payload's count byte; a missing one counts as one item, so that the
/// resulting length error names the smallest valid payload.
fn read_count(count_byte: Option<u8>, field: &'static str, max: usize) -> Result<usize, Error> {
    let count = usize::from(count_byte.unwrap_or(1));
    check_count(field, count, max)?;
    Ok(count)
}
