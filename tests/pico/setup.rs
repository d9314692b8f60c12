//! The machine the host sends the Pico firmware as built: what its chip offers
//! (`BoardInfo`), a machine it cannot drive refused in words with nothing moved, and a
//! driver's stall output, wired by the design, stopping the motors (pin in, pins out,
//! with their emulated times).

use super::safety::wait_until_stepping;
use super::session::{four_arm_pico, four_rotations, home, next, open_with, run_all, FourArmPico};
use crate::common::runtime;
use cubed::link::{LinkError, LinkEvent, LinkSettings};
use cubed::robot::wiring::RobotSetup;
use cubed_firmware::{Actuator, Signal};
use firmware_protocol::message::{ConfigRefusal, Fault, FirmwareState, SetupKey};

/// The four-arm design's setup with actuator `index` changed by `change`.
fn changed(
    map: &cubed::robot::ActuatorMap,
    index: usize,
    change: impl FnOnce(&mut Actuator),
) -> RobotSetup {
    let mut setup =
        RobotSetup::for_design(&crate::common::four_arm(), map).expect("the design is wired");
    let mut actuators = setup.machine.actuators.to_vec();
    change(&mut actuators[index]);
    setup.machine.actuators =
        firmware_protocol::FixedList::from_slice(&actuators, "actuators").expect("eight");
    setup
}

#[test]
fn the_pico_says_what_its_chip_offers_and_refuses_a_pin_it_keeps_moving_nothing() {
    let Some(FourArmPico {
        pico, machine, map, ..
    }) = four_arm_pico("the machine refused by the emulated Pico", 11)
    else {
        return;
    };
    runtime().block_on(async {
        // The left jaw's servo on GP25, the Pico's LED.
        let setup = changed(&map, 0, |jaw| {
            if let Actuator::Servo(servo) = jaw {
                servo.pin = 25;
            }
        });
        let names = cubed::link::fault_words::actuator_names(&map, &crate::common::four_arm());
        let settings = LinkSettings {
            actuator_names: names,
            ..LinkSettings::default()
        };
        let refused = open_with(&pico, setup, settings.clone()).await;
        let Err(error) = refused else {
            panic!("a servo on the LED's pin must be refused");
        };
        assert!(
            matches!(
                error,
                LinkError::ConfigureRefused {
                    refusal: ConfigRefusal::PinReserved {
                        actuator: Some(0),
                        key: SetupKey::ServoPin,
                        pin: 25
                    },
                    ..
                }
            ),
            "{error:?}"
        );
        let words = error.to_string();
        assert!(words.contains("wiring jaw is pin 25"), "{words}");
        let trace = pico.trace();
        assert!(
            trace.outputs.is_empty() && trace.servo_pulses.is_empty(),
            "nothing driven: {} edges, {} servo pulses",
            trace.outputs.len(),
            trace.servo_pulses.len()
        );
        // The design as shipped is taken, and the chip said what it offers.
        let setup =
            RobotSetup::for_design(&crate::common::four_arm(), &map).expect("the design is wired");
        let link = open_with(&pico, setup, settings).await.expect("accepted");
        let chip = link.connected.chip.expect("BoardInfo before the configuration");
        assert_eq!(chip.gpio_count, 30);
        assert_eq!(chip.reserved_pins, (1 << 23) | (1 << 24) | (1 << 25) | (1 << 29));
        let top = machine.steppers[0].microsteps_per_rev as u32 * 900 / 360;
        assert!(chip.max_step_rate >= top, "{} steps/s", chip.max_step_rate);
        eprintln!(
            "emulated Pico: BoardInfo {} GPIOs, reserved {:#010x}, {} steps/s per stepper, {} µs lead",
            chip.gpio_count, chip.reserved_pins, chip.max_step_rate, chip.step_lead_us
        );
        link.shutdown().await;
    });
}

#[test]
fn a_wired_stall_output_stops_every_stepper_and_switches_the_drivers_off() {
    let Some(FourArmPico {
        pico, machine, map, ..
    }) = four_arm_pico("a stall on the emulated Pico", 13)
    else {
        return;
    };
    const DIAG: u8 = 21;
    runtime().block_on(async {
        // A TMC2209's DIAG (push-pull, active high) on GP21 for the left rotation.
        pico.set_pin(DIAG, false);
        let setup = changed(&map, 1, |rotation| {
            if let Actuator::Stepper(stepper) = rotation {
                stepper.stall = Some(Signal {
                    pin: DIAG,
                    active_high: true,
                });
            }
        });
        let mut link = open_with(&pico, setup, LinkSettings::default())
            .await
            .expect("accepted");
        run_all(&mut link, &[home(&map, 1)]).await;
        for i in 0..8 {
            link.send(four_rotations(2 + i, if i % 2 == 0 { 1 } else { -1 }))
                .expect("queued");
        }
        wait_until_stepping(&pico, &machine).await;
        pico.set_pin(DIAG, true);
        loop {
            match next(&mut link, 60).await {
                LinkEvent::Fault(Fault::Stall { actuator }) => {
                    assert_eq!(actuator, 1, "the left rotation");
                    break;
                }
                LinkEvent::MoveDone { .. } => {}
                other => panic!("expected the stall, got {other:?}"),
            }
        }
        assert_eq!(
            link.status().await.expect("status").state,
            FirmwareState::Faulted
        );
        let trace = pico.trace();
        let raised = trace.input_set(DIAG, true, 0).expect("DIAG raised");
        let last = trace.last_step_ns(&machine).expect("steps");
        let off = trace
            .enable_off_since(&machine, raised)
            .expect("ENABLE off after the stall");
        eprintln!(
            "emulated Pico: stall pin to last STEP edge {:+.1} µs, to ENABLE off {:.1} µs",
            (last as f64 - raised as f64) / 1e3,
            (off - raised) as f64 / 1e3,
        );
        assert!(off < raised + 1_000_000, "ENABLE off within 1 ms of DIAG");
        assert!(last < raised + 1_000_000, "no step 1 ms after DIAG");
        link.shutdown().await;
    });
}
