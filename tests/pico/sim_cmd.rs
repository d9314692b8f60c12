//! `cubed sim --pico`, as a firmware developer runs it: the firmware as built behind a
//! pty and a by-id style link, `cubed exec` streaming to it, the e-stop typed on its
//! stdin reaching the chip's pin, and a design the Pico cannot take refused before
//! anything starts.

use super::emulator::available;
use super::trace::four_arm_machine;
use crate::common::{cubed, shipped_design_arg, shipped_design_file, stderr};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// `cubed sim --pico` on `design`, serving `elf` behind `link`, with `extra` options; and
/// the pty path it printed first (the link points at it). Its temporary files go beside
/// the link, where a test can see them.
fn serve_pico(design: &str, elf: &Path, link: &Path, extra: &[&str]) -> (Child, String) {
    let beside = link.parent().expect("the link is in a folder");
    let mut sim = Command::new(env!("CARGO_BIN_EXE_cubed"))
        .env("TMPDIR", beside)
        .args(["sim", "--pico", "--robot", design])
        .arg("--elf")
        .arg(elf)
        .arg("--link")
        .arg(link)
        .args(extra)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cubed sim starts");
    let mut lines = BufReader::new(sim.stdout.take().expect("piped")).lines();
    let pty = lines.next().expect("the pty's path").expect("readable");
    (sim, pty)
}

#[test]
fn the_pico_firmware_served_on_a_pty_runs_cubed_exec_and_takes_a_typed_estop() {
    let Some(elf) = available("cubed sim --pico") else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let link = dir.path().join("cubed-pico");
    let trace = dir.path().join("trace.txt");
    let design = shipped_design_arg("four-arm");
    let (mut sim, pty) = serve_pico(
        &design,
        &elf,
        &link,
        &["--trace", &trace.display().to_string()],
    );
    assert_eq!(
        std::fs::read_link(&link)
            .expect("the link")
            .to_string_lossy(),
        pty
    );
    let port = link.display().to_string();
    let exec = |moves: &str| {
        let args = [
            "exec", "--port", &port, "--robot", &design, "--moves", moves,
        ];
        cubed(&args, None)
    };
    let turned = exec("R U2");
    assert!(turned.status.success(), "{}", stderr(&turned));
    let mut input = sim.stdin.take().expect("piped");
    writeln!(input, "e").expect("typed");
    // The firmware latches what its pin said: the next session is refused for it.
    let stopped = (0..20).find_map(|_| {
        std::thread::sleep(std::time::Duration::from_millis(500));
        let refused = exec("F");
        (!refused.status.success()).then(|| stderr(&refused))
    });
    let stopped = stopped.expect("the typed e-stop stopped the firmware");
    assert!(stopped.contains("emergency stop"), "{stopped}");
    writeln!(input, "q").expect("typed");
    let out = sim.wait_with_output().expect("cubed sim ends");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!link.exists(), "the link goes with the emulator");
    // The pins' trace, written out at the end: steps were driven, and the e-stop's pin
    // was set to its active level.
    let text = std::fs::read_to_string(&trace).expect("the trace");
    let machine = four_arm_machine();
    let stepped = machine.steppers.iter().any(|s| {
        text.lines()
            .any(|l| l.starts_with("E ") && l.split(' ').nth(2) == Some(&s.step.to_string()))
    });
    assert!(stepped, "no step edge in the trace");
    let active = u8::from(!machine.estop.released).to_string();
    let pressed = text.lines().any(|l| {
        let words: Vec<&str> = l.split(' ').collect();
        words.first() == Some(&"I")
            && words.get(2) == Some(&machine.estop.pin.to_string().as_str())
            && words.get(3) == Some(&active.as_str())
    });
    assert!(pressed, "the e-stop's pin never went active");
}

/// Every file under `dir`, with its size.
fn files_under(dir: &Path) -> Vec<(std::path::PathBuf, u64)> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).expect("readable").flatten() {
        let path = entry.path();
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        if meta.is_dir() {
            found.extend(files_under(&path));
        } else if meta.is_file() {
            found.push((path, meta.len()));
        }
    }
    found
}

#[test]
fn the_pico_served_without_trace_writes_no_trace_while_it_runs() {
    let Some(elf) = available("cubed sim --pico without --trace") else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let link = dir.path().join("cubed-pico");
    let design = shipped_design_arg("four-arm");
    let (mut sim, _pty) = serve_pico(&design, &elf, &link, &[]);
    let mut input = sim.stdin.take().expect("piped");
    // Before any host: the firmware knows no pins yet, and the button's line says so.
    writeln!(input, "b").expect("typed");
    let port = link.display().to_string();
    let args = [
        "exec", "--port", &port, "--robot", &design, "--moves", "R U2 F",
    ];
    let turned = cubed(&args, None);
    assert!(turned.status.success(), "{}", stderr(&turned));
    // Thousands of STEP edges were driven: a trace would hold them by now.
    let files = files_under(dir.path());
    let written: Vec<_> = files
        .iter()
        .filter(|(path, _)| path.file_name().is_some_and(|n| n != "wiring.json"))
        .collect();
    assert!(
        written.is_empty(),
        "files written while serving: {written:?}"
    );
    let wiring = files.iter().map(|(_, len)| len).sum::<u64>();
    assert!(
        wiring < 64 * 1024,
        "the machine description only: {files:?}"
    );
    writeln!(input, "e").expect("typed");
    writeln!(input, "q").expect("typed");
    let out = sim.wait_with_output().expect("cubed sim ends");
    let said = stderr(&out);
    assert!(out.status.success(), "{said}");
    assert!(!said.contains("trace"), "no trace is mentioned: {said}");
    let unheard = |what: &str| {
        let line = said.lines().find(|l| l.contains(what));
        line.unwrap_or_else(|| panic!("{what}: {said}"))
            .contains("no host has connected yet")
    };
    assert!(unheard("start button pressed"), "{said}");
    assert!(
        !unheard("e-stop pressed"),
        "after exec the host has: {said}"
    );
    assert!(said.contains("no boot ROM"), "{said}");
}

#[test]
fn a_design_without_wiring_is_refused_for_the_pico_before_anything_starts() {
    let dir = tempfile::tempdir().expect("temp dir");
    let text = std::fs::read_to_string(shipped_design_file("six-motor")).expect("design");
    let design = dir.path().join("unwired.toml");
    std::fs::write(&design, crate::robot::unwired(&text)).expect("written");
    let design = design.display().to_string();
    let out = cubed(&["sim", "--pico", "--robot", &design], None);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let said = stderr(&out);
    assert!(said.contains(&design), "names the design: {said}");
    assert!(said.contains("gives no wiring"), "{said}");
    assert!(said.contains("--pty"), "says what runs it: {said}");
}

#[test]
fn pico_serving_takes_no_cube_and_no_simulated_faults_and_the_pty_no_elf() {
    let cases = [
        ["--pico", "--random", "3"],
        ["--pico", "--faults", "drop=0.1"],
        ["--pty", "--trace", "pins.txt"],
        ["--pty", "--elf", "cubed-fw-pico"],
    ];
    for extra in cases {
        let mut args = vec!["sim"];
        args.extend(extra);
        let out = cubed(&args, None);
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert!(
            stderr(&out).contains("cannot be used with"),
            "{}",
            stderr(&out)
        );
    }
}

#[test]
fn a_pin_the_pico_does_not_have_is_refused_by_its_firmware_not_the_emulator() {
    let Some(elf) = available("cubed sim --pico with GPIO 30 in the design") else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let text = std::fs::read_to_string(shipped_design_file("four-arm")).expect("design");
    let wired = text.replacen("\nstep = 2\n", "\nstep = 30\n", 1);
    assert_ne!(wired, text, "the left rotation's STEP pin moved to GP30");
    let design = dir.path().join("gp30.toml");
    std::fs::write(&design, wired).expect("written");
    let design = design.display().to_string();
    let link = dir.path().join("cubed-pico");
    let (mut sim, _) = serve_pico(&design, &elf, &link, &[]);
    let port = link.display().to_string();
    let refused = cubed(
        &["exec", "--port", &port, "--robot", &design, "--moves", "U"],
        None,
    );
    let said = stderr(&refused);
    assert_eq!(refused.status.code(), Some(2), "{said}");
    assert!(
        said.contains("pin 30, which this board does not have"),
        "{said}"
    );
    writeln!(sim.stdin.take().expect("piped"), "q").expect("typed");
    let out = sim.wait_with_output().expect("cubed sim ends");
    assert!(
        out.status.success(),
        "the emulator kept running: {}",
        stderr(&out)
    );
}

#[test]
fn a_trace_that_cannot_be_written_is_refused_before_the_emulator_starts() {
    let dir = tempfile::tempdir().expect("temp dir");
    let trace = dir.path().join("no-such-folder/pins.txt");
    let trace = trace.display().to_string();
    let out = cubed(&["sim", "--pico", "--trace", &trace], None);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let said = stderr(&out);
    assert!(
        said.contains("--trace") && said.contains("does not exist"),
        "{said}"
    );
}

/// A design with no e-stop or start button fitted (both are optional) is served; and the
/// chip's pads are modelled: an e-stop input with no switch on it, which the firmware pulls
/// up, reads high, pressed, as on a real Pico, so a design that names such a pin stops.
#[test]
fn a_design_without_switches_is_served_and_an_unfitted_estop_pin_reads_pressed() {
    let Some(elf) = available("cubed sim --pico, a design without switches") else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let shipped = std::fs::read_to_string(shipped_design_file("four-arm")).expect("four-arm");
    let without: String = (shipped.lines())
        .filter(|l| !l.starts_with("estop") && !l.starts_with("button"))
        .map(|l| format!("{l}\n"))
        .collect();
    let bare = dir.path().join("no-switches.toml");
    std::fs::write(&bare, &without).expect("design");
    // The same robot, told its e-stop is on GP21, where nothing is fitted.
    let unfitted = dir.path().join("estop-on-21.toml");
    let estop_21 = without.replace(
        "[board]\n",
        "[board]\nestop = 21\nestop_active = \"high\"\n",
    );
    std::fs::write(&unfitted, estop_21).expect("design");
    let link = dir.path().join("cubed-pico");
    let (mut sim, _) = serve_pico(bare.to_str().expect("utf-8"), &elf, &link, &[]);
    let port = link.display().to_string();
    let exec = |design: &Path| {
        let design = design.to_str().expect("utf-8");
        cubed(
            &["exec", "--port", &port, "--robot", design, "--moves", "R"],
            None,
        )
    };
    let turned = exec(&bare);
    assert!(turned.status.success(), "{}", stderr(&turned));
    let stopped = exec(&unfitted);
    assert!(
        !stopped.status.success(),
        "an e-stop pin with no switch let it run"
    );
    assert!(
        stderr(&stopped).contains("emergency stop"),
        "{}",
        stderr(&stopped)
    );
    writeln!(sim.stdin.take().expect("piped"), "q").expect("typed");
    let out = sim.wait_with_output().expect("cubed sim ends");
    assert!(out.status.success(), "{}", stderr(&out));
}
