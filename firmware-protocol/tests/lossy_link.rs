//! End to end over a lossy byte channel: `HostLink` ↔ `FirmwareLink` with frames dropped,
//! corrupted and duplicated. Every move must run exactly once, in order, and be reported once.

use std::collections::VecDeque;

use firmware_protocol::message::{
    FaultFlags, FirmwareState, FirmwareVersion, HelloReply, InputFlags, Status,
};
use firmware_protocol::timing::RETRANSMIT_TIMEOUT_MS;
use firmware_protocol::{
    Decoder, FirmwareLink, FixedList, Frame, HostInbound, HostLink, HostPhase, Inbound, Message,
    MAX_WIRE_LEN,
};

const MOVES: u32 = 200;
const QUEUE_DEPTH: u8 = 4;
const MOVE_MS: u64 = 30;
const TICK_MS: u64 = 5;

/// Deterministic xorshift64 generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
}

/// One direction of the serial line: whole frames are dropped, get a byte
/// corrupted, or are delivered twice.
struct Line {
    bytes: VecDeque<u8>,
    rng: Rng,
    loss_percent: u64,
}

impl Line {
    fn new(seed: u64, loss_percent: u64) -> Self {
        Line {
            bytes: VecDeque::new(),
            rng: Rng(seed),
            loss_percent,
        }
    }

    fn send(&mut self, frame: &[u8]) {
        if self.rng.chance(self.loss_percent) {
            return;
        }
        let mut frame = frame.to_vec();
        if self.rng.chance(self.loss_percent / 2) {
            let at = (self.rng.next() % frame.len() as u64) as usize;
            frame[at] ^= 1 << (self.rng.next() % 8);
        }
        let copies = if self.rng.chance(self.loss_percent / 2) {
            2
        } else {
            1
        };
        for _ in 0..copies {
            self.bytes.extend(&frame);
        }
    }

    fn drain(&mut self) -> Vec<u8> {
        self.bytes.drain(..).collect()
    }
}

struct Robot {
    link: FirmwareLink<8>,
    decoder: Decoder,
    queue: VecDeque<u32>,
    busy_until: u64,
    executed: Vec<u32>,
}

impl Robot {
    fn free_slots(&self) -> u8 {
        QUEUE_DEPTH - self.queue.len() as u8
    }

    fn status(&self) -> Message {
        Message::Status(Status {
            state: FirmwareState::Busy,
            faults: FaultFlags(0),
            last_completed_move_id: self.executed.last().copied().unwrap_or(0),
            queue_used: self.queue.len() as u8,
            config_checksum: 0,
            inputs: InputFlags::default(),
            positions: FixedList::new(),
        })
    }

    fn receive(&mut self, bytes: &[u8], now: u64, line: &mut Line) {
        let mut out = [0u8; MAX_WIRE_LEN];
        let results: Vec<_> = self.decoder.feed(bytes).collect();
        for result in results {
            let reply = match result {
                Err(error) => Some(self.link.nak_for_decode_error(&error)),
                Ok(frame) => self.handle(&frame, now),
            };
            if let Some(reply) = reply {
                let len = self.link.send(&reply, now, &mut out).expect("reply");
                line.send(&out[..len]);
            }
        }
    }

    fn handle(&mut self, frame: &Frame, now: u64) -> Option<Message> {
        match self.link.on_frame(frame, self.free_slots(), now) {
            Inbound::Execute(Message::Hello { .. }) => {
                self.queue.clear();
                Some(Message::HelloReply(HelloReply {
                    protocol_version: firmware_protocol::PROTOCOL_VERSION,
                    firmware_version: FirmwareVersion::default(),
                    queue_depth: QUEUE_DEPTH,
                    rx_window: 8,
                    firmware_name: HelloReply::name_field("sim"),
                }))
            }
            Inbound::Execute(Message::QueryStatus) => Some(self.status()),
            Inbound::Execute(Message::Motion(motion)) => {
                self.queue.push_back(motion.move_id);
                Some(Message::Ack {
                    free_slots: self.free_slots(),
                })
            }
            Inbound::Execute(other) => panic!("unexpected {other:?}"),
            Inbound::Duplicate => Some(Message::Ack {
                free_slots: self.free_slots(),
            }),
            Inbound::Refuse { seq, reason } => Some(Message::Nak { seq, reason }),
            Inbound::Ignore => None,
        }
    }

    fn tick(&mut self, now: u64, line: &mut Line) {
        let mut out = [0u8; MAX_WIRE_LEN];
        let can_notify = self.link.unacked_notifications() < 8;
        if now >= self.busy_until && can_notify {
            if let Some(move_id) = self.queue.pop_front() {
                self.executed.push(move_id);
                self.busy_until = now + MOVE_MS;
                let len = self
                    .link
                    .send(&Message::MoveDone { move_id }, now, &mut out)
                    .expect("notify");
                line.send(&out[..len]);
                let len = self.link.ack(self.free_slots(), &mut out).expect("ack");
                line.send(&out[..len]);
            }
        }
        while let Some(seq) = self.link.due_for_retransmit(now) {
            let len = self.link.retransmit(seq, now, &mut out).expect("resend");
            line.send(&out[..len]);
        }
    }
}

struct Host {
    link: HostLink<8>,
    decoder: Decoder,
    next_move: u32,
    done: Vec<u32>,
    hello_sent_at: u64,
}

impl Host {
    fn tick(&mut self, now: u64, line: &mut Line) {
        let mut out = [0u8; MAX_WIRE_LEN];
        let handshake_stuck = self.link.phase() == HostPhase::AwaitingHelloReply
            && now >= self.hello_sent_at + RETRANSMIT_TIMEOUT_MS;
        if self.link.phase() == HostPhase::NoSession || handshake_stuck {
            let len = self.link.start_handshake(now, &mut out).expect("hello");
            self.hello_sent_at = now;
            line.send(&out[..len]);
            return;
        }
        while self.next_move <= MOVES {
            let motion = motion(self.next_move);
            if self.link.check_can_send(&motion).is_err() {
                break;
            }
            let len = self.link.send(&motion, now, &mut out).expect("send");
            line.send(&out[..len]);
            self.next_move += 1;
        }
        while let Some(seq) = self.link.due_for_retransmit(now) {
            let len = self.link.retransmit(seq, now, &mut out).expect("resend");
            line.send(&out[..len]);
        }
        if self.link.heartbeat_due(now) {
            let len = self
                .link
                .send(&Message::QueryStatus, now, &mut out)
                .expect("heartbeat");
            line.send(&out[..len]);
        }
    }

    fn receive(&mut self, bytes: &[u8], now: u64, line: &mut Line) {
        let mut out = [0u8; MAX_WIRE_LEN];
        let frames: Vec<_> = self.decoder.feed(bytes).filter_map(Result::ok).collect();
        for frame in frames {
            let send_ack = match self.link.on_frame(&frame) {
                HostInbound::DeliverAndAck(Message::MoveDone { move_id }) => {
                    self.done.push(move_id);
                    true
                }
                HostInbound::DeliverAndAck(_) | HostInbound::AckOnly => true,
                HostInbound::Deliver(_) | HostInbound::Ignore => false,
            };
            if send_ack {
                let len = self.link.ack(now, &mut out).expect("ack");
                line.send(&out[..len]);
            }
        }
    }
}

fn motion(move_id: u32) -> Message {
    let action = firmware_protocol::message::Action::Rotate {
        actuator: 1,
        quarter_turns: move_id as i32,
    };
    Message::Motion(firmware_protocol::message::Motion::new(move_id, &[action]).expect("motion"))
}

/// Runs the whole exchange; returns (moves executed, moves reported, simulated ms).
fn run(seed: u64, loss_percent: u64) -> (Vec<u32>, Vec<u32>, u64) {
    let mut to_robot = Line::new(seed, loss_percent);
    let mut to_host = Line::new(seed ^ 0x9E37_79B9_7F4A_7C15, loss_percent);
    let mut robot = Robot {
        link: FirmwareLink::new(8, 0),
        decoder: Decoder::new(),
        queue: VecDeque::new(),
        busy_until: 0,
        executed: Vec::new(),
    };
    let mut host = Host {
        link: HostLink::new(0),
        decoder: Decoder::new(),
        next_move: 1,
        done: Vec::new(),
        hello_sent_at: 0,
    };
    let mut now = 0;
    while host.done.len() < MOVES as usize && now < 600_000 {
        host.tick(now, &mut to_robot);
        robot.receive(&to_robot.drain(), now, &mut to_host);
        robot.tick(now, &mut to_host);
        host.receive(&to_host.drain(), now, &mut to_robot);
        assert!(!host.link.stalled(), "link declared lost at {now} ms");
        now += TICK_MS;
    }
    (robot.executed, host.done, now)
}

#[test]
fn clean_line_runs_every_move_once() {
    let (executed, done, _) = run(1, 0);
    let expected: Vec<u32> = (1..=MOVES).collect();
    assert_eq!(executed, expected);
    assert_eq!(done, expected);
}

#[test]
fn lossy_line_still_runs_every_move_exactly_once_in_order() {
    let expected: Vec<u32> = (1..=MOVES).collect();
    for loss_percent in [10, 30] {
        for seed in [7, 42, 1234, 99_999] {
            let (executed, done, elapsed) = run(seed, loss_percent);
            let case = format!("seed {seed}, {loss_percent}% loss");
            assert_eq!(executed, expected, "{case}: moves run once, in order");
            assert_eq!(done, expected, "{case}: each completion reported once");
            assert!(elapsed < 600_000, "{case}: finished");
        }
    }
}
