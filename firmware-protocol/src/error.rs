//! The crate's single error type: every way encoding, decoding or a session helper can fail.

use core::fmt;

/// Everything that can go wrong in this crate. `Copy`, no allocation, and precise
/// enough that a log line says exactly what was wrong with a frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Error {
    /// The output buffer given to an encoder is too small.
    BufferTooSmall {
        /// Bytes the encoder needs.
        needed: usize,
        /// Bytes the caller gave it.
        available: usize,
    },
    /// A frame is longer than the protocol allows (see [`crate::MAX_FRAME_LEN`] and
    /// [`crate::MAX_ENCODED_LEN`]); for the streaming decoder, the bytes up to the next
    /// delimiter were discarded.
    FrameTooLong {
        /// The limit that was exceeded, in bytes.
        max: usize,
    },
    /// The decoded frame is shorter than a header plus a CRC.
    Truncated {
        /// Decoded length in bytes.
        len: usize,
    },
    /// The COBS encoding is invalid at this offset of the encoded frame (a zero byte
    /// inside the frame, or a block that runs past the end of the frame).
    BadCobs {
        /// Offset in the encoded frame (delimiter excluded).
        at: usize,
    },
    /// The CRC-16 at the end of the frame does not match its content.
    BadCrc {
        /// CRC computed over the received header and payload.
        expected: u16,
        /// CRC carried by the frame.
        found: u16,
    },
    /// The header's protocol version is not [`crate::PROTOCOL_VERSION`] (only `Hello`
    /// and `HelloReply` are decoded whatever their version).
    UnsupportedVersion(u8),
    /// The header's message type code is not defined.
    UnknownMessageType(u8),
    /// The payload length does not match what the message type (and its count fields) require.
    BadPayloadLength {
        /// Message type code.
        message_type: u8,
        /// Length required, in bytes.
        expected: usize,
        /// Length found, in bytes.
        found: usize,
    },
    /// A field holds a value the protocol does not allow.
    BadValue {
        /// Name of the field, as in PROTOCOL.md.
        field: &'static str,
        /// The offending value.
        value: i64,
    },
    /// A sender's retransmit window is full: wait for acks.
    WindowFull {
        /// Frames currently unacknowledged.
        unacked: usize,
    },
    /// The firmware's command queue has no free slot for a queued command
    /// (`Home`, `Motion`, `Dwell`): wait for an `Ack` announcing free slots.
    NoQueueSpace,
    /// Sequenced messages need a session: the `Hello` handshake has not completed, or
    /// the peer rebooted since.
    NoSession,
    /// A sequenced message was handed to an API for unsequenced ones, or the reverse.
    WrongSequencing {
        /// Message type code.
        message_type: u8,
    },
}

impl Error {
    /// A short stable name for the variant, for counters and logs.
    pub fn kind_name(&self) -> &'static str {
        match self {
            Error::BufferTooSmall { .. } => "buffer_too_small",
            Error::FrameTooLong { .. } => "frame_too_long",
            Error::Truncated { .. } => "truncated",
            Error::BadCobs { .. } => "bad_cobs",
            Error::BadCrc { .. } => "bad_crc",
            Error::UnsupportedVersion(_) => "unsupported_version",
            Error::UnknownMessageType(_) => "unknown_message_type",
            Error::BadPayloadLength { .. } => "bad_payload_length",
            Error::BadValue { .. } => "bad_value",
            Error::WindowFull { .. } => "window_full",
            Error::NoQueueSpace => "no_queue_space",
            Error::NoSession => "no_session",
            Error::WrongSequencing { .. } => "wrong_sequencing",
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Error::BufferTooSmall { needed, available } => {
                write!(
                    f,
                    "output buffer too small: need {needed} bytes, have {available}"
                )
            }
            Error::FrameTooLong { max } => write!(f, "frame longer than {max} bytes"),
            Error::Truncated { len } => {
                write!(f, "frame of {len} bytes is shorter than header + CRC")
            }
            Error::BadCobs { at } => write!(f, "invalid COBS encoding at byte {at}"),
            Error::BadCrc { expected, found } => {
                write!(
                    f,
                    "CRC mismatch: computed {expected:#06x}, frame carries {found:#06x}"
                )
            }
            Error::UnsupportedVersion(v) => write!(f, "unsupported protocol version {v}"),
            Error::UnknownMessageType(t) => write!(f, "unknown message type {t:#04x}"),
            Error::BadPayloadLength {
                message_type,
                expected,
                found,
            } => write!(
                f,
                "message type {message_type:#04x}: payload is {found} bytes, expected {expected}"
            ),
            Error::BadValue { field, value } => write!(f, "invalid value {value} for {field}"),
            Error::WindowFull { unacked } => {
                write!(f, "send window full ({unacked} frames unacknowledged)")
            }
            Error::NoQueueSpace => write!(f, "firmware command queue has no free slot"),
            Error::NoSession => write!(f, "no session: the Hello handshake has not completed"),
            Error::WrongSequencing { message_type } => write!(
                f,
                "message type {message_type:#04x} used with the wrong sequencing API"
            ),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::ToString;

    #[test]
    fn display_names_the_numbers() {
        let text = Error::BadCrc {
            expected: 0x29b1,
            found: 0x1234,
        }
        .to_string();
        assert_eq!(text, "CRC mismatch: computed 0x29b1, frame carries 0x1234");
        let text = Error::BadValue {
            field: "jaw_target",
            value: 7,
        }
        .to_string();
        assert_eq!(text, "invalid value 7 for jaw_target");
    }
}
