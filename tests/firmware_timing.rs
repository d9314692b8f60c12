//! The firmware core's ramps against the planner's time model: 200 random 20-turn
//! programs of the four-arm design run through `cubed-firmware` (set up with the design's
//! own machine, as the host sends it) in simulated time. The board accepted the design's `Configure`, so
//! every action is at least as fast as the design says: no program may take longer
//! than planned. Prints planned vs firmware time (BENCHMARKS.md, "Firmware timing").

use crate::common::scrambled;
use cubed::robot::wiring::RobotSetup;
use cubed::robot::ActuatorMap;
use cubed::robot::MotionGroup;
use cubed_firmware::examples::EXAMPLE_CHIP;
use cubed_firmware::{Actuator, Firmware, Machine, Pins};
use firmware_protocol::{encode, Decoder, Frame, Message, Seq, MAX_WIRE_LEN};

/// Motors whose magnets sit at angle 0 (the hall sensors' home).
struct Motors {
    angle: [i64; 12],
    dir: [bool; 12],
}

impl Pins for Motors {
    fn set_enable(&mut self, _: u8, _: bool) {}
    fn set_dir(&mut self, actuator: u8, high: bool) {
        self.dir[usize::from(actuator)] = high;
    }
    fn step(&mut self, actuator: u8, _at_us: u64) {
        let i = usize::from(actuator);
        self.angle[i] += if self.dir[i] { 1 } else { -1 };
    }
    fn set_servo(&mut self, _: u8, _: u16) {}
}

/// A host in simulated time: sends frames, acknowledges notifications, heartbeats.
struct Bench {
    fw: Firmware<'static>,
    machine: Machine,
    motors: Motors,
    decoder: Decoder,
    now: u64,
    seq: u8,
    last_sent: u64,
    done: Vec<(u32, u64)>,
}

impl Bench {
    fn send(&mut self, message: Message, ack: u8) {
        let frame = if message.is_sequenced() {
            self.seq = self.seq.wrapping_add(1);
            Frame::new(Seq(self.seq.wrapping_sub(1)), Seq(ack), message)
        } else {
            Frame::unsequenced(Seq(ack), message)
        };
        let mut out = [0u8; MAX_WIRE_LEN];
        let len = encode(&frame, &mut out).expect("encodes");
        for &byte in &out[..len] {
            self.fw.on_byte(self.now, byte);
        }
        self.last_sent = self.now;
    }

    fn step(&mut self) {
        let next = self.fw.poll(self.now, &mut self.motors);
        for (i, actuator) in self.machine.actuators.iter().enumerate() {
            if let Actuator::Stepper(stepper) = actuator {
                if let Some(home) = stepper.home {
                    let rev = stepper.steps_per_rev() as i64;
                    let angle = self.motors.angle[i].rem_euclid(rev);
                    let near = angle <= 20 || angle >= rev - 20;
                    self.fw
                        .set_input(home.input.pin, near == home.input.active_high);
                }
            }
        }
        let mut acks = Vec::new();
        while let Some(byte) = self.fw.pop_tx() {
            if let Some(Ok(frame)) = self.decoder.push(byte) {
                if frame.message.is_sequenced() {
                    acks.push(frame.header.seq.0.wrapping_add(1));
                }
                if let Message::MoveDone { move_id } = frame.message {
                    self.done.push((move_id, self.now));
                }
            }
        }
        for ack in acks {
            self.send(Message::Ack { free_slots: 255 }, ack);
        }
        if self.now >= self.last_sent + 400_000 {
            self.send(Message::QueryStatus, 0);
        }
        self.now = next.unwrap_or(self.now + 10_000).max(self.now);
    }

    fn run(&mut self, groups: &[MotionGroup]) -> u64 {
        let start = self.now;
        let mut sent = 0;
        while self.done.len() < groups.len() {
            while sent < groups.len() && sent - self.done.len() < 24 {
                self.send(groups[sent].to_message(), 0);
                sent += 1;
            }
            self.step();
            assert!(
                self.now - start < 600_000_000,
                "program finished in 10 simulated minutes"
            );
        }
        self.done.last().map_or(start, |&(_, at)| at) - start
    }
}

#[test]
fn firmware_ramps_never_take_longer_than_the_plan() {
    let model = cubed::robot::shipped_design("four-arm").expect("four-arm loads");
    let map = ActuatorMap::new(&model).expect("fits");
    let setup = RobotSetup::for_design(&model, &map).expect("wired");
    let (mut planned_total, mut firmware_total, mut errors) = (0u64, 0u64, Vec::new());
    for seed in 0..200 {
        let (_, program) = scrambled(&model, seed, 20);
        let mut bench = Bench {
            fw: Firmware::new(&EXAMPLE_CHIP, 0),
            machine: setup.machine,
            motors: Motors {
                angle: [0; 12],
                dir: [false; 12],
            },
            decoder: Decoder::new(),
            now: 0,
            seq: 0,
            last_sent: 0,
            done: Vec::new(),
        };
        bench.send(
            Message::Hello {
                protocol_version: firmware_protocol::PROTOCOL_VERSION,
            },
            0,
        );
        for message in setup.machine.setup_messages() {
            bench.send(message, 0);
        }
        bench.send(Message::Configure(setup.configure), 0);
        bench.run(&[MotionGroup::Home {
            move_id: 1,
            mask: map.home_mask(),
        }]);
        bench.done.clear();
        let encoded = map
            .encode_program(&program, &model.home(), 2)
            .expect("encodes");
        let groups: Vec<MotionGroup> = encoded.groups.iter().map(|(_, g)| *g).collect();
        let firmware_us = bench.run(&groups);
        let planned_us = u64::from(program.total_ms(&model)) * 1000;
        assert!(
            firmware_us <= planned_us,
            "seed {seed}: firmware {firmware_us} µs > planned {planned_us} µs"
        );
        planned_total += planned_us;
        firmware_total += firmware_us;
        errors.push((planned_us - firmware_us) as f64 / planned_us as f64);
    }
    errors.sort_by(f64::total_cmp);
    eprintln!(
        "four-arm, 200 programs: planned {:.1} s, firmware {:.1} s; per program (planned - firmware) / planned: mean {:.2} %, median {:.2} %, max {:.2} %",
        planned_total as f64 / 1e6,
        firmware_total as f64 / 1e6,
        100.0 * errors.iter().sum::<f64>() / errors.len() as f64,
        100.0 * errors[errors.len() / 2],
        100.0 * errors[errors.len() - 1],
    );
}
