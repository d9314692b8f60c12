//! `cubed exec` solving and running programs in the simulator: a scrambled 3x3 or 2x2, a cube loaded another way up, a second program undoing the first, a design with times only.

use super::{exec_on, sim_report};
use crate::common::{cubed, start_sim, stderr, stdout};

#[test]
fn exec_solves_the_cube_in_a_simulator_it_reaches_over_a_pty() {
    let out = cubed(&["scramble", "--seed", "12"], None);
    assert!(out.status.success(), "{}", stderr(&out));
    let cube = stdout(&out).trim().to_string();
    let dir = tempfile::tempdir().expect("temp dir");
    let (report, link) = (dir.path().join("report.json"), dir.path().join("robot"));
    let mut sim = start_sim(&["--speed", "0", "--cube", &cube], &report, &link);
    let pty = link.to_string_lossy().into_owned();

    let exec = cubed(
        &[
            "exec",
            "--port",
            &pty,
            "--facelets",
            &cube,
            "--tables",
            "small",
            "--budget-ms",
            "50",
        ],
        None,
    );
    // A second program: the first left grippers closed and turned away from home; homing them
    // all at once would turn the cube (the simulator faults). Homed in the recovery plan's
    // order, a program of no net change leaves the cube solved.
    let again = cubed(&["exec", "--port", &pty, "--moves", "U F' F U'"], None);
    drop(sim.stdin.take()); // end of input: the simulator quits and writes its report
    let status = sim.wait().expect("the simulator exits");
    assert!(exec.status.success(), "exec failed: {}", stderr(&exec));
    assert!(again.status.success(), "second exec: {}", stderr(&again));
    // What it runs is said before it runs, as `cubed plan` says it.
    let said = stderr(&exec);
    assert!(
        said.contains("cubed exec: planned ") && said.contains("on robot 'four-arm': "),
        "{said}"
    );
    assert!(
        said.contains(" face turns, ") && said.contains("; solution "),
        "{said}"
    );
    assert!(status.success(), "simulator exit {status:?}");
    assert!(
        link.symlink_metadata().is_err(),
        "the link goes with the simulator"
    );

    let (report, text) = sim_report(&report);
    assert_eq!(report["solved"], true, "{text}");
    assert_eq!(report["faults"], serde_json::json!([]), "{text}");
    assert!(report["moves_executed"].as_u64().unwrap_or(0) > 0, "{text}");
    // Each exec is a session of its own, its move ids from 1: none ran twice.
    assert_eq!(report["move_ids_run_twice"], 0, "{text}");
}

#[test]
fn exec_size_2_solves_a_2x2_held_by_a_simulator_started_with_size_2() {
    let out = cubed(&["scramble", "--size", "2", "--seed", "12"], None);
    assert!(out.status.success(), "{}", stderr(&out));
    let cube = stdout(&out).trim().to_string();
    assert_eq!(cube.len(), 24, "{cube}");
    let dir = tempfile::tempdir().expect("temp dir");
    let (report, link) = (dir.path().join("report.json"), dir.path().join("robot"));
    let args = ["--speed", "0", "--size", "2", "--cube", &cube];
    let mut sim = start_sim(&args, &report, &link);
    let pty = link.to_string_lossy().into_owned();
    let exec = cubed(
        &["exec", "--size", "2", "--port", &pty, "--facelets", &cube],
        None,
    );
    drop(sim.stdin.take());
    let status = sim.wait().expect("the simulator exits");
    assert!(exec.status.success(), "exec failed: {}", stderr(&exec));
    assert!(status.success(), "simulator exit {status:?}");
    let (report, text) = sim_report(&report);
    assert_eq!(report["solved"], true, "{text}");
    let held = report["cube"].as_str().unwrap_or_default();
    assert_eq!(held.len(), 24, "{text}");
    // Judged apart from the report's own word: every face of the 24 stickers one colour.
    assert!(
        held.as_bytes()
            .chunks(4)
            .all(|face| face.iter().all(|&s| s == face[0])),
        "{text}"
    );
    assert!(report["moves_executed"].as_u64().unwrap_or(0) > 0, "{text}");
    // A design that turns faces by their centre caps cannot hold one.
    let refused = cubed(
        &["sim", "--pty", "--robot", "six-motor", "--size", "2"],
        None,
    );
    assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
    assert!(
        stderr(&refused).contains("a 2x2 has none"),
        "{}",
        stderr(&refused)
    );
    // Slips and hands are what a simulated camera sees: the robot served alone refuses them.
    for fault in ["slip-at-turn=5", "hand-at-turn=2"] {
        let refused = cubed(&["sim", "--pty", "--faults", fault], None);
        assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
        assert!(
            stderr(&refused).contains(fault) && stderr(&refused).contains("cubed dry-run"),
            "{}",
            stderr(&refused)
        );
    }
}

/// A cube put in with F up and R to the front, on a design that never turns the cube and on
/// one that does: `exec --start FR` turns the faces the moves name, as the simulator's own
/// cube (named by its centres) shows.
#[test]
fn exec_turns_the_named_faces_of_a_cube_loaded_another_way_up() {
    use cubed::cube::{parse_moves, FaceletCube, Notation};
    let moves = "R U F'";
    // F up and R to the front put U at the right: R U F' turns the robot's front, right and
    // up faces (by hand, not by the planner). The simulator names stickers by where their
    // colours' centres were when the cube was put in: the robot's frame then.
    let places = parse_moves("F R U'", Notation::Singmaster).expect("moves");
    let expected = FaceletCube::default().apply_all(&places).to_string();
    for design in ["six-motor", "four-arm"] {
        let dir = tempfile::tempdir().expect("temp dir");
        let (report, link) = (dir.path().join("report.json"), dir.path().join("robot"));
        let robot = crate::common::shipped_design_arg(design);
        let args = ["--speed", "0", "--robot", &robot];
        let mut sim = start_sim(&args, &report, &link);
        let (code, said) = exec_on(
            &link,
            &["--robot", &robot, "--start", "FR", "--moves", moves],
        );
        drop(sim.stdin.take());
        sim.wait().expect("the simulator exits");
        assert_eq!(code, Some(0), "{design}: {said}");
        let (report, text) = sim_report(&report);
        assert_eq!(report["cube"], expected.as_str(), "{design}: {text}");
    }
    // A program document runs as planned: --start belongs to `cubed plan`.
    let (code, said) = exec_on(
        std::path::Path::new("/nonexistent/port"),
        &["--program", "/nonexistent/program.json", "--start", "FR"],
    );
    assert_eq!(code, Some(2), "{said}");
    assert!(said.contains("give --start to `cubed plan`"), "{said}");
}

/// Two programs, one after the other, on each shipped design: the second given the holding
/// the first says it ends in, and undoing it. The second exec homes the robot first (a face
/// motor or a turntable finds its mark and comes back), so only the simulator's own cube,
/// solved at the end, shows that neither homing nor the holding said turned anything.
#[test]
fn a_second_program_given_the_holding_the_first_ends_in_undoes_it() {
    for design in ["four-arm", "six-motor", "turntable-flipper"] {
        let dir = tempfile::tempdir().expect("temp dir");
        let (report, link) = (dir.path().join("report.json"), dir.path().join("robot"));
        let robot = crate::common::shipped_design_arg(design);
        let mut sim = start_sim(&["--speed", "0", "--robot", &robot], &report, &link);
        let port = link.to_string_lossy().into_owned();
        let first = cubed(
            &[
                "exec",
                "--port",
                &port,
                "--robot",
                &robot,
                "--moves",
                "R U F' D2 L",
            ],
            None,
        );
        let said = stdout(&first);
        assert!(first.status.success(), "{design}: {}", stderr(&first));
        let held = said
            .lines()
            .find_map(|l| l.strip_prefix("the cube ends held "))
            .and_then(|l| l.rsplit("--start ").next())
            .unwrap_or_else(|| panic!("{design}: no holding said: {said}"))
            .to_string();
        let second = cubed(
            &[
                "exec",
                "--port",
                &port,
                "--robot",
                &robot,
                "--start",
                &held,
                "--moves",
                "L' D2 F U' R'",
            ],
            None,
        );
        drop(sim.stdin.take());
        sim.wait().expect("the simulator exits");
        assert!(second.status.success(), "{design}: {}", stderr(&second));
        let (report, text) = sim_report(&report);
        assert_eq!(report["faults"], serde_json::json!([]), "{design}: {text}");
        assert_eq!(report["solved"], true, "{design} (held {held}): {text}");
    }
}

#[test]
fn a_design_with_times_and_no_motion_tables_runs_on_the_simulator() {
    // Four-arm as a builder may first write it: times only, no [motion], wiring or board.
    let shipped = std::fs::read_to_string(crate::common::shipped_design_file("four-arm"))
        .expect("shipped design");
    let mut design = String::new();
    let mut skipping = false;
    for line in shipped.lines() {
        let table = line.starts_with('[');
        if table {
            skipping = ["[gripper.motion]", "[gripper.wiring]", "[board]"].contains(&line.trim());
        }
        if !skipping {
            design.push_str(line);
            design.push('\n');
        }
    }
    // Times whose closed-form ramp needs microsteps a second the firmware cannot count whole.
    let design = design
        .replace("quarter_ms = 150", "quarter_ms = 180")
        .replace("half_ms = 250", "half_ms = 300");
    assert!(!design.contains("motion") && design.contains("quarter_ms = 180"));
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("times-only.toml");
    std::fs::write(&file, design).expect("written");
    let file = file.to_str().expect("utf-8");
    let (report, link) = (dir.path().join("report.json"), dir.path().join("robot"));
    let mut sim = start_sim(&["--speed", "0", "--robot", file], &report, &link);
    let pty = link.to_string_lossy().into_owned();
    let exec = cubed(
        &[
            "exec",
            "--port",
            &pty,
            "--robot",
            file,
            "--moves",
            "R U2 F' F U2 R'",
        ],
        None,
    );
    drop(sim.stdin.take());
    let status = sim.wait().expect("the simulator exits");
    assert!(exec.status.success(), "exec: {}", stderr(&exec));
    assert!(status.success(), "simulator exit {status:?}");
    let (report, text) = sim_report(&report);
    assert_eq!(
        (report["solved"].clone(), report["faults"].clone()),
        (true.into(), serde_json::json!([])),
        "{text}"
    );
}
