//! Consistent Overhead Byte Stuffing: slice encoder/decoder and a byte-at-a-time decoder.
//!
//! The encoder emits the minimal form: a data run of exactly 254 non-zero bytes that
//! ends the input is written as `0xFF` + 254 bytes with no trailing `0x01`. The decoders
//! also accept that trailing `0x01` (it decodes to nothing), as every COBS decoder does.

use crate::Error;

/// Largest data run a single COBS block can carry (block code `0xFF`).
const MAX_RUN: usize = 254;

/// Worst-case encoded length (delimiter excluded) of `data_len` bytes.
pub const fn max_encoded_len(data_len: usize) -> usize {
    if data_len == 0 {
        1
    } else {
        data_len + data_len.div_ceil(MAX_RUN)
    }
}

/// COBS-encodes `data` into `out` (no delimiter is written) and returns the length.
pub fn encode(data: &[u8], out: &mut [u8]) -> Result<usize, Error> {
    let needed = max_encoded_len(data.len());
    if out.len() < needed {
        return Err(Error::BufferTooSmall {
            needed,
            available: out.len(),
        });
    }
    let mut code_at = 0;
    let mut written = 1;
    let mut code: u8 = 1;
    for (index, &byte) in data.iter().enumerate() {
        if byte == 0 {
            out[code_at] = code;
            code_at = written;
            written += 1;
            code = 1;
            continue;
        }
        out[written] = byte;
        written += 1;
        code += 1;
        let more_follows = index + 1 < data.len();
        if code == 0xFF && more_follows {
            out[code_at] = code;
            code_at = written;
            written += 1;
            code = 1;
        }
    }
    out[code_at] = code;
    Ok(written)
}

/// Decodes one COBS frame (delimiter already removed) into `out`; returns the length.
pub fn decode(encoded: &[u8], out: &mut [u8]) -> Result<usize, Error> {
    let mut state = StreamDecoder::new();
    let mut written = 0;
    for &byte in encoded {
        if byte == 0 {
            return Err(Error::BadCobs {
                at: state.position(),
            });
        }
        if let Some(decoded) = state.push(byte) {
            let slot = out.get_mut(written).ok_or(Error::BufferTooSmall {
                needed: written + 1,
                available: written,
            })?;
            *slot = decoded;
            written += 1;
        }
    }
    state.finish()?;
    Ok(written)
}

/// Byte-at-a-time COBS decoder state for one frame. Feed it the non-zero bytes of a
/// frame with [`StreamDecoder::push`], then call [`StreamDecoder::finish`] at the
/// delimiter. It never buffers: each pushed byte yields at most one decoded byte
/// (a data byte, or for a code byte the zero that ended the previous block).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct StreamDecoder {
    /// Data bytes still expected in the current block.
    remaining_in_block: u8,
    /// The current block ends with an implied zero (its code was below 0xFF), emitted
    /// only when another block follows.
    zero_after_block: bool,
    /// Encoded bytes consumed so far.
    position: usize,
}

impl StreamDecoder {
    /// A decoder at the start of a frame.
    pub const fn new() -> Self {
        StreamDecoder {
            remaining_in_block: 0,
            zero_after_block: false,
            position: 0,
        }
    }

    /// Encoded bytes consumed so far.
    pub const fn position(&self) -> usize {
        self.position
    }

    /// Consumes one non-zero encoded byte and returns the decoded byte it yields, if any.
    pub fn push(&mut self, byte: u8) -> Option<u8> {
        self.position += 1;
        if self.remaining_in_block > 0 {
            self.remaining_in_block -= 1;
            return Some(byte);
        }
        let implied_zero = self.zero_after_block;
        self.remaining_in_block = byte.saturating_sub(1);
        self.zero_after_block = byte != 0xFF;
        implied_zero.then_some(0)
    }

    /// Checks the frame ended on a block boundary (call at the delimiter).
    pub fn finish(&self) -> Result<(), Error> {
        if self.remaining_in_block == 0 {
            Ok(())
        } else {
            Err(Error::BadCobs { at: self.position })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(data: &[u8]) -> usize {
        let mut encoded = [0u8; 1100];
        let len = encode(data, &mut encoded).expect("encode");
        assert!(len <= max_encoded_len(data.len()));
        assert!(!encoded[..len].contains(&0), "no zero in encoded data");
        let mut decoded = [0u8; 1024];
        let back = decode(&encoded[..len], &mut decoded).expect("decode");
        assert_eq!(&decoded[..back], data);
        len
    }

    #[test]
    fn empty_input_is_a_single_code_byte() {
        let mut out = [0u8; 4];
        assert_eq!(encode(&[], &mut out), Ok(1));
        assert_eq!(out[0], 0x01);
        assert_eq!(round_trip(&[]), 1);
    }

    #[test]
    fn textbook_examples() {
        let cases: &[(&[u8], &[u8])] = &[
            (&[0x00], &[0x01, 0x01]),
            (&[0x00, 0x00], &[0x01, 0x01, 0x01]),
            (&[0x00, 0x11, 0x00], &[0x01, 0x02, 0x11, 0x01]),
            (&[0x11, 0x22, 0x00, 0x33], &[0x03, 0x11, 0x22, 0x02, 0x33]),
            (&[0x11, 0x22, 0x33, 0x44], &[0x05, 0x11, 0x22, 0x33, 0x44]),
            (&[0x11, 0x00, 0x00, 0x00], &[0x02, 0x11, 0x01, 0x01, 0x01]),
        ];
        for (data, expected) in cases {
            let mut out = [0u8; 16];
            let len = encode(data, &mut out).expect("encode");
            assert_eq!(&out[..len], *expected, "encoding {data:02x?}");
            round_trip(data);
        }
    }

    #[test]
    fn zeros_everywhere() {
        for len in 0..300 {
            let data = [0u8; 300];
            assert_eq!(round_trip(&data[..len]), len + 1);
        }
    }

    #[test]
    fn runs_around_254_bytes() {
        let mut data = [0u8; 1000];
        for (index, byte) in data.iter_mut().enumerate() {
            *byte = (index % 255) as u8 + 1;
        }
        for len in [253, 254, 255, 256, 508, 509, 762, 1000] {
            let encoded_len = round_trip(&data[..len]);
            assert_eq!(encoded_len, max_encoded_len(len), "run of {len}");
        }
        let mut out = [0u8; 300];
        let len = encode(&data[..254], &mut out).expect("encode");
        assert_eq!(len, 255, "254 non-zero bytes need no trailing 0x01");
        assert_eq!(out[0], 0xFF);
    }

    #[test]
    fn trailing_one_after_full_block_is_accepted() {
        let mut encoded = [0x07u8; 256];
        encoded[0] = 0xFF;
        encoded[255] = 0x01;
        let mut decoded = [0u8; 300];
        assert_eq!(decode(&encoded, &mut decoded), Ok(254));
        assert_eq!(decode(&encoded[..255], &mut decoded), Ok(254));
    }

    #[test]
    fn zero_inside_a_frame_is_rejected_with_its_offset() {
        let mut out = [0u8; 8];
        assert_eq!(
            decode(&[0x03, 0x11, 0x00, 0x01], &mut out),
            Err(Error::BadCobs { at: 2 })
        );
    }

    #[test]
    fn block_running_past_the_end_is_rejected() {
        let mut out = [0u8; 8];
        assert_eq!(
            decode(&[0x05, 0x11, 0x22], &mut out),
            Err(Error::BadCobs { at: 3 })
        );
    }

    #[test]
    fn small_output_buffers_are_reported() {
        let mut out = [0u8; 2];
        assert_eq!(
            encode(&[1, 2, 3], &mut out),
            Err(Error::BufferTooSmall {
                needed: 4,
                available: 2
            })
        );
        assert!(matches!(
            decode(&[0x04, 1, 2, 3], &mut out),
            Err(Error::BufferTooSmall { .. })
        ));
    }
}
