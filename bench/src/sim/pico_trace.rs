//! What the emulated Pico did, read back: the pin edges and sensor levels of the
//! emulator's trace (emulated ns), the robot it models (a design's wiring), the frames the
//! firmware sent with their emulated times, and the measures the tests take from them
//! (each stepper's moves, step timing against the firmware core's ramp). In the harness so
//! that it is built optimised: a trace holds every STEP edge of a run.

use cubed_firmware::ramp::Ramp;
use firmware_protocol::{Decoder, Message};
use std::collections::BTreeMap;
use std::time::Instant;

/// The modelled robot, as the emulator reads it.
#[derive(Debug)]
pub struct Machine {
    pub steppers: Vec<MachineStepper>,
    pub servos: Vec<MachineServo>,
    pub enable: MachineEnable,
    pub estop: MachineInput,
    pub button: MachineInput,
}

#[derive(Debug)]
pub struct MachineStepper {
    pub actuator: u8,
    pub name: String,
    pub step: u8,
    pub dir: u8,
    pub microsteps_per_rev: i64,
}

#[derive(Debug)]
pub struct MachineServo {
    pub actuator: u8,
    pub pin: u8,
}

#[derive(Debug)]
pub struct MachineEnable {
    pub pin: u8,
    pub active_low: bool,
}

#[derive(Debug)]
pub struct MachineInput {
    pub pin: u8,
    /// The pin's level when not pressed.
    pub released: bool,
}

impl Machine {
    /// A design's wiring (`cubed config wiring --format json`), read as the emulator reads it.
    pub fn from_wiring_json(wiring: &str) -> Machine {
        let doc: serde_json::Value = serde_json::from_str(wiring).expect("JSON");
        let actuators = doc["actuators"].as_array().expect("actuators");
        let of_kind = |kind: &'static str| actuators.iter().filter(move |a| a["kind"] == kind);
        let number = |v: &serde_json::Value| v.as_u64().expect("a number");
        let steppers = of_kind("stepper")
            .map(|a| MachineStepper {
                actuator: number(&a["index"]) as u8,
                name: a["name"].as_str().expect("a name").to_string(),
                step: number(&a["step"]) as u8,
                dir: number(&a["dir"]) as u8,
                microsteps_per_rev: number(&a["microsteps_per_rev"]) as i64,
            })
            .collect();
        let servos = of_kind("servo")
            .map(|a| MachineServo {
                actuator: number(&a["index"]) as u8,
                pin: number(&a["pin"]) as u8,
            })
            .collect();
        let signal = |key: &str| {
            let s = &doc["board"][key];
            (number(&s["pin"]) as u8, s["active"] == "low")
        };
        let ((enable, enable_low), (estop, estop_low), (button, button_low)) =
            (signal("enable"), signal("estop"), signal("button"));
        Machine {
            steppers,
            servos,
            enable: MachineEnable {
                pin: enable,
                active_low: enable_low,
            },
            estop: MachineInput {
                pin: estop,
                released: estop_low,
            },
            button: MachineInput {
                pin: button,
                released: button_low,
            },
        }
    }
}

/// One level change of a pin, at emulated ns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Edge {
    pub ns: u64,
    pub gpio: u8,
    pub high: bool,
}

/// The emulator's trace.
#[derive(Debug, Default)]
pub struct Trace {
    /// Output edges (step, dir, enable).
    pub outputs: Vec<Edge>,
    /// Input levels the model set (sensors, e-stop, button).
    pub inputs: Vec<Edge>,
    /// Servo pulses: when each ended, its pin and width (µs).
    pub servo_pulses: Vec<(u64, u8, u32)>,
    /// When bytes from the host reached the firmware.
    pub host_bytes_ns: Vec<u64>,
    /// The cable's and the chip's events (`hang`, `reset`, `unplugged`…) by time.
    pub events: Vec<(u64, String)>,
    /// The emulated time when the trace was flushed.
    pub now_ns: u64,
    /// Each stepper's modelled position (microsteps) by actuator.
    pub positions: BTreeMap<u8, i64>,
}

impl Trace {
    pub fn parse(text: &str, now_ns: u64, positions: &str) -> Trace {
        let mut trace = Trace {
            now_ns,
            positions: serde_json::from_str::<BTreeMap<String, i64>>(positions)
                .expect("positions JSON")
                .into_iter()
                .map(|(k, v)| (k.parse().expect("actuator index"), v))
                .collect(),
            ..Trace::default()
        };
        for line in text.lines() {
            let words: Vec<&str> = line.split(' ').collect();
            let number = |i: usize| words.get(i).and_then(|w| w.parse::<u64>().ok());
            match (words.first(), number(1), number(2), number(3)) {
                (Some(&"E"), Some(ns), Some(gpio), Some(level)) => {
                    trace.outputs.push(edge(ns, gpio, level))
                }
                (Some(&"I"), Some(ns), Some(gpio), Some(level)) => {
                    trace.inputs.push(edge(ns, gpio, level))
                }
                (Some(&"H"), Some(ns), ..) => trace.host_bytes_ns.push(ns),
                (Some(&"U"), Some(ns), ..) => trace
                    .events
                    .push((ns, words.get(2).unwrap_or(&"").to_string())),
                (Some(&"S"), Some(ns), Some(gpio), Some(width)) => {
                    trace.servo_pulses.push((ns, gpio as u8, width as u32))
                }
                _ => {}
            }
        }
        trace
    }

    /// When the chip or cable event `what` first happened.
    pub fn event(&self, what: &str) -> Option<u64> {
        self.events
            .iter()
            .find(|(_, w)| w == what)
            .map(|(ns, _)| *ns)
    }

    /// A pin's output level at `ns` (its last edge at or before then).
    pub fn level_at(&self, gpio: u8, ns: u64) -> Option<bool> {
        self.outputs
            .iter()
            .take_while(|e| e.ns <= ns)
            .filter(|e| e.gpio == gpio)
            .last()
            .map(|e| e.high)
    }

    /// Rising edges of `gpio` at or after `since_ns`.
    pub fn rising(&self, gpio: u8, since_ns: u64) -> Vec<u64> {
        self.outputs
            .iter()
            .filter(|e| e.gpio == gpio && e.high && e.ns >= since_ns)
            .map(|e| e.ns)
            .collect()
    }

    /// The steps of one stepper after `from_ns` up to `to_ns` (one command's, between
    /// two `MoveDone`s), split where the direction changes. Not by the time between
    /// steps: a ramp's first and last steps are 5 ms from their neighbours, and the moves
    /// of two commands in a row may be no further apart than 10 ms.
    pub fn moves_between(
        &self,
        stepper: &MachineStepper,
        from_ns: u64,
        to_ns: u64,
    ) -> Vec<StepperMove> {
        let steps = self.rising(stepper.step, from_ns + 1);
        let steps = steps
            .into_iter()
            .filter(|&ns| ns <= to_ns)
            .collect::<Vec<_>>();
        let mut moves: Vec<StepperMove> = Vec::new();
        for ns in steps {
            let forward = self.level_at(stepper.dir, ns).unwrap_or(false);
            match moves.last_mut() {
                Some(last) if last.forward == forward => last.steps_ns.push(ns),
                _ => moves.push(StepperMove {
                    forward,
                    steps_ns: vec![ns],
                }),
            }
        }
        moves
    }

    /// The shortest high time of any pulse on `gpio`, ns.
    pub fn shortest_pulse_ns(&self, gpio: u8) -> Option<u64> {
        let mut rose = None;
        let mut shortest = None::<u64>;
        for e in self.outputs.iter().filter(|e| e.gpio == gpio) {
            match (e.high, rose) {
                (true, _) => rose = Some(e.ns),
                (false, Some(at)) => {
                    let width = e.ns - at;
                    shortest = Some(shortest.map_or(width, |s| s.min(width)));
                    rose = None;
                }
                (false, None) => {}
            }
        }
        shortest
    }

    /// When the drivers' ENABLE first went to its "off" level at or after `since_ns`.
    pub fn enable_off_since(&self, machine: &Machine, since_ns: u64) -> Option<u64> {
        let enable = &machine.enable;
        self.outputs
            .iter()
            .find(|e| e.gpio == enable.pin && e.high == enable.active_low && e.ns >= since_ns)
            .map(|e| e.ns)
    }

    /// The last step edge of any stepper, ns.
    pub fn last_step_ns(&self, machine: &Machine) -> Option<u64> {
        let steps: Vec<u8> = machine.steppers.iter().map(|s| s.step).collect();
        self.outputs
            .iter()
            .filter(|e| steps.contains(&e.gpio) && e.high)
            .map(|e| e.ns)
            .max()
    }

    /// When an input was last set to `high`, at or after `since_ns`.
    pub fn input_set(&self, gpio: u8, high: bool, since_ns: u64) -> Option<u64> {
        self.inputs
            .iter()
            .filter(|e| e.gpio == gpio && e.high == high && e.ns >= since_ns)
            .map(|e| e.ns)
            .next()
    }
}

fn edge(ns: u64, gpio: u64, level: u64) -> Edge {
    Edge {
        ns,
        gpio: gpio as u8,
        high: level != 0,
    }
}

/// One move of one stepper: its step edges, all in one direction.
#[derive(Debug, Clone)]
pub struct StepperMove {
    pub forward: bool,
    pub steps_ns: Vec<u64>,
}

impl StepperMove {
    pub fn last_ns(&self) -> u64 {
        self.steps_ns[self.steps_ns.len() - 1]
    }

    /// Signed microsteps.
    pub fn distance(&self) -> i64 {
        let steps = self.steps_ns.len() as i64;
        if self.forward {
            steps
        } else {
            -steps
        }
    }

    /// Where the move started on the core's ramp, ns: where it makes the most punctual
    /// step exactly on time (a software loop is never early, so every other step is late).
    fn start_ns(&self, ramp: &Ramp) -> i64 {
        self.steps_ns
            .iter()
            .enumerate()
            .map(|(k, &ns)| ns as i64 - ideal_ns(ramp, k))
            .min()
            .unwrap_or(0)
    }

    /// How late each step edge is against its ideal time on the core's ramp, ns, sorted.
    pub fn step_errors_ns(&self, ramp: &Ramp) -> Vec<u64> {
        let start = self.start_ns(ramp);
        let mut errors: Vec<u64> = self
            .steps_ns
            .iter()
            .enumerate()
            .map(|(k, &ns)| (ns as i64 - start - ideal_ns(ramp, k)) as u64)
            .collect();
        errors.sort_unstable();
        errors
    }

    /// From the move's start (see [`Self::start_ns`]) to its last step, ns.
    pub fn duration_ns(&self, ramp: &Ramp) -> u64 {
        (self.last_ns() as i64 - self.start_ns(ramp)) as u64
    }
}

/// When step `k` (from 0) is due on the ramp, ns from its start.
fn ideal_ns(ramp: &Ramp, k: usize) -> i64 {
    ramp.step_time_us(k as u32 + 1) as i64 * 1000
}

/// The firmware's bytes as the bridge received them: emulated ns, wall instant, bytes.
#[derive(Debug, Default)]
pub struct FirmwareBytes {
    chunks: Vec<(u64, Instant, Vec<u8>)>,
}

impl FirmwareBytes {
    pub fn push(&mut self, ns: u64, at: Instant, bytes: Vec<u8>) {
        self.chunks.push((ns, at, bytes));
    }

    /// When (wall time) each chunk reached the bridge, in order.
    pub fn wall_times(&self) -> Vec<Instant> {
        self.chunks.iter().map(|(_, at, _)| *at).collect()
    }

    /// Every frame the firmware sent, with the emulated time its last byte left.
    pub fn messages(&self) -> Vec<(u64, Message)> {
        let mut decoder = Decoder::new();
        let mut out = Vec::new();
        for (ns, _, bytes) in &self.chunks {
            for &byte in bytes {
                if let Some(Ok(frame)) = decoder.push(byte) {
                    out.push((*ns, frame.message));
                }
            }
        }
        out
    }
}
