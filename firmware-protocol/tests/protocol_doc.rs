//! PROTOCOL.md agrees with the code: its examples are the golden vectors, its tables
//! list every message type and reason code, and its limits are the crate's constants.

use crate::common;

use common::{hex, to_hex, GOLDEN};
use firmware_protocol::message::{NakReason, MAX_ACTIONS, MAX_ACTUATORS};
use firmware_protocol::timing::{
    COMMS_TIMEOUT_MS, HEARTBEAT_INTERVAL_MS, MAX_RETRANSMISSIONS, RETRANSMIT_TIMEOUT_MS,
};
use firmware_protocol::{
    cobs, decode_frame, encode, MessageType, MAX_FRAME_LEN, MAX_PAYLOAD_LEN, MAX_WIRE_LEN,
};

const DOC: &str = include_str!("../PROTOCOL.md");

/// Every `content:` line followed by a `wire:` line.
fn examples() -> Vec<(Vec<u8>, Vec<u8>)> {
    let lines: Vec<&str> = DOC.lines().collect();
    lines
        .windows(2)
        .filter_map(|pair| {
            let content = pair[0].strip_prefix("content:")?;
            let wire = pair[1].strip_prefix("wire:")?;
            Some((hex(content), hex(wire)))
        })
        .collect()
}

#[test]
fn every_example_is_encoded_as_shown() {
    let examples = examples();
    assert!(examples.len() >= GOLDEN.len(), "found {}", examples.len());
    for (content, wire) in &examples {
        let mut encoded = vec![0u8; MAX_WIRE_LEN];
        let len = cobs::encode(content, &mut encoded).expect("cobs");
        encoded.truncate(len);
        encoded.push(0);
        assert_eq!(
            to_hex(&encoded),
            to_hex(wire),
            "COBS of {}",
            to_hex(content)
        );
        let frame = decode_frame(wire).expect("example decodes");
        let mut again = [0u8; MAX_WIRE_LEN];
        let len = encode(&frame, &mut again).expect("re-encodes");
        assert_eq!(&again[..len], &wire[..], "example re-encodes identically");
    }
}

#[test]
fn every_golden_vector_is_in_the_document() {
    let documented: Vec<Vec<u8>> = examples().into_iter().map(|(_, wire)| wire).collect();
    for (name, text) in GOLDEN {
        assert!(
            documented.contains(&hex(text)),
            "{name} missing from PROTOCOL.md"
        );
    }
    for wire in &documented {
        let golden = GOLDEN.iter().any(|(_, text)| hex(text) == *wire);
        assert!(golden, "{} is not a golden vector", to_hex(wire));
    }
}

#[test]
fn message_table_lists_every_type() {
    for message_type in MessageType::ALL {
        let row = format!("| `{:#04x}` | `{:?}`", message_type.code(), message_type);
        assert!(DOC.contains(&row), "no table row starting {row}");
    }
}

#[test]
fn nak_table_lists_every_reason() {
    for reason in NakReason::ALL {
        let row = format!("| `{:02X}` | `{:?}`", reason.code(), reason);
        assert!(DOC.contains(&row), "no table row starting {row}");
        let consumed = if reason.consumes_seq() {
            "**yes**"
        } else {
            "no"
        };
        let line = DOC
            .lines()
            .find(|line| line.starts_with(&row))
            .expect("row present");
        let last_cell = line
            .split('|')
            .map(str::trim)
            .rfind(|cell| !cell.is_empty());
        assert_eq!(last_cell, Some(consumed), "{line}");
    }
}

#[test]
fn limits_and_timings_match_the_constants() {
    let facts = [
        format!("at most **{MAX_FRAME_LEN} bytes**"),
        format!("at most **{MAX_WIRE_LEN} bytes** on the wire"),
        format!("0 ≤ n ≤ {MAX_PAYLOAD_LEN}"),
        format!("1 + 10·n, n = 1..{MAX_ACTUATORS}"),
        format!("5 + 6·n, n = 1..{MAX_ACTIONS}"),
        format!("| {RETRANSMIT_TIMEOUT_MS} ms "),
        format!("| {MAX_RETRANSMISSIONS} "),
        format!("| {HEARTBEAT_INTERVAL_MS} ms "),
        format!("| {COMMS_TIMEOUT_MS} ms "),
        "`0x29B1` for ASCII `123456789`".to_string(),
        "**W ≤ 128**".to_string(),
    ];
    for fact in facts {
        assert!(DOC.contains(&fact), "PROTOCOL.md should say {fact:?}");
    }
}
