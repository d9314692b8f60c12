//! `cubed run`, `cubed dry-run` and the control commands as a user runs them: the real binary, the shipped config, signals, the simulator's help.

use crate::common::{
    cubed, free_port, robot_config, run_daemon, shipped_design_file, stderr, stdout, wait_status,
};
use std::io::Write;
use std::path::Path;
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

#[test]
fn a_bad_config_is_refused_with_its_file_section_and_key() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("cubed.toml");
    let shipped =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/config/cubed.toml"))
            .expect("shipped config");
    let mut file = std::fs::File::create(&path).expect("create");
    write!(
        file,
        "{}",
        shipped.replace("budget_ms = 300", "budget_ms = 0")
    )
    .expect("write");
    let out = cubed(
        &[
            "run",
            "--config",
            path.to_str().expect("utf-8"),
            "--tables",
            "small",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let message = stderr(&out);
    for needle in ["cubed.toml", "[solver]", "budget_ms", "1..=60000"] {
        assert!(message.contains(needle), "{message:?} lacks {needle}");
    }
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

#[test]
fn binding_beyond_loopback_without_a_token_is_refused() {
    let out = cubed(&["run", "--http", "0.0.0.0:0", "--tables", "small"], None);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("[http] token"), "{}", stderr(&out));
}

/// An address another program holds is said in words, with what to do, not as an OS error.
#[test]
fn an_address_in_use_is_said_in_words() {
    let dir = tempfile::tempdir().expect("temp dir");
    let taken = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    let http = taken.local_addr().expect("address").to_string();
    let out = cubed(
        &[
            "run",
            "--http",
            &http,
            "--tables",
            "small",
            "--data-dir",
            &dir.path().display().to_string(),
        ],
        None,
    );
    let said = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(
        said.contains(&format!("another program already listens on {http}"))
            && said.contains("--http HOST:PORT")
            && !said.contains("os error"),
        "{said}"
    );
}

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
    // A robot that never answers: a pseudo-terminal whose other end stays silent.
    let silent = nix::pty::openpty(None, None).expect("a pseudo-terminal");
    let port = nix::unistd::ttyname(&silent.slave).expect("its name");
    let file = robot_config(&port, dir.path());
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
