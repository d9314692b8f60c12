//! `cubed run` served and driven by the control commands: no daemon listening, start and status and SIGTERM, an unreachable robot (exit 3, a lossy simulated line), a start during the idle handshake, and the simulator's help on its fault keys.

use crate::common::{cubed, free_port, robot_config, run_daemon, stderr, stdout, wait_status};
use std::path::Path;
use std::process::{Command, Stdio};

#[test]
fn control_commands_say_when_no_daemon_listens() {
    let port = free_port();
    let out = cubed(&["status", "--http", &format!("127.0.0.1:{port}")], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("no daemon is listening"),
        "{}",
        stderr(&out)
    );
    // An e-stop that did not reach the daemon says so first, loudly.
    let out = cubed(&["estop", "--http", &format!("127.0.0.1:{port}")], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).starts_with("EMERGENCY STOP NOT SENT"),
        "{}",
        stderr(&out)
    );
}

fn status_code(http: &str) -> Option<i32> {
    cubed(&["status", "--http", http], None).status.code()
}

#[test]
fn cubed_run_serves_start_and_status_and_shuts_down_on_sigterm() {
    let dir = tempfile::tempdir().expect("temp dir");
    let http = format!("127.0.0.1:{}", free_port());
    let mut daemon = Command::new(env!("CARGO_BIN_EXE_cubed"))
        .args(["run", "--http", &http, "--tables", "small", "--data-dir"])
        .arg(dir.path())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cubed run starts");
    wait_status(&http, "idle");
    let started = cubed(&["start", "--http", &http], None);
    assert!(started.status.success(), "{}", stderr(&started));
    assert!(
        stdout(&started).contains("started run 1"),
        "{}",
        stdout(&started)
    );
    wait_status(&http, "done");
    assert_eq!(status_code(&http), Some(0), "done");
    // For scripts: the status document as JSON, the address from $CUBED_HTTP.
    let out = Command::new(env!("CARGO_BIN_EXE_cubed"))
        .args(["status", "--json"])
        .env("CUBED_HTTP", format!("http://{http}/"))
        .output()
        .expect("cubed status runs");
    assert!(out.status.success(), "{}", stderr(&out));
    let doc: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    assert_eq!(doc["state"], "done", "{doc}");
    assert_eq!(doc["run"], 1, "{doc}");
    assert_eq!(doc["link"]["state"], "open", "{doc}");
    let again = cubed(&["start", "--http", &http], None);
    assert!(
        again.status.success(),
        "a finished run lets a new one start: {}",
        stderr(&again)
    );
    // A script sees from the exit status alone that the daemon waits for a person.
    let estop = cubed(&["estop", "--http", &http], None);
    assert!(estop.status.success(), "{}", stderr(&estop));
    wait_status(&http, "e-stopped");
    assert_eq!(status_code(&http), Some(3), "e-stopped");
    // Reset is taken once the run has wound down and says what to do.
    wait_status(&http, "press Resume");
    let reset = cubed(&["reset", "--http", &http], None);
    assert!(reset.status.success(), "{}", stderr(&reset));
    let after = cubed(&["status", "--http", &http], None);
    assert_eq!(after.status.code(), Some(0), "{}", stdout(&after));
    // The history from the command line: both runs, newest first, and one run's record.
    let listed = cubed(&["history", "--http", &http], None);
    assert!(listed.status.success(), "{}", stderr(&listed));
    let rows: Vec<String> = stdout(&listed).lines().skip(1).map(String::from).collect();
    assert!(
        rows.len() == 2 && rows[0].starts_with("2 ") && rows[1].starts_with("1 "),
        "{rows:?}"
    );
    assert!(
        rows[1].contains("solved") && rows[0].contains("e-stopped, abandoned (reset)"),
        "{rows:?}"
    );
    let first = cubed(&["history", "1", "--http", &http], None);
    let record = stdout(&first);
    assert!(first.status.success(), "{}", stderr(&first));
    let photo = format!("http://{http}/api/runs/1/images/0/U");
    for words in [
        "run 1: solved",
        "scan 1: ",
        "solve 1: ",
        "check 1: ",
        &photo,
    ] {
        assert!(record.contains(words), "{words}: {record}");
    }
    let second = stdout(&cubed(&["history", "2", "--http", &http], None));
    assert!(second.contains("abandoned (reset)"), "{second}");
    let json = cubed(
        &["history", "--json", "--limit", "1", "--http", &http],
        None,
    );
    let runs: serde_json::Value = serde_json::from_str(&stdout(&json)).expect("JSON");
    assert_eq!(runs.as_array().map(Vec::len), Some(1), "{runs}");
    // The next page: the runs before the newest, here run 1 only.
    let older = cubed(
        &["history", "--json", "--before", "2", "--http", &http],
        None,
    );
    let runs: serde_json::Value = serde_json::from_str(&stdout(&older)).expect("JSON");
    let ids: Vec<u64> = (runs.as_array().expect("a list").iter())
        .filter_map(|run| run["id"].as_u64())
        .collect();
    assert_eq!(ids, [1], "{runs}");
    let missing = cubed(&["history", "99", "--http", &http], None);
    assert_eq!(missing.status.code(), Some(2), "{}", stderr(&missing));
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(daemon.id() as i32),
        nix::sys::signal::Signal::SIGTERM,
    )
    .expect("SIGTERM");
    let status = daemon.wait().expect("cubed run exits");
    let mut log = String::new();
    if let Some(mut e) = daemon.stderr.take() {
        let _ = std::io::Read::read_to_string(&mut e, &mut log);
    }
    assert!(status.success(), "exit {status:?}: {log}");
    assert!(log.contains("shutting down"), "{log}");
    assert!(dir.path().join("cubed.sqlite").exists());
    // With the daemon gone, the history file itself: the same runs, photos as files.
    let data = dir.path().to_str().expect("a UTF-8 path");
    let gone = cubed(&["history", "--http", &http], None);
    assert!(stderr(&gone).contains("--data-dir"), "{}", stderr(&gone));
    let offline = cubed(&["history", "--data-dir", data], None);
    assert!(offline.status.success(), "{}", stderr(&offline));
    let older = stdout(&cubed(
        &["history", "--before", "2", "--data-dir", data],
        None,
    ));
    let rows: Vec<&str> = older.lines().skip(1).collect();
    assert!(rows.len() == 1 && rows[0].starts_with("1 "), "{older}");
    assert_eq!(
        stdout(&offline),
        stdout(&listed),
        "the same list as the daemon gave"
    );
    let first = stdout(&cubed(&["history", "1", "--data-dir", data], None));
    let photos = &first[first.find("photos: ").expect("photos") + 8..];
    let photo = photos.split_whitespace().next().unwrap_or("");
    assert!(
        photo.starts_with(data) && std::path::Path::new(photo).is_file(),
        "{photo}: {first}"
    );
    let missing = cubed(&["history", "99", "--data-dir", data], None);
    assert_eq!(missing.status.code(), Some(2), "{}", stderr(&missing));
}

/// A robot that cannot be reached: `cubed status` says so on its last line, naming the port,
/// and exits 3 (a person must plug it in or fix `[robot] port`), though no run failed.
#[test]
fn status_exits_3_and_names_the_port_while_the_robot_cannot_be_reached() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = robot_config(Path::new("/dev/null"), dir.path());
    let (mut daemon, http) = run_daemon(&file, dir.path());
    let text = wait_status(&http, "robot link: cannot be opened");
    let last = text.trim_end().lines().last().unwrap_or_default();
    assert!(
        last.contains("/dev/null") && last.contains("[robot] port"),
        "{text}"
    );
    assert_eq!(status_code(&http), Some(3), "{text}");
    // An e-stop the daemon latches but cannot send: exit 1, said plainly.
    let estop = cubed(&["estop", "--http", &http], None);
    assert_eq!(estop.status.code(), Some(1), "{}", stdout(&estop));
    assert!(
        stderr(&estop).starts_with("EMERGENCY STOP NOT DELIVERED to the robot"),
        "{}",
        stderr(&estop)
    );
    assert!(
        stdout(&estop).contains("in the daemon only, not at the robot"),
        "{}",
        stdout(&estop)
    );
    let _ = daemon.kill();
    let _ = daemon.wait();
}

/// A simulator whose line loses a third of its bytes cannot be reached: that is said to be the
/// faults put on its line, not a cable.
#[test]
fn a_simulated_line_too_lossy_to_reach_blames_its_faults_not_a_cable() {
    let out = cubed(
        &[
            "dry-run", "--cubes", "1", "--tables", "small", "--faults", "drop=0.3",
        ],
        None,
    );
    let said = stderr(&out);
    assert!(!out.status.success(), "{said}");
    assert!(
        said.contains("cannot reach the robot")
            && said
                .contains("the faults put on its line, drop=0.3, did this: no cable is to blame"),
        "{said}"
    );
}

/// A start pressed while the idle daemon is handshaking with a robot that does not answer
/// (a board still booting): the start waits for that handshake instead of opening the port a
/// second time beside it, which was refused as "another program has it open".
#[test]
fn a_start_during_the_idle_handshake_waits_for_it_instead_of_fighting_it_for_the_port() {
    let dir = tempfile::tempdir().expect("temp dir");
    // A robot that never answers: a pseudo-terminal whose other end stays silent (opened
    // close-on-exec, as the simulator's are, so no other test's child keeps it).
    let silent = cubed::sim::pty::open_raw_pty().expect("a pseudo-terminal");
    let file = robot_config(&silent.path, dir.path());
    let (mut daemon, http) = run_daemon(&file, dir.path());
    // The first handshake at launch has failed (no HelloReply in 3 s); the idle loop's next
    // one starts at once and takes 3 s too.
    wait_status(&http, "robot link: cannot be opened");
    let mut refusals = Vec::new();
    for _ in 0..3 {
        let started = cubed(&["start", "--http", &http], None);
        assert!(!started.status.success(), "no robot, no run");
        refusals.push(stderr(&started));
    }
    let _ = daemon.kill();
    let _ = daemon.wait();
    for said in &refusals {
        assert!(
            said.contains("no HelloReply") && !said.contains("another program has it open"),
            "{refusals:#?}"
        );
    }
}

/// The shipped config's `[sim] faults` points to `cubed sim --help`: it describes every key.
#[test]
fn the_simulators_help_describes_every_fault_key() {
    let out = cubed(&["sim", "--help"], None);
    let help = stdout(&out);
    assert!(out.status.success(), "{}", stderr(&out));
    for key in cubed::sim::faults::FAULT_KEYS {
        assert!(
            help.contains(&format!("{key}=")),
            "{key} is missing: {help}"
        );
    }
}
