//! Shared fixtures for the integration tests: one sample frame per message shape, and hex helpers.
#![allow(dead_code)]

use firmware_protocol::message::{
    Action, Actuator, ActuatorConfig, BoardSetup, ChipInfo, ConfigRefusal, Configure, Event, Fault,
    FaultFlags, FirmwareState, FirmwareVersion, HelloReply, HomeSensor, InputFlags, JawTarget,
    Motion, NakReason, ResetCause, RotationRange, SensorKind, Servo, SetupKey, Signal, Status,
    Stepper, TimedMove,
};
use firmware_protocol::{FixedList, Frame, Message, Seq};

/// The robot configuration used by the samples: a jaw, a limited rotation,
/// a flipper and a continuous rotation.
pub fn sample_configure() -> Configure {
    Configure::new(&[
        ActuatorConfig::Jaw {
            open_ms: 150,
            close_ms: 200,
        },
        ActuatorConfig::Rotation {
            range: RotationRange::Limited { min: -1, max: 2 },
            quarter_turn_ms: 180,
            half_turn_ms: 300,
        },
        ActuatorConfig::Flipper {
            min: 0,
            max: 1,
            step_ms: 250,
        },
        ActuatorConfig::Rotation {
            range: RotationRange::Continuous,
            quarter_turn_ms: 120,
            half_turn_ms: 200,
        },
    ])
    .expect("four actuators fit")
}

fn sample_motion() -> Motion {
    Motion::new(
        2,
        &[
            Action::Jaw {
                actuator: 0,
                target: JawTarget::Closed,
            },
            Action::Rotate {
                actuator: 1,
                quarter_turns: -1,
            },
            Action::Flip {
                actuator: 2,
                position: 1,
            },
        ],
    )
    .expect("valid motion")
}

fn sample_hello_reply() -> HelloReply {
    HelloReply {
        protocol_version: firmware_protocol::PROTOCOL_VERSION,
        firmware_version: FirmwareVersion {
            major: 0,
            minor: 3,
            patch: 1,
        },
        queue_depth: 8,
        rx_window: 8,
        firmware_name: HelloReply::name_field("cubed-fw"),
    }
}

fn sample_status() -> Status {
    Status {
        state: FirmwareState::Busy,
        faults: FaultFlags(0),
        last_completed_move_id: 1,
        queue_used: 2,
        config_checksum: sample_configure().checksum().expect("checksum"),
        inputs: InputFlags(InputFlags::ESTOP_HELD),
        positions: FixedList::from_slice(&[1, -1, 0, 4], "positions").expect("fits"),
    }
}

/// The shared wiring of the samples: ENABLE on 10 (active low), a normally closed e-stop
/// on 15, the button on 20.
pub fn sample_board_setup() -> BoardSetup {
    BoardSetup {
        actuators: 8,
        enable: Some(Signal {
            pin: 10,
            active_high: false,
        }),
        estop: Some(Signal {
            pin: 15,
            active_high: true,
        }),
        button: Some(Signal {
            pin: 20,
            active_high: false,
        }),
        debounce_samples: 4,
        idle_disable_ms: 30_000,
    }
}

/// A gripper rotation: STEP 2, DIR 3, 200 × 8 microsteps, a hall sensor on 11 and a
/// stall output on 21.
pub fn sample_stepper() -> Actuator {
    Actuator::Stepper(Stepper {
        step_pin: 2,
        dir_pin: 3,
        full_steps_per_rev: 200,
        microsteps: 8,
        gear_num: 1,
        gear_den: 1,
        units_per_rev: 4,
        max_deg_s: 1080,
        accel_deg_s2: 18_000,
        invert_dir: false,
        home: Some(HomeSensor {
            input: Signal {
                pin: 11,
                active_high: false,
            },
            kind: SensorKind::Hall,
            seek_positive: true,
            seek_deg_s: 180,
            approach_deg_s: 30,
            backoff_deg: 20,
            max_seek_deg: 400,
            offset_steps: -12,
        }),
        stall: Some(Signal {
            pin: 21,
            active_high: true,
        }),
    })
}

/// One named frame per message shape, covering every message type.
pub fn samples() -> Vec<(&'static str, Frame)> {
    let checksum = sample_configure().checksum().expect("checksum");
    let host = |seq: u8, message| Frame::new(Seq(seq), Seq(0), message);
    let host_unseq = |message| Frame::unsequenced(Seq(0), message);
    let firmware = |seq: u8, message| Frame::new(Seq(seq), Seq(5), message);
    let firmware_unseq = |message| Frame::unsequenced(Seq(5), message);
    vec![
        (
            "hello",
            host_unseq(Message::Hello {
                protocol_version: firmware_protocol::PROTOCOL_VERSION,
            }),
        ),
        ("configure", host(0, Message::Configure(sample_configure()))),
        (
            "home",
            host(
                1,
                Message::Home {
                    move_id: 1,
                    mask: 0x0005,
                },
            ),
        ),
        ("motion", host(2, Message::Motion(sample_motion()))),
        (
            "dwell",
            host(
                3,
                Message::Dwell {
                    move_id: 3,
                    ms: 250,
                },
            ),
        ),
        ("query_status", host_unseq(Message::QueryStatus)),
        ("ping", host_unseq(Message::Ping { nonce: 0x1234_5678 })),
        ("emergency_stop", host_unseq(Message::EmergencyStop)),
        ("clear_fault", host(4, Message::ClearFault)),
        ("ack", firmware_unseq(Message::Ack { free_slots: 7 })),
        (
            "nak",
            firmware_unseq(Message::Nak {
                seq: Seq(5),
                reason: NakReason::QueueFull,
            }),
        ),
        (
            "hello_reply",
            firmware_unseq(Message::HelloReply(sample_hello_reply())),
        ),
        (
            "configure_reply",
            firmware(0, Message::ConfigureReply { checksum }),
        ),
        ("move_done", firmware(1, Message::MoveDone { move_id: 2 })),
        (
            "event_button",
            firmware(2, Message::Event(Event::ButtonPressed { button: 0 })),
        ),
        (
            "event_stall",
            firmware(
                3,
                Message::Event(Event::Fault(Fault::Stall { actuator: 1 })),
            ),
        ),
        (
            "event_boot",
            Frame::unsequenced(
                Seq(0),
                Message::Event(Event::Boot {
                    cause: ResetCause::PowerOn,
                }),
            ),
        ),
        ("status", firmware_unseq(Message::Status(sample_status()))),
        ("pong", firmware_unseq(Message::Pong { nonce: 0x1234_5678 })),
        (
            "configure_refused",
            firmware_unseq(Message::ConfigureRefused {
                seq: Seq(0),
                refusal: ConfigRefusal::TooFast {
                    actuator: 3,
                    timed: TimedMove::QuarterTurn,
                    needed_ms: 212,
                },
            }),
        ),
        (
            "configure_refused_pin_taken",
            firmware_unseq(Message::ConfigureRefused {
                seq: Seq(9),
                refusal: ConfigRefusal::PinTaken {
                    actuator: Some(3),
                    key: SetupKey::DirPin,
                    pin: 2,
                    by_actuator: Some(1),
                    by_key: SetupKey::StepPin,
                },
            }),
        ),
        (
            "setup_board",
            host(5, Message::SetupBoard(sample_board_setup())),
        ),
        (
            "setup_actuator_stepper",
            host(
                6,
                Message::SetupActuator {
                    index: 1,
                    actuator: sample_stepper(),
                },
            ),
        ),
        (
            "setup_actuator_servo",
            host(
                7,
                Message::SetupActuator {
                    index: 0,
                    actuator: Actuator::Servo(Servo {
                        pin: 16,
                        open_us: 1000,
                        closed_us: 2000,
                        travel_ms: 100,
                    }),
                },
            ),
        ),
        ("query_board", host_unseq(Message::QueryBoard)),
        (
            "board_info",
            firmware_unseq(Message::BoardInfo(ChipInfo {
                gpio_count: 30,
                max_actuators: 12,
                reserved_pins: 0x2380_0000,
                max_step_rate: 15_000,
                step_lead_us: 2_000,
            })),
        ),
        (
            "event_home_not_found",
            firmware(
                4,
                Message::Event(Event::Fault(Fault::HomeNotFound { actuator: 2 })),
            ),
        ),
    ]
}

/// Parses space-separated hex bytes ("01 ff 00").
pub fn hex(text: &str) -> Vec<u8> {
    text.split_whitespace()
        .map(|byte| u8::from_str_radix(byte, 16).expect("hex byte"))
        .collect()
}

/// Formats bytes as lowercase space-separated hex.
pub fn to_hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The exact wire bytes (COBS + 0x00) of each sample in [`samples`], computed once by
/// the encoder, checked against an independent CRC/COBS implementation and by hand
/// against PROTOCOL.md, then frozen. A change here is a wire-format change.
pub const GOLDEN: &[(&str, &str)] = &[
    ("hello", "02 04 01 05 01 04 bf eb 00"),
    (
        "configure",
        "02 04 01 04 02 04 01 01 01 01 01 02 96 02 c8 02 02 04 ff ff 02 02 b4 04 2c 01 03 01 01 02 01 02 fa 01 01 03 02 01 01 01 01 02 78 02 c8 03 c3 ba 00",
    ),
    ("home", "03 04 01 03 03 01 01 01 02 05 03 f8 c5 00"),
    (
        "motion",
        "03 04 02 03 04 02 01 01 03 03 01 02 01 01 01 0a 02 01 ff ff ff ff 03 02 01 01 01 03 54 ab 00",
    ),
    ("dwell", "03 04 03 03 05 03 01 01 02 fa 03 05 2a 00"),
    ("query_status", "02 04 01 04 06 f7 2e 00"),
    ("ping", "02 04 01 08 07 78 56 34 12 7d 89 00"),
    ("emergency_stop", "02 04 01 04 08 39 cf 00"),
    ("clear_fault", "03 04 04 04 09 d8 03 00"),
    ("ack", "02 04 06 05 40 07 d1 0e 00"),
    ("nak", "02 04 07 05 41 05 07 7b 11 00"),
    (
        "hello_reply",
        "02 04 04 05 81 04 0d 03 01 08 08 63 75 62 65 64 2d 66 77 01 01 01 01 01 01 01 03 93 69 00",
    ),
    ("configure_reply", "02 04 07 05 82 75 05 c7 46 00"),
    ("move_done", "06 04 01 05 83 02 01 01 03 59 e4 00"),
    ("event_button", "06 04 02 05 84 02 01 03 b6 e1 00"),
    ("event_stall", "0a 04 03 05 84 03 01 01 36 b0 00"),
    ("event_boot", "02 04 01 04 84 01 01 03 c0 23 00"),
    (
        "status",
        "02 04 04 05 85 03 02 01 01 01 07 02 75 05 01 04 01 01 01 05 ff ff ff ff 01 01 01 02 04 01 01 03 fc 15 00",
    ),
    ("pong", "02 04 09 05 86 78 56 34 12 fd 42 00"),
    (
        "configure_refused",
        "02 04 03 05 87 03 11 03 01 02 d4 01 01 01 01 01 01 01 01 01 01 03 c6 f4 00",
    ),
    (
        "configure_refused_pin_taken",
        "02 04 07 05 87 09 07 03 11 02 02 01 01 02 01 01 01 02 10 01 01 03 e8 2a 00",
    ),
    (
        "setup_board",
        "03 04 05 0a 0a 08 04 0a 0f 14 02 30 75 01 03 ba 9c 00",
    ),
    (
        "setup_actuator_stepper",
        "03 04 06 0a 0b 01 01 02 03 72 0b 15 c8 02 08 02 01 02 01 02 04 03 38 04 01 03 50 46 01 02 b4 02 1e 02 14 09 90 01 f4 ff ff ff 13 5a 00",
    ),
    (
        "setup_actuator_servo",
        "03 04 07 02 0b 08 02 10 e8 03 d0 07 64 03 66 e4 00",
    ),
    ("query_board", "02 04 01 04 0c bd 8f 00"),
    (
        "board_info",
        "02 04 05 05 88 1e 0c 01 05 80 23 98 3a 01 03 d0 07 01 03 92 f1 00",
    ),
    ("event_home_not_found", "0a 04 04 05 84 03 06 02 83 d1 00"),
];

/// The golden wire bytes of the sample called `name`.
pub fn golden(name: &str) -> Vec<u8> {
    let (_, text) = GOLDEN
        .iter()
        .find(|(golden_name, _)| *golden_name == name)
        .unwrap_or_else(|| panic!("no golden vector named {name}"));
    hex(text)
}

/// What [`check_stream`] saw.
#[derive(Debug, Default)]
pub struct StreamStats {
    /// Bytes fed.
    pub bytes: u64,
    /// Frames decoded.
    pub frames: u64,
    /// Errors, by [`firmware_protocol::Error::kind_name`].
    pub errors: std::collections::BTreeMap<&'static str, u64>,
}

/// Feeds `bytes` to a streaming [`firmware_protocol::Decoder`] in pieces cut at
/// `cuts`, and checks, panicking on any difference, that:
/// - each delimited chunk gives the same result as `decode_frame` on that chunk;
/// - every decoded frame re-encodes to exactly the bytes it came from (one encoding
///   per frame: nothing accepted is ambiguous);
/// - both session helpers digest every decoded frame without panicking.
pub fn check_stream(bytes: &[u8], cuts: &[usize], stats: &mut StreamStats) {
    use firmware_protocol::{decode_frame, encode, Decoder, FirmwareLink, HostLink, MAX_WIRE_LEN};

    let mut decoder = Decoder::new();
    let mut results = Vec::new();
    let mut start = 0;
    for &cut in cuts.iter().chain(std::iter::once(&bytes.len())) {
        let end = cut.clamp(start, bytes.len());
        results.extend(decoder.feed(&bytes[start..end]));
        start = end;
    }
    let mut chunks: Vec<&[u8]> = bytes.split(|&byte| byte == 0).collect();
    chunks.pop(); // bytes after the last delimiter: an unfinished frame
    chunks.retain(|chunk| !chunk.is_empty());
    assert_eq!(
        results.len(),
        chunks.len(),
        "one result per delimited chunk"
    );

    let mut firmware = FirmwareLink::<4>::new(8, 0);
    let mut host = HostLink::<4>::new(0);
    stats.bytes += bytes.len() as u64;
    for (index, (result, chunk)) in results.iter().zip(&chunks).enumerate() {
        assert_eq!(*result, decode_frame(chunk), "streaming vs one-shot decode");
        match result {
            Ok(frame) => {
                let mut wire = [0u8; MAX_WIRE_LEN];
                let len = encode(frame, &mut wire).expect("a decoded frame re-encodes");
                assert_eq!(&wire[..len - 1], *chunk, "canonical encoding");
                firmware.on_frame(frame, (index % 3) as u8, index as u64);
                host.on_frame(frame);
                stats.frames += 1;
            }
            Err(error) => {
                firmware.nak_for_decode_error(error);
                *stats.errors.entry(error.kind_name()).or_default() += 1;
            }
        }
    }
}

/// All golden frames' wire bytes, concatenated.
pub fn golden_stream() -> Vec<Vec<u8>> {
    GOLDEN.iter().map(|(_, text)| hex(text)).collect()
}

/// Wire bytes (COBS + 0x00) of a frame whose body is `body` (header + payload) with a
/// correct CRC appended: lets fuzzers reach the payload parsers past the CRC check.
pub fn wire_with_valid_crc(body: &[u8]) -> Vec<u8> {
    let mut content = body.to_vec();
    content.extend_from_slice(&firmware_protocol::crc::crc16(body).to_le_bytes());
    let mut wire = vec![0u8; firmware_protocol::cobs::max_encoded_len(content.len()) + 1];
    let len = firmware_protocol::cobs::encode(&content, &mut wire).expect("buffer sized");
    wire.truncate(len);
    wire.push(0);
    wire
}

/// The bodies (header + payload, CRC removed) of the golden frames.
pub fn golden_bodies() -> Vec<Vec<u8>> {
    golden_stream()
        .iter()
        .map(|wire| {
            let mut content = vec![0u8; wire.len()];
            let len = firmware_protocol::cobs::decode(&wire[..wire.len() - 1], &mut content)
                .expect("golden COBS");
            content.truncate(len - 2);
            content
        })
        .collect()
}
