//! Session helpers: the firmware's duplicate filtering and acks, the host's window,
//! credits and handshake.

use firmware_protocol::message::{
    Event, FaultFlags, FirmwareState, FirmwareVersion, HelloReply, InputFlags, NakReason,
    ResetCause, Status,
};
use firmware_protocol::timing::{COMMS_TIMEOUT_MS, HEARTBEAT_INTERVAL_MS, RETRANSMIT_TIMEOUT_MS};
use firmware_protocol::{
    decode_frame, Error, FirmwareLink, FixedList, Frame, HostInbound, HostLink, HostPhase, Inbound,
    Message, Seq, MAX_WIRE_LEN, PROTOCOL_VERSION,
};

const HELLO: Message = Message::Hello {
    protocol_version: PROTOCOL_VERSION,
};

fn home(move_id: u32) -> Message {
    Message::Home {
        move_id,
        mask: 0x0FFF,
    }
}

fn from_host(seq: u8, message: Message) -> Frame {
    Frame::new(Seq(seq), Seq(0), message)
}

fn firmware_in_session() -> FirmwareLink<4> {
    let mut link = FirmwareLink::new(8, 0);
    assert_eq!(
        link.on_frame(&Frame::unsequenced(Seq(0), HELLO), 4, 0),
        Inbound::Execute(HELLO)
    );
    assert!(link.in_session());
    link
}

fn refused(seq: u8, reason: NakReason) -> Inbound {
    Inbound::Refuse {
        seq: Seq(seq),
        reason,
    }
}

/// Encodes with `send` and decodes the bytes back into a frame.
fn sent(result: Result<usize, Error>, out: &[u8]) -> Frame {
    let len = result.expect("encode");
    decode_frame(&out[..len]).expect("decode")
}

#[test]
fn sequenced_frames_need_a_session() {
    let mut link = FirmwareLink::<4>::new(8, 0);
    assert_eq!(
        link.on_frame(&from_host(0, home(1)), 4, 0),
        refused(0, NakReason::NoSession)
    );
    let estop = Frame::unsequenced(Seq(0), Message::EmergencyStop);
    assert_eq!(
        link.on_frame(&estop, 4, 0),
        Inbound::Execute(Message::EmergencyStop),
        "e-stop works in any state"
    );
    let mut out = [0u8; MAX_WIRE_LEN];
    assert_eq!(
        link.send(&Message::MoveDone { move_id: 1 }, 0, &mut out),
        Err(Error::NoSession)
    );
}

#[test]
fn hello_of_another_version_is_answered_without_a_session() {
    let mut link = firmware_in_session();
    let hello = Message::Hello {
        protocol_version: 1,
    };
    let frame = Frame::unsequenced(Seq(0), hello);
    assert_eq!(link.on_frame(&frame, 4, 0), Inbound::Execute(hello));
    assert!(!link.in_session());
}

#[test]
fn duplicates_are_acked_but_not_executed() {
    let mut link = firmware_in_session();
    assert_eq!(
        link.on_frame(&from_host(0, home(1)), 4, 0),
        Inbound::Execute(home(1))
    );
    assert_eq!(link.ack_seq(), Seq(1));
    assert_eq!(
        link.on_frame(&from_host(0, home(1)), 4, 0),
        Inbound::Duplicate
    );
    assert_eq!(link.ack_seq(), Seq(1), "a duplicate does not move the ack");
    let mut out = [0u8; MAX_WIRE_LEN];
    let ack = sent(link.ack(3, &mut out), &out);
    assert_eq!(ack.header.ack, Seq(1));
    assert_eq!(ack.message, Message::Ack { free_slots: 3 });
}

#[test]
fn gaps_and_strangers_are_refused() {
    let mut link = firmware_in_session();
    assert_eq!(
        link.on_frame(&from_host(3, home(4)), 4, 0),
        refused(0, NakReason::OutOfOrder),
        "names the seq it still expects"
    );
    assert_eq!(
        link.on_frame(&from_host(100, home(4)), 4, 0),
        refused(100, NakReason::OutOfWindow)
    );
    assert_eq!(link.ack_seq(), Seq(0));
}

#[test]
fn full_queue_refuses_without_consuming_the_seq() {
    let mut link = firmware_in_session();
    assert_eq!(
        link.on_frame(&from_host(0, home(1)), 0, 0),
        refused(0, NakReason::QueueFull)
    );
    assert_eq!(
        link.on_frame(&from_host(0, Message::ClearFault), 0, 0),
        Inbound::Execute(Message::ClearFault),
        "immediate commands need no queue slot"
    );
    assert_eq!(
        link.on_frame(&from_host(1, home(1)), 1, 0),
        Inbound::Execute(home(1))
    );
}

#[test]
fn sequence_numbers_wrap_without_duplicates() {
    let mut link = firmware_in_session();
    for move_id in 0..600u32 {
        let seq = move_id as u8;
        assert_eq!(
            link.on_frame(&from_host(seq, home(move_id)), 4, 0),
            Inbound::Execute(home(move_id))
        );
        assert_eq!(
            link.on_frame(&from_host(seq, home(move_id)), 4, 0),
            Inbound::Duplicate
        );
        let old = seq.wrapping_sub(7);
        assert_eq!(
            link.on_frame(&from_host(old, home(0)), 4, 0),
            Inbound::Duplicate
        );
    }
    assert_eq!(link.ack_seq(), Seq((600 % 256) as u8));
}

#[test]
fn decode_errors_are_nakked_with_the_expected_seq() {
    let mut link = firmware_in_session();
    link.on_frame(&from_host(0, home(1)), 4, 0);
    let bad_crc = Error::BadCrc {
        expected: 1,
        found: 2,
    };
    assert_eq!(
        link.nak_for_decode_error(&bad_crc),
        Message::Nak {
            seq: Seq(1),
            reason: NakReason::BadCrc
        }
    );
    assert_eq!(
        link.nak_for_decode_error(&Error::BadCobs { at: 3 }),
        Message::Nak {
            seq: Seq(1),
            reason: NakReason::BadFrame
        }
    );
}

#[test]
fn notifications_are_retransmitted_until_acked() {
    let mut link = firmware_in_session();
    let mut out = [0u8; MAX_WIRE_LEN];
    let done = Message::MoveDone { move_id: 1 };
    let frame = sent(link.send(&done, 1_000, &mut out), &out);
    assert_eq!(frame.header.seq, Seq(0));
    assert_eq!(
        link.due_for_retransmit(1_000 + RETRANSMIT_TIMEOUT_MS - 1),
        None
    );
    let due = link.due_for_retransmit(1_000 + RETRANSMIT_TIMEOUT_MS);
    assert_eq!(due, Some(Seq(0)));
    link.on_frame(&from_host(0, home(1)), 4, 1_150);
    let again = sent(link.retransmit(Seq(0), 1_150, &mut out), &out);
    assert_eq!(
        again.header.ack,
        Seq(1),
        "retransmission carries the fresh ack"
    );
    assert_eq!(again.message, done);
    let host_ack = Frame::unsequenced(Seq(1), Message::Ack { free_slots: 255 });
    assert_eq!(link.on_frame(&host_ack, 4, 1_160), Inbound::Ignore);
    assert_eq!(link.unacked_notifications(), 0);
    assert_eq!(link.due_for_retransmit(5_000), None);
}

#[test]
fn boot_event_is_unsequenced() {
    let link = FirmwareLink::<4>::new(8, 0);
    let boot = Message::Event(Event::Boot {
        cause: ResetCause::PowerOn,
    });
    let mut out = [0u8; MAX_WIRE_LEN];
    let frame = sent(link.send_unsequenced(&boot, &mut out), &out);
    assert_eq!(frame.header.seq, Seq(0));
    assert_eq!(
        link.send_unsequenced(&home(1), &mut out),
        Err(Error::WrongSequencing { message_type: 0x03 })
    );
}

#[test]
fn comms_watchdog_counts_from_the_last_valid_frame() {
    let mut link = firmware_in_session();
    assert!(!link.comms_timed_out(COMMS_TIMEOUT_MS - 1));
    link.on_frame(
        &Frame::unsequenced(Seq(0), Message::Ping { nonce: 1 }),
        4,
        1_500,
    );
    assert!(!link.comms_timed_out(1_500 + COMMS_TIMEOUT_MS - 1));
    assert!(link.comms_timed_out(1_500 + COMMS_TIMEOUT_MS));
}

fn hello_reply(protocol_version: u8) -> Frame {
    Frame::unsequenced(
        Seq(0),
        Message::HelloReply(HelloReply {
            protocol_version,
            firmware_version: FirmwareVersion::default(),
            queue_depth: 2,
            rx_window: 3,
            firmware_name: HelloReply::name_field("test"),
        }),
    )
}

fn host_established() -> HostLink<8> {
    let mut host = HostLink::new(0);
    let mut out = [0u8; MAX_WIRE_LEN];
    let hello = sent(host.start_handshake(0, &mut out), &out);
    assert_eq!(hello.message, HELLO);
    assert_eq!(host.phase(), HostPhase::AwaitingHelloReply);
    assert!(matches!(
        host.on_frame(&hello_reply(PROTOCOL_VERSION)),
        HostInbound::Deliver(Message::HelloReply(_))
    ));
    assert_eq!(host.phase(), HostPhase::Established);
    host
}

#[test]
fn host_refuses_another_protocol_version() {
    let mut host = HostLink::<8>::new(0);
    let mut out = [0u8; MAX_WIRE_LEN];
    assert_eq!(host.send(&home(1), 0, &mut out), Err(Error::NoSession));
    host.start_handshake(0, &mut out).expect("hello");
    host.on_frame(&hello_reply(1));
    assert_eq!(host.phase(), HostPhase::VersionMismatch { firmware: 1 });
    assert_eq!(host.send(&home(1), 0, &mut out), Err(Error::NoSession));
}

#[test]
fn host_credits_follow_acks_and_in_flight_commands() {
    let mut host = host_established();
    let mut out = [0u8; MAX_WIRE_LEN];
    assert_eq!(host.queue_credits(), 2, "queue depth from HelloReply");
    host.send(&home(1), 0, &mut out).expect("credit");
    host.send(&home(2), 0, &mut out).expect("credit");
    assert_eq!(host.send(&home(3), 0, &mut out), Err(Error::NoQueueSpace));
    host.send(&Message::ClearFault, 0, &mut out)
        .expect("not queued");
    assert_eq!(
        host.send(&Message::ClearFault, 0, &mut out),
        Err(Error::WindowFull { unacked: 3 }),
        "window limited by rx_window 3"
    );
    // The firmware's MoveDone acks both homes: they now hold both slots.
    let done = Frame::new(Seq(0), Seq(2), Message::MoveDone { move_id: 1 });
    assert_eq!(
        host.on_frame(&done),
        HostInbound::DeliverAndAck(Message::MoveDone { move_id: 1 })
    );
    assert_eq!(host.queue_credits(), 0);
    let ack = Frame::unsequenced(Seq(3), Message::Ack { free_slots: 1 });
    assert_eq!(host.on_frame(&ack), HostInbound::Deliver(ack.message));
    assert_eq!(host.queue_credits(), 1);
    assert_eq!(host.unacked(), 0);
}

#[test]
fn host_acks_duplicate_notifications_without_delivering_them() {
    let mut host = host_established();
    let done = Frame::new(Seq(0), Seq(0), Message::MoveDone { move_id: 1 });
    assert!(matches!(
        host.on_frame(&done),
        HostInbound::DeliverAndAck(_)
    ));
    assert_eq!(host.on_frame(&done), HostInbound::AckOnly);
    let skipped = Frame::new(Seq(2), Seq(0), Message::MoveDone { move_id: 3 });
    assert_eq!(host.on_frame(&skipped), HostInbound::Ignore);
    let mut out = [0u8; MAX_WIRE_LEN];
    let ack = sent(host.ack(0, &mut out), &out);
    assert_eq!(ack.header.ack, Seq(1));
}

#[test]
fn host_retransmits_and_declares_a_stall() {
    let mut host = host_established();
    let mut out = [0u8; MAX_WIRE_LEN];
    host.send(&home(1), 0, &mut out).expect("credit");
    let mut now = 0;
    while !host.stalled() {
        now += RETRANSMIT_TIMEOUT_MS;
        let seq = host.due_for_retransmit(now).expect("due");
        let frame = sent(host.retransmit(seq, now, &mut out), &out);
        assert_eq!(frame.message, home(1));
        assert!(now <= COMMS_TIMEOUT_MS, "gives up after about 2 s");
    }
}

#[test]
fn host_heartbeat_after_half_a_second_of_silence() {
    let mut host = host_established();
    assert!(!host.heartbeat_due(HEARTBEAT_INTERVAL_MS - 1));
    assert!(host.heartbeat_due(HEARTBEAT_INTERVAL_MS));
    let mut out = [0u8; MAX_WIRE_LEN];
    host.send(&Message::QueryStatus, 600, &mut out)
        .expect("heartbeat");
    assert!(!host.heartbeat_due(600 + HEARTBEAT_INTERVAL_MS - 1));
}

#[test]
fn host_asks_for_status_sooner_when_credits_run_out() {
    let mut host = host_established();
    let mut out = [0u8; MAX_WIRE_LEN];
    host.send(&home(1), 0, &mut out).expect("credit");
    host.send(&home(2), 0, &mut out).expect("credit");
    let accepted = Frame::unsequenced(Seq(2), Message::Ack { free_slots: 0 });
    host.on_frame(&accepted);
    assert_eq!(host.queue_credits(), 0);
    assert!(!host.heartbeat_due(RETRANSMIT_TIMEOUT_MS - 1));
    assert!(
        host.heartbeat_due(RETRANSMIT_TIMEOUT_MS),
        "a lost Ack must not stall the queue"
    );
    let status = Status {
        state: FirmwareState::Busy,
        faults: FaultFlags(0),
        last_completed_move_id: 2,
        queue_used: 0,
        config_checksum: 0,
        inputs: InputFlags::default(),
        positions: FixedList::new(),
    };
    host.on_frame(&Frame::unsequenced(Seq(2), Message::Status(status)));
    assert_eq!(host.queue_credits(), 2);
}

#[test]
fn host_notices_a_firmware_reboot() {
    let mut host = host_established();
    let boot = Frame::unsequenced(
        Seq(0),
        Message::Event(Event::Boot {
            cause: ResetCause::Watchdog,
        }),
    );
    assert_eq!(host.on_frame(&boot), HostInbound::Deliver(boot.message));
    assert_eq!(host.phase(), HostPhase::NoSession);

    let mut host = host_established();
    let configured = Frame::new(Seq(0), Seq(0), Message::ConfigureReply { checksum: 1 });
    host.on_frame(&configured);
    let mut status = Status {
        state: FirmwareState::Idle,
        faults: FaultFlags(0),
        last_completed_move_id: 0,
        queue_used: 0,
        config_checksum: 1,
        inputs: InputFlags::default(),
        positions: FixedList::new(),
    };
    host.on_frame(&Frame::unsequenced(Seq(0), Message::Status(status)));
    assert_eq!(host.phase(), HostPhase::Established);
    status.state = FirmwareState::Unconfigured;
    host.on_frame(&Frame::unsequenced(Seq(0), Message::Status(status)));
    assert_eq!(host.phase(), HostPhase::NoSession, "reboot seen in Status");

    let mut host = host_established();
    let nak = Message::Nak {
        seq: Seq(0),
        reason: NakReason::NoSession,
    };
    host.on_frame(&Frame::unsequenced(Seq(0), nak));
    assert_eq!(host.phase(), HostPhase::NoSession);
}

#[test]
fn host_ignores_old_session_notifications_during_the_handshake() {
    let mut host = HostLink::<8>::new(0);
    let mut out = [0u8; MAX_WIRE_LEN];
    host.start_handshake(0, &mut out).expect("hello");
    let stale = Frame::new(Seq(0), Seq(0), Message::MoveDone { move_id: 77 });
    assert_eq!(host.on_frame(&stale), HostInbound::Ignore);
    host.on_frame(&hello_reply(PROTOCOL_VERSION));
    let fresh = Frame::new(Seq(0), Seq(0), Message::MoveDone { move_id: 1 });
    assert!(matches!(
        host.on_frame(&fresh),
        HostInbound::DeliverAndAck(_)
    ));
}
