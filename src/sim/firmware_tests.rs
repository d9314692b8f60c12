//! Unit tests of the simulated firmware as a pure state machine (no pty, no clock).

use super::firmware::{SimFirmware, QUEUE_DEPTH};
use super::mechanics::PositionTracker;
use firmware_protocol::message::{
    Action, ActuatorConfig, Configure, FirmwareState, JawTarget, Motion,
};
use firmware_protocol::{encode, Decoder, Frame, Message, Seq, MAX_WIRE_LEN};

fn configure() -> Configure {
    Configure::new(&[ActuatorConfig::Jaw {
        open_ms: 100,
        close_ms: 100,
    }])
    .expect("one jaw")
}

fn wire(seq: u8, message: Message) -> Vec<u8> {
    let mut out = [0u8; MAX_WIRE_LEN];
    let frame = if message.is_sequenced() {
        Frame::new(Seq(seq), Seq(0), message)
    } else {
        Frame::unsequenced(Seq(0), message)
    };
    let len = encode(&frame, &mut out).expect("encodes");
    out[..len].to_vec()
}

fn replies(firmware: &mut SimFirmware<PositionTracker>) -> Vec<Message> {
    let mut decoder = Decoder::new();
    decoder
        .feed(&firmware.take_output())
        .flatten()
        .map(|f| f.message)
        .collect()
}

fn session() -> SimFirmware<PositionTracker> {
    let mut firmware = SimFirmware::new(PositionTracker::new(&configure()), 0.0, 0);
    firmware.on_bytes(
        &wire(
            0,
            Message::Hello {
                protocol_version: firmware_protocol::PROTOCOL_VERSION,
            },
        ),
        0,
    );
    firmware.on_bytes(&wire(0, Message::Configure(configure())), 0);
    firmware.on_bytes(
        &wire(
            1,
            Message::Home {
                move_id: 1,
                mask: 0b1,
            },
        ),
        0,
    );
    firmware.poll(0);
    replies(&mut firmware);
    firmware
}

#[test]
fn link_sim_runs_a_retransmitted_motion_once() {
    let mut firmware = session();
    let motion = Motion::new(
        2,
        &[Action::Jaw {
            actuator: 0,
            target: JawTarget::Closed,
        }],
    )
    .expect("motion");
    let bytes = wire(2, Message::Motion(motion));
    firmware.on_bytes(&bytes, 10);
    firmware.on_bytes(&bytes, 20);
    firmware.poll(30);
    assert_eq!(firmware.stats.moves_executed, 2, "home and the motion");
    assert_eq!(firmware.stats.duplicates_rejected, 1);
    assert_eq!(firmware.stats.move_ids_run_twice, 0);
    assert!(replies(&mut firmware).contains(&Message::MoveDone { move_id: 2 }));
}

#[test]
fn link_sim_refuses_motion_outside_the_configuration() {
    let mut firmware = session();
    let motion = Motion::new(
        2,
        &[Action::Rotate {
            actuator: 0,
            quarter_turns: 1,
        }],
    )
    .expect("motion");
    firmware.on_bytes(&wire(2, Message::Motion(motion)), 10);
    let refused = replies(&mut firmware).iter().any(|m| {
        matches!(
            m,
            Message::Nak {
                reason: firmware_protocol::message::NakReason::InvalidCommand,
                ..
            }
        )
    });
    assert!(refused);
}

#[test]
fn link_sim_estop_flushes_the_queue_and_latches() {
    let mut firmware = SimFirmware::new(PositionTracker::new(&configure()), 1.0, 0);
    firmware.on_bytes(
        &wire(
            0,
            Message::Hello {
                protocol_version: firmware_protocol::PROTOCOL_VERSION,
            },
        ),
        0,
    );
    firmware.on_bytes(&wire(0, Message::Configure(configure())), 0);
    for id in 1..=QUEUE_DEPTH {
        firmware.on_bytes(
            &wire(
                id,
                Message::Dwell {
                    move_id: u32::from(id),
                    ms: 1000,
                },
            ),
            0,
        );
    }
    firmware.poll(0);
    firmware.on_bytes(&wire(0, Message::EmergencyStop), 1);
    firmware.poll(5000);
    assert_eq!(firmware.state(), FirmwareState::EStopped);
    assert_eq!(
        firmware.stats.moves_executed, 1,
        "only the running dwell had started"
    );
    assert_eq!(firmware.status().queue_used, 0);
}

#[test]
fn link_sim_reboot_forgets_the_session() {
    let mut firmware = session();
    firmware.reboot(100);
    assert_eq!(firmware.state(), FirmwareState::Unconfigured);
    assert!(replies(&mut firmware).iter().any(|m| matches!(
        m,
        Message::Event(firmware_protocol::message::Event::Boot { .. })
    )));
}

fn hello_then(firmware: &mut SimFirmware<PositionTracker>, configure: Configure) -> Vec<Message> {
    firmware.on_bytes(
        &wire(
            0,
            Message::Hello {
                protocol_version: firmware_protocol::PROTOCOL_VERSION,
            },
        ),
        0,
    );
    firmware.on_bytes(&wire(0, Message::Configure(configure)), 0);
    replies(firmware)
}

#[test]
fn link_sim_refuses_a_configuration_its_motors_cannot_honour_with_the_reason() {
    use firmware_protocol::message::{ConfigRefusal, TimedMove};
    let motors = Configure::new(&[
        ActuatorConfig::Jaw {
            open_ms: 100,
            close_ms: 100,
        },
        ActuatorConfig::Flipper {
            min: 0,
            max: 3,
            step_ms: 200,
        },
    ])
    .expect("two motors");
    let refused = |configure: Configure| {
        let mut firmware = SimFirmware::new(PositionTracker::new(&motors), 0.0, 0);
        let replies = hello_then(&mut firmware, configure);
        assert_eq!(firmware.state(), FirmwareState::Unconfigured);
        replies.into_iter().find_map(|m| match m {
            Message::ConfigureRefused { seq, refusal } => Some((seq, refusal)),
            _ => None,
        })
    };
    let flipper = |min, max, step_ms| ActuatorConfig::Flipper { min, max, step_ms };
    let jaw = motors.actuators.to_vec()[0];
    let fast = Configure::new(&[jaw, flipper(0, 3, 150)]).expect("two");
    assert_eq!(
        refused(fast),
        Some((
            Seq(0),
            ConfigRefusal::TooFast {
                actuator: 1,
                timed: TimedMove::FlipperStep,
                needed_ms: 200
            }
        ))
    );
    let wide = Configure::new(&[jaw, flipper(-1, 3, 200)]).expect("two");
    assert_eq!(
        refused(wide),
        Some((Seq(0), ConfigRefusal::RangeBeyondTravel { actuator: 1 }))
    );
    let swapped = Configure::new(&[flipper(0, 3, 200), jaw]).expect("two");
    assert_eq!(
        refused(swapped),
        Some((Seq(0), ConfigRefusal::WrongKind { actuator: 0 }))
    );
    let three = Configure::new(&[jaw, flipper(0, 3, 200), jaw]).expect("three");
    assert_eq!(
        refused(three),
        Some((Seq(0), ConfigRefusal::TooManyActuators { board: 2 }))
    );
    // Slower and narrower than the motors is honoured.
    let mut firmware = SimFirmware::new(PositionTracker::new(&motors), 0.0, 0);
    let slower = Configure::new(&[jaw, flipper(0, 2, 250)]).expect("two");
    let replies = hello_then(&mut firmware, slower);
    assert!(replies
        .iter()
        .any(|m| matches!(m, Message::ConfigureReply { .. })));
}

#[test]
fn link_sim_homes_only_the_mask_and_refuses_motions_of_unhomed_actuators() {
    let two = Configure::new(&[
        ActuatorConfig::Jaw {
            open_ms: 100,
            close_ms: 100,
        },
        ActuatorConfig::Flipper {
            min: 0,
            max: 3,
            step_ms: 200,
        },
    ])
    .expect("two");
    let mut firmware = SimFirmware::new(PositionTracker::new(&two), 0.0, 0);
    hello_then(&mut firmware, two);
    let home = |move_id, mask| Message::Home { move_id, mask };
    let flip = Message::Motion(
        Motion::new(
            3,
            &[Action::Flip {
                actuator: 1,
                position: 2,
            }],
        )
        .expect("flip"),
    );
    firmware.on_bytes(&wire(1, home(1, 0b01)), 0);
    firmware.poll(0);
    assert_eq!(
        firmware.state(),
        FirmwareState::Unhomed,
        "the flipper is not"
    );
    firmware.on_bytes(&wire(2, home(2, 0b100)), 0);
    firmware.on_bytes(&wire(3, flip), 0);
    let refusals: Vec<_> = replies(&mut firmware)
        .into_iter()
        .filter_map(|m| match m {
            Message::Nak { seq, reason } => Some((seq, reason)),
            _ => None,
        })
        .collect();
    use firmware_protocol::message::NakReason;
    assert_eq!(
        refusals,
        vec![
            (Seq(2), NakReason::InvalidCommand),
            (Seq(3), NakReason::BadState)
        ],
        "actuator 2 is not configured; actuator 1 is not homed"
    );
    firmware.on_bytes(&wire(4, home(4, 0b10)), 0);
    firmware.poll(0);
    assert_eq!(firmware.state(), FirmwareState::Idle);
}
