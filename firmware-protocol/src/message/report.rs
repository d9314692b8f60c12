//! Firmware → host payloads with structure: `HelloReply`, `Event`, `Status`, and the `Nak` reasons.

use super::command::MAX_ACTUATORS;
use crate::fixed::FixedList;
use crate::seq::MAX_WINDOW;
use crate::wire::{expect_zero, Reader, Writer};
use crate::Error;

/// Length of the firmware name in `HelloReply` (ASCII, padded with NUL bytes).
pub const FIRMWARE_NAME_LEN: usize = 16;
/// Length of a `HelloReply` payload. This layout is frozen for every protocol version.
pub const HELLO_REPLY_LEN: usize = 6 + FIRMWARE_NAME_LEN;

wire_enum! {
    /// Why a frame was refused (`Nak` payload byte 1).
    pub enum NakReason("nak_reason") {
        /// CRC mismatch. Nak seq = receiver's next expected seq. Not consumed.
        BadCrc = 0x01,
        /// COBS, length or field error. Nak seq = next expected. Not consumed.
        BadFrame = 0x02,
        /// Unknown message type. Nak seq = next expected. Not consumed.
        UnknownMessage = 0x03,
        /// Header version is not this protocol's. Nak seq = next expected. Not consumed.
        UnsupportedVersion = 0x04,
        /// Seq is ahead of the next expected one (a frame was lost). Nak seq = next expected.
        OutOfOrder = 0x05,
        /// Seq is neither a recent duplicate nor within the window ahead. Nak seq = frame's seq.
        OutOfWindow = 0x06,
        /// Queued command with no free queue slot. Nak seq = frame's seq. Not consumed.
        QueueFull = 0x07,
        /// Sequenced frame before a `Hello` (e.g. after a reboot). Nak seq = frame's seq.
        NoSession = 0x08,
        /// Accepted in sequence but refused: not allowed in the current state. Consumed.
        BadState = 0x09,
        /// Accepted in sequence but refused: emergency stop is latched. Consumed.
        EStopLatched = 0x0A,
        /// Accepted in sequence but refused: valid on the wire, impossible for this
        /// robot (actuator index, kind or target out of the configured limits). Consumed.
        InvalidCommand = 0x0B,
    }
}

impl NakReason {
    /// Whether the refused frame still used up its sequence number (it is acknowledged
    /// and must not be retransmitted) rather than being dropped for a retransmission.
    pub const fn consumes_seq(self) -> bool {
        matches!(
            self,
            NakReason::BadState | NakReason::EStopLatched | NakReason::InvalidCommand
        )
    }

    /// The reason to report for a frame that failed to decode.
    pub const fn for_decode_error(error: &Error) -> NakReason {
        match error {
            Error::BadCrc { .. } => NakReason::BadCrc,
            Error::UnknownMessageType(_) => NakReason::UnknownMessage,
            Error::UnsupportedVersion(_) => NakReason::UnsupportedVersion,
            _ => NakReason::BadFrame,
        }
    }
}

/// Firmware version, major.minor.patch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FirmwareVersion {
    /// Major version.
    pub major: u8,
    /// Minor version.
    pub minor: u8,
    /// Patch version.
    pub patch: u8,
}

/// `HelloReply` payload: who the firmware is and what it accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HelloReply {
    /// The firmware's `PROTOCOL_VERSION`; the host refuses to run unless it equals its own.
    pub protocol_version: u8,
    /// Firmware build version.
    pub firmware_version: FirmwareVersion,
    /// Command queue capacity (queued commands: `Home`, `Motion`, `Dwell`), at least 1.
    pub queue_depth: u8,
    /// Most unacknowledged sequenced frames the host may have outstanding (1..=128).
    pub rx_window: u8,
    /// Firmware name, ASCII, NUL-padded.
    pub firmware_name: [u8; FIRMWARE_NAME_LEN],
}

impl HelloReply {
    /// Pads or truncates `name` to the fixed-size name field.
    pub fn name_field(name: &str) -> [u8; FIRMWARE_NAME_LEN] {
        let mut field = [0u8; FIRMWARE_NAME_LEN];
        for (slot, byte) in field.iter_mut().zip(name.bytes()) {
            *slot = byte;
        }
        field
    }

    /// The name up to its first NUL byte.
    pub fn name_bytes(&self) -> &[u8] {
        let end = self
            .firmware_name
            .iter()
            .position(|&byte| byte == 0)
            .unwrap_or(FIRMWARE_NAME_LEN);
        &self.firmware_name[..end]
    }

    fn validate(&self) -> Result<(), Error> {
        if self.queue_depth == 0 {
            return Err(Error::BadValue {
                field: "queue_depth",
                value: 0,
            });
        }
        if self.rx_window == 0 || self.rx_window > MAX_WINDOW {
            return Err(Error::BadValue {
                field: "rx_window",
                value: self.rx_window.into(),
            });
        }
        Ok(())
    }

    pub(crate) fn write(&self, w: &mut Writer<'_>) -> Result<(), Error> {
        self.validate()?;
        w.u8(self.protocol_version)?;
        w.u8(self.firmware_version.major)?;
        w.u8(self.firmware_version.minor)?;
        w.u8(self.firmware_version.patch)?;
        w.u8(self.queue_depth)?;
        w.u8(self.rx_window)?;
        w.bytes(&self.firmware_name)
    }

    pub(crate) fn read(payload: &[u8], message_type: u8) -> Result<Self, Error> {
        let mut r = Reader::exact(payload, message_type, HELLO_REPLY_LEN)?;
        let reply = HelloReply {
            protocol_version: r.u8()?,
            firmware_version: FirmwareVersion {
                major: r.u8()?,
                minor: r.u8()?,
                patch: r.u8()?,
            },
            queue_depth: r.u8()?,
            rx_window: r.u8()?,
            firmware_name: r.array()?,
        };
        reply.validate()?;
        Ok(reply)
    }
}

wire_enum! {
    /// Why the firmware (re)started (`Event` Boot).
    pub enum ResetCause("reset_cause") {
        /// Not known.
        Unknown = 0x00,
        /// Power-on reset.
        PowerOn = 0x01,
        /// Watchdog reset.
        Watchdog = 0x02,
        /// Brown-out reset.
        BrownOut = 0x03,
        /// Software-requested reset.
        Software = 0x04,
        /// Reset pin (e.g. the USB-serial DTR line).
        ResetPin = 0x05,
    }
}

/// A latched fault: motors stopped, queue flushed, refused until `ClearFault`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// An actuator stalled (code 0x01).
    Stall {
        /// Actuator index.
        actuator: u8,
    },
    /// An actuator hit a limit switch unexpectedly (code 0x02).
    Limit {
        /// Actuator index.
        actuator: u8,
    },
    /// Supply voltage dropped (code 0x03).
    BrownOut,
    /// No valid frame from the host for `COMMS_TIMEOUT_MS` while moving (code 0x04).
    CommsTimeout,
    /// Emergency stop latched, by the host or a physical switch (code 0x05).
    EStopLatched,
    /// Homing did not find the actuator's home sensor within its travel (code 0x06).
    HomeNotFound {
        /// Actuator index.
        actuator: u8,
    },
}

impl Fault {
    /// Wire code and actuator byte.
    const fn to_wire(self) -> (u8, u8) {
        match self {
            Fault::Stall { actuator } => (0x01, actuator),
            Fault::Limit { actuator } => (0x02, actuator),
            Fault::BrownOut => (0x03, 0),
            Fault::CommsTimeout => (0x04, 0),
            Fault::EStopLatched => (0x05, 0),
            Fault::HomeNotFound { actuator } => (0x06, actuator),
        }
    }

    fn from_wire(code: u8, actuator: u8) -> Result<Self, Error> {
        let fault = match code {
            0x01 => Fault::Stall { actuator },
            0x02 => Fault::Limit { actuator },
            0x03 => Fault::BrownOut,
            0x04 => Fault::CommsTimeout,
            0x05 => Fault::EStopLatched,
            0x06 => Fault::HomeNotFound { actuator },
            other => {
                return Err(Error::BadValue {
                    field: "fault_code",
                    value: other.into(),
                })
            }
        };
        fault.validate(actuator)?;
        Ok(fault)
    }

    /// The [`FaultFlags`] bit this fault sets in `Status`.
    pub const fn flag(self) -> u8 {
        match self {
            Fault::Stall { .. } => FaultFlags::STALL,
            Fault::Limit { .. } => FaultFlags::LIMIT,
            Fault::BrownOut => FaultFlags::BROWN_OUT,
            Fault::CommsTimeout => FaultFlags::COMMS_TIMEOUT,
            Fault::EStopLatched => FaultFlags::ESTOP,
            Fault::HomeNotFound { .. } => FaultFlags::HOME_NOT_FOUND,
        }
    }

    /// The actuator must be a valid index for actuator faults and 0 otherwise.
    fn validate(self, actuator: u8) -> Result<(), Error> {
        let valid = match self {
            Fault::Stall { .. } | Fault::Limit { .. } | Fault::HomeNotFound { .. } => {
                usize::from(actuator) < MAX_ACTUATORS
            }
            _ => actuator == 0,
        };
        if valid {
            Ok(())
        } else {
            Err(Error::BadValue {
                field: "fault_actuator",
                value: actuator.into(),
            })
        }
    }
}

/// `Event` payload (3 bytes: kind, a, b).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// The firmware (re)started (kind 0x01, a = reset cause, b = 0). Sent unsequenced.
    Boot {
        /// Why it started.
        cause: ResetCause,
    },
    /// A button on the robot was pressed (kind 0x02, a = button index, b = 0).
    ButtonPressed {
        /// Button index (0 = the start button).
        button: u8,
    },
    /// A fault latched (kind 0x03, a = fault code, b = actuator or 0).
    Fault(Fault),
}

/// Length of an `Event` payload.
pub const EVENT_LEN: usize = 3;

impl Event {
    pub(crate) fn write(&self, w: &mut Writer<'_>) -> Result<(), Error> {
        let bytes = match *self {
            Event::Boot { cause } => [0x01, cause.code(), 0],
            Event::ButtonPressed { button } => [0x02, button, 0],
            Event::Fault(fault) => {
                let (code, actuator) = fault.to_wire();
                fault.validate(actuator)?;
                [0x03, code, actuator]
            }
        };
        w.bytes(&bytes)
    }

    pub(crate) fn read(payload: &[u8], message_type: u8) -> Result<Self, Error> {
        let mut r = Reader::exact(payload, message_type, EVENT_LEN)?;
        let [kind, a, b] = r.array()?;
        match kind {
            0x01 => {
                expect_zero("event_b", b.into())?;
                Ok(Event::Boot {
                    cause: ResetCause::from_code(a)?,
                })
            }
            0x02 => {
                expect_zero("event_b", b.into())?;
                Ok(Event::ButtonPressed { button: a })
            }
            0x03 => Ok(Event::Fault(Fault::from_wire(a, b)?)),
            other => Err(Error::BadValue {
                field: "event_kind",
                value: other.into(),
            }),
        }
    }
}

wire_enum! {
    /// The firmware's overall state (`Status` byte 0).
    pub enum FirmwareState("state") {
        /// No accepted `Configure` since boot.
        Unconfigured = 0x00,
        /// Configured, not homed (after `Configure` or `ClearFault`).
        Unhomed = 0x01,
        /// Homed, queue empty, nothing moving.
        Idle = 0x02,
        /// Executing queued commands.
        Busy = 0x03,
        /// A fault is latched.
        Faulted = 0x04,
        /// Emergency stop is latched.
        EStopped = 0x05,
    }
}

/// Bit set of latched faults (`Status` byte 1); bits 6..7 must be zero.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FaultFlags(pub u8);

impl FaultFlags {
    /// An actuator stalled.
    pub const STALL: u8 = 0x01;
    /// A limit switch tripped.
    pub const LIMIT: u8 = 0x02;
    /// Brown-out detected.
    pub const BROWN_OUT: u8 = 0x04;
    /// Comms timeout while moving.
    pub const COMMS_TIMEOUT: u8 = 0x08;
    /// Emergency stop latched.
    pub const ESTOP: u8 = 0x10;
    /// Homing did not find a home sensor.
    pub const HOME_NOT_FOUND: u8 = 0x20;
    const DEFINED: u8 = 0x3F;

    /// The flags, if no undefined bit is set.
    pub fn from_bits(bits: u8) -> Result<Self, Error> {
        defined_bits(bits, Self::DEFINED, "fault_flags").map(FaultFlags)
    }

    /// Whether any of the bits in `mask` is set.
    pub const fn any(self, mask: u8) -> bool {
        self.0 & mask != 0
    }
}

/// `bits`, if none outside `defined` is set; else a bad value of `field`.
fn defined_bits(bits: u8, defined: u8, field: &'static str) -> Result<u8, Error> {
    match bits & !defined {
        0 => Ok(bits),
        _ => Err(Error::BadValue {
            field,
            value: bits.into(),
        }),
    }
}

/// The robot's inputs as they stand (`Status` byte 9); bits 1..7 must be zero.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct InputFlags(pub u8);

impl InputFlags {
    /// The e-stop switch is active now (its button held down, or its wiring open): the
    /// firmware refuses `ClearFault` until it is released.
    pub const ESTOP_HELD: u8 = 0x01;
    const DEFINED: u8 = 0x01;

    /// The flags, if no undefined bit is set.
    pub fn from_bits(bits: u8) -> Result<Self, Error> {
        defined_bits(bits, Self::DEFINED, "input_flags").map(InputFlags)
    }

    /// Whether the e-stop switch is active.
    pub const fn estop_held(self) -> bool {
        self.0 & Self::ESTOP_HELD != 0
    }
}

/// `Status` payload: a snapshot the host can ask for at any time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Status {
    /// Overall state.
    pub state: FirmwareState,
    /// Latched faults.
    pub faults: FaultFlags,
    /// Move id of the last completed queued command (0 if none since boot).
    pub last_completed_move_id: u32,
    /// Queue slots in use (including the command being executed).
    pub queue_used: u8,
    /// Checksum of the accepted `Configure` payload (0 while unconfigured).
    pub config_checksum: u16,
    /// The inputs a person acts on, as they stand now (the e-stop switch).
    pub inputs: InputFlags,
    /// Current position of each configured actuator (jaws: 0 open, 1 closed).
    pub positions: FixedList<i32, MAX_ACTUATORS>,
}

/// Length of a `Status` payload without positions.
pub const STATUS_FIXED_LEN: usize = 11;

impl Status {
    pub(crate) fn write(&self, w: &mut Writer<'_>) -> Result<(), Error> {
        w.u8(self.state.code())?;
        w.u8(FaultFlags::from_bits(self.faults.0)?.0)?;
        w.u32(self.last_completed_move_id)?;
        w.u8(self.queue_used)?;
        w.u16(self.config_checksum)?;
        w.u8(InputFlags::from_bits(self.inputs.0)?.0)?;
        w.u8(self.positions.len() as u8)?;
        self.positions
            .iter()
            .try_for_each(|&position| w.i32(position))
    }

    pub(crate) fn read(payload: &[u8], message_type: u8) -> Result<Self, Error> {
        let count = usize::from(payload.get(STATUS_FIXED_LEN - 1).copied().unwrap_or(0));
        if count > MAX_ACTUATORS {
            return Err(Error::BadValue {
                field: "position_count",
                value: count as i64,
            });
        }
        let mut r = Reader::exact(payload, message_type, STATUS_FIXED_LEN + 4 * count)?;
        let state = FirmwareState::from_code(r.u8()?)?;
        let faults = FaultFlags::from_bits(r.u8()?)?;
        let mut status = Status {
            state,
            faults,
            last_completed_move_id: r.u32()?,
            queue_used: r.u8()?,
            config_checksum: r.u16()?,
            inputs: InputFlags::from_bits(r.u8()?)?,
            positions: FixedList::new(),
        };
        r.u8()?;
        for _ in 0..count {
            status.positions.push(r.i32()?, "position_count")?;
        }
        Ok(status)
    }
}
