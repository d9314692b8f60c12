//! Streaming frame decoder: feed serial bytes, get frames or errors, resynchronise on 0x00.

use crate::cobs::StreamDecoder;
use crate::frame::{decode_content, Frame, DELIMITER, MAX_ENCODED_LEN, MAX_FRAME_LEN};
use crate::Error;

/// Decodes frames from a byte stream with one fixed internal buffer (`MAX_FRAME_LEN`
/// bytes), COBS-decoding as bytes arrive.
///
/// Every 0x00 ends a frame: the bytes since the previous 0x00 yield exactly one
/// `Ok(frame)` or one `Err(..)` (empty frames, i.e. repeated delimiters, yield
/// nothing). A frame longer than [`MAX_ENCODED_LEN`] encoded bytes is discarded up
/// to the next 0x00 and reported once as [`Error::FrameTooLong`]. Garbage therefore
/// costs at most the frame it lands in; decoding resumes cleanly after the next 0x00.
/// For the bytes of one frame the result is the same as [`crate::decode_frame`]'s.
#[derive(Debug, Clone)]
pub struct Decoder {
    buffer: [u8; MAX_FRAME_LEN],
    len: usize,
    cobs: StreamDecoder,
    overflowed: bool,
}

impl Default for Decoder {
    fn default() -> Self {
        Self::new()
    }
}

impl Decoder {
    /// A decoder waiting for the first frame.
    pub const fn new() -> Self {
        Decoder {
            buffer: [0; MAX_FRAME_LEN],
            len: 0,
            cobs: StreamDecoder::new(),
            overflowed: false,
        }
    }

    /// Forgets any partial frame (e.g. after reopening the port). Bytes up to the
    /// next 0x00 will then be decoded as a (probably bad) frame of their own.
    pub fn reset(&mut self) {
        self.len = 0;
        self.cobs = StreamDecoder::new();
        self.overflowed = false;
    }

    /// Whether bytes of an unfinished frame are held.
    pub fn in_frame(&self) -> bool {
        self.cobs.position() > 0
    }

    /// Consumes one byte; returns a result when the byte was a delimiter ending a
    /// non-empty frame.
    pub fn push(&mut self, byte: u8) -> Option<Result<Frame, Error>> {
        if byte == DELIMITER {
            return self.finish_frame();
        }
        if self.overflowed {
            return None;
        }
        if self.cobs.position() >= MAX_ENCODED_LEN {
            self.overflowed = true;
            return None;
        }
        if let Some(decoded) = self.cobs.push(byte) {
            // Cannot overflow: decoded length < encoded length <= MAX_ENCODED_LEN.
            if let Some(slot) = self.buffer.get_mut(self.len) {
                *slot = decoded;
                self.len += 1;
            }
        }
        None
    }

    /// Consumes `bytes`, yielding each frame or error as its delimiter is reached.
    /// Bytes left unread when the iterator is dropped are not consumed.
    pub fn feed<'d, 'b>(&'d mut self, bytes: &'b [u8]) -> Feed<'d, 'b> {
        Feed {
            decoder: self,
            bytes,
        }
    }

    fn finish_frame(&mut self) -> Option<Result<Frame, Error>> {
        let result = if self.overflowed {
            Some(Err(Error::FrameTooLong {
                max: MAX_ENCODED_LEN,
            }))
        } else if !self.in_frame() {
            None
        } else {
            Some(
                self.cobs
                    .finish()
                    .and_then(|()| decode_content(&self.buffer[..self.len])),
            )
        };
        self.reset();
        result
    }
}

/// Iterator returned by [`Decoder::feed`].
#[derive(Debug)]
pub struct Feed<'d, 'b> {
    decoder: &'d mut Decoder,
    bytes: &'b [u8],
}

impl Iterator for Feed<'_, '_> {
    type Item = Result<Frame, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        while let Some((&byte, rest)) = self.bytes.split_first() {
            self.bytes = rest;
            if let Some(result) = self.decoder.push(byte) {
                return Some(result);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frame::{encode, MAX_WIRE_LEN};
    use crate::message::Message;
    use crate::seq::Seq;

    fn wire(nonce: u32) -> ([u8; MAX_WIRE_LEN], usize) {
        let mut out = [0u8; MAX_WIRE_LEN];
        let frame = Frame::unsequenced(Seq(0), Message::Ping { nonce });
        let len = encode(&frame, &mut out).expect("encode");
        (out, len)
    }

    fn nonce_of(result: Option<Result<Frame, Error>>) -> u32 {
        match result {
            Some(Ok(Frame {
                message: Message::Ping { nonce },
                ..
            })) => nonce,
            other => panic!("expected a ping, got {other:?}"),
        }
    }

    #[test]
    fn frames_fed_byte_by_byte() {
        let (bytes, len) = wire(42);
        let mut decoder = Decoder::new();
        for &byte in &bytes[..len - 1] {
            assert_eq!(decoder.push(byte), None);
        }
        assert!(decoder.in_frame());
        assert_eq!(nonce_of(decoder.push(0)), 42);
        assert!(!decoder.in_frame());
    }

    #[test]
    fn several_frames_in_one_slice_with_extra_delimiters() {
        let mut stream = [0u8; 3 * MAX_WIRE_LEN];
        let mut used = 1;
        for nonce in [1, 2] {
            let (bytes, len) = wire(nonce);
            stream[used..used + len].copy_from_slice(&bytes[..len]);
            used += len + 1;
        }
        let mut decoder = Decoder::new();
        let mut feed = decoder.feed(&stream[..used]);
        assert_eq!(nonce_of(feed.next()), 1);
        assert_eq!(nonce_of(feed.next()), 2);
        assert!(feed.next().is_none());
    }

    #[test]
    fn garbage_then_a_good_frame_resynchronises() {
        let mut decoder = Decoder::new();
        let garbage = [0x13u8, 0x37, 0x99];
        assert!(decoder.feed(&garbage).next().is_none());
        let (bytes, len) = wire(5);
        let mut feed = decoder.feed(&bytes[..len]);
        assert!(
            matches!(feed.next(), Some(Err(_))),
            "garbage joins first frame"
        );
        assert!(feed.next().is_none());
        assert_eq!(decoder.feed(&bytes[..len]).count(), 1);
        assert_eq!(nonce_of(decoder.feed(&bytes[..len]).next()), 5);
    }

    #[test]
    fn overlong_frame_is_reported_once_then_decoding_resumes() {
        let mut decoder = Decoder::new();
        let long = [0x22u8; 500];
        assert!(decoder.feed(&long).next().is_none());
        assert_eq!(
            decoder.push(0),
            Some(Err(Error::FrameTooLong {
                max: MAX_ENCODED_LEN
            }))
        );
        let (bytes, len) = wire(6);
        assert_eq!(nonce_of(decoder.feed(&bytes[..len]).next()), 6);
    }

    #[test]
    fn unfinished_cobs_block_is_bad_cobs() {
        let mut decoder = Decoder::new();
        let result = decoder.feed(&[0x05, 0x01, 0x02, 0x00]).next();
        assert_eq!(result, Some(Err(Error::BadCobs { at: 3 })));
    }
}
