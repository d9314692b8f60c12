//! The robot's hardware comes from the host at connect: applied whole with the
//! `Configure` after it, or refused whole naming the actuator and key, never half.

use crate::rig::{four_arm_configure, machine_of, Rig};
use cubed_firmware::examples::{four_arm, jaw, rotation, EXAMPLE_CHIP};
use cubed_firmware::{Actuator, Chip, ConfigRefusal, Machine};
use firmware_protocol::message::{FirmwareState, SetupKey};
use firmware_protocol::Message;

/// A chip like the Pico: GPIO 0..=29, 23–25 and 29 its own, 15 000 steps/s.
static SMALL_CHIP: Chip = Chip {
    gpio_count: 30,
    reserved_pins: (1 << 23) | (1 << 24) | (1 << 25) | (1 << 29),
    max_step_rate: 15_000,
    pwm_outputs: 16,
    ..EXAMPLE_CHIP
};

/// Sets up `machine` on a fresh rig of `chip` and returns what the firmware said.
fn refusal_of(chip: &'static Chip, machine: Machine) -> (Rig, Option<ConfigRefusal>) {
    let mut rig = Rig::with_chip(chip, machine);
    let count = machine.actuators.len();
    let configure = four_arm_configure(150, 250).actuators[..count].to_vec();
    rig.handshake(firmware_protocol::message::Configure::new(&configure).expect("fits"));
    let refusal = rig.received.iter().find_map(|(_, m)| match m {
        Message::ConfigureRefused { refusal, .. } => Some(*refusal),
        _ => None,
    });
    (rig, refusal)
}

#[test]
fn a_machine_is_applied_once_with_its_configure_and_wires_the_pins_before_moving() {
    let mut rig = Rig::new(four_arm());
    rig.ready();
    assert_eq!(
        rig.hw.applied,
        vec![four_arm()],
        "wired once, before homing"
    );
    assert_eq!(rig.fw.machine(), &four_arm());
    // The same machine again: accepted, nothing to rewire.
    rig.handshake(four_arm_configure(150, 250));
    rig.poll();
    assert_eq!(rig.fw.state(), FirmwareState::Unhomed, "configured again");
    assert_eq!(rig.hw.applied.len(), 1);
}

#[test]
fn a_machine_wired_differently_is_rewired_and_must_be_homed_again() {
    let mut rig = Rig::new(four_arm());
    rig.ready();
    let mut other = four_arm();
    other.board.idle_disable_ms = 1_000;
    rig.machine = other;
    rig.handshake(four_arm_configure(150, 250));
    rig.poll();
    assert_eq!(rig.hw.applied.last(), Some(&other));
    assert_eq!(rig.fw.state(), FirmwareState::Unhomed);
}

#[test]
fn a_pin_used_twice_is_refused_naming_both_users() {
    let mut machine = four_arm();
    if let Some(Actuator::Stepper(s)) = machine.actuators.get(3).copied() {
        let clash = Actuator::Stepper(firmware_protocol::message::Stepper { dir_pin: 12, ..s });
        machine.actuators = firmware_protocol::FixedList::from_slice(
            &[&machine.actuators[..3], &[clash], &machine.actuators[4..]].concat(),
            "actuators",
        )
        .expect("eight");
    }
    let (rig, refusal) = refusal_of(&EXAMPLE_CHIP, machine);
    assert_eq!(
        refusal,
        Some(ConfigRefusal::PinTaken {
            actuator: Some(3),
            key: SetupKey::DirPin,
            pin: 12,
            by_actuator: Some(1),
            by_key: SetupKey::StepPin,
        })
    );
    assert_eq!(
        rig.fw.state(),
        FirmwareState::Unconfigured,
        "nothing applied"
    );
    assert!(rig.hw.applied.is_empty());
}

#[test]
fn pins_the_chip_lacks_or_keeps_are_refused() {
    let missing = machine_of(&[Actuator::Servo(jaw(30))]);
    assert_eq!(
        refusal_of(&SMALL_CHIP, missing).1,
        Some(ConfigRefusal::NoSuchPin {
            actuator: Some(0),
            key: SetupKey::ServoPin,
            pin: 30,
            pins: 30,
        })
    );
    let mut kept = machine_of(&[Actuator::Servo(jaw(20))]);
    kept.board.button = Some(cubed_firmware::Signal {
        pin: 25,
        active_high: false,
    });
    assert_eq!(
        refusal_of(&SMALL_CHIP, kept).1,
        Some(ConfigRefusal::PinReserved {
            actuator: None,
            key: SetupKey::Button,
            pin: 25,
        })
    );
}

#[test]
fn two_servos_on_one_pwm_output_are_refused() {
    let machine = machine_of(&[Actuator::Servo(jaw(0)), Actuator::Servo(jaw(16))]);
    assert_eq!(
        refusal_of(&SMALL_CHIP, machine).1,
        Some(ConfigRefusal::PwmShared {
            actuator: 1,
            pin: 16,
            by_actuator: 0,
            by_pin: 0,
        })
    );
    // GP17 has its own output (the second servo's configuration is then what is wrong).
    let apart = machine_of(&[Actuator::Servo(jaw(0)), Actuator::Servo(jaw(17))]);
    assert_eq!(
        refusal_of(&SMALL_CHIP, apart).1,
        Some(ConfigRefusal::WrongKind { actuator: 1 })
    );
}

#[test]
fn a_top_speed_beyond_the_step_generator_is_refused_in_degrees() {
    // 15 000 steps/s at 1600 microsteps per revolution is 3375 °/s.
    let mut fast = rotation(12, 0);
    fast.max_deg_s = 3376;
    let (_, refusal) = refusal_of(
        &SMALL_CHIP,
        machine_of(&[Actuator::Servo(jaw(20)), Actuator::Stepper(fast)]),
    );
    assert_eq!(
        refusal,
        Some(ConfigRefusal::OutOfRange {
            actuator: Some(1),
            key: SetupKey::MaxDegS,
            value: 3376,
            min: 1,
            max: 3375,
        })
    );
    fast.max_deg_s = 3375;
    let (rig, refusal) = refusal_of(
        &SMALL_CHIP,
        machine_of(&[Actuator::Servo(jaw(20)), Actuator::Stepper(fast)]),
    );
    assert_eq!(refusal, None);
    assert_eq!(rig.fw.state(), FirmwareState::Unhomed);
}

#[test]
fn a_configure_without_its_setup_is_refused_and_a_refused_setup_keeps_the_old_machine() {
    let mut rig = Rig::new(four_arm());
    rig.send(Message::Hello {
        protocol_version: firmware_protocol::PROTOCOL_VERSION,
    });
    rig.send(Message::Configure(four_arm_configure(150, 250)));
    assert_eq!(
        rig.fw.last_refusal(),
        Some(ConfigRefusal::NotSetUp { actuator: None })
    );
    rig.ready();
    let mut bad = four_arm();
    bad.board.debounce_samples = 0;
    rig.machine = bad;
    rig.handshake(four_arm_configure(150, 250));
    assert_eq!(
        rig.fw.last_refusal(),
        Some(ConfigRefusal::OutOfRange {
            actuator: None,
            key: SetupKey::DebounceSamples,
            value: 0,
            min: 1,
            max: 255,
        })
    );
    assert_eq!(rig.fw.machine(), &four_arm(), "the old machine stays");
    assert_eq!(rig.hw.applied.len(), 1);
}

#[test]
fn a_wired_stall_output_stops_a_moving_stepper_with_a_stall_fault() {
    let mut machine = four_arm();
    let stall_pin = 24;
    let mut actuators = machine.actuators.to_vec();
    if let Actuator::Stepper(s) = &mut actuators[1] {
        s.stall = Some(cubed_firmware::Signal {
            pin: stall_pin,
            active_high: true,
        });
    }
    machine.actuators = firmware_protocol::FixedList::from_slice(&actuators, "a").expect("8");
    // Steps handed 20 ms ahead, as to a timer's queue: the stall must take them back.
    static AHEAD: Chip = Chip {
        step_lead_us: 20_000,
        ..EXAMPLE_CHIP
    };
    let mut rig = Rig::with_chip(&AHEAD, machine);
    rig.ready();
    // Not moving: a DIAG pulse means nothing.
    rig.fw.set_input(stall_pin, true);
    rig.poll();
    rig.fw.set_input(stall_pin, false);
    assert_eq!(rig.fw.state(), FirmwareState::Idle);
    let start = rig.hw.now;
    rig.send(crate::rig::motion(2, &[crate::rig::rotate(1, 1)]));
    rig.run_until(start + 50_000);
    rig.fw.set_input(stall_pin, true);
    rig.poll();
    assert!(
        rig.has(&Message::Event(firmware_protocol::message::Event::Fault(
            firmware_protocol::message::Fault::Stall { actuator: 1 }
        )))
    );
    assert_eq!(rig.fw.state(), FirmwareState::Faulted);
    let steps = rig.steps(1, start, u64::MAX).len();
    rig.run_until(rig.hw.now + 200_000);
    assert_eq!(
        rig.steps(1, start, u64::MAX).len(),
        steps,
        "no step after the stall"
    );
}
