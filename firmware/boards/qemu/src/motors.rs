//! Simulated motors for the emulated board: each stepper's physical angle follows the
//! step and direction pins, and a magnet near its zero angle drives the hall-sensor
//! input. Each motor starts at a different angle, so homing really seeks.

use cubed_firmware::{Actuator, BoardConfig, Firmware, Pins};

const MAX: usize = 12;
/// The magnet covers this many output degrees either side of the home angle.
const MAGNET_HALF_WIDTH_DEG: i64 = 4;

pub struct SimMotors {
    board: &'static BoardConfig,
    angle_steps: [i64; MAX],
    dir_high: [bool; MAX],
}

impl SimMotors {
    pub fn new(board: &'static BoardConfig) -> Self {
        let mut angle_steps = [0i64; MAX];
        for (i, angle) in angle_steps.iter_mut().enumerate() {
            // Arbitrary power-on angles: 37°, 74°, … of the output shaft.
            *angle = steps_per_rev(board, i) * 37 * (i as i64 + 1) / 360;
        }
        SimMotors {
            board,
            angle_steps,
            dir_high: [false; MAX],
        }
    }

    /// Sets each home-sensor input from its motor's angle.
    pub fn report_sensors(&self, firmware: &mut Firmware<'static>) {
        for (i, actuator) in self.board.actuators.iter().enumerate() {
            let Actuator::Stepper(stepper) = actuator else {
                continue;
            };
            let Some(home) = stepper.home else {
                continue;
            };
            let rev = steps_per_rev(self.board, i).max(1);
            let window = rev * MAGNET_HALF_WIDTH_DEG / 360;
            let angle = self.angle_steps[i].rem_euclid(rev);
            let active = angle <= window || angle >= rev - window;
            firmware.set_input(home.input.index, active == home.input.active_high);
        }
    }
}

fn steps_per_rev(board: &BoardConfig, i: usize) -> i64 {
    match board.actuators.get(i) {
        Some(Actuator::Stepper(stepper)) => stepper.steps_per_rev() as i64,
        _ => 1,
    }
}

impl Pins for SimMotors {
    fn set_enable(&mut self, _actuator: u8, _enabled: bool) {}

    fn set_dir(&mut self, actuator: u8, high: bool) {
        if let Some(dir) = self.dir_high.get_mut(usize::from(actuator)) {
            *dir = high;
        }
    }

    fn step(&mut self, actuator: u8) {
        let i = usize::from(actuator);
        if let (Some(angle), Some(&high)) = (self.angle_steps.get_mut(i), self.dir_high.get(i)) {
            *angle += if high { 1 } else { -1 };
        }
    }

    fn set_servo(&mut self, _actuator: u8, _pulse_us: u16) {}
}
