//! Tests of the firmware core on simulated hardware: programs solve the cube in the
//! firmware's time, a jammed motor stalls and the core reports it, homing seeks.

use super::firmware::SimFirmware;
use super::inprocess::{run_program, InProcessError};
use super::mechanics_robot::PhysicsMechanics;
use crate::robot::{ActuatorMap, MotionGroup, Planner, RobotModel};
use cubed_core::cube::FaceletCube;
use cubed_core::cube::{random::random_scramble, Move, Turn};
use firmware_protocol::message::{Action, Motion};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn design(name: &str) -> (RobotModel, ActuatorMap) {
    let model = crate::robot::shipped_design(name).expect("shipped design loads");
    let map = ActuatorMap::new(&model).expect("fits the protocol");
    (model, map)
}

fn sim(model: &RobotModel, map: &ActuatorMap, cube: &FaceletCube) -> SimFirmware<PhysicsMechanics> {
    let mechanics = PhysicsMechanics::new(model.clone(), map.clone(), cube);
    SimFirmware::new(mechanics, 1.0, 0).expect("the design is a board")
}

#[test]
fn planned_programs_solve_the_cube_in_the_time_the_plan_says() {
    for name in ["four-arm", "turntable-flipper", "six-motor"] {
        let (model, map) = design(name);
        let planner = Planner::new(model.clone());
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let scramble = random_scramble(&mut rng, 12, false);
        let cube = FaceletCube::default().apply_all(&scramble);
        let solution: Vec<Turn> = (scramble.iter().rev())
            .filter_map(|m| match m.inverse() {
                Move::Turn(t) => Some(t),
                Move::Rotate(_) => None,
            })
            .collect();
        let plan = planner.plan(&planner.home(), &solution).expect("plans");
        let encoded = map
            .encode_program(&plan.program, &plan.start, 2)
            .expect("encodes");
        let groups: Vec<MotionGroup> = encoded.groups.iter().map(|(_, g)| *g).collect();
        let mut firmware = sim(&model, &map, &cube);
        let simulated_us = run_program(&mut firmware, map.configure(), map.home_mask(), &groups)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(firmware.mechanics.cube_solved(), "{name}: solved");
        let planned_us = u64::from(plan.total_ms) * 1000;
        let off = planned_us.abs_diff(simulated_us) as f64 / planned_us as f64;
        assert!(
            off < 0.03,
            "{name}: planned {planned_us} µs, simulated {simulated_us} µs"
        );
        assert_eq!(firmware.stats.move_ids_run_twice, 0);
        assert_eq!(firmware.stats.moves_executed as usize, groups.len() + 1);
    }
}

#[test]
fn a_turn_the_cube_blocks_stalls_and_the_firmware_reports_its_motor() {
    let (model, map) = design("four-arm");
    let mut firmware = sim(&model, &map, &FaceletCube::default());
    // Left turns its layer while front and back grip theirs: the layers jam.
    let left = map
        .index_of(crate::robot::Role::Rotation { gripper: 0 })
        .expect("left rotation");
    let turn = Motion::new(
        2,
        &[Action::Rotate {
            actuator: left,
            quarter_turns: 1,
        }],
    )
    .expect("one action");
    let result = run_program(
        &mut firmware,
        map.configure(),
        map.home_mask(),
        &[MotionGroup::Motion(turn)],
    );
    match result {
        Err(InProcessError::Fault(what)) => {
            assert!(
                what.contains(&format!("Stall {{ actuator: {left} }}")),
                "{what}"
            )
        }
        other => panic!("expected a stall, got {other:?}"),
    }
    assert!(firmware.mechanics.cube_solved(), "nothing turned");
    let record = firmware.stats.faults.last().expect("recorded");
    assert_eq!(record.move_id, Some(2));
}

#[test]
fn after_a_reboot_homing_seeks_the_magnet_and_leaves_the_face_as_it_was() {
    let (model, map) = design("six-motor");
    let mut firmware = sim(&model, &map, &FaceletCube::default());
    let up = map
        .index_of(crate::robot::Role::Rotation { gripper: 0 })
        .expect("up motor");
    let turn = Motion::new(
        2,
        &[Action::Rotate {
            actuator: up,
            quarter_turns: 1,
        }],
    )
    .expect("one action");
    run_program(
        &mut firmware,
        map.configure(),
        map.home_mask(),
        &[MotionGroup::Motion(turn)],
    )
    .expect("U turns");
    assert!(!firmware.mechanics.cube_solved());
    let per_quarter = firmware
        .core()
        .position_steps(usize::from(up))
        .expect("stepper");
    assert!(per_quarter > 0);
    firmware.reboot(0);
    assert_eq!(
        firmware.core().position_steps(usize::from(up)),
        None,
        "count lost: a rebooted firmware drives nothing until the host sets it up again"
    );
    // The motor holds the cap a quarter off its mark: homing seeks its magnet from there,
    // turning the face, and comes back to the quarter it left (PROTOCOL.md, Home: a
    // continuous rotation), counting 0 there.
    let turned = firmware.mechanics.cube_frame();
    let again = run_program(&mut firmware, map.configure(), map.home_mask(), &[]);
    assert!(again.is_ok(), "{again:?}");
    assert_eq!(
        firmware.mechanics.cube_frame(),
        turned,
        "homing left the U face turned"
    );
    assert_eq!(firmware.core().position_steps(usize::from(up)), Some(0));
}

/// The firmware's time after a starved simulator may run 1.5 s past the host's last valid
/// frame, short of the 2 s comms watchdog: bytes that make no frame (noise, half a frame)
/// do not count as the host heard, since they do not feed the watchdog.
#[test]
fn bytes_that_make_no_frame_do_not_let_the_firmwares_time_run_past_its_watchdog() {
    use firmware_protocol::frame::{encode, Frame};
    use firmware_protocol::timing::COMMS_TIMEOUT_MS;
    use firmware_protocol::{Message, Seq};
    let (model, map) = design("four-arm");
    let mut firmware = sim(&model, &map, &FaceletCube::default());
    let mut bytes = [0u8; firmware_protocol::MAX_WIRE_LEN];
    let len = encode(
        &Frame::unsequenced(Seq::ZERO, Message::QueryStatus),
        &mut bytes,
    )
    .expect("encodes");
    firmware.on_bytes(&bytes[..len], 0);
    let frames = firmware.core().counters().frames;
    assert_eq!(frames, 1, "the query is a valid frame");
    // 600 ms later, half a frame (its end lost on the line).
    firmware.on_bytes(&bytes[..len / 2], 600);
    assert_eq!(firmware.core().counters().frames, frames, "no frame made");
    // The simulator then starved for 4.4 s (its pty loop excuses that while).
    firmware.excuse_host(4_400);
    firmware.poll(5_000);
    let after_frame_ms = firmware.now_us() / 1000;
    assert!(
        after_frame_ms < COMMS_TIMEOUT_MS,
        "the firmware's time ran {after_frame_ms} ms past the host's last frame"
    );
}

/// Two motors of one step may leave their positions at different instants (their first
/// step edges differ); the machine judges each leaving motor together with every motor
/// still on its way, so a flip while the turntable turns the cube jams as it would on a
/// real robot, whichever motor starts first.
#[test]
fn motors_that_start_at_different_instants_are_judged_together() {
    use crate::robot::program::{Action as Act, Program, Step};
    let (model, map) = design("turntable-flipper");
    let gripper = |name: &str| model.grippers.iter().position(|g| g.name == name);
    let (turntable, holder) = (gripper("turntable").unwrap(), gripper("holder").unwrap());
    for quarters in [1, -1, 2] {
        let program = Program {
            steps: vec![
                Step {
                    actions: vec![Act::Open(holder)],
                },
                Step {
                    actions: vec![
                        Act::Flip(0),
                        Act::Turn {
                            gripper: turntable,
                            quarters,
                        },
                    ],
                },
            ],
        };
        let encoded = map
            .encode_program(&program, &model.home(), 2)
            .expect("encodes");
        let groups: Vec<MotionGroup> = encoded.groups.iter().map(|(_, g)| *g).collect();
        let mut firmware = sim(&model, &map, &FaceletCube::default());
        let result = run_program(&mut firmware, map.configure(), map.home_mask(), &groups);
        assert!(
            matches!(result, Err(InProcessError::Fault(_))),
            "turntable {quarters:+}: a flip while the cube turns ran: {result:?}"
        );
    }
}
