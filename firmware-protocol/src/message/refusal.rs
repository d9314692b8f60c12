//! `ConfigureRefused`: why a board cannot honour a setup and `Configure`, naming the
//! actuator, the key and what is allowed.

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

wire_enum! {
    /// A key of `SetupBoard` or `SetupActuator` (in a `ConfigureRefused`).
    pub enum SetupKey("setup_key") {
        /// `SetupBoard.actuators`.
        Actuators = 0x01,
        /// The drivers' ENABLE pin.
        Enable = 0x02,
        /// The e-stop pin.
        Estop = 0x03,
        /// The start button's pin.
        Button = 0x04,
        /// `debounce_samples`.
        DebounceSamples = 0x05,
        /// `idle_disable_ms`.
        IdleDisableMs = 0x06,
        /// A stepper's STEP pin.
        StepPin = 0x10,
        /// A stepper's DIR pin.
        DirPin = 0x11,
        /// `full_steps_per_rev`.
        FullStepsPerRev = 0x12,
        /// `microsteps`.
        Microsteps = 0x13,
        /// `gear_num` / `gear_den`.
        Gear = 0x14,
        /// `units_per_rev`.
        UnitsPerRev = 0x15,
        /// `max_deg_s`.
        MaxDegS = 0x16,
        /// `accel_deg_s2`.
        AccelDegS2 = 0x17,
        /// The home sensor's pin.
        HomePin = 0x18,
        /// The home seek speed.
        SeekDegS = 0x19,
        /// The home approach speed.
        ApproachDegS = 0x1A,
        /// The home back-off.
        BackoffDeg = 0x1B,
        /// The longest home seek.
        MaxSeekDeg = 0x1C,
        /// The driver's stall pin.
        StallPin = 0x1D,
        /// A servo's signal pin.
        ServoPin = 0x20,
        /// A servo's open pulse.
        OpenUs = 0x21,
        /// A servo's closed pulse.
        ClosedUs = 0x22,
        /// A servo's travel time.
        TravelMs = 0x23,
    }
}

impl SetupKey {
    /// The key's name, as PROTOCOL.md and the firmware core name it.
    pub const fn name(self) -> &'static str {
        match self {
            SetupKey::Actuators => "actuators",
            SetupKey::Enable => "enable",
            SetupKey::Estop => "estop",
            SetupKey::Button => "button",
            SetupKey::DebounceSamples => "debounce_samples",
            SetupKey::IdleDisableMs => "idle_disable_ms",
            SetupKey::StepPin => "step_pin",
            SetupKey::DirPin => "dir_pin",
            SetupKey::FullStepsPerRev => "full_steps_per_rev",
            SetupKey::Microsteps => "microsteps",
            SetupKey::Gear => "gear",
            SetupKey::UnitsPerRev => "units_per_rev",
            SetupKey::MaxDegS => "max_deg_s",
            SetupKey::AccelDegS2 => "accel_deg_s2",
            SetupKey::HomePin => "home_pin",
            SetupKey::SeekDegS => "seek_deg_s",
            SetupKey::ApproachDegS => "approach_deg_s",
            SetupKey::BackoffDeg => "backoff_deg",
            SetupKey::MaxSeekDeg => "max_seek_deg",
            SetupKey::StallPin => "stall_pin",
            SetupKey::ServoPin => "servo_pin",
            SetupKey::OpenUs => "open_us",
            SetupKey::ClosedUs => "closed_us",
            SetupKey::TravelMs => "travel_ms",
        }
    }
}

/// Why a board refused a setup and `Configure`. `actuator: None` names the board's
/// shared wiring (`SetupBoard`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConfigRefusal {
    /// More actuators than the board drives (code 0x01, value = the board's count).
    TooManyActuators {
        /// Actuators the board drives.
        board: u8,
    },
    /// The kind does not match the setup at this index, e.g. a jaw on a stepper
    /// (code 0x02).
    WrongKind {
        /// Actuator index.
        actuator: u8,
    },
    /// A continuous rotation on an actuator without a home sensor (code 0x03).
    ContinuousWithoutSensor {
        /// Actuator index.
        actuator: u8,
    },
    /// The configured `min..=max` reaches beyond the actuator's travel (code 0x04).
    RangeBeyondTravel {
        /// Actuator index.
        actuator: u8,
    },
    /// No `SetupBoard` (`None`) or no `SetupActuator` for this index came before the
    /// `Configure`, or they disagree on the count (code 0x05).
    NotSetUp {
        /// The actuator missing, or `None` for the board.
        actuator: Option<u8>,
    },
    /// A value out of the range this firmware accepts (code 0x06, value, a = min,
    /// b = max).
    OutOfRange {
        /// Actuator index, or `None` for the board.
        actuator: Option<u8>,
        /// Which key.
        key: SetupKey,
        /// The value given.
        value: i32,
        /// Least allowed.
        min: i32,
        /// Most allowed.
        max: i32,
    },
    /// A pin already used by another key (code 0x07, value = pin, a = the other
    /// actuator or -1 for the board, b = the other key's code).
    PinTaken {
        /// Actuator index, or `None` for the board.
        actuator: Option<u8>,
        /// Which key.
        key: SetupKey,
        /// The pin.
        pin: u8,
        /// The actuator already using it, or `None` for the board.
        by_actuator: Option<u8>,
        /// The key already using it.
        by_key: SetupKey,
    },
    /// A pin the chip does not have (code 0x08, value = pin, a = how many it has).
    NoSuchPin {
        /// Actuator index, or `None` for the board.
        actuator: Option<u8>,
        /// Which key.
        key: SetupKey,
        /// The pin.
        pin: u8,
        /// Pins `0..pins` exist.
        pins: u8,
    },
    /// A pin the board keeps for itself (code 0x09, value = pin).
    PinReserved {
        /// Actuator index, or `None` for the board.
        actuator: Option<u8>,
        /// Which key.
        key: SetupKey,
        /// The pin.
        pin: u8,
    },
    /// Two servos on pins that share one PWM output of the chip (code 0x0A, key
    /// `servo_pin`, value = pin, a = the other servo's actuator, b = its pin).
    PwmShared {
        /// Actuator index.
        actuator: u8,
        /// Its servo pin.
        pin: u8,
        /// The servo already on that PWM output.
        by_actuator: u8,
        /// That servo's pin.
        by_pin: u8,
    },
    /// A configured time is shorter than the board's ramp needs (codes 0x10 + the
    /// [`TimedMove`] code, value = the least time the board needs, ms).
    TooFast {
        /// Actuator index.
        actuator: u8,
        /// Which time.
        timed: TimedMove,
        /// The least time the board's ramp needs, ms (at most `i32::MAX`).
        needed_ms: u32,
    },
}

/// Bytes of a [`ConfigRefusal`] on the wire: code u8, actuator u8 (0xFF: the board),
/// key u8 (0: none), 0 u8, value i32, a i32, b i32.
pub const REFUSAL_LEN: usize = 16;

const BOARD: u8 = 0xFF;
const TOO_FAST_BASE: u8 = 0x10;

/// The wire fields of a refusal, before the codes are checked.
struct Fields {
    code: u8,
    actuator: u8,
    key: u8,
    value: i32,
    a: i32,
    b: i32,
}

fn who(actuator: Option<u8>) -> u8 {
    actuator.unwrap_or(BOARD)
}

fn who_i32(actuator: Option<u8>) -> i32 {
    actuator.map_or(-1, i32::from)
}

impl ConfigRefusal {
    /// The actuator index the refusal names, if any.
    pub const fn actuator(&self) -> Option<u8> {
        match *self {
            ConfigRefusal::TooManyActuators { .. } => None,
            ConfigRefusal::WrongKind { actuator }
            | ConfigRefusal::TooFast { actuator, .. }
            | ConfigRefusal::ContinuousWithoutSensor { actuator }
            | ConfigRefusal::RangeBeyondTravel { actuator }
            | ConfigRefusal::PwmShared { actuator, .. } => Some(actuator),
            ConfigRefusal::NotSetUp { actuator }
            | ConfigRefusal::OutOfRange { actuator, .. }
            | ConfigRefusal::PinTaken { actuator, .. }
            | ConfigRefusal::NoSuchPin { actuator, .. }
            | ConfigRefusal::PinReserved { actuator, .. } => actuator,
        }
    }

    /// The setup key the refusal names, if any.
    pub const fn key(&self) -> Option<SetupKey> {
        match *self {
            ConfigRefusal::OutOfRange { key, .. }
            | ConfigRefusal::PinTaken { key, .. }
            | ConfigRefusal::NoSuchPin { key, .. }
            | ConfigRefusal::PinReserved { key, .. } => Some(key),
            ConfigRefusal::PwmShared { .. } => Some(SetupKey::ServoPin),
            _ => None,
        }
    }

    fn fields(self) -> Fields {
        let key = self.key().map_or(0, SetupKey::code);
        let actuator = match self {
            ConfigRefusal::TooManyActuators { .. } => BOARD,
            other => who(other.actuator()),
        };
        let (code, value, a, b) = match self {
            ConfigRefusal::TooManyActuators { board } => (0x01, i32::from(board), 0, 0),
            ConfigRefusal::WrongKind { .. } => (0x02, 0, 0, 0),
            ConfigRefusal::ContinuousWithoutSensor { .. } => (0x03, 0, 0, 0),
            ConfigRefusal::RangeBeyondTravel { .. } => (0x04, 0, 0, 0),
            ConfigRefusal::NotSetUp { .. } => (0x05, 0, 0, 0),
            ConfigRefusal::OutOfRange {
                value, min, max, ..
            } => (0x06, value, min, max),
            ConfigRefusal::PinTaken {
                pin,
                by_actuator,
                by_key,
                ..
            } => (
                0x07,
                i32::from(pin),
                who_i32(by_actuator),
                i32::from(by_key.code()),
            ),
            ConfigRefusal::NoSuchPin { pin, pins, .. } => {
                (0x08, i32::from(pin), i32::from(pins), 0)
            }
            ConfigRefusal::PinReserved { pin, .. } => (0x09, i32::from(pin), 0, 0),
            ConfigRefusal::PwmShared {
                pin,
                by_actuator,
                by_pin,
                ..
            } => (
                0x0A,
                i32::from(pin),
                i32::from(by_actuator),
                i32::from(by_pin),
            ),
            ConfigRefusal::TooFast {
                timed, needed_ms, ..
            } => (
                TOO_FAST_BASE + timed.code(),
                i32::try_from(needed_ms).unwrap_or(i32::MAX),
                0,
                0,
            ),
        };
        Fields {
            code,
            actuator,
            key,
            value,
            a,
            b,
        }
    }

    pub(crate) fn write(&self, w: &mut Writer<'_>) -> Result<(), Error> {
        if let ConfigRefusal::TooFast { needed_ms, .. } = *self {
            if i32::try_from(needed_ms).is_err() {
                return Err(Error::BadValue {
                    field: "refusal_value",
                    value: needed_ms.into(),
                });
            }
        }
        let f = self.fields();
        check_actuator(f.actuator)?;
        w.u8(f.code)?;
        w.u8(f.actuator)?;
        w.u8(f.key)?;
        w.u8(0)?;
        w.i32(f.value)?;
        w.i32(f.a)?;
        w.i32(f.b)
    }

    pub(crate) fn read(r: &mut Reader<'_>) -> Result<Self, Error> {
        let f = Fields {
            code: r.u8()?,
            actuator: check_actuator(r.u8()?)?,
            key: r.u8()?,
            value: {
                expect_zero("refusal_reserved", r.u8()?.into())?;
                r.i32()?
            },
            a: r.i32()?,
            b: r.i32()?,
        };
        let refusal = Self::from_fields(&f)?;
        // Anything the variant does not carry must be zero (one encoding per refusal).
        let again = refusal.fields();
        let same = again.actuator == f.actuator
            && again.key == f.key
            && again.value == f.value
            && again.a == f.a
            && again.b == f.b;
        if !same {
            return Err(Error::BadValue {
                field: "refusal_fields",
                value: f.code.into(),
            });
        }
        Ok(refusal)
    }

    fn from_fields(f: &Fields) -> Result<Self, Error> {
        let actuator = (f.actuator != BOARD).then_some(f.actuator);
        let index = || {
            actuator.ok_or(Error::BadValue {
                field: "refusal_actuator",
                value: f.actuator.into(),
            })
        };
        let key = || SetupKey::from_code(f.key);
        let pin = || {
            u8::try_from(f.value).map_err(|_| Error::BadValue {
                field: "refusal_pin",
                value: f.value.into(),
            })
        };
        let refusal = match f.code {
            0x01 => ConfigRefusal::TooManyActuators {
                board: u8::try_from(f.value).map_err(|_| Error::BadValue {
                    field: "refusal_value",
                    value: f.value.into(),
                })?,
            },
            0x02 => ConfigRefusal::WrongKind { actuator: index()? },
            0x03 => ConfigRefusal::ContinuousWithoutSensor { actuator: index()? },
            0x04 => ConfigRefusal::RangeBeyondTravel { actuator: index()? },
            0x05 => ConfigRefusal::NotSetUp { actuator },
            0x06 => ConfigRefusal::OutOfRange {
                actuator,
                key: key()?,
                value: f.value,
                min: f.a,
                max: f.b,
            },
            0x07 => ConfigRefusal::PinTaken {
                actuator,
                key: key()?,
                pin: pin()?,
                by_actuator: u8::try_from(f.a).ok().filter(|&a| a != BOARD),
                by_key: SetupKey::from_code(u8::try_from(f.b).unwrap_or(0))?,
            },
            0x08 => ConfigRefusal::NoSuchPin {
                actuator,
                key: key()?,
                pin: pin()?,
                pins: u8::try_from(f.a).unwrap_or(0),
            },
            0x09 => ConfigRefusal::PinReserved {
                actuator,
                key: key()?,
                pin: pin()?,
            },
            0x0A => ConfigRefusal::PwmShared {
                actuator: index()?,
                pin: pin()?,
                by_actuator: u8::try_from(f.a).unwrap_or(u8::MAX),
                by_pin: u8::try_from(f.b).unwrap_or(u8::MAX),
            },
            other if other > TOO_FAST_BASE => ConfigRefusal::TooFast {
                actuator: index()?,
                timed: TimedMove::from_code(other - TOO_FAST_BASE).map_err(|_| {
                    Error::BadValue {
                        field: "refusal_code",
                        value: other.into(),
                    }
                })?,
                needed_ms: u32::try_from(f.value).unwrap_or(0),
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
}

fn check_actuator(actuator: u8) -> Result<u8, Error> {
    if usize::from(actuator) < MAX_ACTUATORS || actuator == BOARD {
        Ok(actuator)
    } else {
        Err(Error::BadValue {
            field: "refusal_actuator",
            value: actuator.into(),
        })
    }
}
