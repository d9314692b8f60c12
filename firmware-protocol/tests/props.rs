//! Property tests: every valid message round-trips, and the decoder never panics on
//! random or mutated streams (and agrees with the one-shot decoder).

use crate::common;

use common::{check_stream, golden_bodies, golden_stream, wire_with_valid_crc, StreamStats};
use firmware_protocol::message::{
    Action, Actuator, ActuatorConfig, BoardSetup, ChipInfo, ConfigRefusal, Configure, Event, Fault,
    FaultFlags, FirmwareState, FirmwareVersion, HelloReply, HomeSensor, InputFlags, JawTarget,
    Motion, NakReason, ResetCause, RotationRange, SensorKind, Servo, SetupKey, Signal, Status,
    Stepper, TimedMove,
};
use firmware_protocol::{
    decode_frame, encode, Error, FixedList, Frame, Message, Seq, MAX_WIRE_LEN,
};
use proptest::prelude::*;
use proptest::sample::select;

fn actuator() -> impl Strategy<Value = ActuatorConfig> {
    let range = prop_oneof![
        (any::<i16>(), any::<i16>()).prop_map(|(min, max)| RotationRange::Limited { min, max }),
        Just(RotationRange::Continuous),
    ];
    prop_oneof![
        (any::<u16>(), any::<u16>())
            .prop_map(|(open_ms, close_ms)| ActuatorConfig::Jaw { open_ms, close_ms }),
        (range, any::<u16>(), any::<u16>()).prop_map(|(range, quarter_turn_ms, half_turn_ms)| {
            ActuatorConfig::Rotation {
                range,
                quarter_turn_ms,
                half_turn_ms,
            }
        }),
        (any::<i16>(), any::<i16>(), any::<u16>())
            .prop_map(|(min, max, step_ms)| ActuatorConfig::Flipper { min, max, step_ms }),
    ]
}

fn action() -> impl Strategy<Value = Action> {
    let jaw = prop_oneof![Just(JawTarget::Open), Just(JawTarget::Closed)];
    prop_oneof![
        (0u8..14, jaw).prop_map(|(actuator, target)| Action::Jaw { actuator, target }),
        (0u8..14, any::<i32>()).prop_map(|(actuator, quarter_turns)| Action::Rotate {
            actuator,
            quarter_turns
        }),
        (0u8..14, any::<i32>())
            .prop_map(|(actuator, position)| Action::Flip { actuator, position }),
    ]
}

fn event() -> impl Strategy<Value = Event> {
    let fault = prop_oneof![
        (0u8..14).prop_map(|actuator| Fault::Stall { actuator }),
        (0u8..14).prop_map(|actuator| Fault::Limit { actuator }),
        Just(Fault::BrownOut),
        Just(Fault::CommsTimeout),
        Just(Fault::EStopLatched),
        (0u8..14).prop_map(|actuator| Fault::HomeNotFound { actuator }),
    ];
    prop_oneof![
        select(ResetCause::ALL).prop_map(|cause| Event::Boot { cause }),
        any::<u8>().prop_map(|button| Event::ButtonPressed { button }),
        fault.prop_map(Event::Fault),
    ]
}

fn config_refusal() -> impl Strategy<Value = ConfigRefusal> {
    prop_oneof![
        any::<u8>().prop_map(|board| ConfigRefusal::TooManyActuators { board }),
        (0u8..14).prop_map(|actuator| ConfigRefusal::WrongKind { actuator }),
        (0u8..14).prop_map(|actuator| ConfigRefusal::ContinuousWithoutSensor { actuator }),
        (0u8..14).prop_map(|actuator| ConfigRefusal::RangeBeyondTravel { actuator }),
        (0u8..14, select(TimedMove::ALL), any::<u32>()).prop_map(|(actuator, timed, needed_ms)| {
            ConfigRefusal::TooFast {
                actuator,
                timed,
                needed_ms,
            }
        }),
        proptest::option::of(0u8..14).prop_map(|actuator| ConfigRefusal::NotSetUp { actuator }),
        (
            proptest::option::of(0u8..14),
            select(SetupKey::ALL),
            any::<[i32; 3]>()
        )
            .prop_map(
                |(actuator, key, [value, min, max])| ConfigRefusal::OutOfRange {
                    actuator,
                    key,
                    value,
                    min,
                    max
                }
            ),
        (
            proptest::option::of(0u8..14),
            select(SetupKey::ALL),
            any::<u8>(),
            proptest::option::of(0u8..14),
            select(SetupKey::ALL)
        )
            .prop_map(|(actuator, key, pin, by_actuator, by_key)| {
                ConfigRefusal::PinTaken {
                    actuator,
                    key,
                    pin,
                    by_actuator,
                    by_key,
                }
            }),
        (
            proptest::option::of(0u8..14),
            select(SetupKey::ALL),
            any::<[u8; 2]>()
        )
            .prop_map(|(actuator, key, [pin, pins])| ConfigRefusal::NoSuchPin {
                actuator,
                key,
                pin,
                pins
            }),
        (
            proptest::option::of(0u8..14),
            select(SetupKey::ALL),
            any::<u8>()
        )
            .prop_map(|(actuator, key, pin)| ConfigRefusal::PinReserved {
                actuator,
                key,
                pin
            }),
        (0u8..12, any::<u8>(), 0u8..12, any::<u8>()).prop_map(
            |(actuator, pin, by_actuator, by_pin)| ConfigRefusal::PwmShared {
                actuator,
                pin,
                by_actuator,
                by_pin
            }
        ),
    ]
}

fn signal() -> impl Strategy<Value = Signal> {
    (any::<u8>(), any::<bool>()).prop_map(|(pin, active_high)| Signal { pin, active_high })
}

fn setup_actuator() -> impl Strategy<Value = Actuator> {
    let home = (
        signal(),
        any::<bool>(),
        any::<bool>(),
        any::<[u16; 4]>(),
        any::<i32>(),
    )
        .prop_map(
            |(input, end_stop, seek_positive, speeds, offset_steps)| HomeSensor {
                input,
                kind: if end_stop {
                    SensorKind::EndStop
                } else {
                    SensorKind::Hall
                },
                seek_positive,
                seek_deg_s: speeds[0],
                approach_deg_s: speeds[1],
                backoff_deg: speeds[2],
                max_seek_deg: speeds[3],
                offset_steps,
            },
        );
    let stepper = (
        any::<[u8; 2]>(),
        any::<[u16; 5]>(),
        any::<[u32; 2]>(),
        any::<bool>(),
        proptest::option::of(home),
        proptest::option::of(signal()),
    )
        .prop_map(|(pins, counts, speeds, invert_dir, home, stall)| {
            Actuator::Stepper(Stepper {
                step_pin: pins[0],
                dir_pin: pins[1],
                full_steps_per_rev: counts[0],
                microsteps: counts[1],
                gear_num: counts[2],
                gear_den: counts[3],
                units_per_rev: counts[4],
                max_deg_s: speeds[0],
                accel_deg_s2: speeds[1],
                invert_dir,
                home,
                stall,
            })
        });
    let servo = (any::<u8>(), any::<[u16; 3]>()).prop_map(|(pin, times)| {
        Actuator::Servo(Servo {
            pin,
            open_us: times[0],
            closed_us: times[1],
            travel_ms: times[2],
        })
    });
    prop_oneof![stepper, servo, Just(Actuator::Fixed)]
}

fn board_setup() -> impl Strategy<Value = BoardSetup> {
    (
        any::<[u8; 2]>(),
        proptest::option::of(signal()),
        proptest::option::of(signal()),
        proptest::option::of(signal()),
        any::<u32>(),
    )
        .prop_map(
            |(counts, enable, estop, button, idle_disable_ms)| BoardSetup {
                actuators: counts[0],
                enable,
                estop,
                button,
                debounce_samples: counts[1],
                idle_disable_ms,
            },
        )
}

fn chip_info() -> impl Strategy<Value = ChipInfo> {
    (any::<[u8; 2]>(), any::<[u32; 3]>()).prop_map(|(counts, numbers)| ChipInfo {
        gpio_count: counts[0],
        max_actuators: counts[1],
        reserved_pins: numbers[0],
        max_step_rate: numbers[1],
        step_lead_us: numbers[2],
    })
}

fn status() -> impl Strategy<Value = Status> {
    (
        select(FirmwareState::ALL),
        any::<u8>(),
        any::<u32>(),
        any::<u8>(),
        (any::<u16>(), any::<u8>()),
        proptest::collection::vec(any::<i32>(), 0..=12),
    )
        .prop_map(
            |(state, faults, last, used, (checksum, inputs), positions)| Status {
                state,
                faults: FaultFlags(faults),
                last_completed_move_id: last,
                queue_used: used,
                config_checksum: checksum,
                inputs: InputFlags(inputs),
                positions: FixedList::from_slice(&positions, "positions").expect("at most 12"),
            },
        )
}

fn hello_reply() -> impl Strategy<Value = HelloReply> {
    (any::<[u8; 6]>(), any::<[u8; 16]>()).prop_map(|(bytes, firmware_name)| HelloReply {
        protocol_version: bytes[0],
        firmware_version: FirmwareVersion {
            major: bytes[1],
            minor: bytes[2],
            patch: bytes[3],
        },
        queue_depth: bytes[4],
        rx_window: bytes[5],
        firmware_name,
    })
}

/// Any message, including ones the encoder must refuse (bad ranges, duplicate actuators…).
fn message() -> impl Strategy<Value = Message> {
    let configure = proptest::collection::vec(actuator(), 1..=12)
        .prop_map(|list| Message::Configure(Configure::new(&list).expect("at most 12")));
    let motion = (any::<u32>(), proptest::collection::vec(action(), 1..=12)).prop_map(
        |(move_id, actions)| {
            Message::Motion(Motion {
                move_id,
                actions: FixedList::from_slice(&actions, "actions").expect("at most 12"),
            })
        },
    );
    let nak = (any::<u8>(), select(NakReason::ALL)).prop_map(|(seq, reason)| Message::Nak {
        seq: Seq(seq),
        reason,
    });
    prop_oneof![
        any::<u8>().prop_map(|protocol_version| Message::Hello { protocol_version }),
        configure,
        (any::<u32>(), any::<u16>()).prop_map(|(move_id, mask)| Message::Home { move_id, mask }),
        motion,
        (any::<u32>(), any::<u16>()).prop_map(|(move_id, ms)| Message::Dwell { move_id, ms }),
        Just(Message::QueryStatus),
        any::<u32>().prop_map(|nonce| Message::Ping { nonce }),
        Just(Message::EmergencyStop),
        Just(Message::ClearFault),
        any::<u8>().prop_map(|free_slots| Message::Ack { free_slots }),
        nak,
        hello_reply().prop_map(Message::HelloReply),
        any::<u16>().prop_map(|checksum| Message::ConfigureReply { checksum }),
        any::<u32>().prop_map(|move_id| Message::MoveDone { move_id }),
        event().prop_map(Message::Event),
        status().prop_map(Message::Status),
        (any::<u8>(), config_refusal()).prop_map(|(seq, refusal)| Message::ConfigureRefused {
            seq: Seq(seq),
            refusal
        }),
        any::<u32>().prop_map(|nonce| Message::Pong { nonce }),
        board_setup().prop_map(Message::SetupBoard),
        (any::<u8>(), setup_actuator())
            .prop_map(|(index, actuator)| Message::SetupActuator { index, actuator }),
        Just(Message::QueryBoard),
        chip_info().prop_map(Message::BoardInfo),
    ]
}

#[derive(Debug, Clone)]
enum Mutation {
    FlipBit { at: usize, bit: u8 },
    Truncate { len: usize },
    Insert { at: usize, byte: u8 },
    Delete { at: usize },
    Duplicate { start: usize, len: usize, at: usize },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), 0u8..8).prop_map(|(at, bit)| Mutation::FlipBit { at, bit }),
        any::<usize>().prop_map(|len| Mutation::Truncate { len }),
        (any::<usize>(), any::<u8>()).prop_map(|(at, byte)| Mutation::Insert { at, byte }),
        any::<usize>().prop_map(|at| Mutation::Delete { at }),
        (any::<usize>(), 1usize..40, any::<usize>())
            .prop_map(|(start, len, at)| Mutation::Duplicate { start, len, at }),
    ]
}

fn apply(bytes: &mut Vec<u8>, mutation: &Mutation) {
    let position = |value: usize, len: usize| if len == 0 { 0 } else { value % len };
    match *mutation {
        Mutation::FlipBit { at, bit } if !bytes.is_empty() => {
            let at = position(at, bytes.len());
            bytes[at] ^= 1 << bit;
        }
        Mutation::Truncate { len } => bytes.truncate(position(len, bytes.len() + 1)),
        Mutation::Insert { at, byte } => bytes.insert(position(at, bytes.len() + 1), byte),
        Mutation::Delete { at } if !bytes.is_empty() => {
            bytes.remove(position(at, bytes.len()));
        }
        Mutation::Duplicate { start, len, at } if !bytes.is_empty() => {
            let start = position(start, bytes.len());
            let end = (start + len).min(bytes.len());
            let copy = bytes[start..end].to_vec();
            let at = position(at, bytes.len() + 1);
            bytes.splice(at..at, copy);
        }
        _ => {}
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// COBS alone, on inputs far longer than a frame, with long non-zero runs.
    #[test]
    fn cobs_round_trips_within_its_bound(
        data in proptest::collection::vec(prop_oneof![1 => Just(0u8), 30 => 1u8..=255], 0..1200),
    ) {
        let mut encoded = vec![0u8; firmware_protocol::cobs::max_encoded_len(data.len())];
        let len = firmware_protocol::cobs::encode(&data, &mut encoded).expect("sized by the bound");
        prop_assert!(!encoded[..len].contains(&0));
        let mut decoded = vec![0u8; data.len()];
        let back = firmware_protocol::cobs::decode(&encoded[..len], &mut decoded).expect("decodes");
        prop_assert_eq!(&decoded[..back], &data[..]);
    }

    #[test]
    fn encodable_messages_round_trip(message in message(), seq in any::<u8>(), ack in any::<u8>()) {
        let frame = Frame::new(Seq(seq), Seq(ack), message);
        let mut wire = [0u8; MAX_WIRE_LEN];
        match encode(&frame, &mut wire) {
            Ok(len) => prop_assert_eq!(decode_frame(&wire[..len]), Ok(frame)),
            Err(error) => prop_assert!(matches!(error, Error::BadValue { .. }), "{:?}", error),
        }
    }

    #[test]
    fn random_streams_never_panic(
        bytes in proptest::collection::vec(prop_oneof![3 => any::<u8>(), 1 => Just(0u8)], 0..700),
        cuts in proptest::collection::vec(0usize..700, 0..6),
    ) {
        let mut cuts = cuts;
        cuts.sort_unstable();
        check_stream(&bytes, &cuts, &mut StreamStats::default());
    }

    #[test]
    fn mutated_frames_never_panic(
        picks in proptest::collection::vec(any::<prop::sample::Index>(), 1..5),
        mutations in proptest::collection::vec(mutation(), 0..4),
        cut in any::<usize>(),
    ) {
        let frames = golden_stream();
        let mut bytes: Vec<u8> = picks.iter().flat_map(|pick| pick.get(&frames).clone()).collect();
        for mutation in &mutations {
            apply(&mut bytes, mutation);
        }
        let cut = cut % (bytes.len() + 1);
        check_stream(&bytes, &[cut], &mut StreamStats::default());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// Payload parsers see arbitrary bytes behind a valid CRC and a known type code.
    #[test]
    fn arbitrary_payloads_behind_a_valid_crc_never_panic(
        type_index in any::<prop::sample::Index>(),
        header in any::<[u8; 3]>(),
        payload in proptest::collection::vec(any::<u8>(), 0..130),
    ) {
        let type_code = type_index.get(firmware_protocol::MessageType::ALL).code();
        let mut body = vec![1, header[1], header[2], type_code];
        if header[0] < 16 {
            body[0] = header[0];
        }
        body.extend_from_slice(&payload);
        check_stream(&wire_with_valid_crc(&body), &[], &mut StreamStats::default());
    }

    /// Golden payloads with a few bytes changed, CRC fixed up: mostly near-valid input.
    #[test]
    fn mutated_payloads_behind_a_valid_crc_never_panic(
        pick in any::<prop::sample::Index>(),
        mutations in proptest::collection::vec(mutation(), 1..4),
    ) {
        let mut body = pick.get(&golden_bodies()).clone();
        for mutation in &mutations {
            apply(&mut body, mutation);
        }
        check_stream(&wire_with_valid_crc(&body), &[], &mut StreamStats::default());
    }
}

#[test]
fn unmutated_golden_stream_decodes_every_frame() {
    let bytes: Vec<u8> = golden_stream().concat();
    let mut stats = StreamStats::default();
    check_stream(&bytes, &[5, 50, 51], &mut stats);
    assert_eq!(stats.frames, golden_stream().len() as u64);
    assert!(stats.errors.is_empty());
}
