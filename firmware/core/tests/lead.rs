//! Steps handed to the board ahead of their time (`step_lead_us`, for a board whose timer
//! pulses each step at its time): they come at exactly the times the core's ramp gives
//! when handed at once; a stop takes back the ones not yet issued and the count stays
//! true; a new direction waits until the last step handed ahead is issued.

use crate::rig::{motion, rotate, Edge, Rig};
use cubed_firmware::examples::four_arm;
use cubed_firmware::Chip;
use firmware_protocol::message::FirmwareState;
use firmware_protocol::Message;

/// Far enough ahead that a ramp's slow last steps (5 ms apart) are handed early too.
static AHEAD: Chip = Chip {
    step_lead_us: 20_000,
    ..cubed_firmware::examples::EXAMPLE_CHIP
};

/// The step times of actuator `i` from `from` on.
fn step_times(rig: &Rig, i: u8, from: u64) -> Vec<u64> {
    let mut times = rig.steps(i, from, u64::MAX);
    times.sort_unstable();
    times
}

#[test]
fn steps_handed_ahead_come_at_the_times_of_steps_handed_when_due() {
    let mut times = Vec::new();
    for chip in [&cubed_firmware::examples::EXAMPLE_CHIP, &AHEAD] {
        let mut rig = Rig::with_chip(chip, four_arm());
        rig.ready();
        let start = rig.hw.now;
        rig.send(motion(2, &[rotate(1, 1), rotate(3, -1)]));
        rig.send(motion(3, &[rotate(1, -1)]));
        rig.run_until_done(3, 2_000_000)
            .expect("both motions finish");
        let relative = |t: Vec<u64>| t.into_iter().map(|at| at - start).collect::<Vec<_>>();
        times.push((
            relative(step_times(&rig, 1, start)),
            relative(step_times(&rig, 3, start)),
        ));
    }
    assert_eq!(
        times[0].0.len(),
        1200,
        "a quarter turn, then a half turn back"
    );
    assert_eq!(times[0], times[1]);
}

#[test]
fn a_stop_takes_back_the_steps_handed_ahead_and_the_count_stays_true() {
    for after_us in [30_000, 70_000, 120_000] {
        let mut rig = Rig::with_chip(&AHEAD, four_arm());
        rig.ready();
        let start = rig.hw.now;
        rig.send(motion(2, &[rotate(1, 1)]));
        rig.run_until(start + after_us);
        let stop_at = rig.hw.now;
        rig.send(Message::EmergencyStop);
        rig.run_until(stop_at + 500_000);
        assert!(
            rig.steps(1, stop_at + 1, u64::MAX).is_empty(),
            "no step after the stop ({after_us} µs)"
        );
        assert_eq!(rig.fw.state(), FirmwareState::EStopped);
        // The firmware's count is what the motor did (it started at the count's 0).
        let issued = rig.steps(1, start, u64::MAX).len() as i64;
        let counted = rig.fw.position_steps(1).expect("a stepper");
        assert_eq!(counted, issued, "after {after_us} µs");
    }
}

#[test]
fn a_new_direction_waits_for_the_last_step_handed_ahead() {
    let mut rig = Rig::with_chip(&AHEAD, four_arm());
    rig.ready();
    let start = rig.hw.now;
    let motor_before = rig.hw.motor[1];
    rig.send(motion(2, &[rotate(1, 1)]));
    rig.send(motion(3, &[rotate(1, -1)]));
    rig.run_until_done(3, 2_000_000).expect("both finish");
    let last_forward = rig
        .hw
        .log
        .iter()
        .filter(|(at, e)| *at > start && *e == Edge::Step(1))
        .map(|(at, _)| *at)
        .take(400)
        .max()
        .expect("steps");
    let reversed = rig
        .hw
        .log
        .iter()
        .find(|(at, e)| *at > start && *e == Edge::Dir(1, false))
        .map(|(at, _)| *at)
        .expect("the direction changes");
    assert!(
        reversed >= last_forward,
        "DIR changed at {reversed} µs, before the step at {last_forward} µs"
    );
    // Every step went the way the firmware counted it: the motor is where it says.
    assert_eq!(rig.fw.position_steps(1), Some(-400));
    assert_eq!(rig.hw.motor[1] - motor_before, -400);
}
