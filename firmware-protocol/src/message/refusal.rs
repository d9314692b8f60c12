//! `ConfigureRefused`: why a board cannot honour a `Configure`, naming the actuator.

use super::command::MAX_ACTUATORS;
use crate::wire::{expect_zero, Reader, Writer};
use crate::Error;

wire_enum! {
    /// Which configured time a board's ramp cannot meet (in a `ConfigureRefused`).
    pub enum TimedMove("timed_move") {
        /// A rotation's quarter turn (`time_a`).
        QuarterTurn = 0x01,
        /// A rotation's half turn (`time_b`).
        HalfTurn = 0x02,
        /// A flipper's step (`time_a`).
        FlipperStep = 0x03,
        /// A jaw's opening or closing (the shorter of `time_a`, `time_b`).
        Jaw = 0x04,
    }
}

/// Why a board refused a `Configure` (`ConfigureRefused` payload bytes 1..5: code u8,
/// actuator u8, value u16).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConfigRefusal {
    /// More actuators than the board drives (code 0x01, actuator 0, value = the board's count).
    TooManyActuators {
        /// Actuators the board drives.
        board: u8,
    },
    /// The kind does not match the board's hardware at this index, e.g. a jaw on a
    /// stepper (code 0x02, value 0).
    WrongKind {
        /// Actuator index.
        actuator: u8,
    },
    /// A configured time is shorter than the board's ramp needs (codes 0x10 + the
    /// [`TimedMove`] code, value = the least time the board needs, ms, saturated).
    TooFast {
        /// Actuator index.
        actuator: u8,
        /// Which time.
        timed: TimedMove,
        /// The least time the board's ramp needs, ms.
        needed_ms: u16,
    },
    /// A continuous rotation on an actuator without a home sensor (code 0x03, value 0).
    ContinuousWithoutSensor {
        /// Actuator index.
        actuator: u8,
    },
    /// The configured `min..=max` reaches beyond the actuator's travel on this board
    /// (code 0x04, value 0).
    RangeBeyondTravel {
        /// Actuator index.
        actuator: u8,
    },
}

/// Bytes of a [`ConfigRefusal`] on the wire.
pub const REFUSAL_LEN: usize = 4;

const REFUSAL_TOO_FAST_BASE: u8 = 0x10;

impl ConfigRefusal {
    /// The actuator index the refusal names, if any.
    pub const fn actuator(&self) -> Option<u8> {
        match *self {
            ConfigRefusal::TooManyActuators { .. } => None,
            ConfigRefusal::WrongKind { actuator }
            | ConfigRefusal::TooFast { actuator, .. }
            | ConfigRefusal::ContinuousWithoutSensor { actuator }
            | ConfigRefusal::RangeBeyondTravel { actuator } => Some(actuator),
        }
    }

    const fn to_wire(self) -> (u8, u8, u16) {
        match self {
            ConfigRefusal::TooManyActuators { board } => (0x01, 0, board as u16),
            ConfigRefusal::WrongKind { actuator } => (0x02, actuator, 0),
            ConfigRefusal::ContinuousWithoutSensor { actuator } => (0x03, actuator, 0),
            ConfigRefusal::RangeBeyondTravel { actuator } => (0x04, actuator, 0),
            ConfigRefusal::TooFast {
                actuator,
                timed,
                needed_ms,
            } => (REFUSAL_TOO_FAST_BASE + timed.code(), actuator, needed_ms),
        }
    }

    pub(crate) fn write(&self, w: &mut Writer<'_>) -> Result<(), Error> {
        let (code, actuator, value) = self.to_wire();
        Self::check_actuator(actuator)?;
        w.u8(code)?;
        w.u8(actuator)?;
        w.u16(value)
    }

    pub(crate) fn read(r: &mut Reader<'_>) -> Result<Self, Error> {
        let code = r.u8()?;
        let actuator = Self::check_actuator(r.u8()?)?;
        let value = r.u16()?;
        let refusal = match code {
            0x01 => {
                expect_zero("refusal_actuator", actuator.into())?;
                ConfigRefusal::TooManyActuators {
                    board: u8::try_from(value).map_err(|_| Error::BadValue {
                        field: "refusal_value",
                        value: value.into(),
                    })?,
                }
            }
            0x02..=0x04 => {
                expect_zero("refusal_value", value.into())?;
                match code {
                    0x02 => ConfigRefusal::WrongKind { actuator },
                    0x03 => ConfigRefusal::ContinuousWithoutSensor { actuator },
                    _ => ConfigRefusal::RangeBeyondTravel { actuator },
                }
            }
            other if other > REFUSAL_TOO_FAST_BASE => ConfigRefusal::TooFast {
                actuator,
                timed: TimedMove::from_code(other - REFUSAL_TOO_FAST_BASE).map_err(|_| {
                    Error::BadValue {
                        field: "refusal_code",
                        value: other.into(),
                    }
                })?,
                needed_ms: value,
            },
            other => {
                return Err(Error::BadValue {
                    field: "refusal_code",
                    value: other.into(),
                })
            }
        };
        Ok(refusal)
    }

    fn check_actuator(actuator: u8) -> Result<u8, Error> {
        if usize::from(actuator) < MAX_ACTUATORS {
            Ok(actuator)
        } else {
            Err(Error::BadValue {
                field: "refusal_actuator",
                value: actuator.into(),
            })
        }
    }
}
