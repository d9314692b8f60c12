//! Frames: header + payload + CRC-16, COBS-encoded with a 0x00 delimiter; one-shot encode/decode.

use crate::cobs;
use crate::crc::crc16;
use crate::message::{Message, MessageType};
use crate::seq::Seq;
use crate::wire::Writer;
use crate::Error;

/// Protocol version carried in every header and in `Hello`/`HelloReply`.
pub const PROTOCOL_VERSION: u8 = 4;
/// Header bytes: version, seq, ack, message type.
pub const HEADER_LEN: usize = 4;
/// CRC bytes at the end of a frame.
pub const CRC_LEN: usize = 2;
/// Largest decoded frame (header + payload + CRC).
pub const MAX_FRAME_LEN: usize = 128;
/// Largest payload.
pub const MAX_PAYLOAD_LEN: usize = MAX_FRAME_LEN - HEADER_LEN - CRC_LEN;
/// Largest COBS-encoded frame, delimiter excluded.
pub const MAX_ENCODED_LEN: usize = cobs::max_encoded_len(MAX_FRAME_LEN);
/// Largest frame on the wire: encoded frame plus the 0x00 delimiter. A buffer this
/// long always suffices for [`encode`].
pub const MAX_WIRE_LEN: usize = MAX_ENCODED_LEN + 1;
/// The frame delimiter.
pub const DELIMITER: u8 = 0x00;

/// The header fields other than the message type (which the [`Message`] implies).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    /// Protocol version (byte 0).
    pub version: u8,
    /// Sender's sequence number for sequenced messages, 0 for the others (byte 1).
    pub seq: Seq,
    /// Cumulative ack: the next seq the sender expects from its peer (byte 2).
    pub ack: Seq,
}

/// A decoded frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Frame {
    /// Version, seq and ack.
    pub header: Header,
    /// The message.
    pub message: Message,
}

impl Frame {
    /// A frame of this protocol version.
    pub const fn new(seq: Seq, ack: Seq, message: Message) -> Self {
        Frame {
            header: Header {
                version: PROTOCOL_VERSION,
                seq,
                ack,
            },
            message,
        }
    }

    /// A frame for an unsequenced message (seq 0).
    pub const fn unsequenced(ack: Seq, message: Message) -> Self {
        Frame::new(Seq::ZERO, ack, message)
    }
}

/// Writes header + payload + CRC (no COBS) into `out`; returns the length.
pub fn encode_content(frame: &Frame, out: &mut [u8]) -> Result<usize, Error> {
    let mut content = [0u8; MAX_FRAME_LEN];
    let mut w = Writer::new(&mut content[..MAX_FRAME_LEN - CRC_LEN]);
    let header = &frame.header;
    w.bytes(&[
        header.version,
        header.seq.0,
        header.ack.0,
        frame.message.message_type().code(),
    ])?;
    frame
        .message
        .write_payload(&mut w)
        .map_err(too_long_payload)?;
    let body_len = w.len();
    let crc = crc16(&content[..body_len]);
    content[body_len..body_len + CRC_LEN].copy_from_slice(&crc.to_le_bytes());
    let len = body_len + CRC_LEN;
    let available = out.len();
    let target = out.get_mut(..len).ok_or(Error::BufferTooSmall {
        needed: len,
        available,
    })?;
    target.copy_from_slice(&content[..len]);
    Ok(len)
}

/// A payload that overflowed the frame buffer is a frame that is too long.
fn too_long_payload(error: Error) -> Error {
    match error {
        Error::BufferTooSmall { .. } => Error::FrameTooLong { max: MAX_FRAME_LEN },
        other => other,
    }
}

/// Encodes `frame` as it goes on the wire: COBS(header + payload + CRC) followed by
/// the 0x00 delimiter. Returns the number of bytes written (at most [`MAX_WIRE_LEN`]).
pub fn encode(frame: &Frame, out: &mut [u8]) -> Result<usize, Error> {
    let mut content = [0u8; MAX_FRAME_LEN];
    let content_len = encode_content(frame, &mut content)?;
    let needed = cobs::max_encoded_len(content_len) + 1;
    if out.len() < needed {
        return Err(Error::BufferTooSmall {
            needed,
            available: out.len(),
        });
    }
    let encoded_len = cobs::encode(&content[..content_len], out)?;
    out[encoded_len] = DELIMITER;
    Ok(encoded_len + 1)
}

/// Decodes one COBS-encoded frame; a single trailing 0x00 delimiter is allowed.
pub fn decode_frame(wire: &[u8]) -> Result<Frame, Error> {
    let encoded = match wire.split_last() {
        Some((&DELIMITER, rest)) => rest,
        _ => wire,
    };
    if encoded.len() > MAX_ENCODED_LEN {
        return Err(Error::FrameTooLong {
            max: MAX_ENCODED_LEN,
        });
    }
    let mut content = [0u8; MAX_FRAME_LEN];
    let len = cobs::decode(encoded, &mut content)?;
    decode_content(&content[..len])
}

/// Decodes a frame's content (header + payload + CRC, already COBS-decoded).
pub fn decode_content(content: &[u8]) -> Result<Frame, Error> {
    if content.len() > MAX_FRAME_LEN {
        return Err(Error::FrameTooLong { max: MAX_FRAME_LEN });
    }
    if content.len() < HEADER_LEN + CRC_LEN {
        return Err(Error::Truncated { len: content.len() });
    }
    let (body, crc_bytes) = content.split_at(content.len() - CRC_LEN);
    let found = u16::from_le_bytes([crc_bytes[0], crc_bytes[1]]);
    let expected = crc16(body);
    if found != expected {
        return Err(Error::BadCrc { expected, found });
    }
    let (header_bytes, payload) = body.split_at(HEADER_LEN);
    let [version, seq, ack, type_code] = [
        header_bytes[0],
        header_bytes[1],
        header_bytes[2],
        header_bytes[3],
    ];
    let message_type =
        MessageType::from_code(type_code).map_err(|_| Error::UnknownMessageType(type_code))?;
    if version != PROTOCOL_VERSION && !is_version_independent(message_type) {
        return Err(Error::UnsupportedVersion(version));
    }
    Ok(Frame {
        header: Header {
            version,
            seq: Seq(seq),
            ack: Seq(ack),
        },
        message: Message::read_payload(message_type, payload)?,
    })
}

/// `Hello` and `HelloReply` keep their layout in every protocol version, so that a
/// version mismatch is always detected and reported rather than failing to decode.
const fn is_version_independent(message_type: MessageType) -> bool {
    matches!(message_type, MessageType::Hello | MessageType::HelloReply)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ping(nonce: u32) -> Frame {
        Frame::unsequenced(Seq(3), Message::Ping { nonce })
    }

    #[test]
    fn limits_are_consistent() {
        assert_eq!(MAX_PAYLOAD_LEN, 122);
        assert_eq!(MAX_ENCODED_LEN, 129);
        assert_eq!(MAX_WIRE_LEN, 130);
    }

    #[test]
    fn round_trip_with_and_without_delimiter() {
        let mut wire = [0u8; MAX_WIRE_LEN];
        let len = encode(&ping(0xDEAD_BEEF), &mut wire).expect("encode");
        assert_eq!(wire[len - 1], 0);
        assert_eq!(decode_frame(&wire[..len]), Ok(ping(0xDEAD_BEEF)));
        assert_eq!(decode_frame(&wire[..len - 1]), Ok(ping(0xDEAD_BEEF)));
    }

    #[test]
    fn short_output_buffer_is_an_error_not_a_panic() {
        let mut wire = [0u8; 5];
        assert_eq!(
            encode(&ping(1), &mut wire),
            Err(Error::BufferTooSmall {
                needed: 12,
                available: 5
            })
        );
    }

    #[test]
    fn corrupted_byte_is_a_crc_error() {
        let mut content = [0u8; MAX_FRAME_LEN];
        let len = encode_content(&ping(7), &mut content).expect("encode");
        content[5] ^= 0x40;
        assert!(matches!(
            decode_content(&content[..len]),
            Err(Error::BadCrc { .. })
        ));
    }

    #[test]
    fn short_content_is_truncated() {
        assert_eq!(decode_content(&[1, 0, 0]), Err(Error::Truncated { len: 3 }));
        assert_eq!(decode_frame(&[]), Err(Error::Truncated { len: 0 }));
        assert_eq!(decode_frame(&[0]), Err(Error::Truncated { len: 0 }));
    }

    #[test]
    fn other_versions_are_refused_except_for_the_handshake() {
        let mut content = [0u8; MAX_FRAME_LEN];
        let mut frame = ping(9);
        frame.header.version = 1;
        let len = encode_content(&frame, &mut content).expect("encode");
        assert_eq!(
            decode_content(&content[..len]),
            Err(Error::UnsupportedVersion(1))
        );
        let hello = Frame {
            header: Header {
                version: 1,
                seq: Seq(0),
                ack: Seq(0),
            },
            message: Message::Hello {
                protocol_version: 1,
            },
        };
        let len = encode_content(&hello, &mut content).expect("encode");
        assert_eq!(decode_content(&content[..len]), Ok(hello));
    }

    #[test]
    fn unknown_type_is_reported_after_the_crc_check() {
        let mut content = [1u8, 0, 0, 0x7F, 0, 0];
        let crc = crc16(&content[..4]).to_le_bytes();
        content[4..].copy_from_slice(&crc);
        assert_eq!(
            decode_content(&content),
            Err(Error::UnknownMessageType(0x7F))
        );
    }

    #[test]
    fn oversized_input_is_too_long() {
        let wire = [0x11u8; MAX_ENCODED_LEN + 1];
        assert_eq!(
            decode_frame(&wire),
            Err(Error::FrameTooLong {
                max: MAX_ENCODED_LEN
            })
        );
        let content = [0u8; MAX_FRAME_LEN + 1];
        assert_eq!(
            decode_content(&content),
            Err(Error::FrameTooLong { max: MAX_FRAME_LEN })
        );
    }
}
