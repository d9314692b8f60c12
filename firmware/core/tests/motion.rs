//! Step trains against an independently written kinematic model, and motions of
//! several actuators.

use crate::rig::{four_arm_configure, jaw, motion, rotate, Edge, Rig, ALL_EIGHT, REV};
use cubed_firmware::examples::four_arm;
use cubed_firmware::ramp::Ramp;
use firmware_protocol::message::{ActuatorConfig, Configure};
use firmware_protocol::Message;
use proptest::prelude::*;

/// Witness: the ideal trapezoid (or triangle) as position over time, in f64, inverted
/// by bisection. Written from the physics, not from the core's formulas.
fn witness_step_time_s(k: f64, n: f64, v: f64, a: f64) -> f64 {
    let t_up = (v / a).min((n / a).sqrt());
    let peak = a * t_up;
    let d_up = 0.5 * a * t_up * t_up;
    let t_cruise = ((n - 2.0 * d_up) / peak).max(0.0);
    let total = 2.0 * t_up + t_cruise;
    let position = |t: f64| {
        if t <= t_up {
            0.5 * a * t * t
        } else if t <= t_up + t_cruise {
            d_up + peak * (t - t_up)
        } else {
            let r = (total - t).max(0.0);
            n - 0.5 * a * r * r
        }
    };
    let (mut lo, mut hi) = (0.0, total);
    for _ in 0..100 {
        let mid = 0.5 * (lo + hi);
        if position(mid) < k {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    hi
}

proptest! {
    #[test]
    fn ramp_step_times_match_the_kinematic_witness(
        steps in 1u32..3000, speed in 100u32..20_000, accel in 1_000u32..400_000,
    ) {
        let ramp = Ramp::new(steps, speed, accel);
        let mut previous = 0u64;
        for k in 1..=steps {
            let got = ramp.step_time_us(k);
            let want = witness_step_time_s(f64::from(k), f64::from(steps), f64::from(speed), f64::from(accel)) * 1e6;
            prop_assert!((got as f64 - want).abs() <= 2.0, "step {k}: {got} µs, witness {want:.1} µs");
            prop_assert!(got >= previous, "step {k} before step {}", k - 1);
            // Never faster than the top speed (2 µs of rounding).
            if k > 1 {
                prop_assert!(got - previous + 2 >= 1_000_000 / u64::from(speed), "interval at step {k}");
            }
            previous = got;
        }
        prop_assert_eq!(ramp.step_time_us(steps), ramp.duration_us());
    }
}

#[test]
fn a_quarter_turn_is_a_train_of_the_right_count_direction_and_timing() {
    let mut rig = Rig::new(four_arm());
    rig.ready();
    let motor_before = rig.hw.motor[1];
    let start = rig.hw.now;
    rig.send(motion(2, &[rotate(1, 1)]));
    let done = rig.run_until_done(2, 1_000_000).expect("MoveDone 2");
    let steps = rig.steps(1, start, done + 1);
    assert_eq!(
        steps.len() as i64,
        REV / 4,
        "a quarter turn of 1600 microsteps/rev"
    );
    assert_eq!(
        rig.hw.motor[1] - motor_before,
        REV / 4,
        "all steps positive"
    );
    // 1080°/s = 4800 microsteps/s: no interval shorter than 1/4800 s (less rounding).
    let min_interval = steps
        .windows(2)
        .map(|w| w[1] - w[0])
        .min()
        .expect("intervals");
    assert!(
        min_interval + 2 >= 1_000_000 / 4800,
        "min interval {min_interval} µs"
    );
    // Witness timing: each step where the ideal trapezoid puts it.
    for (k, at) in steps.iter().enumerate() {
        let want =
            start as f64 + 1e6 * witness_step_time_s((k + 1) as f64, 400.0, 4800.0, 80_000.0);
        assert!(
            (*at as f64 - want).abs() <= 2.0,
            "step {}: {at}, witness {want:.0}",
            k + 1
        );
    }
    assert_eq!(
        done,
        *steps.last().expect("steps"),
        "MoveDone with the last step"
    );
    // And back to -1: a half turn the other way.
    let start = rig.hw.now;
    rig.send(motion(3, &[rotate(1, -1)]));
    let done = rig.run_until_done(3, 1_000_000).expect("MoveDone 3");
    assert_eq!(rig.steps(1, start, done + 1).len() as i64, REV / 2);
    assert_eq!(rig.hw.motor[1] - motor_before, -REV / 4);
    assert!(rig
        .hw
        .log
        .iter()
        .any(|(at, e)| *at >= start && *e == Edge::Dir(1, false)));
}

#[test]
fn a_motion_of_several_actuators_finishes_when_the_slowest_does() {
    let mut rig = Rig::new(four_arm());
    rig.ready();
    // Gripper 2's rotation to -1 first, so the next motion turns it half a turn.
    rig.send(motion(2, &[rotate(5, -1)]));
    rig.run_until_done(2, 1_000_000).expect("MoveDone 2");
    let start = rig.hw.now;
    rig.send(motion(
        3,
        &[jaw(0, false), rotate(1, 1), rotate(5, 1), jaw(6, false)],
    ));
    let done = rig.run_until_done(3, 1_000_000).expect("MoveDone 3");
    let quarter_end = *rig.steps(1, start, done + 1).last().expect("quarter steps");
    let half_end = *rig.steps(5, start, done + 1).last().expect("half steps");
    // Witness durations: 100 ms servo travel, the kinematic quarter and half turns.
    let quarter_us = 1e6 * witness_step_time_s(400.0, 400.0, 4800.0, 80_000.0);
    let half_us = 1e6 * witness_step_time_s(800.0, 800.0, 4800.0, 80_000.0);
    assert!(((quarter_end - start) as f64 - quarter_us).abs() <= 2.0);
    assert!(((half_end - start) as f64 - half_us).abs() <= 2.0);
    assert!(
        half_us > quarter_us && half_us > 100_000.0,
        "the half turn is the slowest"
    );
    assert_eq!(done, half_end, "MoveDone when the slowest actuator stops");
    let servo_edges: Vec<_> = rig
        .hw
        .log
        .iter()
        .filter(|(at, e)| *at >= start && matches!(e, Edge::Servo(..)))
        .collect();
    assert_eq!(
        servo_edges.len(),
        2,
        "both jaws commanded once: {servo_edges:?}"
    );
}

/// A jaw slower to close than to open (its servo travels in 100 ms, the design says it
/// closes in 400): each way is waited for its own time, so nothing turns against a jaw
/// still closing.
#[test]
fn a_jaw_is_waited_for_the_time_of_the_way_it_moves() {
    let mut rig = Rig::new(four_arm());
    let mut actuators = four_arm_configure(150, 250).actuators.to_vec();
    actuators[0] = ActuatorConfig::Jaw {
        open_ms: 100,
        close_ms: 400,
    };
    rig.handshake(Configure::new(&actuators).expect("8 actuators"));
    rig.send(Message::Home {
        move_id: 1,
        mask: ALL_EIGHT,
    });
    rig.run_until_done(1, 5_000_000).expect("homed");
    let took = |rig: &mut Rig, move_id: u32, closed: bool| {
        let start = rig.hw.now;
        rig.send(motion(move_id, &[jaw(0, closed)]));
        rig.run_until_done(move_id, 1_000_000).expect("MoveDone") - start
    };
    let opening = took(&mut rig, 2, false);
    let closing = took(&mut rig, 3, true);
    assert!(
        (100_000..110_000).contains(&opening),
        "opened in {opening} µs"
    );
    assert!(
        (400_000..410_000).contains(&closing),
        "closed in {closing} µs"
    );
}

#[test]
fn a_dwell_takes_its_time_and_a_configure_too_fast_for_the_ramp_is_refused() {
    let mut rig = Rig::new(four_arm());
    rig.ready();
    let start = rig.hw.now;
    rig.send(firmware_protocol::Message::Dwell {
        move_id: 2,
        ms: 250,
    });
    assert_eq!(rig.run_until_done(2, 1_000_000), Some(start + 250_000));

    // The ramp needs 143.3 ms for a quarter turn (witness: 400/4800 s + 4800/80000 s).
    let mut rig = Rig::new(four_arm());
    rig.handshake(four_arm_configure(140, 250));
    assert!(rig.has(&firmware_protocol::Message::ConfigureRefused {
        seq: rig.last_seq(),
        refusal: firmware_protocol::message::ConfigRefusal::TooFast {
            actuator: 1,
            timed: firmware_protocol::message::TimedMove::QuarterTurn,
            needed_ms: 144,
        },
    }));
    assert_eq!(
        rig.fw.last_refusal(),
        Some(cubed_firmware::ConfigRefusal::TooFast {
            actuator: 1,
            timed: firmware_protocol::message::TimedMove::QuarterTurn,
            needed_ms: 144
        })
    );
    rig.send(firmware_protocol::Message::Configure(four_arm_configure(
        144, 250,
    )));
    assert!(rig.has(&firmware_protocol::Message::ConfigureReply {
        checksum: four_arm_configure(144, 250).checksum().expect("checksum")
    }));
}
