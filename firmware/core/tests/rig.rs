//! A test rig: the firmware plus simulated motors with magnets for the hall sensors,
//! a host that encodes frames by hand, and a log of every pin edge with its time.

use cubed_firmware::examples::{four_arm, EXAMPLE_CHIP};
use cubed_firmware::{Actuator, Chip, Firmware, Machine, Pins};
use firmware_protocol::message::{
    Action, ActuatorConfig, Configure, JawTarget, Motion, RotationRange,
};
use firmware_protocol::{encode, Decoder, Frame, Message, Seq, MAX_WIRE_LEN};

/// One output edge.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Edge {
    Enable(u8, bool),
    Dir(u8, bool),
    Step(u8),
    Servo(u8, u16),
}

/// Simulated hardware: each stepper's physical angle in microsteps (may start anywhere),
/// its direction pin, and the log of edges.
pub struct Hardware {
    pub log: Vec<(u64, Edge)>,
    pub now: u64,
    pub motor: [i64; 12],
    dir_high: [bool; 12],
    /// Steps handed ahead of their time (a board with `step_lead_us`), issued when the
    /// rig's clock reaches them, as a timer would.
    pending: Vec<(u64, u8)>,
    /// Every machine the firmware wired the pins for, in order.
    pub applied: Vec<Machine>,
}

impl Hardware {
    fn issue(&mut self, at: u64, actuator: u8) {
        let i = usize::from(actuator);
        self.motor[i] += if self.dir_high[i] { 1 } else { -1 };
        self.log.push((at, Edge::Step(actuator)));
    }

    /// Issues the steps handed ahead whose time has come.
    pub fn issue_due(&mut self) {
        let now = self.now;
        let (due, later): (Vec<_>, Vec<_>) = self.pending.drain(..).partition(|&(at, _)| at <= now);
        self.pending = later;
        for (at, actuator) in due {
            self.issue(at, actuator);
        }
    }
}

impl Pins for Hardware {
    fn set_enable(&mut self, actuator: u8, enabled: bool) {
        self.log.push((self.now, Edge::Enable(actuator, enabled)));
    }
    fn set_dir(&mut self, actuator: u8, high: bool) {
        self.dir_high[usize::from(actuator)] = high;
        self.log.push((self.now, Edge::Dir(actuator, high)));
    }
    fn step(&mut self, actuator: u8, at_us: u64) {
        if at_us > self.now {
            self.pending.push((at_us, actuator));
        } else {
            self.issue(self.now, actuator);
        }
    }
    fn cancel_steps(&mut self, actuator: u8) -> u32 {
        let before = self.pending.len();
        self.pending.retain(|&(_, a)| a != actuator);
        (before - self.pending.len()) as u32
    }
    fn set_servo(&mut self, actuator: u8, pulse_us: u16) {
        self.log.push((self.now, Edge::Servo(actuator, pulse_us)));
    }
    fn apply(&mut self, machine: &Machine) {
        self.applied.push(*machine);
    }
}

/// Microsteps per revolution of the example board's rotations.
pub const REV: i64 = 1600;
/// The magnet covers this many microsteps either side of the motor's zero angle.
pub const MAGNET_HALF_WIDTH: i64 = 20;

pub struct Rig {
    pub machine: Machine,
    pub fw: Firmware<'static>,
    pub hw: Hardware,
    pub received: Vec<(u64, Message)>,
    decoder: Decoder,
    host_seq: u8,
    /// Sensors that never trigger (a broken wire), by actuator.
    pub dead_sensor: [bool; 12],
    /// Whether the host sends `QueryStatus` after 500 ms of silence, as a real host does.
    pub heartbeat: bool,
    last_sent: u64,
}

impl Rig {
    /// The example chip set up as `machine` at the handshake.
    pub fn new(machine: Machine) -> Rig {
        Rig::with_chip(&EXAMPLE_CHIP, machine)
    }

    pub fn with_chip(chip: &'static Chip, machine: Machine) -> Rig {
        let mut rig = Rig {
            machine,
            fw: Firmware::new(chip, 0),
            hw: Hardware {
                log: Vec::new(),
                now: 0,
                motor: [0; 12],
                dir_high: [false; 12],
                pending: Vec::new(),
                applied: Vec::new(),
            },
            received: Vec::new(),
            decoder: Decoder::new(),
            host_seq: 0,
            dead_sensor: [false; 12],
            heartbeat: true,
            last_sent: 0,
        };
        rig.update_sensors();
        rig
    }

    /// Whether the magnet of actuator `i` is over its sensor (physical angle near 0).
    pub fn magnet_at(&self, i: usize) -> bool {
        let angle = self.hw.motor[i].rem_euclid(REV);
        !self.dead_sensor[i] && (angle <= MAGNET_HALF_WIDTH || angle >= REV - MAGNET_HALF_WIDTH)
    }

    /// Sets every home-sensor input from the simulated magnets (active low).
    pub fn update_sensors(&mut self) {
        for (i, actuator) in self.machine.actuators.iter().enumerate() {
            if let Actuator::Stepper(stepper) = actuator {
                if let Some(home) = stepper.home {
                    let active = self.magnet_at(i);
                    self.fw
                        .set_input(home.input.pin, active == home.input.active_high);
                }
            }
        }
    }

    /// The seq of the last sequenced frame sent.
    pub fn last_seq(&self) -> Seq {
        Seq(self.host_seq.wrapping_sub(1))
    }

    /// The seq the next sequenced frame gets.
    pub fn next_seq(&self) -> Seq {
        Seq(self.host_seq)
    }

    pub fn send(&mut self, message: Message) {
        let frame = if message.is_sequenced() {
            let seq = self.host_seq;
            self.host_seq = self.host_seq.wrapping_add(1);
            Frame::new(Seq(seq), Seq(0), message)
        } else {
            Frame::unsequenced(Seq(0), message)
        };
        self.send_frame(&frame);
    }

    pub fn send_frame(&mut self, frame: &Frame) {
        let mut out = [0u8; MAX_WIRE_LEN];
        let len = encode(frame, &mut out).expect("test frames encode");
        self.send_bytes(&out[..len]);
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) {
        self.last_sent = self.hw.now;
        for &byte in bytes {
            self.fw.on_byte(self.hw.now, byte);
        }
        self.drain();
    }

    fn drain(&mut self) {
        while let Some(byte) = self.fw.pop_tx() {
            if let Some(Ok(frame)) = self.decoder.push(byte) {
                self.received.push((self.hw.now, frame.message));
            }
        }
    }

    /// One poll at the current time.
    pub fn poll(&mut self) -> Option<u64> {
        if self.heartbeat && self.hw.now >= self.last_sent + 500_000 {
            self.send(Message::QueryStatus);
        }
        self.hw.issue_due();
        let next = self.fw.poll(self.hw.now, &mut self.hw);
        self.hw.issue_due();
        self.update_sensors();
        self.drain();
        next
    }

    /// Runs until `until` µs, polling at every deadline the firmware asks for.
    pub fn run_until(&mut self, until: u64) {
        loop {
            let next = self.poll();
            match next {
                Some(deadline) if deadline <= until => self.hw.now = deadline.max(self.hw.now),
                _ => {
                    self.hw.now = until;
                    self.poll();
                    return;
                }
            }
        }
    }

    /// Runs until `MoveDone { move_id }` arrives (or `limit_us` passes); its time.
    pub fn run_until_done(&mut self, move_id: u32, limit_us: u64) -> Option<u64> {
        let deadline = self.hw.now + limit_us;
        loop {
            if let Some(at) = self.done_at(move_id) {
                return Some(at);
            }
            let next = self.poll();
            if self.hw.now >= deadline {
                return self.done_at(move_id);
            }
            self.hw.now = next.unwrap_or(deadline).min(deadline).max(self.hw.now);
        }
    }

    pub fn done_at(&self, move_id: u32) -> Option<u64> {
        self.received
            .iter()
            .find_map(|(at, m)| (*m == Message::MoveDone { move_id }).then_some(*at))
    }

    pub fn has(&self, wanted: &Message) -> bool {
        self.received.iter().any(|(_, m)| m == wanted)
    }

    /// Hello, the rig's machine set up, then `configure`.
    pub fn handshake(&mut self, configure: Configure) {
        self.send(Message::Hello {
            protocol_version: firmware_protocol::PROTOCOL_VERSION,
        });
        // A Hello starts the firmware's expected seq from 0 again.
        self.host_seq = 0;
        let setup: Vec<Message> = self.machine.setup_messages().collect();
        for message in setup {
            self.send(message);
        }
        self.send(Message::Configure(configure));
    }

    /// Handshake, configure, home; panics (test failure) if homing does not finish.
    pub fn ready(&mut self) {
        self.handshake(four_arm_configure(150, 250));
        self.send(Message::Home {
            move_id: 1,
            mask: ALL_EIGHT,
        });
        assert!(
            self.run_until_done(1, 5_000_000).is_some(),
            "homing finished"
        );
    }

    /// Steps of actuator `i` logged in `[from, to)`.
    pub fn steps(&self, i: u8, from: u64, to: u64) -> Vec<u64> {
        self.hw
            .log
            .iter()
            .filter(|(at, e)| *e == Edge::Step(i) && *at >= from && *at < to)
            .map(|(at, _)| *at)
            .collect()
    }
}

/// The four-arm robot's `Configure`: jaw + rotation (-1..=1) per gripper.
/// The `Home` mask of all eight four-arm actuators.
pub const ALL_EIGHT: u16 = 0x00FF;

pub fn four_arm_configure(quarter_ms: u16, half_ms: u16) -> Configure {
    let jaw = ActuatorConfig::Jaw {
        open_ms: 100,
        close_ms: 100,
    };
    let rotation = ActuatorConfig::Rotation {
        range: RotationRange::Limited { min: -1, max: 1 },
        quarter_turn_ms: quarter_ms,
        half_turn_ms: half_ms,
    };
    Configure::new(&[jaw, rotation, jaw, rotation, jaw, rotation, jaw, rotation])
        .expect("8 actuators")
}

pub fn rotate(actuator: u8, quarter_turns: i32) -> Action {
    Action::Rotate {
        actuator,
        quarter_turns,
    }
}

pub fn jaw(actuator: u8, closed: bool) -> Action {
    let target = if closed {
        JawTarget::Closed
    } else {
        JawTarget::Open
    };
    Action::Jaw { actuator, target }
}

pub fn motion(move_id: u32, actions: &[Action]) -> Message {
    Message::Motion(Motion::new(move_id, actions).expect("valid motion"))
}

/// The example four-arm board's wiring with only `actuators`.
pub fn machine_of(actuators: &[Actuator]) -> Machine {
    let mut machine = four_arm();
    machine.actuators =
        firmware_protocol::FixedList::from_slice(actuators, "actuators").expect("at most 12");
    machine.board.actuators = actuators.len() as u8;
    machine
}
