//! `cubed exec` as a user runs it: against `cubed sim --pty` in another process, a scrambled cube given by its facelets (a 3x3, or a 2x2 with `--size 2` on both) is solved robot-aware, streamed and left solved in the simulator.

use crate::common::{cubed, start_sim, stderr, stdout};
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

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

#[test]
fn ctrl_c_on_exec_sends_an_emergency_stop_and_the_robot_halts() {
    let out = cubed(&["scramble", "--seed", "7"], None);
    let cube = stdout(&out).trim().to_string();
    let dir = tempfile::tempdir().expect("temp dir");
    let (report, link) = (dir.path().join("report.json"), dir.path().join("robot"));
    // Real time: the whole program takes tens of seconds.
    let mut sim = start_sim(&["--speed", "1", "--cube", &cube], &report, &link);
    let mut exec = Command::new(env!("CARGO_BIN_EXE_cubed"))
        .args(["exec", "--tables", "small", "--facelets", &cube, "--port"])
        .arg(&link)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("exec starts");
    let mut said = BufReader::new(exec.stderr.take().expect("stderr is piped")).lines();
    // (Which robot it drives comes first, and building the planning graph may say how far
    // it got, on a loaded machine.)
    let streaming = said
        .by_ref()
        .map(|line| line.expect("readable"))
        .find(|line| {
            !line.starts_with("cubed: exploring") && !line.starts_with("cubed exec: robot")
        })
        .expect("exec says it streams");
    assert!(streaming.contains("streaming"), "{streaming}");
    let total: u64 = (streaming.split_whitespace())
        .find_map(|word| word.parse().ok())
        .expect("the number of commands");
    let sent = Command::new("kill")
        .args(["-INT", &exec.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success());
    let status = exec.wait().expect("exec exits");
    let rest: Vec<String> = said.map_while(Result::ok).collect();
    drop(sim.stdin.take());
    sim.wait().expect("the simulator exits");
    // As a shell reports a program Ctrl-C ended: 128 + SIGINT.
    assert_eq!(status.code(), Some(130), "{rest:?}");
    let rest = rest.join("\n");
    assert!(rest.contains("emergency stop after"), "{rest}");
    assert!(
        !rest.contains("e-stop input"),
        "this program's own stop: {rest}"
    );
    assert!(
        rest.contains("interrupted: an emergency stop was sent"),
        "{rest}"
    );
    assert!(rest.contains("give the next program --reset"), "{rest}");
    let (report, text) = sim_report(&report);
    let executed = report["moves_executed"].as_u64().expect("moves_executed");
    assert!(
        executed < total,
        "the robot halted: {executed} of {total} ran"
    );
    assert_eq!(report["solved"], false, "{text}");
}

/// `cubed exec --port link` with `args`: its exit code and its stderr.
fn exec_on(link: &std::path::Path, args: &[&str]) -> (Option<i32>, String) {
    let port = link.to_string_lossy().into_owned();
    let mut all = vec!["exec", "--port", port.as_str()];
    all.extend_from_slice(args);
    let out = cubed(&all, None);
    (out.status.code(), stderr(&out))
}

#[test]
fn an_emergency_stop_pressed_on_the_robot_is_cleared_only_by_exec_reset_once_released() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (report, link) = (dir.path().join("report.json"), dir.path().join("robot"));
    // The button is pressed after the second command and held for 6 s (the firmware core's
    // own e-stop input: the witness is the firmware, not the host's idea of it).
    let faults = "estop-at-move=2,estop-for=6s";
    let mut sim = start_sim(&["--speed", "0", "--faults", faults], &report, &link);

    let (code, said) = exec_on(&link, &["--moves", "R U"]);
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("emergency stop after"), "{said}");
    assert!(said.contains("e-stop input stopped it"), "{said}");
    assert!(said.contains("give the next program --reset"), "{said}");

    // Held: the firmware will not clear it, and says why.
    let (code, said) = exec_on(&link, &["--moves", "R U", "--reset"]);
    assert_eq!(code, Some(1), "{said}");
    assert!(
        said.contains("would not clear the emergency stop"),
        "{said}"
    );
    assert!(said.contains("release the e-stop button"), "{said}");

    // Without --reset nothing clears it, released or not.
    let (code, said) = exec_on(&link, &["--moves", "R U"]);
    assert_eq!(code, Some(1), "{said}");
    assert!(
        said.contains("holds the emergency stop latched from before this session"),
        "{said}"
    );
    assert!(said.contains("cubed exec --reset"), "{said}");

    // Once the button is let go, --reset clears it and the program runs.
    let began = std::time::Instant::now();
    let (code, said) = loop {
        let (code, said) = exec_on(&link, &["--moves", "U F' F U'", "--reset"]);
        if code == Some(0) || began.elapsed() > std::time::Duration::from_secs(30) {
            break (code, said);
        }
        assert!(said.contains("would not clear"), "{said}");
        std::thread::sleep(std::time::Duration::from_millis(500));
    };
    assert_eq!(code, Some(0), "{said}");
    assert!(
        said.contains("cleared the emergency stop, latched from before"),
        "{said}"
    );
    // With nothing latched, --reset says so and runs.
    let (code, said) = exec_on(&link, &["--moves", "R R'", "--reset"]);
    assert_eq!(code, Some(0), "{said}");
    assert!(said.contains("nothing was latched to clear"), "{said}");
    drop(sim.stdin.take());
    sim.wait().expect("the simulator exits");
    let (report, text) = sim_report(&report);
    assert_eq!(report["solved"], true, "{text}");
    assert_eq!(report["faults"], serde_json::json!([]), "{text}");
}

#[test]
fn a_robot_powered_on_with_its_e_stop_pressed_is_sent_nothing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (report, link) = (dir.path().join("report.json"), dir.path().join("robot"));
    let faults = "estop-at-move=0,estop-for=60s";
    let mut sim = start_sim(&["--speed", "0", "--faults", faults], &report, &link);
    let (code, said) = exec_on(&link, &["--moves", "R U"]);
    drop(sim.stdin.take());
    sim.wait().expect("the simulator exits");
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("latched before this program"), "{said}");
    assert!(said.contains("nothing was sent"), "{said}");
    let (report, text) = sim_report(&report);
    assert_eq!(report["moves_executed"], 0, "{text}");
}

/// The simulator's JSON report at `path`, and its text (for messages).
fn sim_report(path: &std::path::Path) -> (serde_json::Value, String) {
    let text = std::fs::read_to_string(path).expect("the simulator wrote its report");
    let report = serde_json::from_str(&text).expect("the report is JSON");
    (report, text)
}

/// An unplug mid-program, with exec's output going to a file (a log, not a terminal): the
/// loss and the restore are still said, and counted alike at the end.
#[test]
fn exec_logs_its_progress_and_a_lost_and_restored_link_when_its_output_is_no_terminal() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (report, link) = (dir.path().join("report.json"), dir.path().join("robot"));
    let faults = "unplug-at-move=3,unplug-for=300ms";
    let mut sim = start_sim(&["--speed", "2", "--faults", faults], &report, &link);
    let port = link.to_string_lossy().into_owned();
    let out = cubed(&["exec", "--port", &port, "--moves", "R U F D L B"], None);
    drop(sim.stdin.take());
    sim.wait().expect("the simulator exits");
    let (said, done) = (stderr(&out), stdout(&out));
    assert!(out.status.success(), "{said}");
    assert!(said.contains("cubed exec: link lost on"), "{said}");
    assert!(said.contains("cubed exec: link restored on"), "{said}");
    assert!(done.contains("(1 link loss, 1 restored)"), "{done}");
    // Progress too, a line at each tenth, the last at the end.
    let progress: Vec<&str> = (said.lines())
        .filter(|l| l.contains("commands done"))
        .collect();
    assert_eq!(progress.len(), 10, "{said}");
    let total = done.split_whitespace().nth(1).unwrap_or("?");
    let last = format!("cubed exec: {total} of {total} commands done");
    assert!(progress[9].starts_with(&last), "{last}: {said}");
    let (report, text) = sim_report(&report);
    assert_eq!(report["unplugs"], 1, "{text}");
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

/// A second simulator started on a link a live one holds says so and takes it; the first, when
/// it stops, leaves the second's link alone (it removed any link there, stranding the second).
#[test]
fn a_simulator_that_stops_removes_its_own_link_only() {
    use nix::sys::signal::{kill, Signal};
    use nix::unistd::Pid;
    let dir = tempfile::tempdir().expect("temp dir");
    let link = dir.path().join("robot");
    let first = start_sim(&["--speed", "0"], &dir.path().join("a.json"), &link);
    let mut second = start_sim(&["--speed", "0"], &dir.path().join("b.json"), &link);
    let second_pty = std::fs::read_link(&link).expect("the second's link");
    let stop = |child: &std::process::Child| {
        kill(Pid::from_raw(child.id() as i32), Signal::SIGTERM).expect("signalled")
    };
    stop(&first);
    let first_said = first.wait_with_output().expect("the first stops");
    assert!(first_said.status.success(), "{first_said:?}");
    assert_eq!(
        std::fs::read_link(&link).ok(),
        Some(second_pty),
        "the second keeps its link"
    );
    let moved = cubed(
        &["exec", "--port", &link.to_string_lossy(), "--moves", "R"],
        None,
    );
    assert!(moved.status.success(), "{}", stderr(&moved));
    stop(&second);
    let mut warned = String::new();
    use std::io::Read;
    second
        .stderr
        .take()
        .expect("piped")
        .read_to_string(&mut warned)
        .expect("read");
    second.wait().expect("the second stops");
    assert!(warned.contains("which is still there"), "{warned}");
    assert!(
        link.symlink_metadata().is_err(),
        "the second removed its own link"
    );
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
