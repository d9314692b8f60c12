//! Example hardware: a chip that offers everything, and the shipped four-arm robot
//! (`config/robots/four-arm.toml`'s grippers) wired to it, as the core's tests run it.
//! Real robots describe their hardware in their design file; the host sends it.

use crate::board::Chip;
use firmware_protocol::message::{
    Actuator, BoardSetup, HomeSensor, Machine, SensorKind, Servo, Signal, Stepper,
};
use firmware_protocol::FixedList;

/// A chip with 32 GPIOs, none kept, a step generator up to 200 000 steps/s, pulsing
/// each step as it comes due.
pub const EXAMPLE_CHIP: Chip = Chip {
    name: "cubed-fw",
    version: (0, 3, 0),
    gpio_count: 32,
    reserved_pins: 0,
    max_step_rate: 200_000,
    pwm_outputs: 0,
    step_lead_us: 0,
};

/// A hobby servo jaw on `pin`: 1000 µs open, 2000 µs closed, 100 ms end to end.
pub const fn jaw(pin: u8) -> Servo {
    Servo {
        pin,
        open_us: 1000,
        closed_us: 2000,
        travel_ms: 100,
    }
}

/// A gripper rotation: 1.8° motor, 8 microsteps, direct drive, 3 rev/s, 50 rev/s², a
/// hall sensor at home on `home_pin` (active low), STEP and DIR on `step_pin` and the
/// next pin.
pub const fn rotation(step_pin: u8, home_pin: u8) -> Stepper {
    Stepper {
        step_pin,
        dir_pin: step_pin + 1,
        full_steps_per_rev: 200,
        microsteps: 8,
        gear_num: 1,
        gear_den: 1,
        units_per_rev: 4,
        max_deg_s: 1080,
        accel_deg_s2: 18_000,
        invert_dir: false,
        home: Some(HomeSensor {
            input: Signal {
                pin: home_pin,
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
        stall: None,
    }
}

/// Four grippers (left, right, front, back), each a jaw servo then a rotation stepper,
/// in the host's actuator order: hall sensors on pins 0..=3, the e-stop on 8 and the
/// start button on 9 (all active low, as with pull-ups), drivers' ENABLE on 10 (active
/// low), rotations' STEP/DIR on 12/13 … 18/19, jaws on 20..=23. Inputs taken at every
/// sample (the tests set them as they change).
pub fn four_arm() -> Machine {
    let actuators = [
        Actuator::Servo(jaw(20)),
        Actuator::Stepper(rotation(12, 0)),
        Actuator::Servo(jaw(21)),
        Actuator::Stepper(rotation(14, 1)),
        Actuator::Servo(jaw(22)),
        Actuator::Stepper(rotation(16, 2)),
        Actuator::Servo(jaw(23)),
        Actuator::Stepper(rotation(18, 3)),
    ];
    let low = |pin| {
        Some(Signal {
            pin,
            active_high: false,
        })
    };
    Machine {
        board: BoardSetup {
            actuators: actuators.len() as u8,
            enable: low(10),
            estop: low(8),
            button: low(9),
            debounce_samples: 1,
            idle_disable_ms: 0,
        },
        actuators: FixedList::from_slice(&actuators, "actuators").unwrap_or_default(),
    }
}
