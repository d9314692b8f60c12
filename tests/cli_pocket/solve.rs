//! `cubed solve --size 2`: solutions of at most 11 turns, a corrupt table cache rebuilt, stdin, JSON, both metrics and the 1988 notation, the legacy letters, and options refused on the wrong size.

use super::{random_cubes, solves, with_cache, URFDLB};
use crate::common::{cubed, stderr, stdout};
use cubed::cube::Notation;
use cubed::pocket::PocketFormat;

#[test]
fn solve_size_2_prints_solutions_of_at_most_11_turns() {
    let dir = tempfile::tempdir().expect("temp dir");
    let cubes = random_cubes(1, 20);
    let mut args = with_cache(&dir, &["solve", "--size", "2"]);
    args.extend(cubes.iter().map(String::as_str));
    let out = cubed(&args, None);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("built 2x2 tables"),
        "{}",
        stderr(&out)
    );
    let lines: Vec<String> = stdout(&out).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 20);
    for (cube, line) in cubes.iter().zip(&lines) {
        assert!(solves(cube, URFDLB, line, Notation::Singmaster) <= 11);
    }
    // Second run: the tables come from the cache, silently.
    let again = cubed(&args, None);
    assert_eq!(stdout(&again), stdout(&out));
    assert!(!stderr(&again).contains("2x2 tables"), "{}", stderr(&again));
}

#[test]
fn a_corrupt_2x2_cache_is_rebuilt_and_said() {
    let dir = tempfile::tempdir().expect("temp dir");
    let cube = &random_cubes(2, 1)[0];
    let first = cubed(&with_cache(&dir, &["solve", "--size", "2", cube]), None);
    assert!(first.status.success());
    let path = cubed::table_cache::pocket_cache_file(dir.path());
    let mut bytes = std::fs::read(&path).expect("cache written");
    bytes[100] ^= 0xff;
    std::fs::write(&path, bytes).expect("corrupting the cache");
    let second = cubed(&with_cache(&dir, &["solve", "--size", "2", cube]), None);
    assert_eq!(stdout(&second), stdout(&first));
    assert!(stderr(&second).contains("unusable"), "{}", stderr(&second));
    assert!(stderr(&second).contains("checksum"), "{}", stderr(&second));
}

#[test]
fn stdin_json_qtm_and_1988_notation() {
    let dir = tempfile::tempdir().expect("temp dir");
    let cubes = random_cubes(3, 3);
    let input = format!("{}\nwwwwrrrr\n{}\n{}\n", cubes[0], cubes[1], cubes[2]);
    let args = [
        "solve",
        "--size",
        "2",
        "--stdin",
        "--metric",
        "qtm",
        "--format",
        "json",
        "--notation",
        "woolley",
    ];
    let out = cubed(&with_cache(&dir, &args), Some(&input));
    assert_eq!(out.status.code(), Some(2), "a bad line gives exit 2");
    let rows: Vec<serde_json::Value> = (stdout(&out).lines())
        .map(|l| serde_json::from_str(l).expect("one JSON object a line"))
        .collect();
    assert_eq!(rows.len(), 4);
    assert_eq!(rows[1]["line"], 2);
    assert_eq!(rows[1]["error"]["kind"], "wrong_length");
    for (row, line) in [(&rows[0], 1), (&rows[2], 3), (&rows[3], 4)] {
        assert_eq!(row["line"], line);
        assert_eq!(row["metric"], "qtm");
        let solution = row["solution"].as_str().expect("a solution");
        let facelets = row["facelets"].as_str().expect("its cube");
        solves(facelets, URFDLB, solution, Notation::Woolley);
        let quarters: u64 = (solution.split_whitespace())
            .map(|m| if m.ends_with('2') { 2 } else { 1 })
            .sum();
        assert_eq!(row["moves"].as_u64(), Some(quarters));
        assert!(quarters <= 14);
    }
}

#[test]
fn the_legacy_letters_and_the_errors_name_stickers() {
    let dir = tempfile::tempdir().expect("temp dir");
    // T F R P L B, front turned a quarter: the 1988 order, letters y g w b r o.
    let solved = "yyyy gggg rrrr bbbb oooo wwww";
    let out = cubed(
        &with_cache(&dir, &["solve", "--size", "2", "--legacy", solved]),
        None,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), "already solved (0 moves)");
    let turned = "yyoo gggg yryr bbbb owow rrww";
    let out = cubed(
        &with_cache(
            &dir,
            &[
                "solve",
                "--size",
                "2",
                "--legacy",
                "--notation",
                "woolley",
                turned,
            ],
        ),
        None,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let solution = stdout(&out).trim().to_string();
    assert_eq!(solution, "F-");
    solves(turned, PocketFormat::Legacy, &solution, Notation::Woolley);
    let bad = cubed(
        &with_cache(
            &dir,
            &[
                "solve",
                "--size",
                "2",
                "--legacy",
                "yyyyggggrrrrbbbbooookwww",
            ],
        ),
        None,
    );
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stderr(&bad).contains("unknown colour 'k' at sticker B1 (letter 21)"),
        "{}",
        stderr(&bad)
    );
}

#[test]
fn two_by_two_options_are_refused_on_a_3x3() {
    let out = cubed(&["solve", "--metric", "qtm", "x"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--size 2 only"), "{}", stderr(&out));
    let out = cubed(&["solve", "--size", "4", "x"], None);
    assert_eq!(
        out.status.code(),
        Some(2),
        "clap refuses a size outside 2..=3"
    );
}

#[test]
fn three_by_three_options_that_do_nothing_on_a_2x2_are_refused() {
    let refused = [
        (
            &["solve", "--size", "2", "--budget-ms", "5", "x"][..],
            "--budget-ms",
        ),
        (
            &["test-program", "--size", "2", "--target", "9"][..],
            "--target",
        ),
        (&["test-program", "--size", "2", "--legacy"][..], "--legacy"),
    ];
    for (args, option) in refused {
        let out = cubed(args, None);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(option), "{}", stderr(&out));
    }
}
