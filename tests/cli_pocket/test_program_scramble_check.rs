//! `cubed test-program`, `scramble` and `check` with `--size 2`: every cube solved, scrambles checked, and the old letters read as `solve` reads them.

use super::{with_cache, URFDLB};
use crate::common::{cubed, stderr, stdout};
use cubed::pocket::parse_pocket;

#[test]
fn test_program_size_2_solves_every_cube() {
    let dir = tempfile::tempdir().expect("temp dir");
    let args = [
        "test-program",
        "--size",
        "2",
        "--cubes",
        "500",
        "--seed",
        "4",
        "--rotations",
    ];
    let out = cubed(&with_cache(&dir, &args), None);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("500 solved, 0 failed"), "{text}");
    let counts: Vec<usize> = (text.lines())
        .filter_map(|l| l.strip_prefix("cube "))
        .filter_map(|l| crate::cli_cube::move_count(l.split(": ").nth(1)?))
        .collect();
    assert_eq!(counts.len(), 500);
    let most = counts.iter().max().copied().unwrap_or(99);
    let least = counts.iter().min().copied().unwrap_or(99);
    assert!(most <= 11, "{most}");
    assert!(
        text.contains(&format!("most {most}, least {least}")),
        "{text}"
    );
    // Counted in quarter turns, the lines say so: a lone half turn is 2 of them.
    let args = [
        "test-program",
        "--size",
        "2",
        "--metric",
        "qtm",
        "--cubes",
        "20",
        "--seed",
        "4",
        "--turns",
        "1",
    ];
    let out = cubed(&with_cache(&dir, &args), None);
    let text = stdout(&out);
    assert!(out.status.success(), "{}", stderr(&out));
    let lines: Vec<&str> = text.lines().filter(|l| l.starts_with("cube ")).collect();
    assert_eq!(lines.len(), 20, "{text}");
    assert!(
        (lines.iter()).all(|l| l.ends_with(": 1 quarter turn") || l.ends_with(": 2 quarter turns")),
        "{text}"
    );
    assert!(text.contains("quarter turns, most"), "{text}");
}

#[test]
fn scramble_and_check_size_2() {
    let out = cubed(
        &["scramble", "--size", "2", "--seed", "8", "--count", "20"],
        None,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let cubes: Vec<String> = stdout(&out).lines().map(str::to_string).collect();
    assert_eq!(cubes.len(), 20);
    let again = cubed(
        &["scramble", "--size", "2", "--seed", "8", "--count", "20"],
        None,
    );
    assert_eq!(stdout(&again), stdout(&out));
    for cube in &cubes {
        assert!(parse_pocket(cube, URFDLB, None).is_ok(), "{cube}");
        let ok = cubed(&["check", "--size", "2", cube], None);
        assert_eq!((ok.status.code(), stdout(&ok).trim()), (Some(0), "ok"));
    }
    let bad = cubed(&["check", "--size", "2", "UUUURRRRFFFFDDDDLLLLBBBR"], None);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stdout(&bad).contains("'R' appears 5 times") && stdout(&bad).contains("B4 (index 23)"),
        "{}",
        stdout(&bad)
    );
}

#[test]
fn check_reads_a_2x2_in_the_old_letters_as_solve_does() {
    let ok = cubed(
        &[
            "check",
            "--size",
            "2",
            "--legacy",
            "yyoo gggg yryr bbbb owow rrww",
        ],
        None,
    );
    assert!(ok.status.success(), "{}", stderr(&ok));
    assert_eq!(stdout(&ok).trim(), "ok");
    let bad = cubed(
        &[
            "check",
            "--size",
            "2",
            "--legacy",
            "gyyy gggg wwww bbbb rrrr oooo",
        ],
        None,
    );
    assert_eq!(bad.status.code(), Some(2), "{}", stdout(&bad));
    assert!(stdout(&bad).starts_with("invalid: "), "{}", stdout(&bad));
    let three = cubed(&["check", "--legacy", &"U".repeat(54)], None);
    assert_eq!(three.status.code(), Some(2));
    assert!(
        stderr(&three).contains("--size 2 only"),
        "{}",
        stderr(&three)
    );
}
