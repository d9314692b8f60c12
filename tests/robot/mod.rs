//! Integration tests of robot designs: the shared design-text helpers (the shipped four-arm text, an edited design's refusal, unwiring, line finding) and one submodule per class of check.

use cubed::robot::parse_robot;

use crate::common::shipped_designs_dir as shipped_dir;

mod designs;
mod keys;
mod wiring;

fn four_arm_text() -> String {
    std::fs::read_to_string(shipped_dir().join("four-arm.toml")).unwrap()
}

fn error_of(text: &str) -> String {
    let err = parse_robot(text, "test.toml").expect_err("the design should be refused");
    let message = err.to_string();
    assert!(message.starts_with("test.toml: "), "{message}");
    message
}

/// A design's text without its wiring (`[board]` and every `wiring` table): what is left
/// is a design only the simulator runs, and edits of its grippers need no pins.
pub fn unwired(text: &str) -> String {
    without_tables(text, |header| {
        header == "[board]" || header.ends_with(".wiring]")
    })
}

/// `text` without the tables whose header `drop` picks.
fn without_tables(text: &str, drop: impl Fn(&str) -> bool) -> String {
    let mut skipping = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.starts_with('[') {
            skipping = drop(line);
        }
        if !skipping {
            out.push(line);
        }
    }
    out.join("\n") + "\n"
}

/// `text` with the first line starting `key` after the actuator `name` replaced by `line`
/// (which ends in a newline, or is empty to drop it).
fn with_line(text: &str, name: &str, key: &str, line: &str) -> String {
    let named = text
        .find(&format!("name = \"{name}\""))
        .expect("the actuator");
    let start = named + 1 + text[named..].find(&format!("\n{key}")).expect("its key");
    let end = start + 1 + text[start..].find('\n').expect("a line end");
    format!("{}{line}{}", &text[..start], &text[end..])
}

/// The line (from 1) of the first line of `text` holding `needle`: where a person sees it,
/// found apart from the design loader's parse.
fn line_of(text: &str, needle: &str) -> usize {
    nth_line_of(text, needle, 1)
}

/// The line (from 1) of the `n`-th line of `text` holding `needle`.
fn nth_line_of(text: &str, needle: &str, n: usize) -> usize {
    let found = text.lines().enumerate().filter(|(_, l)| l.contains(needle));
    found
        .map(|(i, _)| i + 1)
        .nth(n - 1)
        .expect("the needle is in the text")
}
