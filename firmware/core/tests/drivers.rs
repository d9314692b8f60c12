//! The drivers' ENABLE and the inputs' debouncing: every fault and e-stop switches the
//! drivers off (a motor without current cannot move), so does the board's idle time;
//! a noisy sample does not press the button, while the e-stop acts at its first sample.

use crate::rig::{motion, rotate, Edge, Rig};
use cubed_firmware::examples::four_arm;
use firmware_protocol::message::{Event, Fault, FirmwareState};
use firmware_protocol::Message;

/// The four-arm example's rotations.
const ROTATIONS: [u8; 4] = [1, 3, 5, 7];

/// Every rotation's driver was switched off at `since` µs or after (and not on again).
pub fn assert_drivers_off_since(rig: &Rig, since: u64) {
    for actuator in ROTATIONS {
        let last = rig
            .hw
            .log
            .iter()
            .rev()
            .find(|(_, e)| matches!(e, Edge::Enable(a, _) if *a == actuator))
            .copied();
        match last {
            Some((at, Edge::Enable(_, false))) => {
                assert!(at >= since, "actuator {actuator} off at {at} µs")
            }
            other => panic!("actuator {actuator}: driver not switched off ({other:?})"),
        }
    }
}

#[test]
fn homing_switches_the_drivers_on() {
    let mut rig = Rig::new(four_arm());
    rig.ready();
    for actuator in ROTATIONS {
        assert!(rig
            .hw
            .log
            .iter()
            .any(|(_, e)| *e == Edge::Enable(actuator, true)));
    }
}

#[test]
fn a_comms_timeout_switches_the_drivers_off() {
    let mut rig = Rig::new(four_arm());
    rig.ready();
    rig.heartbeat = false;
    let start = rig.hw.now;
    rig.send(Message::Dwell {
        move_id: 2,
        ms: 5000,
    });
    rig.run_until(start + 2_500_000);
    assert!(rig.has(&Message::Event(Event::Fault(Fault::CommsTimeout))));
    assert_drivers_off_since(&rig, start + 2_000_000);
}

fn idle_board() -> cubed_firmware::Machine {
    let mut machine = four_arm();
    machine.board.idle_disable_ms = 500;
    machine
}

#[test]
fn idle_drivers_go_off_after_the_boards_idle_time_and_positions_count_as_lost() {
    let mut rig = Rig::new(idle_board());
    rig.ready();
    let start = rig.hw.now;
    rig.send(motion(2, &[rotate(1, 1)]));
    let done = rig.run_until_done(2, 1_000_000).expect("the turn finishes");
    rig.run_until(done + 450_000);
    assert_eq!(
        rig.fw.state(),
        FirmwareState::Idle,
        "still on before the idle time"
    );
    assert!(rig
        .hw
        .log
        .iter()
        .all(|(at, e)| *at < start || !matches!(e, Edge::Enable(_, false))));
    rig.run_until(done + 550_000);
    // Idle counts from the last poll with work to do: the move's last step, 5 ms before.
    assert_drivers_off_since(&rig, done + 490_000);
    assert_eq!(
        rig.fw.state(),
        FirmwareState::Unhomed,
        "the host must home again"
    );
}

fn debounced() -> cubed_firmware::Machine {
    let mut machine = four_arm();
    machine.board.debounce_samples = 3;
    machine
}

#[test]
fn a_noisy_sample_does_not_press_the_button_but_one_sample_of_estop_stops() {
    let mut rig = Rig::new(debounced());
    rig.ready();
    let (estop, button) = (
        four_arm().board.estop.expect("an e-stop").pin,
        four_arm().board.button.expect("a button").pin,
    );
    // Two samples pressed (active low), then released: noise.
    for _ in 0..2 {
        rig.fw.set_input(button, false);
        rig.poll();
    }
    rig.fw.set_input(button, true);
    rig.poll();
    assert!(!rig.has(&Message::Event(Event::ButtonPressed { button: 0 })));
    // Three in a row: a press.
    for _ in 0..3 {
        rig.fw.set_input(button, false);
        rig.poll();
    }
    assert!(rig.has(&Message::Event(Event::ButtonPressed { button: 0 })));
    // The e-stop stops at its first sample: a false stop is safe, a late one is not.
    rig.fw.set_input(estop, false);
    rig.poll();
    assert_eq!(rig.fw.state(), FirmwareState::EStopped);
}

#[test]
fn a_host_gone_silent_mid_move_slows_the_motor_down_then_switches_it_off() {
    // A slow rotation: 30°/s reached in half a second, a quarter turn in 3.5 s.
    let mut slow = cubed_firmware::examples::rotation(12, 0);
    slow.max_deg_s = 30;
    slow.accel_deg_s2 = 60;
    if let Some(home) = &mut slow.home {
        home.seek_deg_s = 30;
        home.approach_deg_s = 10;
    }
    let machine = crate::rig::machine_of(&[
        cubed_firmware::Actuator::Servo(cubed_firmware::examples::jaw(20)),
        cubed_firmware::Actuator::Stepper(slow),
    ]);
    let mut rig = Rig::new(machine);
    rig.handshake(
        firmware_protocol::message::Configure::new(
            &crate::rig::four_arm_configure(4000, 8000).actuators[..2],
        )
        .expect("two"),
    );
    rig.send(Message::Home {
        move_id: 1,
        mask: 0b11,
    });
    rig.run_until_done(1, 60_000_000).expect("homed");
    rig.heartbeat = false;
    let start = rig.hw.now;
    rig.send(motion(2, &[rotate(1, 1)]));
    rig.run_until(start + 3_000_000);
    assert!(rig.has(&Message::Event(Event::Fault(Fault::CommsTimeout))));
    let steps = rig.steps(1, start, u64::MAX);
    let timeout = start + 2_000_000;
    let after: Vec<u64> = steps.iter().copied().filter(|&at| at >= timeout).collect();
    // Cruising at 133 steps/s when the host fell silent: it takes half a second to stop
    // (about 33 steps), each step further from the last than the one before.
    assert!(
        (25..=40).contains(&after.len()),
        "{} steps after the timeout",
        after.len()
    );
    let gaps: Vec<u64> = after.windows(2).map(|w| w[1] - w[0]).collect();
    assert!(
        gaps.windows(2).all(|g| g[1] + 50 >= g[0]),
        "slowing down: {gaps:?}"
    );
    let last = *after.last().expect("steps");
    assert!(last < timeout + 600_000, "stopped within 0.6 s: {last}");
    // The driver goes off once the motor stands, not before.
    let off = rig
        .hw
        .log
        .iter()
        .find(|(at, e)| *at >= timeout && *e == Edge::Enable(1, false))
        .map(|&(at, _)| at)
        .expect("the driver switched off");
    assert!(off >= last, "off at {off} µs, last step at {last} µs");
}
