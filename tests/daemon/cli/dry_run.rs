//! `cubed dry-run` as a user runs it: every cube solved, the same output for a seed on a busy machine, e-stops resumed, Ctrl-C and a closed reader leaving nothing behind, a design without a camera refused, every shipped design.

use crate::common::{cubed, shipped_design_file, stderr, stdout};
use std::process::{Command, Stdio};

#[test]
fn dry_run_solves_every_cube_and_says_so() {
    let out = cubed(
        &[
            "dry-run", "--cubes", "2", "--seed", "5", "--tables", "small",
        ],
        None,
    );
    let text = stdout(&out);
    assert!(out.status.success(), "{text}\n{}", stderr(&out));
    assert!(
        text.contains("solved 2/2 (verified by the simulator)"),
        "{text}"
    );
    assert!(
        text.contains("planned") && text.contains("simulated"),
        "{text}"
    );
    assert!(
        text.contains("search nodes per solve"),
        "a 3x3's budget: {text}"
    );
}

/// The same seed prints the same cubes, solutions and robot times, whatever the machine's load:
/// the dry run counts the solver's budget in search nodes. The second run shares the cores
/// with busy threads, which a wall-time budget feels as fewer, longer candidates.
#[test]
fn a_seeded_dry_run_prints_the_same_on_a_busy_machine() {
    let args = [
        "dry-run", "--cubes", "2", "--seed", "11", "--tables", "small",
    ];
    let cube_lines = |out: &std::process::Output| -> Vec<String> {
        let text = stdout(out);
        assert!(out.status.success(), "{text}\n{}", stderr(out));
        let lines: Vec<String> = (text.lines())
            .filter(|l| l.starts_with("cube ") || l.starts_with("solver budget"))
            .map(str::to_string)
            .collect();
        assert_eq!(lines.len(), 3, "{text}");
        lines
    };
    let quiet = cube_lines(&cubed(&args, None));
    let busy = {
        let _load = crate::common::BusyCores::start(4);
        cube_lines(&cubed(&args, None))
    };
    assert_eq!(quiet, busy);
}

/// An e-stop from the robot's own button mid-run: the dry run plays the person who releases it
/// and presses Resume, and the simulator, not the daemon, says the cube ended solved. With no
/// resumes allowed the interrupted run blocks the next cube, and the dry run fails saying so.
#[test]
fn dry_run_resumes_a_run_its_e_stop_interrupted() {
    // The second e-stop lies beyond what two cubes execute: said, not silently dropped.
    let faults = "estop-at-move=30,estop-for=300ms,estop-at-move=99999";
    let args = [
        "dry-run", "--cubes", "2", "--faults", faults, "--tables", "small",
    ];
    let out = cubed(&args, None);
    let text = stdout(&out);
    assert!(out.status.success(), "{text}\n{}", stderr(&out));
    assert!(
        text.contains("solved 2/2 (verified by the simulator)"),
        "{text}"
    );
    let first = text
        .lines()
        .find(|l| l.starts_with("cube 1 "))
        .unwrap_or("");
    assert!(
        first.contains("resumed 1 time after an interruption"),
        "{text}"
    );
    assert!(
        text.contains("1 cube interrupted or failed left out"),
        "{text}"
    );
    assert!(text.contains("resumes 1"), "{text}");
    let never = text
        .lines()
        .find(|l| l.starts_with("faults never reached: "))
        .unwrap_or("");
    assert!(never.contains("estop-at-move=99999"), "{text}");
    assert!(!never.contains("estop-at-move=30"), "it came: {text}");

    let out = cubed(&[&args[..], &["--resumes", "0"]].concat(), None);
    let text = stdout(&out);
    assert!(!out.status.success(), "{text}");
    let first = text
        .lines()
        .find(|l| l.starts_with("cube 1 "))
        .unwrap_or("");
    assert!(first.contains("e-stopped"), "{text}");
    assert!(text.contains("the dry run stops here"), "{text}");
    assert!(
        text.contains("solved 0/1"),
        "the summary of what ran: {text}"
    );

    // Pressed at power-on: the person resets it before the first cube.
    let faults = "estop-at-move=0,estop-for=300ms";
    let out = cubed(
        &[
            "dry-run", "--cubes", "1", "--faults", faults, "--tables", "small",
        ],
        None,
    );
    let text = stdout(&out);
    assert!(out.status.success(), "{text}\n{}", stderr(&out));
    // Latched before the start was taken, it is reset first; latched as the link opened just
    // after the start, the run is interrupted and resumed: a person would do the same.
    assert!(
        text.contains("e-stop was latched before it; reset") || text.contains("resumed 1 time"),
        "{text}"
    );
    assert!(text.contains("solved 1/1"), "{text}");
}

/// A dry run of 100 cubes with its temporary directory under `tmp`, and its output's lines.
fn long_dry_run(
    tmp: &std::path::Path,
) -> (
    std::process::Child,
    std::io::Lines<std::io::BufReader<std::process::ChildStdout>>,
) {
    use std::io::{BufRead, BufReader};
    let mut child = Command::new(env!("CARGO_BIN_EXE_cubed"))
        .args(["dry-run", "--cubes", "100", "--tables", "small"])
        .env("TMPDIR", tmp)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("dry-run starts");
    let lines = BufReader::new(child.stdout.take().expect("stdout piped")).lines();
    (child, lines)
}

/// Nothing is left in the dry run's `TMPDIR`.
fn assert_nothing_left_in(tmp: &std::path::Path) {
    let left: Vec<_> = std::fs::read_dir(tmp)
        .expect("temp dir readable")
        .flatten()
        .map(|e| e.path())
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}

/// Ctrl-C on a dry run: the cubes done are summed up, the exit status is a shell's for SIGINT,
/// and the temporary data directory and the simulator's link go with the daemon.
#[test]
fn an_interrupted_dry_run_sums_up_what_it_did_and_leaves_nothing_behind() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let (mut child, mut lines) = long_dry_run(tmp.path());
    let first = (lines.by_ref().map_while(Result::ok)).find(|l| l.starts_with("cube 1 "));
    assert!(first.is_some_and(|l| l.contains("solved (verified)")));
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success());
    let rest: Vec<String> = lines.map_while(Result::ok).collect();
    let status = child.wait().expect("dry-run exits");
    let rest = rest.join("\n");
    assert_eq!(status.code(), Some(130), "{rest}");
    assert!(rest.contains("interrupted after "), "{rest}");
    assert!(rest.contains(" of 100 cubes"), "{rest}");
    assert!(
        rest.contains("(verified by the simulator)"),
        "the summary: {rest}"
    );
    assert_nothing_left_in(tmp.path());
}

/// A dry run whose reader goes away (`| head -2`): it stops as a shell reports SIGPIPE, and its
/// temporary data directory goes with it, as on Ctrl-C.
#[test]
fn a_dry_run_whose_output_is_closed_stops_and_leaves_nothing_behind() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let (mut child, mut lines) = long_dry_run(tmp.path());
    let first = lines.next().and_then(Result::ok).unwrap_or_default();
    assert!(first.starts_with("cubed dry-run:"), "{first}");
    drop(lines);
    let status = child.wait().expect("dry-run exits");
    assert_eq!(status.code(), Some(141), "{status:?}");
    assert_nothing_left_in(tmp.path());
}

/// A design without a camera plans and streams, but a run scans first: the dry run refuses
/// it at once, naming the key, instead of failing each cube at its scan.
#[test]
fn a_dry_run_refuses_a_design_without_a_camera_before_any_cube() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("blind.toml");
    let shipped = std::fs::read_to_string(shipped_design_file("four-arm")).expect("shipped design");
    // Every `[[camera]]` table cut out, up to the next table.
    let blind: Vec<&str> = shipped
        .split("\n[")
        .filter(|table| !table.starts_with("[camera]]"))
        .collect();
    std::fs::write(&path, blind.join("\n[")).expect("write");
    let robot = path.to_str().expect("utf-8");
    let out = cubed(
        &[
            "dry-run", "--robot", robot, "--cubes", "1", "--tables", "small",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let message = stderr(&out);
    for needle in ["blind.toml", "[robot] design", "has no [[camera]]"] {
        assert!(message.contains(needle), "{message:?} lacks {needle}");
    }
    assert!(!stdout(&out).contains("cube 1"), "{}", stdout(&out));
}

/// Continuous grippers and flippers keep counting across programs; every design must run
/// several cubes in a row (scan, solve, verify, next cube) without losing its place.
#[test]
fn dry_run_works_on_every_shipped_design() {
    for design in ["turntable-flipper", "six-motor"] {
        let robot = crate::common::shipped_design_arg(design);
        let out = cubed(
            &[
                "dry-run", "--cubes", "3", "--robot", &robot, "--tables", "small",
            ],
            None,
        );
        let text = stdout(&out);
        assert!(out.status.success(), "{design}: {text}\n{}", stderr(&out));
        assert!(text.contains("solved 3/3"), "{design}: {text}");
    }
}
