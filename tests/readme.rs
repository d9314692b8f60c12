//! The user documents' commands, run as written: the `$ cubed …` transcripts of README.md and of every docs/*.md page (exit status, and the exact output where it is deterministic), and docs/simulator.md's backgrounded simulator with `cubed exec` against it.

use std::path::Path;
use std::process::{Command, Output};

/// The page that holds the backgrounded simulator block.
const SIMULATOR_PAGE: &str = "docs/simulator.md";

/// One page's text, read from the repository; `name` is relative to its root.
fn page(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(name);
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// README.md, then every docs/*.md page in name order, each as (name, text).
fn pages() -> Vec<(String, String)> {
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs");
    let mut names: Vec<String> = std::fs::read_dir(&docs)
        .unwrap_or_else(|e| panic!("{}: {e}", docs.display()))
        .map(|entry| entry.expect("a docs/ entry").file_name())
        .filter_map(|name| name.to_str().map(str::to_string))
        .filter(|name| name.ends_with(".md"))
        .map(|name| format!("docs/{name}"))
        .collect();
    names.sort();
    names.insert(0, "README.md".to_string());
    names
        .into_iter()
        .map(|name| {
            let text = page(&name);
            (name, text)
        })
        .collect()
}

/// A page's fenced blocks, each as its lines.
fn blocks(text: &str) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    let mut current: Option<Vec<String>> = None;
    for line in text.lines() {
        match (line.starts_with("```"), current.take()) {
            (true, None) => current = Some(Vec::new()),
            (true, Some(block)) => found.push(block),
            (false, Some(mut block)) => {
                block.push(line.to_string());
                current = Some(block);
            }
            (false, None) => {}
        }
    }
    found
}

/// Runs `script` with `sh` in the repository, the built `cubed` first on PATH.
fn shell(script: &str) -> Output {
    let bin = Path::new(env!("CARGO_BIN_EXE_cubed"))
        .parent()
        .expect("bin dir");
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    Command::new("sh")
        .args(["-c", script])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("PATH", path)
        .output()
        .expect("sh runs")
}

/// One `$ command` of a transcript and the lines printed after it.
struct Transcript {
    command: String,
    expected: Vec<String>,
}

fn transcripts(text: &str) -> Vec<Transcript> {
    let mut all: Vec<Transcript> = Vec::new();
    for block in blocks(text) {
        let mut current: Option<Transcript> = None;
        for line in block {
            if let Some(command) = line.strip_prefix("$ ") {
                all.extend(current.take());
                current = Some(Transcript {
                    command: command.to_string(),
                    expected: Vec::new(),
                });
            } else if let Some(t) = current.as_mut() {
                t.expected.push(line);
            }
        }
        all.extend(current);
    }
    all
}

#[test]
fn the_readme_transcripts_run_as_written() {
    let all: Vec<(String, Transcript)> = pages()
        .into_iter()
        .flat_map(|(name, text)| {
            transcripts(&text)
                .into_iter()
                .map(move |t| (name.clone(), t))
        })
        .collect();
    assert!(
        all.len() >= 8,
        "transcripts found in README.md and docs/*.md: {}",
        all.len()
    );
    for (name, t) in &all {
        let out = shell(&t.command);
        let printed = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        let refused = t.expected.first().is_some_and(|l| l.starts_with("invalid"));
        let code = if refused { 2 } else { 0 };
        assert_eq!(
            out.status.code(),
            Some(code),
            "{name}: {}: {printed}",
            t.command
        );
        // The 2x2's answers are optimal and the checker's words fixed: printed exactly. The
        // 3x3 solver's answer depends on the time budget: only its length is compared.
        let exact = (t.command.contains("--size 2") || refused) && !t.expected.is_empty();
        let lines: Vec<&str> = printed
            .lines()
            .filter(|l| !l.starts_with("cubed: "))
            .collect();
        if exact {
            assert_eq!(lines, t.expected, "{name}: {}", t.command);
        } else if let (Some(expected), Some(got)) = (t.expected.first(), lines.first()) {
            let (e, g) = (expected.split(' ').count(), got.split(' ').count());
            assert!(
                g <= e + 2,
                "{name}: {}: {got:?} vs the page's {expected:?}",
                t.command
            );
        }
    }
}

/// Runs docs/simulator.md's block that starts a line with `command`, its `/tmp/` in a
/// folder of its own (returned, with what the block printed), and checks that it ran and
/// that its `cubed exec` finished.
fn run_simulator_block(command: &str) -> (tempfile::TempDir, String) {
    let text = page(SIMULATOR_PAGE);
    let block = blocks(&text)
        .into_iter()
        .find(|b| b.iter().any(|l| l.starts_with(command)))
        .unwrap_or_else(|| panic!("{SIMULATOR_PAGE}: no block with `{command}`"));
    let dir = tempfile::tempdir().expect("temp dir");
    let tmp = format!("{}/", dir.path().display());
    let script = block.join("\n").replace("/tmp/", &tmp);
    let out = shell(&format!("set -e\n{script}\nwait\n"));
    let printed = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{SIMULATOR_PAGE}: {printed}");
    assert!(
        printed.contains("done: "),
        "{SIMULATOR_PAGE}: exec finished: {printed}"
    );
    (dir, printed)
}

#[test]
fn the_backgrounded_simulator_and_exec_run_as_written() {
    let (dir, _) = run_simulator_block("cubed sim --pty");
    let report = std::fs::read_to_string(dir.path().join("sim.json")).expect("the sim's report");
    let report: serde_json::Value = serde_json::from_str(&report).expect("JSON");
    assert_eq!(report["solved"], true, "{report}");
    assert_eq!(report["unplugs"], 1, "the unplug fault ran: {report}");
    assert!(
        report["moves_executed"].as_u64().unwrap_or(0) > 10,
        "{report}"
    );
}

#[test]
fn the_emulated_pico_and_exec_run_as_written() {
    if crate::pico::emulator::available("docs/simulator.md's `cubed sim --pico`").is_none() {
        return;
    }
    let (dir, _) = run_simulator_block("cubed sim --pico");
    let trace = std::fs::read_to_string(dir.path().join("pico-pins.txt")).expect("the trace");
    let edges = trace.lines().filter(|l| l.starts_with("E ")).count();
    assert!(
        edges > 100,
        "{SIMULATOR_PAGE}: the trace has {edges} pin edges"
    );
}
