//! Payload validation: limits that fit, and each malformed payload's precise error.

use crate::common;

use firmware_protocol::crc::crc16;
use firmware_protocol::message::{
    Action, ActuatorConfig, BoardSetup, Configure, FaultFlags, FirmwareState, InputFlags,
    JawTarget, Motion, Signal, Status, MAX_ACTIONS, MAX_ACTUATORS, NO_PIN,
};
use firmware_protocol::{
    decode_content, decode_frame, encode, Error, FixedList, Frame, Message, Seq, MAX_FRAME_LEN,
    MAX_WIRE_LEN,
};

/// A frame's content with a valid CRC: header (version 2, seq 0, ack 0, `type_code`) + payload.
fn content(type_code: u8, payload: &[u8]) -> Vec<u8> {
    let mut bytes = vec![firmware_protocol::PROTOCOL_VERSION, 0, 0, type_code];
    bytes.extend_from_slice(payload);
    let crc = crc16(&bytes);
    bytes.extend_from_slice(&crc.to_le_bytes());
    bytes
}

fn decode_payload(type_code: u8, payload: &[u8]) -> Result<Message, Error> {
    decode_content(&content(type_code, payload)).map(|frame| frame.message)
}

fn bad_value(field: &'static str, value: i64) -> Result<Message, Error> {
    Err(Error::BadValue { field, value })
}

fn round_trip(message: Message) -> usize {
    let frame = Frame::new(Seq(9), Seq(200), message);
    let mut wire = [0u8; MAX_WIRE_LEN];
    let len = encode(&frame, &mut wire).expect("encode");
    assert_eq!(decode_frame(&wire[..len]), Ok(frame));
    len
}

#[test]
fn largest_messages_fit_in_a_frame() {
    let jaw = ActuatorConfig::Jaw {
        open_ms: u16::MAX,
        close_ms: 1,
    };
    let configure = Configure::new(&[jaw; MAX_ACTUATORS]).expect("twelve fit");
    assert_eq!(
        round_trip(Message::Configure(configure)),
        4 + 1 + 120 + 2 + 2
    );
    let actions: Vec<Action> = (0..MAX_ACTIONS as u8)
        .map(|actuator| Action::Rotate {
            actuator,
            quarter_turns: i32::MIN + i32::from(actuator),
        })
        .collect();
    round_trip(Message::Motion(
        Motion::new(u32::MAX, &actions).expect("twelve fit"),
    ));
    let status = Status {
        state: FirmwareState::EStopped,
        faults: FaultFlags(0x3F),
        last_completed_move_id: u32::MAX,
        queue_used: 255,
        config_checksum: 0xFFFF,
        inputs: InputFlags(InputFlags::ESTOP_HELD),
        positions: FixedList::from_slice(&[i32::MAX; MAX_ACTUATORS], "positions").expect("fits"),
    };
    round_trip(Message::Status(status));
}

#[test]
fn too_many_items_are_refused_when_building() {
    let jaw = ActuatorConfig::Jaw {
        open_ms: 1,
        close_ms: 1,
    };
    assert_eq!(
        Configure::new(&[jaw; MAX_ACTUATORS + 1]),
        Err(Error::BadValue {
            field: "actuator_count",
            value: 13
        })
    );
    assert!(Motion::new(1, &[]).is_err(), "a motion needs an action");
}

#[test]
fn invalid_messages_are_refused_by_the_encoder() {
    let backwards = ActuatorConfig::Flipper {
        min: 3,
        max: 1,
        step_ms: 100,
    };
    let configure = Configure::new(&[backwards]).expect("one fits");
    let frame = Frame::new(Seq(0), Seq(0), Message::Configure(configure));
    assert_eq!(
        encode(&frame, &mut [0u8; MAX_WIRE_LEN]),
        Err(Error::BadValue {
            field: "flipper_max",
            value: 1
        })
    );
    let twice = [
        Action::Jaw {
            actuator: 4,
            target: JawTarget::Open,
        },
        Action::Rotate {
            actuator: 4,
            quarter_turns: 1,
        },
    ];
    assert_eq!(
        Motion::new(1, &twice),
        Err(Error::BadValue {
            field: "action_actuator",
            value: 4
        })
    );
}

/// 0xFF on the wire means "no such input": a board input wired to pin 0xFF cannot be said (it
/// would read back as none), so the encoder refuses it naming the pin's field.
#[test]
fn a_board_input_on_the_none_pin_is_refused_by_the_encoder() {
    let on_none = Signal {
        pin: NO_PIN,
        active_high: false,
    };
    let cases = [
        (
            "enable_pin",
            BoardSetup {
                enable: Some(on_none),
                ..BoardSetup::default()
            },
        ),
        (
            "estop_pin",
            BoardSetup {
                estop: Some(on_none),
                ..BoardSetup::default()
            },
        ),
        (
            "button_pin",
            BoardSetup {
                button: Some(on_none),
                ..BoardSetup::default()
            },
        ),
    ];
    for (field, board) in cases {
        let board = BoardSetup {
            actuators: 1,
            ..board
        };
        let frame = Frame::new(Seq(0), Seq(0), Message::SetupBoard(board));
        assert_eq!(
            encode(&frame, &mut [0u8; MAX_WIRE_LEN]),
            Err(Error::BadValue {
                field,
                value: i64::from(NO_PIN)
            }),
            "{field}"
        );
    }
}

#[test]
fn wrong_payload_lengths_name_type_expected_and_found() {
    let cases: &[(u8, usize, usize)] = &[
        (0x01, 2, 1),
        (0x03, 4, 6),
        (0x05, 7, 6),
        (0x06, 1, 0),
        (0x07, 0, 4),
        (0x08, 4, 0),
        (0x09, 1, 0),
        (0x40, 0, 1),
        (0x41, 3, 2),
        (0x81, 21, 22),
        (0x82, 1, 2),
        (0x83, 5, 4),
        (0x84, 4, 3),
        (0x86, 3, 4),
        (0x87, 4, 17),
        (0x88, 4, 14),
        (0x0A, 3, 10),
        (0x0C, 1, 0),
    ];
    for &(type_code, found, expected) in cases {
        let payload = vec![1u8; found];
        assert_eq!(
            decode_payload(type_code, &payload),
            Err(Error::BadPayloadLength {
                message_type: type_code,
                expected,
                found
            }),
            "type {type_code:#04x}"
        );
    }
}

#[test]
fn variable_lengths_follow_their_count_bytes() {
    let length_error = |message_type, expected, found| {
        Err(Error::BadPayloadLength {
            message_type,
            expected,
            found,
        })
    };
    assert_eq!(decode_payload(0x02, &[]), length_error(0x02, 11, 0));
    assert_eq!(decode_payload(0x02, &[2; 11]), length_error(0x02, 21, 11));
    assert_eq!(decode_payload(0x04, &[0; 3]), length_error(0x04, 11, 3));
    assert_eq!(
        decode_payload(0x04, &[0, 0, 0, 0, 2]),
        length_error(0x04, 17, 5)
    );
    assert_eq!(decode_payload(0x85, &[0; 4]), length_error(0x85, 11, 4));
    let mut status = [0u8; 11];
    status[10] = 1;
    assert_eq!(decode_payload(0x85, &status), length_error(0x85, 15, 11));
}

#[test]
fn counts_out_of_range_are_bad_values() {
    assert_eq!(decode_payload(0x02, &[0]), bad_value("actuator_count", 0));
    assert_eq!(decode_payload(0x02, &[13]), bad_value("actuator_count", 13));
    assert_eq!(
        decode_payload(0x04, &[1, 0, 0, 0, 0]),
        bad_value("action_count", 0)
    );
    let mut status = [0u8; 11];
    status[10] = 13;
    assert_eq!(
        decode_payload(0x85, &status),
        bad_value("position_count", 13)
    );
}

#[test]
fn field_values_are_checked() {
    let jaw_record = |fields: [u8; 10]| {
        let mut payload = vec![1];
        payload.extend_from_slice(&fields);
        decode_payload(0x02, &payload)
    };
    assert_eq!(
        jaw_record([9, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
        bad_value("actuator_kind", 9)
    );
    assert_eq!(
        jaw_record([1, 1, 0, 0, 0, 0, 0, 0, 0, 0]),
        bad_value("jaw_flags", 1)
    );
    assert_eq!(
        jaw_record([1, 0, 0, 0, 5, 0, 0, 0, 0, 0]),
        bad_value("jaw_max", 5)
    );
    assert_eq!(
        jaw_record([2, 2, 0, 0, 0, 0, 0, 0, 0, 0]),
        bad_value("rotation_flags", 2)
    );
    assert_eq!(
        jaw_record([2, 1, 1, 0, 0, 0, 0, 0, 0, 0]),
        bad_value("rotation_min", 1)
    );
    assert_eq!(
        jaw_record([2, 0, 3, 0, 2, 0, 0, 0, 0, 0]),
        bad_value("rotation_max", 2)
    );
    assert_eq!(
        jaw_record([3, 0, 0, 0, 0, 0, 0, 0, 1, 0]),
        bad_value("flipper_time_b", 1)
    );

    let action = |kind: u8, actuator: u8, target: i32| {
        let mut payload = vec![7, 0, 0, 0, 1, kind, actuator];
        payload.extend_from_slice(&target.to_le_bytes());
        decode_payload(0x04, &payload)
    };
    assert_eq!(action(1, 0, 2), bad_value("jaw_target", 2));
    assert_eq!(action(4, 0, 0), bad_value("action_kind", 4));
    assert_eq!(action(2, 12, 0), bad_value("action_actuator", 12));

    assert_eq!(decode_payload(0x41, &[0, 0]), bad_value("nak_reason", 0));
    assert_eq!(
        decode_payload(0x41, &[0, 0x0C]),
        bad_value("nak_reason", 12)
    );
    assert_eq!(decode_payload(0x84, &[0, 0, 0]), bad_value("event_kind", 0));
    assert_eq!(
        decode_payload(0x84, &[1, 6, 0]),
        bad_value("reset_cause", 6)
    );
    assert_eq!(decode_payload(0x84, &[2, 0, 1]), bad_value("event_b", 1));
    assert_eq!(decode_payload(0x84, &[3, 7, 0]), bad_value("fault_code", 7));
    assert_eq!(
        decode_payload(0x84, &[3, 6, 12]),
        bad_value("fault_actuator", 12)
    );
    assert_eq!(
        decode_payload(0x84, &[3, 1, 12]),
        bad_value("fault_actuator", 12)
    );
    assert_eq!(
        decode_payload(0x84, &[3, 3, 1]),
        bad_value("fault_actuator", 1)
    );

    let mut status = [0u8; 11];
    status[0] = 6;
    assert_eq!(decode_payload(0x85, &status), bad_value("state", 6));
    status[0] = 0;
    status[1] = 0x40;
    assert_eq!(
        decode_payload(0x85, &status),
        bad_value("fault_flags", 0x40)
    );
    status[1] = 0;
    status[9] = 0x02;
    assert_eq!(
        decode_payload(0x85, &status),
        bad_value("input_flags", 0x02)
    );

    // Home: the mask names at least one actuator, none at or above 12.
    assert_eq!(
        decode_payload(0x03, &[1, 0, 0, 0, 0, 0]),
        bad_value("home_mask", 0)
    );
    assert_eq!(
        decode_payload(0x03, &[1, 0, 0, 0, 0, 0x10]),
        bad_value("home_mask", 0x1000)
    );

    // ConfigureRefused: seq, code, actuator, key, 0, value, a, b (i32 LE).
    let refused = |code: u8, actuator: u8, key: u8, numbers: [i32; 3]| {
        let mut payload = vec![0, code, actuator, key, 0];
        for n in numbers {
            payload.extend_from_slice(&n.to_le_bytes());
        }
        decode_payload(0x87, &payload)
    };
    assert_eq!(refused(0x0B, 1, 0, [0; 3]), bad_value("refusal_code", 0x0B));
    assert_eq!(refused(0x15, 1, 0, [0; 3]), bad_value("refusal_code", 0x15));
    assert_eq!(
        refused(0x02, 12, 0, [0; 3]),
        bad_value("refusal_actuator", 12)
    );
    assert_eq!(
        refused(0x02, 0xFF, 0, [0; 3]),
        bad_value("refusal_actuator", 0xFF)
    );
    assert_eq!(
        refused(0x01, 0xFF, 0, [256, 0, 0]),
        bad_value("refusal_value", 256)
    );
    // What a variant does not carry must be zero: one encoding per refusal.
    assert_eq!(
        refused(0x01, 3, 0, [4, 0, 0]),
        bad_value("refusal_fields", 1)
    );
    assert_eq!(
        refused(0x03, 2, 0, [1, 0, 0]),
        bad_value("refusal_fields", 3)
    );
    assert_eq!(
        refused(0x06, 2, 0x7F, [1, 0, 0]),
        bad_value("setup_key", 0x7F)
    );

    // SetupActuator: a kind that is neither stepper, servo nor fixed, a fixed one with a
    // record, a missing pin, an index beyond the protocol's.
    assert_eq!(
        decode_payload(0x0B, &[0, 4, 0, 0, 0, 0, 0, 0, 0]),
        bad_value("setup_kind", 4)
    );
    assert_eq!(
        decode_payload(0x0B, &[0, 3, 0]),
        Err(Error::BadPayloadLength {
            message_type: 0x0B,
            expected: 2,
            found: 3
        })
    );
    assert_eq!(
        decode_payload(0x0B, &[0, 2, 0xFF, 0, 0, 0, 0, 0, 0]),
        bad_value("servo_pin", 0xFF)
    );
    assert_eq!(
        decode_payload(0x0B, &[12, 2, 1, 0, 0, 0, 0, 0, 0]),
        bad_value("setup_index", 12)
    );
    // SetupBoard: 1..=12 actuators.
    assert_eq!(
        decode_payload(0x0A, &[0, 1, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0, 0]),
        bad_value("board_actuators", 0)
    );

    let mut reply = [1u8; 22];
    reply[4] = 0;
    assert_eq!(decode_payload(0x81, &reply), bad_value("queue_depth", 0));
    reply[4] = 1;
    reply[5] = 129;
    assert_eq!(decode_payload(0x81, &reply), bad_value("rx_window", 129));
}

#[test]
fn oversized_content_is_refused() {
    let big = content(0x07, &[0u8; MAX_FRAME_LEN]);
    assert_eq!(
        decode_content(&big),
        Err(Error::FrameTooLong { max: MAX_FRAME_LEN })
    );
}

#[test]
fn firmware_name_is_nul_trimmed() {
    let reply = match common::samples()
        .into_iter()
        .find(|(name, _)| *name == "hello_reply")
    {
        Some((_, frame)) => frame.message,
        None => panic!("sample missing"),
    };
    let Message::HelloReply(reply) = reply else {
        panic!("not a HelloReply")
    };
    assert_eq!(reply.name_bytes(), b"cubed-fw");
    let long = firmware_protocol::message::HelloReply::name_field("a-very-long-firmware-name");
    assert_eq!(&long, b"a-very-long-firm");
}

#[test]
fn setup_frames_have_one_encoding() {
    // A board flag for a pin that is not wired (the e-stop's, with no e-stop).
    assert_eq!(
        decode_payload(0x0A, &[1, 1, 0xFF, 0xFF, 0xFF, 0b010, 0, 0, 0, 0]),
        bad_value("board_flags", 0b010)
    );
    // A stepper without a home sensor but a homing speed.
    let mut stepper = vec![0u8, 1, 2, 3, 0, 0xFF, 0xFF];
    stepper.extend_from_slice(&[0; 18]);
    stepper.extend_from_slice(&[5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    assert_eq!(decode_payload(0x0B, &stepper), bad_value("home_fields", 5));
}
