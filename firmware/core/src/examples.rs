//! Example boards: the shipped four-arm robot (`config/robots/four-arm.toml`), as the
//! simulator and the tests run it; the Pico board builds its actuators from `JAW` and
//! `rotation`. Real boards describe their own hardware the same way.

use crate::board::{Actuator, BoardConfig, HomeSensor, Input, SensorKind, Servo, Stepper};

/// A hobby servo jaw: 1000 µs open, 2000 µs closed, 100 ms end to end.
pub const JAW: Servo = Servo {
    open_us: 1000,
    closed_us: 2000,
    travel_ms: 100,
};

/// A gripper rotation: 1.8° motor, 8 microsteps, direct drive, 3 rev/s, 50 rev/s²,
/// a hall sensor at home on input `input`.
pub const fn rotation(input: u8) -> Stepper {
    Stepper {
        full_steps_per_rev: 200,
        microsteps: 8,
        gear_num: 1,
        gear_den: 1,
        units_per_rev: 4,
        max_deg_s: 1080,
        accel_deg_s2: 18_000,
        invert_dir: false,
        home: Some(HomeSensor {
            input: Input {
                index: input,
                active_high: false,
            },
            kind: SensorKind::Hall,
            seek_positive: true,
            seek_deg_s: 180,
            approach_deg_s: 30,
            backoff_deg: 20,
            max_seek_deg: 400,
            offset_steps: 0,
        }),
    }
}

/// Four grippers (left, right, front, back), each a jaw servo then a rotation stepper,
/// in the host's actuator order; hall sensors on inputs 0..=3, e-stop on input 8, the
/// start button on input 9 (all active low, as with pull-ups).
pub const FOUR_ARM: BoardConfig = BoardConfig {
    name: "cubed-fw",
    version: (0, 2, 0),
    actuators: &[
        Actuator::Servo(JAW),
        Actuator::Stepper(rotation(0)),
        Actuator::Servo(JAW),
        Actuator::Stepper(rotation(1)),
        Actuator::Servo(JAW),
        Actuator::Stepper(rotation(2)),
        Actuator::Servo(JAW),
        Actuator::Stepper(rotation(3)),
    ],
    estop: Some(Input {
        index: 8,
        active_high: false,
    }),
    button: Some(Input {
        index: 9,
        active_high: false,
    }),
    // The simulator and the tests set inputs when they change, not once a sample.
    debounce_samples: 1,
    idle_disable_ms: 0,
    step_lead_us: 0,
};

const _: () = assert!(FOUR_ARM.check().is_ok(), "FOUR_ARM is a valid board");
