//! `cubed test-program`: every cube solved and verified, and a seeded run printing the same lines on a busy machine.

use super::move_count;
use crate::common::{cubed, stderr, stdout};
use cubed::cube::{Move, Notation};

/// With a seed the Test Program counts its search budget in nodes: the same lines on a quiet
/// and on a busy machine (a time budget finds fewer short solutions under load).
#[test]
fn a_seeded_test_program_prints_the_same_on_a_busy_machine() {
    let args = [
        "test-program",
        "--tables",
        "small",
        "--cubes",
        "20",
        "--seed",
        "4",
        "--threads",
        "1",
    ];
    let run = || {
        let out = cubed(&args, None);
        assert!(out.status.success(), "{}", stderr(&out));
        let text = stdout(&out);
        assert!(text.contains("search nodes at most per cube"), "{text}");
        // Every line but the time taken ("… in 0.42 s").
        (text.lines())
            .filter(|l| !l.ends_with(" s"))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    let quiet = run();
    let busy = {
        let _load = crate::common::BusyCores::start(4);
        run()
    };
    assert_eq!(quiet, busy);
}

#[test]
fn test_program_solves_and_verifies_every_cube() {
    let out = cubed(
        &[
            "test-program",
            "--cubes",
            "60",
            "--turns",
            "20",
            "--seed",
            "3",
            "--rotations",
            "--tables",
            "small",
            "--show",
        ],
        None,
    );
    assert!(out.status.success(), "{}", stdout(&out));
    let text = stdout(&out);
    let shown: Vec<Vec<&str>> = (text.lines())
        .filter_map(|l| l.strip_prefix("cube "))
        .map(|r| r.split("; ").collect())
        .collect();
    let counts: Vec<usize> = (shown.iter())
        .filter_map(|parts| move_count(parts[0].split(": ").nth(1)?))
        .collect();
    assert_eq!(counts.len(), 60);
    // Each shown solution, after its scramble (both in the 1988 notation), solves the cube.
    for parts in &shown {
        let moves = |label: &str| -> Vec<Move> {
            let written = parts.iter().find_map(|p| p.strip_prefix(label));
            let written = written.unwrap_or_else(|| panic!("no {label} in {parts:?}"));
            cubed::cube::parse_moves(written, Notation::Woolley).expect("1988 notation")
        };
        let scrambled = cubed::cube::FaceletCube::default().apply_all(&moves("scramble: "));
        let solution = moves("solution: ");
        assert!(scrambled.apply_all(&solution).is_solved(), "{parts:?}");
    }
    let (most, least) = (
        counts.iter().max().copied().unwrap_or(0),
        counts.iter().min().copied().unwrap_or(0),
    );
    let avg = counts.iter().sum::<usize>() as f64 / 60.0;
    assert!(
        text.contains(&format!(
            "average {avg:.2} moves, most {most}, least {least}"
        )),
        "{text}"
    );
    assert!(text.contains("60 solved, 0 failed"));
}
