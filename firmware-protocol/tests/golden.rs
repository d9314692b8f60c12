//! Golden byte vectors: every message type's exact encoding is pinned, and decodes back.

use crate::common;

use std::collections::HashSet;

use common::{golden, sample_configure, samples, to_hex, GOLDEN};
use firmware_protocol::{decode_frame, encode, Decoder, MessageType, MAX_WIRE_LEN};

#[test]
fn every_sample_encodes_to_its_golden_bytes() {
    for (name, frame) in samples() {
        let mut wire = [0u8; MAX_WIRE_LEN];
        let len = encode(&frame, &mut wire).expect("encode");
        assert_eq!(
            to_hex(&wire[..len]),
            to_hex(&golden(name)),
            "golden vector for {name}"
        );
    }
}

#[test]
fn every_golden_vector_decodes_to_its_sample() {
    for (name, frame) in samples() {
        assert_eq!(decode_frame(&golden(name)), Ok(frame), "{name}");
    }
}

#[test]
fn golden_vectors_stream_through_the_decoder() {
    let stream: Vec<u8> = samples()
        .iter()
        .flat_map(|(name, _)| golden(name))
        .collect();
    let decoded: Vec<_> = Decoder::new().feed(&stream).collect();
    let expected: Vec<_> = samples().into_iter().map(|(_, frame)| Ok(frame)).collect();
    assert_eq!(decoded, expected);
}

#[test]
fn golden_vectors_cover_every_message_type() {
    let covered: HashSet<MessageType> = samples()
        .iter()
        .map(|(_, frame)| frame.message.message_type())
        .collect();
    for message_type in MessageType::ALL {
        assert!(
            covered.contains(message_type),
            "{message_type:?} has no vector"
        );
    }
    assert_eq!(GOLDEN.len(), samples().len());
}

#[test]
fn configure_checksum_is_pinned() {
    assert_eq!(sample_configure().checksum(), Ok(0x0575));
}
