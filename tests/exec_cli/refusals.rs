//! What `cubed exec` refuses before anything moves: illegal programs, actuators or designs a program names wrongly, missing files or link folders, a simulator of another design.

use super::sim_report;
use crate::common::{cubed, start_sim, stderr};

#[test]
fn exec_refuses_an_illegal_program_file_naming_the_step_and_the_reason() {
    let dir = tempfile::tempdir().expect("temp dir");
    let program = opening_left_then(dir.path(), "front");
    let port = dir.path().join("no-such-port");
    let out = cubed(
        &[
            "exec",
            "--port",
            port.to_str().expect("utf-8 path"),
            "--program",
            program.to_str().expect("utf-8 path"),
        ],
        None,
    );
    let err = stderr(&out);
    assert!(!out.status.success(), "an illegal program must not run");
    assert!(err.contains("step 2 (open front)"), "{err}");
    assert!(err.contains("would fall"), "{err}");
    assert!(
        !err.contains("no-such-port"),
        "refused before the port is opened: {err}"
    );
}

#[test]
fn exec_refuses_a_program_naming_an_actuator_the_robot_lacks_by_file_and_step() {
    let dir = tempfile::tempdir().expect("temp dir");
    let program = opening_left_then(dir.path(), "lefty");
    let program = program.to_string_lossy().into_owned();
    let port = dir.path().join("no-such-port");
    let port = port.to_string_lossy().into_owned();
    let out = cubed(&["exec", "--port", &port, "--program", &program], None);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let said = format!("{program}: step 2: robot 'four-arm' has no gripper called 'lefty'");
    assert!(stderr(&out).contains(&said), "{}", stderr(&out));
}

#[test]
fn exec_refuses_a_program_planned_for_another_design() {
    let dir = tempfile::tempdir().expect("temp dir");
    let program = opening_left_then(dir.path(), "front");
    let text = std::fs::read_to_string(&program).expect("program");
    std::fs::write(
        &program,
        text.replace("\"four-arm\"", "\"turntable-flipper\""),
    )
    .expect("write");
    let program = program.to_string_lossy().into_owned();
    let port = dir
        .path()
        .join("no-such-port")
        .to_string_lossy()
        .into_owned();
    let out = cubed(&["exec", "--port", &port, "--program", &program], None);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("planned for robot 'turntable-flipper', not 'four-arm'"),
        "{}",
        stderr(&out)
    );
}

/// `cubed plan`'s text output given as a program: refused saying what a program file is.
#[test]
fn exec_refuses_plans_text_output_as_a_program_saying_which_output_to_give() {
    let dir = tempfile::tempdir().expect("temp dir");
    let plan = cubed(&["plan", "--robot", "four-arm", "--moves", "R U"], None);
    assert!(plan.status.success(), "{}", stderr(&plan));
    let program = dir.path().join("plan.txt");
    std::fs::write(&program, &plan.stdout).expect("write");
    let program = program.to_string_lossy().into_owned();
    let port = dir.path().join("no-such-port");
    let port = port.to_string_lossy().into_owned();
    let out = cubed(&["exec", "--port", &port, "--program", &program], None);
    let said = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(said.contains(&format!("{program}: ")), "{said}");
    assert!(
        said.contains("not JSON: a program file is what `cubed plan … --format json` writes"),
        "{said}"
    );
}

/// A program document's `starts_held` and `ends_held` are held to what `--start` takes.
#[test]
fn exec_refuses_a_program_starting_from_a_holding_that_cannot_be() {
    let dir = tempfile::tempdir().expect("temp dir");
    let program = opening_left_then(dir.path(), "front");
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&program).expect("program")).expect("JSON");
    let port = dir.path().join("no-such-port");
    let port = port.to_string_lossy().into_owned();
    let cases = [
        ("starts_held", "UD", "U and D are opposite faces"),
        ("starts_held", "XX", "give two face letters"),
        ("ends_held", "QQ", "give two face letters"),
    ];
    for (key, held, why) in cases {
        let mut doc = doc.clone();
        doc[key] = held.into();
        std::fs::write(&program, doc.to_string()).expect("write");
        let path = program.to_string_lossy();
        let out = cubed(&["exec", "--port", &port, "--program", &path], None);
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        let said = format!("{path}: {key} '{held}': {why}");
        assert!(stderr(&out).contains(&said), "{}", stderr(&out));
    }
}

/// A four-arm program file that opens the left gripper, then the actuator named `second`.
fn opening_left_then(dir: &std::path::Path, second: &str) -> std::path::PathBuf {
    let program = dir.join(format!("open-left-then-{second}.json"));
    let open = |actuator: &str| serde_json::json!({"op": "open", "actuator": actuator});
    let doc = serde_json::json!({
        "robot": "four-arm",
        "steps": [
            {"at_ms": 0, "ms": 100, "actions": [open("left")]},
            {"at_ms": 100, "ms": 100, "actions": [open(second)]},
        ],
        "total_ms": 200, "face_turns": 0, "cube_rotations": 0, "solution": "",
    });
    std::fs::write(&program, doc.to_string()).expect("writes the program");
    program
}

/// Inputs that cannot be used are refused with exit 2 naming them, before anything runs: a
/// program file that is not there, a simulator link in a folder that is not there.
#[test]
fn a_missing_program_file_or_link_folder_is_refused_naming_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let missing = dir.path().join("nowhere/program.json");
    let missing = missing.to_string_lossy();
    let out = cubed(
        &["exec", "--port", "/dev/null", "--program", &missing],
        None,
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains(&*missing), "{}", stderr(&out));
    let link = dir.path().join("nowhere/robot");
    let out = cubed(&["sim", "--pty", "--link", &link.to_string_lossy()], None);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("does not exist"), "{}", stderr(&out));
}

/// A simulator of one design driven as another is told apart at `Hello`, before anything
/// moves, instead of ending in a home sensor "not found" on a robot that has none.
#[test]
fn exec_refuses_a_simulator_of_another_design_before_anything_moves() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (report, link) = (dir.path().join("report.json"), dir.path().join("robot"));
    let port = link.to_string_lossy().into_owned();
    let sim_args = ["--speed", "0", "--robot", "six-motor"];
    let mut sim = start_sim(&sim_args, &report, &link);
    let exec = |robot: &str| {
        let args = ["exec", "--port", &port, "--robot", robot, "--moves", "R"];
        cubed(&args, None)
    };
    let other = exec("four-arm");
    let same = exec("six-motor");
    drop(sim.stdin.take());
    sim.wait().expect("the simulator exits");
    assert_eq!(other.status.code(), Some(1), "{}", stderr(&other));
    assert!(
        stderr(&other).contains("simulates another robot, the shipped design 'six-motor'"),
        "{}",
        stderr(&other)
    );
    assert!(same.status.success(), "{}", stderr(&same));
    let (report, text) = sim_report(&report);
    assert_eq!(report["faults"], serde_json::json!([]), "{text}");
    assert_eq!(
        report["moves_executed"], 7,
        "only the second exec moved: {text}"
    );
}
