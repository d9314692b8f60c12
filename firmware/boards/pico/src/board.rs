//! THE FILE TO EDIT for your robot: which GPIO drives what, and the mechanics of each
//! actuator. The order of `ACTUATORS` (and `PINS`) must be the host's actuator order:
//! for each gripper of the robot design its jaw (if any) then its rotation, then each
//! flipper. This file describes the shipped four-arm design
//! (config/robots/four-arm.toml: left, right, front, back).
//!
//! A value out of range stops the build with the key's name (`BOARD.check()` below); a
//! missing key is a compile error naming the field. Wiring: firmware/boards/pico/README.md.

use cubed_firmware::examples::{rotation, JAW};
use cubed_firmware::{Actuator, BoardConfig, Input};

// The jaws are MG90S-class hobby servos: 1000 µs open, 2000 µs closed, 100 ms end to end
// (the design's open_ms/close_ms must be at least that). The rotations are NEMA17 1.8°
// motors (200 full steps) at 8 microsteps (A4988: MS1+MS2 high; TMC2209: MS1 and MS2
// low), direct drive, 1080°/s and 18000°/s², so a quarter turn takes 143 ms and a half
// turn 227 ms (the design asks 150 ms and 250 ms); each has an A3144-style hall switch
// (open collector, low when the magnet is near) and homes by seeking it positively.
// Both come from `cubed_firmware::examples`, which the tests and the simulator share.

/// The robot: actuator i here is actuator i of the host's `Configure`.
pub const BOARD: BoardConfig = BoardConfig {
    name: "cubed-fw-pico",
    version: (0, 2, 0),
    actuators: &[
        Actuator::Servo(JAW),            // 0 left jaw
        Actuator::Stepper(rotation(11)), // 1 left rotation, hall on GP11
        Actuator::Servo(JAW),            // 2 right jaw
        Actuator::Stepper(rotation(12)), // 3 right rotation, hall on GP12
        Actuator::Servo(JAW),            // 4 front jaw
        Actuator::Stepper(rotation(13)), // 5 front rotation, hall on GP13
        Actuator::Servo(JAW),            // 6 back jaw
        Actuator::Stepper(rotation(14)), // 7 back rotation, hall on GP14
    ],
    // A normally closed mushroom switch between GP15 and GND, the pin pulled up: closed
    // reads low and the robot runs; pressed, or a broken wire, reads high and stops it.
    estop: Some(Input {
        index: 15,
        active_high: true,
    }),
    // Start button between GP20 and GND.
    button: Some(Input {
        index: 20,
        active_high: false,
    }),
    // Inputs are sampled once a main-loop pass (tens of µs): 4 in a row, about 0.2 ms,
    // keep a bouncing button from pressing twice and one noisy sample from ending a seek.
    debounce_samples: 4,
    // 0: the drivers stay on between programs (the host does not yet re-home a board
    // that switched them off for idleness).
    idle_disable_ms: 0,
    // Ramp steps are handed to the timer's queue this far ahead (steps.rs): far more
    // than the main loop's slowest pass, and 10 steps at top speed (the queue holds 32).
    step_lead_us: 2_000,
};

/// Which GPIO each actuator uses, in the same order as `BOARD.actuators`.
pub enum ChannelPins {
    /// Step and direction inputs of a step-stick driver.
    Stepper { step: u8, dir: u8 },
    /// A servo's signal wire (any GPIO: each has a PWM channel).
    Servo { pwm: u8 },
}

pub const PINS: [ChannelPins; 8] = [
    ChannelPins::Servo { pwm: 16 },
    ChannelPins::Stepper { step: 2, dir: 3 },
    ChannelPins::Servo { pwm: 17 },
    ChannelPins::Stepper { step: 4, dir: 5 },
    ChannelPins::Servo { pwm: 18 },
    ChannelPins::Stepper { step: 6, dir: 7 },
    ChannelPins::Servo { pwm: 19 },
    ChannelPins::Stepper { step: 8, dir: 9 },
];

/// The drivers' shared ENABLE pin (active low on A4988 and TMC2209), if wired.
pub const ENABLE_PIN: Option<u8> = Some(10);

const _: () = match BOARD.check() {
    Ok(()) => {}
    Err(error) => panic!("{}", error.key),
};
const _: () = {
    assert!(
        PINS.len() == BOARD.actuators.len(),
        "PINS needs one entry per actuator"
    );
    let mut i = 0;
    while i < PINS.len() {
        let matches = matches!(
            (&PINS[i], &BOARD.actuators[i]),
            (ChannelPins::Stepper { .. }, Actuator::Stepper(_))
                | (ChannelPins::Servo { .. }, Actuator::Servo(_))
        );
        assert!(
            matches,
            "PINS[i] must be Stepper for a stepper actuator and Servo for a servo"
        );
        i += 1;
    }
};
