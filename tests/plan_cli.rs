//! `cubed plan` on cubes, run as a user runs it: the JSON program replays to solved on every shipped design, and the robot-aware default never loses to `--naive`.

use crate::common::{cubed, stderr, stdout};
use cubed::cube::{parse_cube, FaceOrder};
use cubed::robot::{load_robot, replay, ProgramDoc, RobotModel};

fn design(name: &str) -> (String, RobotModel) {
    let path = crate::common::shipped_design_file(name.trim_end_matches(".toml"));
    let model = load_robot(&path).expect("shipped design loads");
    (path.display().to_string(), model)
}

fn scrambles(count: &str) -> Vec<String> {
    let out = cubed(&["scramble", "--seed", "9", "--count", count], None);
    assert!(out.status.success());
    stdout(&out).lines().map(str::to_string).collect()
}

/// Runs `cubed plan --facelets … --format json --tables small` and returns the program document.
fn plan_json(robot: &str, facelets: &str, extra: &[&str]) -> ProgramDoc {
    let mut args = vec![
        "plan",
        "--robot",
        robot,
        "--facelets",
        facelets,
        "--format",
        "json",
        "--tables",
        "small",
        "--budget-ms",
        "30",
    ];
    args.extend_from_slice(extra);
    let out = cubed(&args, None);
    assert!(out.status.success(), "{}", stderr(&out));
    serde_json::from_str(&stdout(&out)).expect("the output is a program document")
}

fn replays_to_solved(model: &RobotModel, facelets: &str, doc: &ProgramDoc) {
    let (cube, _, _) = parse_cube(facelets, FaceOrder::Urfdlb, None).expect("valid cube");
    let program = doc.to_program(model).expect("names resolve");
    let result = replay(model, model.home(), &cube, &program).expect("every step is legal");
    assert!(
        result.end.cube_frame().is_solved(),
        "{}: not solved",
        model.name
    );
    assert_eq!(result.total_ms, doc.total_ms);
    assert_eq!(result.turns.len(), doc.face_turns);
}

#[test]
fn a_planned_cube_replays_to_solved_on_every_design() {
    let cube = &scrambles("1")[0];
    for name in ["four-arm.toml", "turntable-flipper.toml", "six-motor.toml"] {
        let (path, model) = design(name);
        for extra in [&[][..], &["--naive"][..]] {
            replays_to_solved(&model, cube, &plan_json(&path, cube, extra));
        }
    }
}

#[test]
fn the_default_is_never_slower_than_naive_and_usually_faster() {
    let (path, model) = design("four-arm.toml");
    let mut faster = 0;
    let cubes = scrambles("4");
    for cube in &cubes {
        let aware = plan_json(&path, cube, &[]);
        let naive = plan_json(&path, cube, &["--naive"]);
        replays_to_solved(&model, cube, &naive);
        assert!(
            aware.total_ms <= naive.total_ms,
            "{cube}: {} > {}",
            aware.total_ms,
            naive.total_ms
        );
        faster += usize::from(aware.total_ms < naive.total_ms);
    }
    assert!(
        faster >= cubes.len() / 2,
        "faster on {faster} of {} cubes",
        cubes.len()
    );
}

#[test]
fn an_invalid_cube_is_refused_with_exit_2() {
    let out = cubed(&["plan", "--facelets", "UUUU", "--tables", "small"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("54"), "{}", stderr(&out));
}

#[test]
fn another_start_orientation_is_planned_from_and_opposite_faces_are_refused() {
    use cubed::cube::Face;
    use cubed::robot::{Direction, Orientation, RobotState};
    let (robot, model) = design("four-arm.toml");
    let cube = &scrambles("1")[0];
    let doc = plan_json(&robot, cube, &["--start", "FR"]);
    let orientation = Orientation::all()
        .find(|o| o.face_at(Direction::Up) == Face::F && o.face_at(Direction::Front) == Face::R)
        .expect("F up, R front exists");
    let start = RobotState {
        orientation,
        ..model.home()
    };
    let (parsed, _, _) = parse_cube(cube, FaceOrder::Urfdlb, None).expect("valid cube");
    let program = doc.to_program(&model).expect("names resolve");
    let result = replay(&model, start, &parsed, &program).expect("legal from the given start");
    assert!(result.end.cube_frame().is_solved());
    let out = cubed(
        &["plan", "--robot", &robot, "--moves", "R", "--start", "UD"],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(stdout(&out).contains("opposite") || stderr(&out).contains("opposite"));
    let out = cubed(
        &["plan", "--robot", &robot, "--moves", "R", "--start", "UU"],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("U is given twice"),
        "{}",
        stderr(&out)
    );
    // A design that never turns the whole cube starts as the cube was put in: each face turn
    // is the motor where that face sits (worked out by hand from the holding).
    let (six, _) = design("six-motor.toml");
    for (start, motors) in [
        ("UF", ["right", "up", "front"]),
        ("FR", ["front", "right", "up"]),
        ("DB", ["right", "down", "back"]),
        ("LU", ["down", "front", "left"]),
    ] {
        let out = cubed(
            &[
                "plan", "--robot", &six, "--moves", "R U F", "--start", start,
            ],
            None,
        );
        assert!(out.status.success(), "--start {start}: {}", stderr(&out));
        let turned: Vec<String> = motors
            .iter()
            .map(|m| format!("turn {m}-motor +1"))
            .collect();
        let text = stdout(&out);
        let planned: Vec<&str> = text.lines().filter_map(|l| l.split("  ").nth(1)).collect();
        assert_eq!(planned, turned, "--start {start}:\n{text}");
    }
}

/// The 1988 notation plans the same program as Singmaster (T is U, P is B, B is D), and a
/// 1988 move given without `--notation woolley` is refused with that advice.
#[test]
fn moves_with_whole_cube_rotations_leave_the_cube_as_the_moves_do() {
    let (robot, model) = design("four-arm.toml");
    let moves = "y R x2 U' z F2";
    let out = cubed(
        &[
            "plan", "--robot", &robot, "--moves", moves, "--format", "json",
        ],
        None,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let doc: ProgramDoc = serde_json::from_str(&stdout(&out)).expect("a program document");
    // The witness: the stickers after the moves as given, turned back by the inverse of their
    // rotations, against the robot's own replay of the program.
    use cubed::cube::{parse_moves, FaceletCube, Move, Notation, Rotation};
    let given = parse_moves(moves, Notation::Singmaster).expect("valid moves");
    let undo: Vec<Move> = (given.iter().rev())
        .filter_map(|m| match m {
            Move::Rotate(r) => Some(Move::Rotate(Rotation {
                axis: r.axis,
                quarters: 4 - r.quarters,
            })),
            Move::Turn(_) => None,
        })
        .collect();
    let expected = FaceletCube::default().apply_all(&given).apply_all(&undo);
    let program = doc.to_program(&model).expect("names resolve");
    let solved = FaceletCube::default();
    let result = replay(&model, model.home(), &solved, &program).expect("every step is legal");
    assert_eq!(
        result.end.cube_frame().to_string(),
        expected.to_string(),
        "planned {}",
        doc.solution
    );
    assert_eq!(doc.face_turns, 3);
}

#[test]
fn moves_in_the_1988_notation_plan_as_their_singmaster_twins() {
    let (robot, _) = design("four-arm.toml");
    let plan = |moves: &str, notation: &str| {
        let out = cubed(
            &[
                "plan",
                "--robot",
                &robot,
                "--moves",
                moves,
                "--notation",
                notation,
            ],
            None,
        );
        assert!(out.status.success(), "{}", stderr(&out));
        stdout(&out)
    };
    let (woolley, singmaster) = (
        plan("T+ F- P2 B+", "woolley"),
        plan("U F' B2 D", "singmaster"),
    );
    let steps = |text: &str| {
        text.lines()
            .filter(|l| l.starts_with("t="))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(steps(&woolley), steps(&singmaster));
    // The summary says the solution in the notation it was given.
    let summary = |text: &str| {
        let line = text.lines().find(|l| l.starts_with("robot "));
        line.unwrap_or("").to_string()
    };
    assert!(
        summary(&woolley).ends_with("solution T+ F- P2 B+"),
        "{woolley}"
    );
    assert!(
        summary(&singmaster).ends_with("solution U F' B2 D"),
        "{singmaster}"
    );
    let out = cubed(&["plan", "--robot", &robot, "--moves", "T+ F-"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--notation woolley"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_design_without_a_camera_has_no_scan_and_is_told_so_naming_the_file() {
    let (robot, _) = design("four-arm.toml");
    let text = std::fs::read_to_string(&robot).expect("design");
    let mut kept = Vec::new();
    let mut in_camera = false;
    for line in text.lines() {
        let header = line.trim_start().starts_with('[');
        in_camera = if header {
            line.trim() == "[[camera]]"
        } else {
            in_camera
        };
        if !in_camera {
            kept.push(line);
        }
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("no-camera.toml");
    std::fs::write(&path, kept.join("\n")).expect("write");
    let path = path.to_string_lossy().into_owned();
    let out = cubed(&["plan", "--robot", &path, "--moves", "R U"], None);
    assert!(
        out.status.success(),
        "turns need no camera: {}",
        stderr(&out)
    );
    let out = cubed(&["plan", "--robot", &path, "--scan"], None);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(&path) && stderr(&out).contains("has no [[camera]]"),
        "{}",
        stderr(&out)
    );
}

/// Six-motor, whose blocks all leave the robot as it was, is planned with the axial search:
/// its tables are built once into the cache and said so, then read; a design it does not serve
/// never builds them. (A damaged file is caught by the tables' own check, a unit test of
/// `axial`, and rebuilt by the cache every table shares, which `cubed solve`'s tests damage.)
#[test]
fn six_motor_plans_with_the_axial_search_built_once_and_cached() {
    let dir = tempfile::tempdir().expect("temp dir");
    let cache = dir.path().to_str().expect("utf-8 path");
    let axial_file = dir.path().join("cubed-axial-v1.bin");
    let (six_path, six) = design("six-motor.toml");
    let (four_path, _) = design("four-arm.toml");
    let cube = &scrambles("1")[0];
    let plan = |robot: &str| {
        let out = cubed(
            &[
                "plan",
                "--robot",
                robot,
                "--facelets",
                cube,
                "--format",
                "json",
                "--cache-dir",
                cache,
                "--budget-ms",
                "50",
            ],
            None,
        );
        assert!(out.status.success(), "{}", stderr(&out));
        let doc: ProgramDoc = serde_json::from_str(&stdout(&out)).expect("a program document");
        (doc, stderr(&out))
    };
    let (_, said) = plan(&four_path);
    assert!(!said.contains("axial"), "{said}");
    assert!(
        !axial_file.exists(),
        "four-arm has no use for the axial tables"
    );
    let (cold, said) = plan(&six_path);
    assert!(said.contains("built axial search tables"), "{said}");
    assert!(axial_file.exists());
    replays_to_solved(&six, cube, &cold);
    let (warm, said) = plan(&six_path);
    assert!(said.is_empty(), "{said}");
    replays_to_solved(&six, cube, &warm);
}

/// `cubed plan --moves R` (and `args`) run in `dir`: its last line, stderr and status.
fn plan_r_in(dir: &std::path::Path, args: &[&str]) -> (String, String, bool) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_cubed"))
        .args(["plan", "--moves", "R"])
        .args(args)
        .current_dir(dir)
        .env_remove("CUBED_CONFIG")
        .output()
        .expect("cubed runs");
    // The summary, before the line that says how the cube ends held.
    let text = stdout(&out);
    let summary = text.lines().find(|l| l.starts_with("robot ")).unwrap_or("");
    (summary.to_string(), stderr(&out), out.status.success())
}

#[test]
fn plan_takes_the_robot_the_configuration_names_unless_told_another() {
    let dir = tempfile::tempdir().expect("temp dir");
    let shipped = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("config/cubed.toml"),
    )
    .expect("the shipped configuration");
    let six = crate::common::shipped_design_file("six-motor");
    let config = shipped.replace(
        "design = \"robots/four-arm.toml\"",
        &format!("design = \"{}\"", six.display()),
    );
    assert_ne!(config, shipped, "the shipped configuration names four-arm");
    std::fs::create_dir(dir.path().join("config")).expect("a config folder");
    std::fs::write(dir.path().join("config/cubed.toml"), &config).expect("writes");
    let (last, said, ok) = plan_r_in(dir.path(), &[]);
    assert!(ok && last.starts_with("robot six-motor:"), "{last}\n{said}");
    let (last, said, ok) = plan_r_in(dir.path(), &["--robot", "turntable-flipper"]);
    assert!(
        ok && last.starts_with("robot turntable-flipper:"),
        "{last}\n{said}"
    );
    // A configuration that does not load is said, with the way around it.
    let broken = dir.path().join("broken.toml");
    std::fs::write(&broken, "[robot\n").expect("writes");
    let (_, said, ok) = plan_r_in(dir.path(), &["--config", broken.to_str().unwrap()]);
    assert!(
        !ok && said.contains("broken.toml") && said.contains("--robot"),
        "{said}"
    );
}

#[test]
fn no_moves_at_all_are_refused_saying_so() {
    for command in ["plan", "exec"] {
        let mut args = vec![command, "--moves", " "];
        if command == "exec" {
            args.extend(["--port", "/nonexistent/robot"]);
        }
        let out = cubed(&args, None);
        assert_eq!(out.status.code(), Some(2), "{command}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("no moves given"),
            "{command}: {}",
            stderr(&out)
        );
    }
}

/// A design whose grippers turn at 4° a second (turns a second meant) is planned, with a note
/// naming the gripper, its speed and the units to check; the shipped design gets none.
#[test]
fn a_design_turning_absurdly_slowly_is_planned_with_a_note_on_the_units() {
    let (robot, _) = design("four-arm.toml");
    let text = std::fs::read_to_string(&robot).expect("design");
    let slow = (text.replace("quarter_ms = 150\nhalf_ms = 250\n", ""))
        .replace("max_deg_s = 900", "max_deg_s = 4");
    assert!(!slow.contains("max_deg_s = 900") && !slow.contains("quarter_ms"));
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("slow.toml");
    std::fs::write(&path, slow).expect("write");
    let out = cubed(
        &[
            "plan",
            "--robot",
            path.to_str().expect("utf-8"),
            "--moves",
            "R",
        ],
        None,
    );
    let said = stderr(&out);
    assert!(out.status.success(), "{said}");
    assert!(
        said.contains("note: ")
            && said.contains("grippers 'left', 'right', 'front', 'back' take ")
            && said.contains("`max_deg_s` 4")
            && said.contains("check the units"),
        "{said}"
    );
    let shipped = cubed(&["plan", "--robot", &robot, "--moves", "R"], None);
    assert!(
        !stderr(&shipped).contains("check the units"),
        "{}",
        stderr(&shipped)
    );
}
