//! The simulated hardware the firmware core drives: steppers that count step edges with
//! their direction (the motor's angle), hobby servos (a pulse width sends the jaw to a side
//! over its travel time), and hall sensors whose level follows the motor angle past a magnet.
//! A stalled motor loses the steps it is sent, as a real one does.

use cubed_firmware::{Actuator, Machine, Pins, Servo, Stepper};

/// What the firmware did to the hardware, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PinEvent {
    /// A step edge the motor took (not sent while stalled).
    Step { actuator: u8, positive: bool },
    /// A servo was sent to a side.
    Jaw { actuator: u8, closed: bool },
}

#[derive(Debug, Clone)]
struct Motor {
    spec: Stepper,
    /// Microsteps from the angle the motor had at power-on (the magnet).
    steps: i64,
    positive: bool,
    stalled: bool,
}

#[derive(Debug, Clone)]
struct Jaw {
    spec: Servo,
    closed: bool,
    moving_until: u64,
    /// How long the jaw really takes to open and to close, ms (the servo's travel unless
    /// the machine says otherwise).
    open_ms: u16,
    close_ms: u16,
}

#[derive(Debug, Clone)]
enum Part {
    Motor(Motor),
    Jaw(Jaw),
    /// A gripper that never turns: nothing to drive.
    Fixed,
}

/// Every motor and servo of the board, and what happened since the last look.
#[derive(Debug, Clone)]
pub(crate) struct SimHardware {
    /// The firmware's time, µs: stamps servo travel.
    pub now_us: u64,
    parts: Vec<Part>,
    events: Vec<PinEvent>,
}

impl SimHardware {
    /// The hardware at power-on: every motor at its magnet, every jaw closed on the cube.
    pub(crate) fn new(machine: &Machine) -> SimHardware {
        let parts = machine
            .actuators
            .iter()
            .map(|actuator| match *actuator {
                Actuator::Stepper(spec) => Part::Motor(Motor {
                    spec,
                    steps: 0,
                    positive: true,
                    stalled: false,
                }),
                Actuator::Fixed => Part::Fixed,
                Actuator::Servo(spec) => Part::Jaw(Jaw {
                    spec,
                    closed: true,
                    moving_until: 0,
                    open_ms: spec.travel_ms,
                    close_ms: spec.travel_ms,
                }),
            })
            .collect();
        SimHardware {
            now_us: 0,
            parts,
            events: Vec::new(),
        }
    }

    /// What happened since the last call.
    pub(crate) fn take_events(&mut self) -> Vec<PinEvent> {
        std::mem::take(&mut self.events)
    }

    /// A motor's angle in microsteps since power-on.
    pub(crate) fn motor_steps(&self, actuator: usize) -> Option<i64> {
        match self.parts.get(actuator)? {
            Part::Motor(motor) => Some(motor.steps),
            Part::Jaw(_) | Part::Fixed => None,
        }
    }

    /// Microsteps per output revolution and position units per revolution of a motor.
    pub(crate) fn motor_scale(&self, actuator: usize) -> Option<(i64, i64)> {
        match self.parts.get(actuator)? {
            Part::Motor(motor) => Some((
                motor.spec.steps_per_rev() as i64,
                i64::from(motor.spec.units_per_rev),
            )),
            Part::Jaw(_) | Part::Fixed => None,
        }
    }

    /// The side a travelling jaw is heading for, if it is still travelling at `now_us`.
    pub(crate) fn jaw_travelling(&self, actuator: usize, now_us: u64) -> Option<bool> {
        match self.parts.get(actuator)? {
            Part::Jaw(jaw) if jaw.moving_until > now_us => Some(jaw.closed),
            _ => None,
        }
    }

    /// How long jaw `actuator` really takes to open and to close (a jaw slower one way).
    pub(crate) fn set_jaw_times(&mut self, actuator: usize, open_ms: u16, close_ms: u16) {
        if let Some(Part::Jaw(jaw)) = self.parts.get_mut(actuator) {
            jaw.open_ms = open_ms;
            jaw.close_ms = close_ms;
        }
    }

    /// Blocks a motor (it loses every step until released) or frees it.
    pub(crate) fn set_stalled(&mut self, actuator: usize, stalled: bool) {
        if let Some(Part::Motor(motor)) = self.parts.get_mut(actuator) {
            motor.stalled = stalled;
        }
    }

    /// Frees every motor.
    pub(crate) fn release_all(&mut self) {
        for index in 0..self.parts.len() {
            self.set_stalled(index, false);
        }
    }

    /// Each home sensor's input index and pin level now: active within a degree past the
    /// magnet (the angle the motor had at power-on) in the seek direction.
    pub(crate) fn sensor_levels(&self) -> impl Iterator<Item = (u8, bool)> + '_ {
        self.parts.iter().filter_map(|part| {
            let Part::Motor(motor) = part else {
                return None;
            };
            let home = motor.spec.home?;
            let per_rev = motor.spec.steps_per_rev() as i64;
            let window = (per_rev / 360).max(1);
            let past = if home.seek_positive {
                motor.steps.rem_euclid(per_rev)
            } else {
                (-motor.steps).rem_euclid(per_rev)
            };
            let active = past < window;
            Some((home.input.pin, active == home.input.active_high))
        })
    }
}

impl Pins for SimHardware {
    fn set_enable(&mut self, _actuator: u8, _enabled: bool) {}

    fn set_dir(&mut self, actuator: u8, high: bool) {
        if let Some(Part::Motor(motor)) = self.parts.get_mut(usize::from(actuator)) {
            motor.positive = high != motor.spec.invert_dir;
        }
    }

    fn step(&mut self, actuator: u8, _at_us: u64) {
        if let Some(Part::Motor(motor)) = self.parts.get_mut(usize::from(actuator)) {
            if motor.stalled {
                return;
            }
            motor.steps += if motor.positive { 1 } else { -1 };
            self.events.push(PinEvent::Step {
                actuator,
                positive: motor.positive,
            });
        }
    }

    fn set_servo(&mut self, actuator: u8, pulse_us: u16) {
        let now = self.now_us;
        if let Some(Part::Jaw(jaw)) = self.parts.get_mut(usize::from(actuator)) {
            jaw.closed = pulse_us == jaw.spec.closed_us;
            let travel_ms = if jaw.closed {
                jaw.close_ms
            } else {
                jaw.open_ms
            };
            jaw.moving_until = now + u64::from(travel_ms) * 1000;
            self.events.push(PinEvent::Jaw {
                actuator,
                closed: jaw.closed,
            });
        }
    }
}
