//! A design's wiring as a person reads it (`cubed config wiring`): one line per
//! actuator with its pins and motor, then what the board shares; and the same as JSON
//! for tools (the emulated Pico's machine is built from it).

use super::RobotSetup;
use crate::actuators::{ActuatorMap, Role};
use crate::model::RobotModel;
use firmware_protocol::message::{Actuator, HomeSensor, SensorKind, Signal};
use serde::Serialize;

/// A pin and the level that means "active".
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct SignalDoc {
    pub pin: u8,
    /// "high" or "low".
    pub active: &'static str,
}

/// A home sensor.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct HomeDoc {
    pub pin: u8,
    pub active: &'static str,
    /// "hall" or "end-stop".
    pub sensor: &'static str,
    /// "positive" or "negative".
    pub seek: &'static str,
    pub seek_deg_s: u16,
    pub approach_deg_s: u16,
    pub backoff_deg: u16,
    pub max_seek_deg: u16,
    pub offset_steps: i32,
}

/// One actuator, by firmware index.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ActuatorDoc {
    Servo {
        index: usize,
        name: String,
        pin: u8,
        open_us: u16,
        closed_us: u16,
        travel_ms: u16,
    },
    Stepper {
        index: usize,
        name: String,
        step: u8,
        dir: u8,
        invert_dir: bool,
        microsteps_per_rev: u64,
        /// The driver's own microstep setting (its MS pins or jumpers must select it).
        driver_microsteps: u16,
        units_per_rev: u16,
        max_deg_s: u32,
        accel_deg_s2: u32,
        home: Option<HomeDoc>,
        stall: Option<SignalDoc>,
        /// The times the planner gives its moves (ms): a gripper's quarter and half turn, or
        /// a flipper's flip; they follow from the ramp when the design gives a `motion` table.
        planned_ms: PlannedMs,
    },
    Fixed {
        index: usize,
        name: String,
    },
}

/// What every actuator shares.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct BoardDoc {
    pub enable: Option<SignalDoc>,
    pub estop: Option<SignalDoc>,
    pub button: Option<SignalDoc>,
    pub debounce_samples: u8,
    pub idle_disable_ms: u32,
}

/// A design's whole wiring.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct WiringDoc {
    pub robot: String,
    /// False: the design gives no wiring; this is the virtual one the simulator takes.
    pub wired: bool,
    pub board: BoardDoc,
    pub actuators: Vec<ActuatorDoc>,
}

fn level(active_high: bool) -> &'static str {
    if active_high {
        "high"
    } else {
        "low"
    }
}

fn signal(signal: Option<Signal>) -> Option<SignalDoc> {
    signal.map(|s| SignalDoc {
        pin: s.pin,
        active: level(s.active_high),
    })
}

fn home(home: Option<HomeSensor>) -> Option<HomeDoc> {
    home.map(|h| HomeDoc {
        pin: h.input.pin,
        active: level(h.input.active_high),
        sensor: match h.kind {
            SensorKind::Hall => "hall",
            SensorKind::EndStop => "end-stop",
        },
        seek: if h.seek_positive {
            "positive"
        } else {
            "negative"
        },
        seek_deg_s: h.seek_deg_s,
        approach_deg_s: h.approach_deg_s,
        backoff_deg: h.backoff_deg,
        max_seek_deg: h.max_seek_deg,
        offset_steps: h.offset_steps,
    })
}

/// The times the planner gives a stepper's moves (ms).
#[derive(Serialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(untagged)]
pub enum PlannedMs {
    Turns { quarter: u32, half: u32 },
    Flip { flip: u32 },
}

impl PlannedMs {
    fn of(model: &RobotModel, role: Role) -> PlannedMs {
        match role {
            Role::Flipper { flipper } => PlannedMs::Flip {
                flip: model.flippers[flipper].flip_ms,
            },
            Role::Jaw { gripper } | Role::Rotation { gripper } => PlannedMs::Turns {
                quarter: model.grippers[gripper].quarter_ms,
                half: model.grippers[gripper].half_ms,
            },
        }
    }
}

/// "left jaw", "left rotation", "flipper".
fn role_name(model: &RobotModel, role: Role) -> String {
    match role {
        Role::Jaw { gripper } => format!("{} jaw", model.grippers[gripper].name),
        Role::Rotation { gripper } => format!("{} rotation", model.grippers[gripper].name),
        Role::Flipper { flipper } => model.flippers[flipper].name.clone(),
    }
}

impl WiringDoc {
    /// The wiring `setup` sends for `model`.
    pub fn new(model: &RobotModel, map: &ActuatorMap, setup: &RobotSetup) -> WiringDoc {
        let board = setup.machine.board;
        let actuators = setup
            .machine
            .actuators
            .iter()
            .zip(&map.roles)
            .enumerate()
            .map(|(index, (actuator, &role))| {
                let name = role_name(model, role);
                match *actuator {
                    Actuator::Servo(s) => ActuatorDoc::Servo {
                        index,
                        name,
                        pin: s.pin,
                        open_us: s.open_us,
                        closed_us: s.closed_us,
                        travel_ms: s.travel_ms,
                    },
                    Actuator::Stepper(s) => ActuatorDoc::Stepper {
                        index,
                        name,
                        step: s.step_pin,
                        dir: s.dir_pin,
                        invert_dir: s.invert_dir,
                        microsteps_per_rev: s.steps_per_rev(),
                        driver_microsteps: s.microsteps,
                        units_per_rev: s.units_per_rev,
                        max_deg_s: s.max_deg_s,
                        accel_deg_s2: s.accel_deg_s2,
                        home: home(s.home),
                        stall: signal(s.stall),
                        planned_ms: PlannedMs::of(model, role),
                    },
                    Actuator::Fixed => ActuatorDoc::Fixed { index, name },
                }
            })
            .collect();
        WiringDoc {
            robot: model.name.clone(),
            wired: setup.wired,
            board: BoardDoc {
                enable: signal(board.enable),
                estop: signal(board.estop),
                button: signal(board.button),
                debounce_samples: board.debounce_samples,
                idle_disable_ms: board.idle_disable_ms,
            },
            actuators,
        }
    }

    /// The table as text lines.
    pub fn lines(&self) -> Vec<String> {
        let mut lines = vec![if self.wired {
            format!("robot '{}': wiring as its design gives it", self.robot)
        } else {
            format!(
                "robot '{}': the design gives no wiring; the simulator's virtual wiring (a real board refuses it)",
                self.robot
            )
        }];
        lines.push(format!(
            "{:<3} {:<24} {:<8} {}",
            "#", "actuator", "kind", "pins and motor"
        ));
        for actuator in &self.actuators {
            lines.push(actuator_line(actuator));
        }
        let b = &self.board;
        let pin = |what: &str, s: &Option<SignalDoc>, meaning: &str| match s {
            Some(s) => format!("{what} GP{} ({} = {meaning})", s.pin, s.active),
            None => format!("no {what}"),
        };
        lines.push(format!(
            "board: {}, {}, {}; inputs debounced over {}; {}",
            pin("ENABLE", &b.enable, "drivers on"),
            pin("e-stop", &b.estop, "stop"),
            pin("start button", &b.button, "pressed"),
            cubed_core::words::count(b.debounce_samples, "sample", "samples"),
            match (b.idle_disable_ms, &b.enable) {
                (_, None) => "no ENABLE pin: the drivers stay on, and a fault or the e-stop cannot switch them off".to_string(),
                (0, _) => "drivers stay on while idle".to_string(),
                (ms, _) => format!("drivers off after {ms} ms idle (then homed again)"),
            }
        ));
        lines
    }
}

fn actuator_line(actuator: &ActuatorDoc) -> String {
    let (index, name, kind, detail) = match actuator {
        ActuatorDoc::Servo {
            index,
            name,
            pin,
            open_us,
            closed_us,
            travel_ms,
        } => (
            index,
            name,
            "servo",
            format!("signal GP{pin}; open {open_us} µs, closed {closed_us} µs, {travel_ms} ms end to end"),
        ),
        ActuatorDoc::Stepper {
            index,
            name,
            step,
            dir,
            invert_dir,
            microsteps_per_rev,
            driver_microsteps,
            max_deg_s,
            accel_deg_s2,
            home,
            stall,
            planned_ms,
            ..
        } => {
            // Without a sensor, homing returns to where the motor stood when the firmware took
            // the wiring: a flipper's cam must stand at rest then, or every flip is off.
            let unsensed = match planned_ms {
                PlannedMs::Flip { .. } => "no home sensor: homes to where it stood at connect, so leave the flipper at rest at every power-up",
                PlannedMs::Turns { .. } => "no home sensor: homes to where it stood at connect",
            };
            let home = home.as_ref().map_or(unsensed.to_string(), |h| {
                let offset = match h.offset_steps {
                    0 => String::new(),
                    steps => format!(", home {steps:+} microsteps past it"),
                };
                format!(
                    "home GP{} ({} {}, seek {} at {}°/s{offset})",
                    h.pin, h.sensor, h.active, h.seek, h.seek_deg_s
                )
            });
            let stall = stall
                .as_ref()
                .map_or(String::new(), |s| format!(", stall GP{} ({})", s.pin, s.active));
            let inverted = if *invert_dir { " (inverted)" } else { "" };
            let planned = match planned_ms {
                PlannedMs::Turns { quarter, half } => {
                    format!("planned {quarter} ms a quarter turn, {half} ms a half")
                }
                PlannedMs::Flip { flip } => format!("planned {flip} ms a flip"),
            };
            (
                index,
                name,
                "stepper",
                format!(
                    "STEP GP{step}, DIR GP{dir}{inverted}, {home}{stall}; {microsteps_per_rev} microsteps/rev (driver set to {driver_microsteps}), {max_deg_s}°/s, {accel_deg_s2}°/s²; {planned}"
                ),
            )
        }
        ActuatorDoc::Fixed { index, name } => (index, name, "fixed", "no motor (it never turns)".into()),
    };
    format!("{index:<3} {name:<24} {kind:<8} {detail}")
}
