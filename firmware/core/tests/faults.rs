//! E-stop latency, latching, ClearFault and re-homing.

use crate::rig::{motion, rotate, Rig, ALL_EIGHT};
use cubed_firmware::examples::four_arm;
use firmware_protocol::message::{Event, Fault, FirmwareState, NakReason};
use firmware_protocol::Message;
use proptest::prelude::*;

/// Top speed of the example rotations: 4800 microsteps/s.
const STEP_PERIOD_US: u64 = 1_000_000 / 4800;

fn estop_mid_move(after_us: u64, by_switch: bool) -> Rig {
    let mut rig = Rig::new(four_arm());
    rig.ready();
    let start = rig.hw.now;
    rig.send(motion(2, &[rotate(1, 1), rotate(3, -1)]));
    rig.send(motion(3, &[rotate(1, -1)]));
    rig.run_until(start + after_us);
    let stop_at = rig.hw.now;
    if by_switch {
        let input = four_arm().board.estop.expect("board has an e-stop").pin;
        rig.fw.set_input(input, false); // active low: pressed
    } else {
        rig.send(Message::EmergencyStop);
    }
    rig.run_until(stop_at + 1_000_000);
    let late: Vec<_> = rig
        .hw
        .log
        .iter()
        .filter(|(at, e)| *at > stop_at && matches!(e, crate::rig::Edge::Step(_)))
        .collect();
    // No step after the stop at all, which is within one step period.
    assert!(
        late.iter().all(|(at, _)| *at <= stop_at + STEP_PERIOD_US),
        "steps after e-stop: {late:?}"
    );
    assert!(late.is_empty(), "steps after e-stop: {late:?}");
    crate::drivers::assert_drivers_off_since(&rig, stop_at);
    assert_eq!(rig.fw.state(), FirmwareState::EStopped);
    assert!(rig.has(&Message::Event(Event::Fault(Fault::EStopLatched))));
    assert!(rig.done_at(3).is_none(), "the queued motion was flushed");
    rig
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn estop_stops_steps_within_one_step_period(after_us in 1u64..140_000, by_switch: bool) {
        estop_mid_move(after_us, by_switch);
    }
}

#[test]
fn after_an_estop_clear_fault_and_home_run_a_second_program() {
    let mut rig = estop_mid_move(70_000, false);
    rig.send(motion(4, &[rotate(1, 1)]));
    assert!(rig.received.iter().any(|(_, m)| matches!(
        m,
        Message::Nak {
            reason: NakReason::EStopLatched,
            ..
        }
    )));
    rig.send(Message::ClearFault);
    assert_eq!(rig.fw.state(), FirmwareState::Unhomed);
    rig.send(Message::Home {
        move_id: 5,
        mask: ALL_EIGHT,
    });
    assert!(rig.run_until_done(5, 5_000_000).is_some(), "re-homed");
    assert_eq!(rig.fw.position(1), Some(0));
    rig.send(motion(6, &[rotate(1, 1), rotate(3, 1)]));
    assert!(rig.run_until_done(6, 1_000_000).is_some());
    assert_eq!(rig.fw.position(3), Some(1));
}

#[test]
fn clear_fault_is_refused_while_the_switch_is_pressed() {
    let mut rig = estop_mid_move(10_000, true);
    rig.send(Message::ClearFault);
    assert!(rig.received.iter().any(|(_, m)| matches!(
        m,
        Message::Nak {
            reason: NakReason::BadState,
            ..
        }
    )));
    assert_eq!(rig.fw.state(), FirmwareState::EStopped);
    assert_eq!(reported_estop_held(&mut rig), Some(true));
    let input = four_arm().board.estop.expect("e-stop").pin;
    rig.fw.set_input(input, true); // released
    assert_eq!(reported_estop_held(&mut rig), Some(false));
    assert_eq!(rig.fw.state(), FirmwareState::EStopped, "still latched");
    rig.send(Message::ClearFault);
    assert_eq!(rig.fw.state(), FirmwareState::Unhomed);
    assert_eq!(reported_estop_held(&mut rig), Some(false));
}

#[test]
fn status_follows_the_switch_without_a_latch_changing() {
    let mut rig = Rig::new(four_arm());
    rig.ready();
    assert_eq!(reported_estop_held(&mut rig), Some(false));
    let input = four_arm().board.estop.expect("e-stop").pin;
    for round in 0..3 {
        rig.fw.set_input(input, false); // pressed (active low)
        rig.poll();
        assert_eq!(reported_estop_held(&mut rig), Some(true), "round {round}");
        rig.fw.set_input(input, true);
        rig.poll();
        assert_eq!(reported_estop_held(&mut rig), Some(false), "round {round}");
        assert_eq!(
            rig.fw.state(),
            FirmwareState::EStopped,
            "latched since round 0"
        );
    }
}

/// The e-stop level of the `Status` the firmware sends for a `QueryStatus`, as on the wire.
fn reported_estop_held(rig: &mut Rig) -> Option<bool> {
    let before = rig.received.len();
    rig.send(Message::QueryStatus);
    rig.received[before..]
        .iter()
        .rev()
        .find_map(|(_, m)| match m {
            Message::Status(status) => Some(status.inputs.estop_held()),
            _ => None,
        })
}

/// A ready firmware, 18 dwells of `dwell_ms` queued, and a host that says nothing more
/// (no heartbeat, no acks); returns the rig and when the host fell silent.
fn silent_host_after_dwells(dwell_ms: u16) -> (Rig, u64) {
    let mut rig = Rig::new(four_arm());
    rig.ready();
    rig.heartbeat = false;
    let start = rig.hw.now;
    for id in 2..20 {
        rig.send(Message::Dwell {
            move_id: id,
            ms: dwell_ms,
        });
    }
    (rig, start)
}

fn assert_comms_timeout(rig: &Rig) {
    assert!(rig.has(&Message::Event(Event::Fault(Fault::CommsTimeout))));
    assert_eq!(
        rig.fw.fault_cause(),
        Some(cubed_firmware::FaultCause::CommsTimeout)
    );
}

#[test]
fn a_silent_host_while_moving_latches_comms_timeout() {
    let (mut rig, start) = silent_host_after_dwells(500);
    rig.run_until(start + 2_600_000);
    assert_comms_timeout(&rig);
}

#[test]
fn a_silent_host_latches_comms_timeout_while_commands_wait_for_its_acks() {
    // Short commands and no acks from the host: the notification window fills after a
    // few MoveDones and holds the rest of the queue; the silence is still a fault.
    let (mut rig, start) = silent_host_after_dwells(50);
    rig.run_until(start + 1_000_000);
    assert_eq!(
        rig.fw.state(),
        FirmwareState::Busy,
        "commands held, not run"
    );
    rig.run_until(start + 2_100_000);
    assert_comms_timeout(&rig);
}

/// A board whose rotation has an end-stop switch (input 0) instead of a hall sensor.
fn end_stop_board() -> cubed_firmware::Machine {
    let mut rotation = cubed_firmware::examples::rotation(12, 0);
    if let Some(home) = &mut rotation.home {
        home.kind = cubed_firmware::SensorKind::EndStop;
    }
    crate::rig::machine_of(&[
        cubed_firmware::Actuator::Servo(cubed_firmware::examples::jaw(20)),
        cubed_firmware::Actuator::Stepper(rotation),
    ])
}

#[test]
fn an_end_stop_hit_mid_move_latches_limit_naming_the_actuator() {
    let mut rig = Rig::new(end_stop_board());
    let configure = firmware_protocol::message::Configure::new(
        &crate::rig::four_arm_configure(150, 250).actuators[..2],
    )
    .expect("two actuators");
    rig.handshake(configure);
    rig.send(Message::Home {
        move_id: 1,
        mask: 0b11,
    });
    rig.run_until_done(1, 5_000_000)
        .expect("homed against the switch");
    rig.send(motion(2, &[rotate(1, 1)]));
    rig.run_until(rig.hw.now + 50_000);
    // Something pushes the switch while the rotation turns: it must stop at once.
    rig.fw.set_input(0, false); // active low: pressed
    let pressed_at = rig.hw.now;
    rig.run_until(rig.hw.now + 500_000);
    assert!(rig.has(&Message::Event(Event::Fault(Fault::Limit { actuator: 1 }))));
    assert!(rig
        .steps(1, pressed_at + STEP_PERIOD_US, u64::MAX)
        .is_empty());
    assert_eq!(
        rig.fw.fault_cause(),
        Some(cubed_firmware::FaultCause::Stepper {
            actuator: 1,
            fault: cubed_firmware::StepperFault::EndStopHit
        })
    );
    assert!(rig.done_at(2).is_none());
}

#[test]
fn the_start_button_sends_one_event_per_press() {
    let mut rig = Rig::new(four_arm());
    rig.ready();
    let button = four_arm().board.button.expect("board has a button").pin;
    for _ in 0..2 {
        rig.fw.set_input(button, false); // pressed
        rig.run_until(rig.hw.now + 20_000);
        rig.fw.set_input(button, true);
        rig.run_until(rig.hw.now + 20_000);
    }
    let presses = rig
        .received
        .iter()
        .filter(|(_, m)| *m == Message::Event(Event::ButtonPressed { button: 0 }))
        .map(|(at, _)| *at)
        .collect::<std::collections::BTreeSet<_>>();
    assert_eq!(
        presses.len(),
        2,
        "two presses, two events (retransmissions aside)"
    );
}

#[test]
fn a_drivers_stall_signal_stops_everything_and_latches_stall_naming_the_actuator() {
    let mut rig = Rig::new(four_arm());
    rig.ready();
    let start = rig.hw.now;
    rig.send(motion(2, &[rotate(1, 1)]));
    rig.run_until(start + 20_000);
    assert_eq!(
        rig.fw.activity(),
        cubed_firmware::Activity::Motion { move_id: 2 }
    );
    let stalled_at = rig.hw.now;
    rig.fw.on_stall(1);
    rig.run_until(stalled_at + 500_000);
    assert_eq!(rig.fw.state(), FirmwareState::Faulted);
    assert_eq!(
        rig.fw.fault_cause(),
        Some(cubed_firmware::FaultCause::Stall { actuator: 1 })
    );
    assert!(rig.has(&Message::Event(Event::Fault(Fault::Stall { actuator: 1 }))));
    assert!(rig.done_at(2).is_none(), "the motion never completes");
    let late = (rig.hw.log.iter())
        .any(|(at, e)| *at > stalled_at && matches!(e, crate::rig::Edge::Step(_)));
    assert!(!late, "no step after the stall");
    assert_eq!(rig.fw.activity(), cubed_firmware::Activity::Idle);
}
