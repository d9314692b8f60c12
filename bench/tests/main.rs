//! `cubed-bench` run as a person runs it: its arguments refused with the allowed range, and
//! the trust bench's verdict (the simulator's own machine as the witness) on a design with
//! one-way grippers.

use cubed::named_file::{read_text, BUILT_IN, TEXT_LIMIT};
use std::path::Path;
use std::process::{Command, Output};

fn bench(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cubed-bench"))
        .args(args)
        .output()
        .expect("cubed-bench runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn endless_budgets_are_refused_with_the_range() {
    let out = bench(&["solver", "--budgets", "10,4000000"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("one hour"), "{}", stderr(&out));
}

/// The four-arm design with servo-like grippers: left and right turn one way only, front
/// further than back. The planner's beam once dropped every way through such layers.
fn servo_four_arm(dir: &Path) -> String {
    let shipped = Path::new(BUILT_IN).join("robots/four-arm.toml");
    let text = read_text(&shipped, TEXT_LIMIT).expect("the shipped design");
    let mut ranges = ["[-1, 0]", "[0, 1]", "[-2, 2]", "[-1, 1]"].into_iter();
    let servo: String = (text.lines())
        .map(|line| match line.starts_with("range") {
            true => format!("range = {}\n", ranges.next().expect("four grippers")),
            false => format!("{line}\n"),
        })
        .collect();
    let file = dir.join("servo.toml");
    std::fs::write(&file, servo).expect("writes the design");
    file.display().to_string()
}

#[test]
fn a_design_with_one_way_grippers_is_planned_and_runs_on_the_simulators_machine() {
    let dir = tempfile::tempdir().expect("temp dir");
    let robot = servo_four_arm(dir.path());
    // The simulator's own machine is the witness: no illegal step, every cube solved.
    let args = [
        "trust", "--robots", &robot, "--cubes", "4", "--tables", "small",
    ];
    let out = bench(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    // Named by the design, and by its file where the two differ.
    assert_clean_row(&text, "four-arm (servo)");
}

/// The trust table's row of the design named `name` says no illegal step (default or
/// naive) and no cube left unsolved.
fn assert_clean_row(text: &str, name: &str) {
    let row: Vec<&str> = (text.lines())
        .find_map(|l| l.strip_prefix(name))
        .unwrap_or_else(|| panic!("a row for {name}: {text}"))
        .split_whitespace()
        .collect();
    assert_eq!(
        row[0..3],
        ["0", "0", "0"],
        "illegal dflt, illegal naive, unsolved: {text}"
    );
}

#[test]
fn trust_runs_2x2s_on_the_machine_and_says_which_design_cannot_hold_one() {
    let dir = tempfile::tempdir().expect("temp dir");
    let cache = dir.path().display().to_string();
    let args = [
        "trust",
        "--size",
        "2",
        "--robots",
        "four-arm,six-motor",
        "--cubes",
        "3",
        "--cache-dir",
        &cache,
    ];
    let out = bench(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("3 uniformly random 2x2s per design"),
        "{text}"
    );
    assert_clean_row(&text, "four-arm ");
    let six = (text.lines())
        .find(|l| l.starts_with("six-motor"))
        .expect("a line for six-motor");
    assert!(
        six.contains("not run") && six.contains("centre caps"),
        "{six}"
    );
}
