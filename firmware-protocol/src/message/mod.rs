//! The message catalogue: type codes, the `Message` enum, sequencing rules and payload codecs.

/// Declares a `#[repr(u8)]` enum carried on the wire as one byte, with `code`,
/// `from_code` (unknown codes are `Error::BadValue { field, .. }`) and `ALL`.
macro_rules! wire_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident($field:literal) {
            $($(#[$variant_meta:meta])* $variant:ident = $code:literal,)*
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[repr(u8)]
        pub enum $name {
            $($(#[$variant_meta])* $variant = $code,)*
        }

        impl $name {
            /// Every variant, in code order.
            pub const ALL: &'static [$name] = &[$($name::$variant,)*];

            /// The byte sent on the wire.
            pub const fn code(self) -> u8 {
                self as u8
            }

            /// The variant sent as `code`.
            pub fn from_code(code: u8) -> Result<Self, $crate::Error> {
                match code {
                    $($code => Ok($name::$variant),)*
                    other => Err($crate::Error::BadValue {
                        field: $field,
                        value: other as i64,
                    }),
                }
            }
        }
    };
}

mod chip;
mod command;
mod refusal;
mod report;
mod setup;

pub use chip::{ChipInfo, BOARD_INFO_LEN};
pub use setup::{
    Actuator, BoardSetup, HomeSensor, Machine, SensorKind, Servo, Signal, Stepper, BOARD_SETUP_LEN,
    FIXED_SETUP_LEN, NO_PIN, SERVO_SETUP_LEN, STEPPER_SETUP_LEN,
};

pub use command::{
    Action, ActuatorConfig, Configure, JawTarget, Motion, RotationRange, ACTION_RECORD_LEN,
    ACTUATOR_RECORD_LEN, MAX_ACTIONS, MAX_ACTUATORS,
};
pub use refusal::{ConfigRefusal, SetupKey, TimedMove, REFUSAL_LEN};
pub use report::{
    Event, Fault, FaultFlags, FirmwareState, FirmwareVersion, HelloReply, InputFlags, NakReason,
    ResetCause, Status, EVENT_LEN, FIRMWARE_NAME_LEN, HELLO_REPLY_LEN, STATUS_FIXED_LEN,
};

use crate::seq::Seq;
use crate::wire::{Reader, Writer};
use crate::Error;

wire_enum! {
    /// Message type codes (header byte 3). 0x0_: host → firmware, 0x4_: either
    /// direction, 0x8_: firmware → host.
    pub enum MessageType("message_type") {
        /// Handshake request (unsequenced).
        Hello = 0x01,
        /// Actuator limits and timings (sequenced, immediate).
        Configure = 0x02,
        /// Home the actuators of a mask (sequenced, queued).
        Home = 0x03,
        /// Start actions together (sequenced, queued).
        Motion = 0x04,
        /// Wait (sequenced, queued).
        Dwell = 0x05,
        /// Ask for a `Status` (unsequenced).
        QueryStatus = 0x06,
        /// Heartbeat / round trip (unsequenced).
        Ping = 0x07,
        /// Stop everything now and latch (unsequenced).
        EmergencyStop = 0x08,
        /// Clear a latched fault or e-stop (sequenced, immediate).
        ClearFault = 0x09,
        /// The board's shared wiring, staged until `Configure` (sequenced, immediate).
        SetupBoard = 0x0A,
        /// One actuator's hardware, staged until `Configure` (sequenced, immediate).
        SetupActuator = 0x0B,
        /// Ask what the chip offers (unsequenced).
        QueryBoard = 0x0C,
        /// Cumulative ack plus free slots (unsequenced, either direction).
        Ack = 0x40,
        /// Refusal of one frame (unsequenced, either direction).
        Nak = 0x41,
        /// Handshake answer (unsequenced).
        HelloReply = 0x81,
        /// Checksum of an accepted `Configure` (sequenced).
        ConfigureReply = 0x82,
        /// A queued command finished (sequenced).
        MoveDone = 0x83,
        /// Button, fault or boot (sequenced, except `Boot`).
        Event = 0x84,
        /// Answer to `QueryStatus` (unsequenced).
        Status = 0x85,
        /// Answer to `Ping` (unsequenced).
        Pong = 0x86,
        /// A `Configure` this board cannot honour, with the reason (unsequenced).
        ConfigureRefused = 0x87,
        /// Answer to `QueryBoard` (unsequenced).
        BoardInfo = 0x88,
    }
}

impl MessageType {
    /// Whether the host may send this message (type codes below 0x80).
    pub const fn sent_by_host(self) -> bool {
        self.code() < 0x80
    }

    /// Whether the firmware may send this message (type codes from 0x40).
    pub const fn sent_by_firmware(self) -> bool {
        self.code() >= 0x40
    }
}

/// One protocol message (the header's type byte plus the payload).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Message {
    /// Host → firmware: start a session. Payload: protocol_version u8.
    Hello {
        /// The host's `PROTOCOL_VERSION`.
        protocol_version: u8,
    },
    /// Host → firmware: actuator limits; answered by `ConfigureReply`.
    Configure(Configure),
    /// Host → firmware: home the actuators whose bits are set in `mask`; answered by
    /// `MoveDone`. Payload: move_id u32, mask u16.
    Home {
        /// Id echoed in `MoveDone`.
        move_id: u32,
        /// Bit `i` set: home actuator `i` (non-zero, bits below [`MAX_ACTUATORS`] only).
        mask: u16,
    },
    /// Host → firmware: actions that start together; answered by `MoveDone`.
    Motion(Motion),
    /// Host → firmware: wait; answered by `MoveDone`. Payload: move_id u32, ms u16.
    Dwell {
        /// Id echoed in `MoveDone`.
        move_id: u32,
        /// Duration, ms.
        ms: u16,
    },
    /// Host → firmware: ask for a `Status`. Empty payload.
    QueryStatus,
    /// Host → firmware: heartbeat; answered by `Pong`. Payload: nonce u32.
    Ping {
        /// Echoed in `Pong`.
        nonce: u32,
    },
    /// Host → firmware: stop all motors now, flush the queue, latch. Empty payload.
    EmergencyStop,
    /// Host → firmware: clear a latched fault or e-stop. Empty payload.
    ClearFault,
    /// Host → firmware: the board's shared wiring (staged; applied with the next
    /// accepted `Configure`).
    SetupBoard(BoardSetup),
    /// Host → firmware: actuator `index`'s hardware (staged; applied with the next
    /// accepted `Configure`).
    SetupActuator {
        /// Actuator index (as in `Configure`).
        index: u8,
        /// Its pins, motor or servo.
        actuator: Actuator,
    },
    /// Host → firmware: ask for a `BoardInfo`. Empty payload.
    QueryBoard,
    /// Either direction: the header's ack field is the cumulative ack. Payload: free_slots u8.
    Ack {
        /// From the firmware: free command-queue slots. From the host: 255.
        free_slots: u8,
    },
    /// Either direction: a frame was refused. Payload: seq u8, reason u8.
    Nak {
        /// Which seq (see [`NakReason`] for which one each reason names).
        seq: Seq,
        /// Why.
        reason: NakReason,
    },
    /// Firmware → host: answer to `Hello`.
    HelloReply(HelloReply),
    /// Firmware → host: a `Configure` was accepted. Payload: checksum u16.
    ConfigureReply {
        /// [`Configure::checksum`] of the accepted payload.
        checksum: u16,
    },
    /// Firmware → host: a queued command finished. Payload: move_id u32.
    MoveDone {
        /// The command's id.
        move_id: u32,
    },
    /// Firmware → host: something happened.
    Event(Event),
    /// Firmware → host: answer to `QueryStatus`.
    Status(Status),
    /// Firmware → host: answer to `Ping`. Payload: nonce u32.
    Pong {
        /// The `Ping`'s nonce.
        nonce: u32,
    },
    /// Firmware → host: the `Configure` with this seq was refused (its seq is consumed),
    /// and with it the setup staged before it. Payload: seq u8, then the refusal.
    ConfigureRefused {
        /// The refused `Configure`'s seq.
        seq: Seq,
        /// Why.
        refusal: ConfigRefusal,
    },
    /// Firmware → host: answer to `QueryBoard`.
    BoardInfo(ChipInfo),
}

impl Message {
    /// The type code for the header.
    pub const fn message_type(&self) -> MessageType {
        match self {
            Message::Hello { .. } => MessageType::Hello,
            Message::Configure(_) => MessageType::Configure,
            Message::Home { .. } => MessageType::Home,
            Message::Motion(_) => MessageType::Motion,
            Message::Dwell { .. } => MessageType::Dwell,
            Message::QueryStatus => MessageType::QueryStatus,
            Message::Ping { .. } => MessageType::Ping,
            Message::EmergencyStop => MessageType::EmergencyStop,
            Message::ClearFault => MessageType::ClearFault,
            Message::SetupBoard(_) => MessageType::SetupBoard,
            Message::SetupActuator { .. } => MessageType::SetupActuator,
            Message::QueryBoard => MessageType::QueryBoard,
            Message::Ack { .. } => MessageType::Ack,
            Message::Nak { .. } => MessageType::Nak,
            Message::HelloReply(_) => MessageType::HelloReply,
            Message::ConfigureReply { .. } => MessageType::ConfigureReply,
            Message::MoveDone { .. } => MessageType::MoveDone,
            Message::Event(_) => MessageType::Event,
            Message::Status(_) => MessageType::Status,
            Message::Pong { .. } => MessageType::Pong,
            Message::ConfigureRefused { .. } => MessageType::ConfigureRefused,
            Message::BoardInfo(_) => MessageType::BoardInfo,
        }
    }

    /// Whether the message consumes a sequence number, is acknowledged and is
    /// retransmitted until it is. All others carry seq 0 and are never retransmitted.
    pub const fn is_sequenced(&self) -> bool {
        match self {
            Message::Configure(_)
            | Message::SetupBoard(_)
            | Message::SetupActuator { .. }
            | Message::Home { .. }
            | Message::Motion(_)
            | Message::Dwell { .. }
            | Message::ClearFault
            | Message::ConfigureReply { .. }
            | Message::MoveDone { .. } => true,
            Message::Event(event) => !matches!(event, Event::Boot { .. }),
            _ => false,
        }
    }

    /// Whether the message takes a slot in the firmware's command queue.
    pub const fn is_queued(&self) -> bool {
        matches!(
            self,
            Message::Home { .. } | Message::Motion(_) | Message::Dwell { .. }
        )
    }

    /// The move id of a queued command.
    pub const fn move_id(&self) -> Option<u32> {
        match *self {
            Message::Home { move_id, .. } | Message::Dwell { move_id, .. } => Some(move_id),
            Message::Motion(Motion { move_id, .. }) => Some(move_id),
            _ => None,
        }
    }

    /// Writes the payload (validating it as the decoder would).
    pub(crate) fn write_payload(&self, w: &mut Writer<'_>) -> Result<(), Error> {
        match self {
            Message::Hello { protocol_version } => w.u8(*protocol_version),
            Message::Configure(configure) => configure.write(w),
            Message::Home { move_id, mask } => {
                home_mask(*mask)?;
                w.u32(*move_id)?;
                w.u16(*mask)
            }
            Message::MoveDone { move_id } => w.u32(*move_id),
            Message::Motion(motion) => motion.write(w),
            Message::Dwell { move_id, ms } => {
                w.u32(*move_id)?;
                w.u16(*ms)
            }
            Message::QueryStatus
            | Message::EmergencyStop
            | Message::ClearFault
            | Message::QueryBoard => Ok(()),
            Message::SetupBoard(board) => board.write(w),
            Message::SetupActuator { index, actuator } => {
                setup::write_actuator(*index, actuator, w)
            }
            Message::BoardInfo(info) => info.write(w),
            Message::Ping { nonce } | Message::Pong { nonce } => w.u32(*nonce),
            Message::Ack { free_slots } => w.u8(*free_slots),
            Message::Nak { seq, reason } => {
                w.u8(seq.0)?;
                w.u8(reason.code())
            }
            Message::HelloReply(reply) => reply.write(w),
            Message::ConfigureReply { checksum } => w.u16(*checksum),
            Message::Event(event) => event.write(w),
            Message::Status(status) => status.write(w),
            Message::ConfigureRefused { seq, refusal } => {
                w.u8(seq.0)?;
                refusal.write(w)
            }
        }
    }

    /// Parses the payload of a message of type `message_type`.
    pub(crate) fn read_payload(message_type: MessageType, payload: &[u8]) -> Result<Self, Error> {
        let code = message_type.code();
        let fixed = |len: usize| Reader::exact(payload, code, len);
        let message = match message_type {
            MessageType::Hello => Message::Hello {
                protocol_version: fixed(1)?.u8()?,
            },
            MessageType::Configure => Message::Configure(Configure::read(payload, code)?),
            MessageType::Home => {
                let mut r = fixed(6)?;
                Message::Home {
                    move_id: r.u32()?,
                    mask: home_mask(r.u16()?)?,
                }
            }
            MessageType::Motion => Message::Motion(Motion::read(payload, code)?),
            MessageType::Dwell => {
                let mut r = fixed(6)?;
                Message::Dwell {
                    move_id: r.u32()?,
                    ms: r.u16()?,
                }
            }
            MessageType::QueryStatus => {
                fixed(0)?;
                Message::QueryStatus
            }
            MessageType::Ping => Message::Ping {
                nonce: fixed(4)?.u32()?,
            },
            MessageType::EmergencyStop => {
                fixed(0)?;
                Message::EmergencyStop
            }
            MessageType::ClearFault => {
                fixed(0)?;
                Message::ClearFault
            }
            MessageType::SetupBoard => Message::SetupBoard(BoardSetup::read(payload, code)?),
            MessageType::SetupActuator => {
                let (index, actuator) = setup::read_actuator(payload, code)?;
                Message::SetupActuator { index, actuator }
            }
            MessageType::QueryBoard => {
                fixed(0)?;
                Message::QueryBoard
            }
            MessageType::BoardInfo => Message::BoardInfo(ChipInfo::read(payload, code)?),
            MessageType::Ack => Message::Ack {
                free_slots: fixed(1)?.u8()?,
            },
            MessageType::Nak => {
                let mut r = fixed(2)?;
                Message::Nak {
                    seq: Seq(r.u8()?),
                    reason: NakReason::from_code(r.u8()?)?,
                }
            }
            MessageType::HelloReply => Message::HelloReply(HelloReply::read(payload, code)?),
            MessageType::ConfigureReply => Message::ConfigureReply {
                checksum: fixed(2)?.u16()?,
            },
            MessageType::MoveDone => Message::MoveDone {
                move_id: fixed(4)?.u32()?,
            },
            MessageType::Event => Message::Event(Event::read(payload, code)?),
            MessageType::Status => Message::Status(Status::read(payload, code)?),
            MessageType::Pong => Message::Pong {
                nonce: fixed(4)?.u32()?,
            },
            MessageType::ConfigureRefused => {
                let mut r = fixed(1 + REFUSAL_LEN)?;
                Message::ConfigureRefused {
                    seq: Seq(r.u8()?),
                    refusal: ConfigRefusal::read(&mut r)?,
                }
            }
        };
        Ok(message)
    }
}

/// Every actuator index a `Home` mask may name.
pub const HOME_ALL: u16 = (1 << MAX_ACTUATORS) - 1;

/// A `Home` mask must name at least one actuator and only indices below [`MAX_ACTUATORS`].
fn home_mask(mask: u16) -> Result<u16, Error> {
    if mask != 0 && mask & !HOME_ALL == 0 {
        Ok(mask)
    } else {
        Err(Error::BadValue {
            field: "home_mask",
            value: mask.into(),
        })
    }
}
