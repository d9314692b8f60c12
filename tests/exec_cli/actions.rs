//! `cubed exec --actions`: single actuators moved as written and where each ends, refusals of impossible actions, an empty robot moving freely and a flip with a turn jamming.

use super::sim_report;
use crate::common::{cubed, start_sim, stderr, stdout};

/// First power-up: single actuators moved as written, their positions said after; the
/// simulator's own cube shows what the motors did (front and back open, the left gripper's
/// quarter turn is an L). A turn past a gripper's range, or a name the design lacks, is
/// refused before anything moves, naming the step and the action.
#[test]
fn exec_actions_move_single_actuators_and_say_where_each_ends() {
    use cubed::cube::{parse_moves, FaceletCube, Notation};
    let dir = tempfile::tempdir().expect("temp dir");
    let (report, link) = (dir.path().join("report.json"), dir.path().join("robot"));
    let mut sim = start_sim(&["--speed", "0"], &report, &link);
    let port = link.to_string_lossy().into_owned();
    let run = |actions: &str| cubed(&["exec", "--port", &port, "--actions", actions], None);
    let moved = run("open front, open back; turn left +1");
    // Front and back grip the right layer across its axis: that turn jams (a stall), and
    // where the actuators stand is then not said as if known.
    let jammed = run("close front, close back; turn right -1");
    let refused = [
        run("open front, open back; turn left +1; turn left +1"),
        run("open lfet"),
    ];
    drop(sim.stdin.take());
    sim.wait().expect("the simulator exits");
    let said = stdout(&moved);
    assert!(moved.status.success(), "{}", stderr(&moved));
    // Each action is said as it is done, after the homing, once.
    let told = stderr(&moved);
    let done: Vec<&str> = (told.lines())
        .filter_map(|l| l.strip_prefix("cubed exec: done: "))
        .map(|l| l.split(" (").next().unwrap_or(l))
        .collect();
    assert_eq!(
        done,
        ["homing", "open front and open back", "turn left +1"],
        "{told}"
    );
    assert_eq!(jammed.status.code(), Some(1), "{}", stderr(&jammed));
    assert!(stderr(&jammed).contains("stall"), "{}", stderr(&jammed));
    assert!(
        !stdout(&jammed).contains("stands now"),
        "{}",
        stdout(&jammed)
    );
    for line in [
        "where each actuator stands now:",
        "the jaw of gripper 'front': open",
        "the jaw of gripper 'left': closed",
        "the motor of gripper 'left': +1 quarter turn from home",
        "the motor of gripper 'right': at home",
    ] {
        assert!(said.lines().any(|l| l == line), "{line}: {said}");
    }
    let l_turn = parse_moves("L", Notation::Singmaster).expect("a move");
    let (report, text) = sim_report(&report);
    let turned = FaceletCube::default().apply_all(&l_turn).to_string();
    assert_eq!(report["cube"], turned.as_str(), "{text}");
    for (out, words) in refused
        .iter()
        .zip(["step 3, action 1", "has no gripper 'lfet'"])
    {
        assert_eq!(out.status.code(), Some(2), "{}", stderr(out));
        assert!(stderr(out).contains(words), "{words}: {}", stderr(out));
    }
}

/// A bench with the cube taken out (`sim --no-cube`): a turn that jams with a cube in (the
/// left gripper's, front and back holding) moves freely; the report has no cube. With the
/// cube in, a flip while the turntable turns jams, though the two motors start at different
/// instants.
#[test]
fn exec_actions_on_an_empty_robot_move_freely_and_a_flip_with_a_turn_jams_with_a_cube() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (report, link) = (dir.path().join("report.json"), dir.path().join("robot"));
    let port = link.to_string_lossy().into_owned();
    let mut sim = start_sim(&["--speed", "0", "--no-cube"], &report, &link);
    let turned = cubed(
        &["exec", "--port", &port, "--actions", "turn left +1"],
        None,
    );
    drop(sim.stdin.take());
    sim.wait().expect("the simulator exits");
    assert!(turned.status.success(), "{}", stderr(&turned));
    let said = stdout(&turned);
    assert!(
        said.contains("the motor of gripper 'left': +1 quarter turn from home"),
        "{said}"
    );
    let (empty, text) = sim_report(&report);
    assert_eq!(empty["cube"], serde_json::Value::Null, "{text}");
    assert_eq!(empty["faults"], serde_json::json!([]), "{text}");

    let robot = ["--robot", "turntable-flipper"];
    let mut sim = start_sim(&[&["--speed", "0"][..], &robot].concat(), &report, &link);
    let exec = |actions: &str| {
        let args = [
            &["exec", "--port", &port][..],
            &robot,
            &["--actions", actions],
        ];
        cubed(&args.concat(), None)
    };
    let jammed = exec("open holder; flip flipper, turn turntable +1");
    drop(sim.stdin.take());
    let said = sim.wait_with_output().expect("the simulator exits");
    assert_eq!(jammed.status.code(), Some(1), "{}", stderr(&jammed));
    // The host can only say that it stalled; it points at where the simulator says why.
    let told = stderr(&jammed);
    assert!(
        told.contains("stalled") && told.contains("the simulator says what stopped it"),
        "{told}"
    );
    let (held, text) = sim_report(&report);
    let fault = held["faults"][0]["reason"].as_str().unwrap_or_default();
    assert!(fault.contains("flipper"), "{text}");
    // The simulator says why at its terminal as it happens, as the report does after.
    assert!(stderr(&said).contains(fault), "{}", stderr(&said));
}
