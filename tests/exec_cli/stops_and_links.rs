//! `cubed exec` and stops or links: Ctrl-C's emergency stop, the robot's own e-stop and `--reset`, a `--reset` refused after its clear, a lost and restored link logged, a stopping simulator removing only its own link.

use super::{exec_on, sim_report};
use crate::common::{cubed, start_sim, stderr, stdout};
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

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
    // (Which robot it drives and what it planned come first, and building the planning
    // graph may say how far it got, on a loaded machine.)
    let streaming = said
        .by_ref()
        .map(|line| line.expect("readable"))
        .find(|line| {
            !line.starts_with("cubed: exploring")
                && !line.starts_with("cubed exec: robot")
                && !line.starts_with("cubed exec: planned")
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
    // A board with no switch on that input: what to change is named.
    assert!(
        said.contains("take `estop` out of the robot design's [board]"),
        "{said}"
    );

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
    assert!(said.contains("no switch fitted"), "{said}");
    assert!(said.contains("nothing was sent"), "{said}");
    let (report, text) = sim_report(&report);
    assert_eq!(report["moves_executed"], 0, "{text}");
}

/// `--reset` with a design the firmware takes the clear for but then refuses (here: the
/// simulator simulates another robot): the latch is gone, and the refusal says so. The
/// witness that it is gone is the firmware: the next program runs without `--reset`.
#[test]
fn exec_reset_refused_after_the_clear_says_what_it_cleared() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (report, link) = (dir.path().join("report.json"), dir.path().join("robot"));
    let faults = "estop-at-move=0,estop-for=2s";
    let mut sim = start_sim(&["--speed", "0", "--faults", faults], &report, &link);
    let (code, said) = exec_on(&link, &["--moves", "R U"]);
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("latched before this program"), "{said}");
    let other = ["--robot", "turntable-flipper", "--moves", "R", "--reset"];
    let began = std::time::Instant::now();
    let (code, said) = loop {
        let (code, said) = exec_on(&link, &other);
        if !said.contains("would not clear") || began.elapsed().as_secs() > 30 {
            break (code, said);
        }
        std::thread::sleep(std::time::Duration::from_millis(500));
    };
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("simulates another robot"), "{said}");
    assert!(
        said.contains(
            "before that, the firmware cleared the emergency stop, latched from before, as asked"
        ),
        "{said}"
    );
    let (code, said) = exec_on(&link, &["--moves", "R R'"]);
    assert_eq!(code, Some(0), "the latch was cleared: {said}");
    drop(sim.stdin.take());
    sim.wait().expect("the simulator exits");
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
