//! Handshakes the link refuses, saying why: a machine the firmware refuses (naming both users of a pin) and a version-1 firmware (saying what to flash).

use crate::common::{four_arm, runtime};
use cubed::cube::FaceletCube;
use cubed::link::{LinkError, LinkHandle, LinkSettings, SerialConnector, TokioClock};
use cubed::robot::ActuatorMap;
use cubed::sim::faults::FaultPlan;
use cubed::sim::spawn::RunningSim;
use cubed::sim::{PhysicsMechanics, SimFirmware};
use std::sync::Arc;

#[test]
fn link_refuses_a_machine_the_firmware_refuses_naming_both_users_of_a_pin() {
    runtime().block_on(async {
        let model = four_arm();
        let map = ActuatorMap::new(&model).expect("fits");
        let names = cubed::link::fault_words::actuator_names(&map, &model);
        let mechanics = PhysicsMechanics::new(model.clone(), map, &FaceletCube::default());
        let firmware = SimFirmware::new(mechanics, 0.0, 0).expect("the design is a firmware board");
        let sim = RunningSim::start(firmware, FaultPlan::default(), 1)
            .await
            .expect("THIS TEST NEEDS PSEUDO-TERMINALS (/dev/ptmx); none could be opened here");
        // The right rotation's DIR on the left rotation's STEP pin: the design loader
        // refuses that; sent anyway, the firmware must refuse it too, applying nothing.
        let mut setup = crate::common::setup_for(&model);
        let mut actuators = setup.machine.actuators.to_vec();
        let left_step = match actuators[1] {
            cubed_firmware::Actuator::Stepper(s) => s.step_pin,
            other => panic!("actuator 1 is the left rotation, not {other:?}"),
        };
        if let cubed_firmware::Actuator::Stepper(s) = &mut actuators[3] {
            s.dir_pin = left_step;
        }
        setup.machine.actuators =
            firmware_protocol::FixedList::from_slice(&actuators, "actuators").expect("8");
        let connector = Arc::new(SerialConnector::new(sim.path.clone(), 115_200));
        let settings = LinkSettings {
            actuator_names: names,
            ..LinkSettings::default()
        };
        let result = LinkHandle::open(
            connector,
            setup,
            settings,
            Arc::new(TokioClock::new()),
        )
        .await;
        let Err(error) = result else {
            panic!("a machine using one pin twice must be refused");
        };
        assert!(
            matches!(
                error,
                LinkError::ConfigureRefused {
                    refusal: firmware_protocol::message::ConfigRefusal::PinTaken {
                        actuator: Some(3),
                        pin: 2,
                        by_actuator: Some(1),
                        ..
                    },
                    ..
                }
            ),
            "{error:?}"
        );
        let words = error.to_string();
        assert!(
            words.contains("the motor of gripper 'right': wiring dir is pin 2, already used by the motor of gripper 'left' wiring step"),
            "{words}"
        );
        sim.stop().await.expect("sim stops");
    });
}

/// A version-1 firmware's `HelloReply`, exactly as protocol 1 put it on the wire (its
/// golden vector): protocol 1, firmware 0.3.1, queue 8, window 8, "cubed-fw".
const V1_HELLO_REPLY: [u8; 30] = [
    0x02, 0x01, 0x04, 0x05, 0x81, 0x01, 0x0d, 0x03, 0x01, 0x08, 0x08, 0x63, 0x75, 0x62, 0x65, 0x64,
    0x2d, 0x66, 0x77, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x03, 0xad, 0x9e, 0x00,
];

#[test]
fn link_refuses_a_version_1_firmware_and_says_what_to_flash() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    runtime().block_on(async {
        let pty = cubed::sim::pty::open_pty()
            .expect("THIS TEST NEEDS PSEUDO-TERMINALS (/dev/ptmx); none could be opened here");
        let path = pty.path.clone();
        let mut master = pty.master;
        // The old firmware answers every frame the host sends (its Hello) with its reply.
        let old_firmware = tokio::spawn(async move {
            let mut buf = [0u8; 256];
            loop {
                let Ok(n) = master.read(&mut buf).await else {
                    return;
                };
                if n == 0 {
                    return;
                }
                let frames = buf[..n].iter().filter(|&&b| b == 0).count();
                for _ in 0..frames {
                    if master.write_all(&V1_HELLO_REPLY).await.is_err() {
                        return;
                    }
                }
            }
        });
        let connector = Arc::new(SerialConnector::new(cubed::link::FixedPath(path), 115_200));
        let result = LinkHandle::open(
            connector,
            crate::common::setup_for(&four_arm()),
            LinkSettings::default(),
            Arc::new(TokioClock::new()),
        )
        .await;
        old_firmware.abort();
        let Err(error) = result else {
            panic!("a version-1 firmware must be refused");
        };
        assert!(
            matches!(
                error,
                LinkError::VersionMismatch {
                    host: firmware_protocol::PROTOCOL_VERSION,
                    firmware: 1,
                    ..
                }
            ),
            "{error:?}"
        );
        let text = error.to_string();
        assert!(
            text.contains(&format!(
                "speaks protocol 1, this cubed needs {}",
                firmware_protocol::PROTOCOL_VERSION
            )),
            "{text}"
        );
        assert!(
            text.contains("flash the firmware built from this cubed version")
                && text.contains("cubed-fw-pico.uf2"),
            "{text}"
        );
    });
}
