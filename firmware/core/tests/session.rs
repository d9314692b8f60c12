//! The link as PROTOCOL.md §9–10 says: handshake, version refusal, duplicates, credits.

use crate::rig::{four_arm_configure, motion, rotate, Rig, ALL_EIGHT};
use cubed_firmware::examples::four_arm;
use cubed_firmware::QUEUE_DEPTH;
use firmware_protocol::message::{Event, FirmwareState, NakReason, ResetCause};
use firmware_protocol::{Frame, Message, Seq};

#[test]
fn boot_event_then_hello_reply_with_queue_depth() {
    let mut rig = Rig::new(four_arm());
    rig.poll();
    rig.send(Message::Hello {
        protocol_version: 1,
    });
    assert_eq!(
        rig.received[0].1,
        Message::Event(Event::Boot {
            cause: ResetCause::PowerOn
        })
    );
    let Message::HelloReply(reply) = rig.received[1].1 else {
        panic!("expected HelloReply, got {:?}", rig.received);
    };
    assert_eq!(reply.protocol_version, firmware_protocol::PROTOCOL_VERSION);
    assert_eq!(usize::from(reply.queue_depth), QUEUE_DEPTH);
    const { assert!(QUEUE_DEPTH >= 32) };
    assert_eq!(reply.name_bytes(), b"cubed-fw");
}

#[test]
fn a_hello_of_another_version_is_answered_but_starts_no_session() {
    let mut rig = Rig::new(four_arm());
    // A host of the previous protocol version.
    rig.send(Message::Hello {
        protocol_version: 1,
    });
    assert!(rig
        .received
        .iter()
        .any(|(_, m)| matches!(m, Message::HelloReply(r) if r.protocol_version == firmware_protocol::PROTOCOL_VERSION)));
    assert!(!rig.fw.in_session());
    rig.send(Message::Configure(four_arm_configure(150, 250)));
    assert!(rig.received.iter().any(|(_, m)| matches!(
        m,
        Message::Nak {
            reason: NakReason::NoSession,
            ..
        }
    )));
    assert_eq!(rig.fw.state(), FirmwareState::Unconfigured);
}

#[test]
fn a_retransmitted_motion_runs_once() {
    let mut rig = Rig::new(four_arm());
    rig.ready();
    let start = rig.hw.now;
    let frame = Frame::new(rig.next_seq(), Seq(0), motion(2, &[rotate(1, 1)]));
    rig.send_frame(&frame);
    rig.send_frame(&frame);
    rig.run_until_done(2, 1_000_000).expect("MoveDone");
    rig.run_until(rig.hw.now + 500_000);
    assert_eq!(
        rig.steps(1, start, u64::MAX).len(),
        400,
        "one quarter turn, not two"
    );
    let dones = rig
        .received
        .iter()
        .filter(|(_, m)| *m == Message::MoveDone { move_id: 2 })
        .count();
    assert!(dones >= 1);
}

#[test]
fn the_queue_takes_its_depth_then_refuses_with_queue_full() {
    let mut rig = Rig::new(four_arm());
    rig.ready();
    for id in 0..QUEUE_DEPTH as u32 {
        rig.send(Message::Dwell {
            move_id: 100 + id,
            ms: 10,
        });
    }
    assert!(!rig
        .received
        .iter()
        .any(|(_, m)| matches!(m, Message::Nak { .. })));
    assert!(rig.has(&Message::Ack { free_slots: 0 }));
    rig.send(Message::Dwell {
        move_id: 999,
        ms: 10,
    });
    assert!(rig.received.iter().any(|(_, m)| matches!(
        m,
        Message::Nak {
            reason: NakReason::QueueFull,
            ..
        }
    )));
}

#[test]
fn motions_that_do_not_fit_are_refused_and_unhomed_motions_too() {
    let mut rig = Rig::new(four_arm());
    rig.handshake(four_arm_configure(150, 250));
    rig.send(motion(2, &[rotate(1, 1)]));
    assert!(rig.received.iter().any(|(_, m)| matches!(
        m,
        Message::Nak {
            reason: NakReason::BadState,
            ..
        }
    )));
    rig.send(Message::Home {
        move_id: 3,
        mask: ALL_EIGHT,
    });
    rig.send(motion(4, &[rotate(1, 2)]));
    rig.send(motion(5, &[rotate(0, 1)]));
    let invalid = rig
        .received
        .iter()
        .filter(|(_, m)| {
            matches!(
                m,
                Message::Nak {
                    reason: NakReason::InvalidCommand,
                    ..
                }
            )
        })
        .count();
    assert_eq!(invalid, 2, "out of range, and a rotation on a jaw");
}

#[test]
fn a_configure_for_more_actuators_than_the_board_is_refused() {
    use firmware_protocol::message::{ActuatorConfig, Configure};
    let mut rig = Rig::new(four_arm());
    let mut actuators = four_arm_configure(150, 250).actuators.to_vec();
    actuators.push(ActuatorConfig::Jaw {
        open_ms: 100,
        close_ms: 100,
    });
    rig.handshake(Configure::new(&actuators).expect("9 actuators"));
    assert_eq!(
        rig.fw.last_refusal(),
        Some(cubed_firmware::ConfigRefusal::TooManyActuators { board: 8 })
    );
    assert!(rig.has(&Message::ConfigureRefused {
        seq: rig.last_seq(),
        refusal: firmware_protocol::message::ConfigRefusal::TooManyActuators { board: 8 },
    }));
    assert_eq!(rig.fw.state(), FirmwareState::Unconfigured);
}

#[test]
fn a_continuous_rotation_without_a_home_sensor_is_refused() {
    use cubed_firmware::Actuator;
    use firmware_protocol::message::{ActuatorConfig, Configure, RotationRange};
    let mut rotation = cubed_firmware::examples::rotation(12, 0);
    rotation.home = None;
    let no_sensor = crate::rig::machine_of(&[Actuator::Stepper(rotation)]);
    let continuous = ActuatorConfig::Rotation {
        range: RotationRange::Continuous,
        quarter_turn_ms: 150,
        half_turn_ms: 250,
    };
    let mut rig = Rig::new(no_sensor);
    rig.handshake(Configure::new(&[continuous]).expect("one"));
    assert_eq!(
        rig.fw.last_refusal(),
        Some(cubed_firmware::ConfigRefusal::ContinuousWithoutSensor { actuator: 0 })
    );
    assert!(rig.has(&Message::ConfigureRefused {
        seq: rig.last_seq(),
        refusal: firmware_protocol::message::ConfigRefusal::ContinuousWithoutSensor { actuator: 0 },
    }));
    // A limited rotation on the same motor homes by ramping back to its counted 0.
    let limited = ActuatorConfig::Rotation {
        range: RotationRange::Limited { min: -1, max: 1 },
        quarter_turn_ms: 150,
        half_turn_ms: 250,
    };
    rig.send(Message::Configure(Configure::new(&[limited]).expect("one")));
    rig.send(Message::Home {
        move_id: 1,
        mask: 0b1,
    });
    rig.run_until_done(1, 1_000_000).expect("homed");
    rig.send(motion(2, &[rotate(0, -1)]));
    rig.run_until_done(2, 1_000_000).expect("turned");
    rig.send(Message::Home {
        move_id: 3,
        mask: 0b1,
    });
    rig.run_until_done(3, 1_000_000).expect("homed again");
    assert_eq!(rig.hw.motor[0], 0, "back where it started");
}

#[test]
fn a_hello_mid_move_decelerates_to_a_stop_and_leaves_the_firmware_unhomed() {
    let mut rig = Rig::new(four_arm());
    rig.ready();
    let start = rig.hw.now;
    rig.send(motion(2, &[rotate(1, 1)]));
    rig.run_until(start + 70_000); // cruising at 4800 microsteps/s
    let hello_at = rig.hw.now;
    let before = rig.steps(1, start, hello_at + 1).len() as i64;
    rig.send(Message::Hello {
        protocol_version: 1,
    });
    rig.run_until(hello_at + 500_000);
    let after = rig.steps(1, hello_at + 1, u64::MAX);
    // Witness: from 4800 steps/s at 80 000 steps/s², stopping takes v²/2a = 144 steps
    // and v/a = 60 ms, with intervals growing all the way.
    assert_eq!(after.len(), 144, "steps after Hello");
    let last = *after.last().expect("steps");
    assert!(
        (59_000..=61_000).contains(&(last - hello_at)),
        "stopped after {} µs",
        last - hello_at
    );
    let intervals: Vec<u64> = after.windows(2).map(|w| w[1] - w[0]).collect();
    assert!(
        intervals.windows(2).all(|w| w[1] + 1 >= w[0]),
        "decelerating: {intervals:?}"
    );
    assert!(before + 144 < 400, "stopped short of the target");
    assert_eq!(rig.fw.state(), FirmwareState::Unhomed);
    assert!(
        rig.done_at(2).is_none(),
        "no MoveDone for an interrupted motion"
    );
}
