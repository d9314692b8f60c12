//! `cubed exec` streams gripper programs for random cubes to the emulated Pico: homing
//! finds each modelled hall sensor; every stepper move has the planned number of steps,
//! in the planned direction, for as long as the core's ramp says; every actuator ends
//! where the plan puts it; the program takes no longer than planned.

use super::emulator::{available, EmulatedPico};
use super::trace::{four_arm_machine, Machine, Trace};
use crate::common::{cubed, four_arm, scrambled, stderr, stdout};
use cubed::robot::{ActuatorMap, EncodedProgram, Program, ProgramDoc, RobotModel};
use cubed_firmware::ramp::Ramp;
use firmware_protocol::Message;
use std::path::Path;

/// The four-arm design's left rotation, as the host sends it to the firmware.
pub fn design_rotation() -> cubed_firmware::Stepper {
    match crate::common::setup_for(&four_arm()).machine.actuators[1] {
        cubed_firmware::Actuator::Stepper(stepper) => stepper,
        other => panic!("actuator 1 of the four-arm design is a rotation, not {other:?}"),
    }
}

/// The design's jaw servo (each gripper's is the same).
fn design_jaw() -> cubed_firmware::Servo {
    match crate::common::setup_for(&four_arm()).machine.actuators[0] {
        cubed_firmware::Actuator::Servo(servo) => servo,
        other => panic!("actuator 0 of the four-arm design is a jaw, not {other:?}"),
    }
}

/// A ramp of the design's rotations: `steps` microsteps at their top speed and
/// acceleration in steps.
pub fn pico_ramp(steps: u32) -> Ramp {
    let stepper = design_rotation();
    Ramp::new(steps, stepper.max_steps_s(), stepper.accel_steps_s2())
}

pub const STEPS_PER_QUARTER: i64 = 400;

/// The emulated time of each `MoveDone` after `since_ns`.
pub fn moves_done(pico: &EmulatedPico, since_ns: u64) -> Vec<u64> {
    let messages = pico.from_firmware.lock().expect("log lock").messages();
    messages
        .into_iter()
        .filter(|(ns, m)| *ns > since_ns && matches!(m, Message::MoveDone { .. }))
        .map(|(ns, _)| ns)
        .collect()
}

/// Writes `program` as `cubed plan --format json` would, for `cubed exec --program`.
pub fn program_file(model: &RobotModel, program: &Program, dir: &Path, name: &str) -> String {
    let doc = ProgramDoc::new(model, program, 0, 0, String::new());
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_string(&doc).expect("JSON")).expect("written");
    path.display().to_string()
}

/// `cubed exec` of `program` on the emulated Pico; panics unless every command was done.
pub fn exec(pico: &EmulatedPico, program_path: &str, extra: &[&str]) -> std::process::Output {
    let port = pico.port.display().to_string();
    let mut args = vec!["exec", "--port", &port, "--program", program_path];
    args.extend_from_slice(extra);
    let out = cubed(&args, None);
    assert!(
        out.status.success() && stdout(&out).contains("acknowledged"),
        "cubed exec on the emulated Pico: {}\n{}",
        stdout(&out),
        stderr(&out)
    );
    out
}

/// Largest errors of one program, for the report.
#[derive(Default)]
struct Worst {
    ramp_ns: u64,
    planned_pct: f64,
    step_late_ns: Vec<u64>,
    planned_ms: u64,
    emulated_ns: u64,
}

#[test]
fn exec_of_random_cubes_moves_every_actuator_as_planned() {
    let Some(elf) = available("cubed exec on the emulated Pico") else {
        return;
    };
    let pico = EmulatedPico::start(&elf, 7);
    assert_eq!(
        pico.serial_number, "NO-BOOT-ROM",
        "without a boot ROM the flash id cannot be read, and the serial number says so"
    );
    let (model, machine) = (four_arm(), four_arm_machine());
    let map = ActuatorMap::new(&model).expect("fits the protocol");
    let dir = tempfile::tempdir().expect("temp dir");
    let mut worst = Worst::default();
    let mut since_ns = 0;
    for seed in [3, 4] {
        let (_, program) = scrambled(&model, seed, 8);
        let path = program_file(&model, &program, dir.path(), &format!("{seed}.json"));
        let _ = exec(&pico, &path, &[]);
        let trace = pico.trace();
        let encoded = map
            .encode_program(&program, &model.home(), 1)
            .expect("encodes");
        let done = moves_done(&pico, since_ns);
        // Homing's commands, then the program's: its MoveDones are the last ones.
        let first = done.len() - encoded.groups.len();
        check_homed(&trace, &machine, done[first - 1]);
        check_program(
            &trace,
            &machine,
            &model,
            &program,
            &encoded,
            &done[first - 1..],
            &mut worst,
        );
        since_ns = trace.now_ns;
    }
    worst.step_late_ns.sort_unstable();
    let waits = pico.reply_wall_ms();
    eprintln!(
        "emulated Pico: the firmware answered the host's bytes within {:.1} ms wall time (median), \
         {:.1} ms (99th percentile), {:.1} ms at worst ({} of {} over the host's {} ms retransmit timeout)",
        waits[waits.len() / 2],
        waits[waits.len() * 99 / 100],
        waits[waits.len() - 1],
        waits.iter().filter(|&&ms| ms > 100.0).count(),
        waits.len(),
        firmware_protocol::timing::RETRANSMIT_TIMEOUT_MS
    );
    eprintln!(
        "emulated Pico, 2 programs of 8 turns: planned {} ms, emulated {:.1} ms; largest command error vs plan {:.1} %; \
         largest move duration error vs the core's ramp {:.1} µs; step lateness vs the ramp: median {:.1} µs, largest {:.1} µs",
        worst.planned_ms,
        worst.emulated_ns as f64 / 1e6,
        worst.planned_pct,
        worst.ramp_ns as f64 / 1e3,
        worst.step_late_ns[worst.step_late_ns.len() / 2] as f64 / 1e3,
        worst.step_late_ns.last().copied().unwrap_or(0) as f64 / 1e3,
    );
    // The firmware steps with the design's own ramp: the programs take what was planned,
    // give or take the host's round trips.
    let planned_ns = worst.planned_ms * 1_000_000;
    assert!(
        worst.emulated_ns.abs_diff(planned_ns) * 100 <= planned_ns,
        "the programs took {} ns on the emulated Pico, more than 1 % from the {} ms planned",
        worst.emulated_ns,
        worst.planned_ms
    );
    assert!(
        worst.planned_pct <= 1.0,
        "a command {:.1} % off its plan",
        worst.planned_pct
    );
    // The step interrupt wakes 12 µs early and USB masks it a few µs at a time; a step
    // a sleeping main loop left to its next wake would be ~1 ms late.
    let latest = worst.step_late_ns.last().copied().unwrap_or(0);
    assert!(
        latest <= 100_000,
        "a step {:.1} µs late against the core's ramp",
        latest as f64 / 1e3
    );
}

/// Where each stepper stands when homing ends, in microsteps, from its modelled
/// position now and every step since.
fn position_at(trace: &Trace, machine: &Machine, actuator: u8, at_ns: u64) -> i64 {
    let stepper = machine
        .steppers
        .iter()
        .find(|s| s.actuator == actuator)
        .expect("a modelled stepper");
    let since: i64 = trace
        .moves_between(stepper, at_ns, u64::MAX)
        .iter()
        .map(|m| m.distance())
        .sum();
    trace.positions[&actuator] - since
}

/// Homing ended on each hall sensor's edge: the firmware's 0 is where the sensor turns
/// on when approached from below (seek positive), 20 microsteps before the magnet.
fn check_homed(trace: &Trace, machine: &Machine, homed_ns: u64) {
    for stepper in &machine.steppers {
        let at = position_at(trace, machine, stepper.actuator, homed_ns);
        let angle = at.rem_euclid(stepper.microsteps_per_rev);
        assert_eq!(
            angle,
            stepper.microsteps_per_rev - 20,
            "{} homed at microstep {angle} of the turn, not on its sensor's edge",
            stepper.name
        );
    }
}

#[allow(clippy::too_many_arguments)]
fn check_program(
    trace: &Trace,
    machine: &Machine,
    model: &RobotModel,
    program: &Program,
    encoded: &EncodedProgram,
    done: &[u64],
    worst: &mut Worst,
) {
    let homed_ns = done[0];
    let home_positions: Vec<i64> = machine
        .steppers
        .iter()
        .map(|s| position_at(trace, machine, s.actuator, homed_ns))
        .collect();
    let mut before: Vec<i32> = vec![0; encoded.positions_after[0].len()];
    for (k, (step_index, _)) in encoded.groups.iter().enumerate() {
        let (start, end) = (done[k], done[k + 1]);
        let after = &encoded.positions_after[k];
        for stepper in &machine.steppers {
            let a = usize::from(stepper.actuator);
            let expected = i64::from(after[a] - before[a]) * STEPS_PER_QUARTER;
            let moves = trace.moves_between(stepper, start, end);
            if expected == 0 {
                assert!(
                    moves.is_empty(),
                    "command {k}: {} moved unasked",
                    stepper.name
                );
                continue;
            }
            assert_eq!(moves.len(), 1, "command {k}: {} moves once", stepper.name);
            let one = &moves[0];
            assert_eq!(
                one.distance(),
                expected,
                "command {k}: {} steps and direction",
                stepper.name
            );
            let ramp = pico_ramp(expected.unsigned_abs() as u32);
            let ideal_ns = ramp.duration_us() * 1000;
            let error = one.duration_ns(&ramp).abs_diff(ideal_ns);
            assert!(
                error <= ideal_ns / 100 + 1_000_000,
                "command {k}: {} took {} ns, the core's ramp {ideal_ns} ns",
                stepper.name,
                one.duration_ns(&ramp)
            );
            worst.ramp_ns = worst.ramp_ns.max(error);
            worst.step_late_ns.extend(one.step_errors_ns(&ramp));
        }
        let planned_ms = u64::from(program.steps[*step_index].ms(model));
        let emulated_ns = end - start;
        let pct = 100.0 * (emulated_ns as f64 / 1e6 - planned_ms as f64).abs() / planned_ms as f64;
        worst.planned_pct = worst.planned_pct.max(pct);
        worst.planned_ms += planned_ms;
        worst.emulated_ns += emulated_ns;
        before = after.clone();
    }
    let last = encoded.positions_after.last().expect("a command");
    for (stepper, home) in machine.steppers.iter().zip(&home_positions) {
        let a = usize::from(stepper.actuator);
        let now = trace.positions[&stepper.actuator];
        assert_eq!(
            now - home,
            i64::from(last[a]) * STEPS_PER_QUARTER,
            "{} ends where the plan puts it",
            stepper.name
        );
    }
    check_jaws(trace, machine, last);
}

/// Each jaw's last pulse is the width of where the plan leaves it (1 closed, 0 open).
fn check_jaws(trace: &Trace, machine: &Machine, last: &[i32]) {
    for servo in &machine.servos {
        let (actuator, pin) = (usize::from(servo.actuator), servo.pin);
        let width = trace
            .servo_pulses
            .iter()
            .rev()
            .find(|(_, gpio, _)| *gpio == pin)
            .map(|&(_, _, width)| width)
            .expect("the jaw's servo pulses");
        let jaw = design_jaw();
        let expected = if last[actuator] == 1 {
            jaw.closed_us
        } else {
            jaw.open_us
        };
        assert!(
            width.abs_diff(u32::from(expected)) <= 2,
            "jaw {actuator} on GP{pin}: pulse {width} µs, planned {expected} µs"
        );
    }
}

/// The six-motor design on the firmware as built, its motors counted from the emulated
/// chip's STEP and DIR pins: a face motor that ends a program a quarter off its home mark
/// is homed by the next program without turning its face (it finds its magnet and comes
/// back to the quarter it left). Three programs, U, U' and U: the up motor stands a
/// quarter apart after each, and the other five where they were.
#[test]
fn homing_between_programs_leaves_a_face_motor_on_the_quarter_it_left() {
    let Some(elf) = available("six-motor programs one after another on the emulated Pico") else {
        return;
    };
    let pico = EmulatedPico::start_design(&elf, 11, "six-motor");
    let model = cubed::robot::shipped_design("six-motor").expect("six-motor loads");
    let map = ActuatorMap::new(&model).expect("fits the protocol");
    let up = map
        .index_of(cubed::robot::Role::Rotation { gripper: 0 })
        .expect("the up motor");
    let design = crate::common::shipped_design_arg("six-motor");
    let port = pico.port.display().to_string();
    let mut after = Vec::new();
    for moves in ["U", "U'", "U"] {
        let args = [
            "exec", "--port", &port, "--robot", &design, "--moves", moves,
        ];
        let out = cubed(&args, None);
        assert!(out.status.success(), "{moves}: {}", stderr(&out));
        after.push(pico.trace().positions);
    }
    let rev = 4 * STEPS_PER_QUARTER;
    let apart = |a: &std::collections::BTreeMap<u8, i64>,
                 b: &std::collections::BTreeMap<u8, i64>,
                 motor: u8| { (b[&motor] - a[&motor]).rem_euclid(rev) };
    assert_eq!(after[0].len(), 6, "six motors: {:?}", after[0]);
    for motor in after[0].keys().copied() {
        let turned = if motor == up {
            [rev - STEPS_PER_QUARTER, STEPS_PER_QUARTER]
        } else {
            [0, 0]
        };
        assert_eq!(
            [
                apart(&after[0], &after[1], motor),
                apart(&after[1], &after[2], motor)
            ],
            turned,
            "motor {motor} (up is {up}), positions after each program: {after:?}"
        );
    }
}

/// Four-arm on the firmware as built, its motors counted from the emulated chip's STEP and
/// DIR pins, not wrapped round the turn: a gripper left a quarter off its mark (its jaw's
/// wiring turns with it) is homed by the next exec back the way it came. Before, each exec
/// homed it on round the turn, winding the wiring one turn more every time.
#[test]
fn homing_turns_a_limited_gripper_back_the_way_it_came_not_on_round() {
    let Some(elf) = available("four-arm grippers homed again on the emulated Pico") else {
        return;
    };
    let pico = EmulatedPico::start_design(&elf, 12, "four-arm");
    let model = cubed::robot::shipped_design("four-arm").expect("four-arm loads");
    let map = ActuatorMap::new(&model).expect("fits the protocol");
    let design = crate::common::shipped_design_arg("four-arm");
    let port = pico.port.display().to_string();
    let mut after = Vec::new();
    for (turn, moves) in [("+1", 1), ("+1", 1), ("-1", -1)] {
        let actions = format!("open front; turn front {turn}; close front");
        let args = [
            "exec",
            "--port",
            &port,
            "--robot",
            &design,
            "--actions",
            &actions,
        ];
        let out = cubed(&args, None);
        assert!(out.status.success(), "{actions}: {}", stderr(&out));
        after.push((moves, pico.trace().positions));
    }
    let front = (0..model.grippers.len())
        .find(|&g| model.grippers[g].name == "front")
        .and_then(|g| map.index_of(cubed::robot::Role::Rotation { gripper: g }))
        .expect("the front motor");
    // From the first exec's home: each exec leaves front its quarter off that same home.
    let home = after[0].1[&front] - STEPS_PER_QUARTER;
    for (i, (quarters, positions)) in after.iter().enumerate() {
        assert_eq!(
            positions[&front] - home,
            quarters * STEPS_PER_QUARTER,
            "exec {i}: front stands {} microsteps from its first home (positions {positions:?})",
            positions[&front] - home
        );
    }
}
