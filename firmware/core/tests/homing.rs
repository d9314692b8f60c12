//! Homing from every start angle, judged by the simulated magnets, not the core's count.

use crate::rig::{four_arm_configure, Rig, ALL_EIGHT, MAGNET_HALF_WIDTH, REV};
use cubed_firmware::examples::four_arm;
use firmware_protocol::message::{ActuatorConfig, Configure, Event, Fault, RotationRange};
use firmware_protocol::Message;

/// Seeking positively, the sensor first reads active at the magnet's near edge.
const TRIGGER: i64 = -MAGNET_HALF_WIDTH;

#[test]
fn homing_from_every_start_position_ends_at_the_magnet_edge() {
    for start in 0..REV {
        let mut rig = Rig::new(four_arm());
        // Every rotation starts at a different physical angle.
        for (k, i) in [1usize, 3, 5, 7].into_iter().enumerate() {
            rig.hw.motor[i] = start + k as i64 * 397;
        }
        rig.update_sensors();
        rig.handshake(four_arm_configure(150, 250));
        rig.send(Message::Home {
            move_id: 7,
            mask: ALL_EIGHT,
        });
        let done = rig.run_until_done(7, 5_000_000);
        assert!(done.is_some(), "start {start}: homing finished");
        for i in [1usize, 3, 5, 7] {
            let angle = rig.hw.motor[i].rem_euclid(REV);
            assert_eq!(
                angle,
                TRIGGER.rem_euclid(REV),
                "start {start}: actuator {i} at {angle}"
            );
            assert_eq!(
                rig.fw.position(i),
                Some(0),
                "start {start}: actuator {i} counts 0"
            );
        }
        for jaw in [0usize, 2, 4, 6] {
            assert_eq!(rig.fw.position(jaw), Some(1), "jaws close after homing");
        }
    }
}

#[test]
fn homing_gives_up_with_a_home_not_found_fault_naming_the_actuator() {
    let mut rig = Rig::new(four_arm());
    rig.dead_sensor[5] = true;
    rig.update_sensors();
    rig.handshake(four_arm_configure(150, 250));
    rig.send(Message::Home {
        move_id: 1,
        mask: ALL_EIGHT,
    });
    rig.run_until(4_000_000);
    assert!(rig.has(&Message::Event(Event::Fault(Fault::HomeNotFound {
        actuator: 5
    }))));
    assert_eq!(
        rig.fw.status().faults,
        firmware_protocol::message::FaultFlags(
            firmware_protocol::message::FaultFlags::HOME_NOT_FOUND
        )
    );
    assert!(rig.done_at(1).is_none(), "no MoveDone for a failed home");
    // Gave up after max_seek_deg = 400°: 1777 microsteps, not one more.
    let steps = rig.steps(5, 0, u64::MAX).len() as i64;
    assert_eq!(steps, 400 * REV / 360);
    assert_eq!(
        rig.fw.state(),
        firmware_protocol::message::FirmwareState::Faulted
    );
}

#[test]
fn a_home_offset_moves_past_the_trigger_point() {
    use cubed_firmware::Actuator;
    let mut rotation = cubed_firmware::examples::rotation(12, 0);
    if let Some(home) = &mut rotation.home {
        home.offset_steps = 37;
    }
    let mut rig = Rig::new(crate::rig::machine_of(&[
        Actuator::Servo(cubed_firmware::examples::jaw(20)),
        Actuator::Stepper(rotation),
    ]));
    rig.hw.motor[1] = 900;
    rig.update_sensors();
    let configure =
        firmware_protocol::message::Configure::new(&four_arm_configure(150, 250).actuators[..2])
            .expect("two");
    rig.handshake(configure);
    rig.send(Message::Home {
        move_id: 1,
        mask: 0b11,
    });
    assert!(rig.run_until_done(1, 5_000_000).is_some());
    assert_eq!(
        rig.hw.motor[1].rem_euclid(REV),
        (TRIGGER + 37).rem_euclid(REV)
    );
    assert_eq!(rig.fw.position_steps(1), Some(0));
}

#[test]
fn homing_moves_only_the_configured_actuators() {
    let mut rig = Rig::new(crate::rig::machine_of(&four_arm().actuators[..2]));
    rig.hw.motor[3] = 500;
    rig.hw.motor[1] = 700;
    rig.update_sensors();
    let two =
        firmware_protocol::message::Configure::new(&four_arm_configure(150, 250).actuators[..2])
            .expect("two");
    rig.handshake(two);
    rig.send(Message::Home {
        move_id: 1,
        mask: firmware_protocol::message::HOME_ALL,
    });
    assert!(
        rig.has(&Message::Nak {
            seq: rig.last_seq(),
            reason: firmware_protocol::message::NakReason::InvalidCommand,
        }),
        "a mask naming unconfigured actuators is refused"
    );
    rig.send(Message::Home {
        move_id: 1,
        mask: 0b11,
    });
    assert!(rig.run_until_done(1, 5_000_000).is_some());
    assert_eq!(rig.hw.motor[1].rem_euclid(REV), TRIGGER.rem_euclid(REV));
    assert_eq!(
        rig.hw.motor[3], 500,
        "actuator 3 is not configured: it stays"
    );
    assert_eq!(
        rig.fw.position(2),
        None,
        "jaw 2 is not set up: the firmware has no such channel"
    );
}

#[test]
fn a_home_mask_homes_only_its_actuators_and_motions_wait_for_theirs() {
    use firmware_protocol::message::{Action, FirmwareState, Motion, NakReason};
    let mut rig = Rig::new(four_arm());
    rig.hw.motor[1] = 300;
    rig.hw.motor[3] = 900;
    rig.update_sensors();
    rig.handshake(four_arm_configure(150, 250));
    // Gripper 0 (jaw 0, rotation 1) only.
    rig.send(Message::Home {
        move_id: 1,
        mask: 0b0000_0011,
    });
    assert!(rig.run_until_done(1, 5_000_000).is_some(), "group homed");
    assert_eq!(rig.hw.motor[1].rem_euclid(REV), TRIGGER.rem_euclid(REV));
    assert_eq!(
        rig.hw.motor[3], 900,
        "rotation 3 is not in the mask: it stays"
    );
    assert_eq!(rig.fw.position(0), Some(1), "jaw 0 closed");
    assert_eq!(rig.fw.position(2), Some(0), "jaw 2 never commanded");
    assert!(rig.fw.is_homed(1) && !rig.fw.is_homed(3));
    assert_eq!(
        rig.fw.state(),
        FirmwareState::Unhomed,
        "others still unhomed"
    );

    let turn = |move_id, actuator| {
        Message::Motion(
            Motion::new(
                move_id,
                &[Action::Rotate {
                    actuator,
                    quarter_turns: 1,
                }],
            )
            .expect("one action"),
        )
    };
    rig.send(turn(2, 3));
    assert!(
        rig.has(&Message::Nak {
            seq: rig.last_seq(),
            reason: NakReason::BadState,
        }),
        "actuator 3 is not homed"
    );
    rig.send(turn(3, 1));
    assert!(rig.run_until_done(3, 5_000_000).is_some(), "actuator 1 is");

    // The rest, in a second group; a motion queued behind it is accepted.
    rig.send(Message::Home {
        move_id: 4,
        mask: 0b1111_1100,
    });
    rig.send(turn(5, 3));
    assert!(rig.run_until_done(5, 10_000_000).is_some());
    assert_eq!(rig.fw.state(), FirmwareState::Idle, "every actuator homed");
}

/// A jaw and one rotation configured as `range`, the rotation's home `offset` steps past
/// its trigger point, the motor at physical angle `start`; homed, and its angle after.
fn home_one_rotation(range: RotationRange, offset: i32, start: i64) -> (Rig, i64) {
    let rig = one_rotation_homed(range, |home| home.offset_steps = offset, start);
    let angle = rig.hw.motor[1];
    (rig, angle)
}

/// A jaw and one rotation configured as `range`, its home sensor as `sensor` sets it, the
/// motor at physical angle `start`, homed once.
fn one_rotation_homed(
    range: RotationRange,
    sensor: impl FnOnce(&mut firmware_protocol::message::HomeSensor),
    start: i64,
) -> Rig {
    use cubed_firmware::Actuator;
    let mut rotation = cubed_firmware::examples::rotation(12, 0);
    if let Some(home) = &mut rotation.home {
        sensor(home);
    }
    let mut rig = Rig::new(crate::rig::machine_of(&[
        Actuator::Servo(cubed_firmware::examples::jaw(20)),
        Actuator::Stepper(rotation),
    ]));
    rig.hw.motor[1] = start;
    rig.update_sensors();
    let mut configs = four_arm_configure(150, 250).actuators.as_slice().to_vec();
    if let ActuatorConfig::Rotation { range: r, .. } = &mut configs[1] {
        *r = range;
    }
    rig.handshake(Configure::new(&configs[..2]).expect("two"));
    rig.send(Message::Home {
        move_id: 1,
        mask: 0b11,
    });
    assert!(
        rig.run_until_done(1, 20_000_000).is_some(),
        "start {start}: homed"
    );
    rig
}

/// How far apart two angles are, the short way round.
fn apart(a: i64, b: i64) -> i64 {
    let d = (a - b).rem_euclid(REV);
    d.min(REV - d)
}

#[test]
fn a_continuous_rotation_homes_to_the_quarter_nearest_where_it_began() {
    const QUARTER: i64 = REV / 4;
    for offset in [0i32, 37] {
        let home = TRIGGER + i64::from(offset);
        // Every quarter's position, a little off square either way, and on the magnet.
        let starts = (0..8).flat_map(|q| [-31, 0, 29].map(|off| home + q * QUARTER + off));
        for start in starts.chain([0, -5, 5, 777]) {
            let (rig, angle) = home_one_rotation(RotationRange::Continuous, offset, start);
            assert_eq!(
                (angle - home).rem_euclid(QUARTER),
                0,
                "offset {offset}, start {start}: on a quarter of the sensor's mark, at {angle}"
            );
            assert!(
                apart(angle, start) <= QUARTER / 2,
                "offset {offset}, start {start}: the nearest quarter, not {angle}"
            );
            assert_eq!(rig.fw.position_steps(1), Some(0), "that quarter counts 0");
        }
    }
}

#[test]
fn a_limited_rotation_still_homes_to_its_mark_from_any_quarter() {
    for start in [TRIGGER + REV / 4, TRIGGER - REV / 4, TRIGGER + REV / 2 + 9] {
        let limited = RotationRange::Limited { min: -1, max: 1 };
        let (rig, angle) = home_one_rotation(limited, 0, start);
        assert_eq!(
            angle.rem_euclid(REV),
            TRIGGER.rem_euclid(REV),
            "start {start}"
        );
        assert_eq!(rig.fw.position_steps(1), Some(0));
    }
}

/// A jaw and one limited rotation (seeking `seek_positive`), the motor at physical angle
/// `start`, homed once.
fn limited_rotation_homed(seek_positive: bool, start: i64) -> Rig {
    let limited = RotationRange::Limited { min: -1, max: 1 };
    one_rotation_homed(limited, |home| home.seek_positive = seek_positive, start)
}

/// Turns the rotation `quarters`, then homes it again; the steps the second homing took.
fn turn_and_home_again(rig: &mut Rig, quarters: i32, move_id: u32) -> usize {
    rig.send(crate::rig::motion(
        move_id,
        &[crate::rig::rotate(1, quarters)],
    ));
    let turned = rig.run_until_done(move_id, 20_000_000).expect("turned");
    rig.send(Message::Home {
        move_id: move_id + 1,
        mask: 0b11,
    });
    assert!(
        rig.run_until_done(move_id + 1, 20_000_000).is_some(),
        "homed again: {:?}",
        rig.fw.status()
    );
    rig.steps(1, turned, u64::MAX).len()
}

/// A limited rotation carries its jaw's wiring: homed again after a turn, it goes back the
/// way it came to its magnet, never on round the turn (which winds the wiring a turn more
/// each time). Judged by the simulated motor's own angle, not wrapped round the turn.
#[test]
fn a_limited_rotation_homed_again_turns_back_the_way_it_came() {
    const QUARTER: i64 = REV / 4;
    for seek_positive in [true, false] {
        for quarters in [1, -1] {
            let mut rig = limited_rotation_homed(seek_positive, 321);
            let home = rig.hw.motor[1];
            // Twice: the second would show a turn wound on by the first. (The rig never
            // acknowledges the firmware's notifications, so a third would wait for it.)
            for round in 0..2u32 {
                let steps = turn_and_home_again(&mut rig, quarters, 10 + 2 * round);
                let what =
                    format!("seek positive {seek_positive}, {quarters:+} quarter, round {round}");
                assert_eq!(
                    rig.hw.motor[1], home,
                    "{what}: where the first homing left it"
                );
                // Back a quarter, past the trigger by at most the back-off and approach.
                assert!(
                    steps as i64 <= QUARTER + 3 * 89 + 40,
                    "{what}: {steps} steps to home"
                );
                assert_eq!(rig.fw.position_steps(1), Some(0), "{what}");
            }
        }
    }
}

/// Steps lost since the last homing (the motor knocked 60° off its count): the approach
/// misses the sensor where the count put it, and homing seeks it instead of failing.
#[test]
fn a_limited_rotation_off_its_count_still_finds_its_mark() {
    for seek_positive in [true, false] {
        let mut rig = limited_rotation_homed(seek_positive, -500);
        rig.hw.motor[1] += 267;
        rig.update_sensors();
        turn_and_home_again(&mut rig, 1, 10);
        let trigger = match seek_positive {
            true => TRIGGER,
            false => MAGNET_HALF_WIDTH,
        };
        assert_eq!(
            rig.hw.motor[1].rem_euclid(REV),
            trigger.rem_euclid(REV),
            "seek positive {seek_positive}: on its sensor's edge"
        );
        assert_eq!(rig.fw.position_steps(1), Some(0));
        assert_eq!(
            rig.fw.state(),
            firmware_protocol::message::FirmwareState::Idle
        );
    }
}
