//! `cubed solve`: solutions that solve, text and JSON cubes on stdin (bad lines refused by number, the rest solved), the 1988 face order and notation, impossible or missing cubes.

use super::{scrambles, solves};
use crate::common::{cubed, stderr, stdout, SOLVED};
use cubed::cube::{parse_cube, FaceOrder, Notation};

#[test]
fn a_solved_cube_is_said_to_be_already_solved_and_one_turn_is_one_move() {
    let out = cubed(&["solve", "--tables", "small", SOLVED], None);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), "already solved (0 moves)");
    let program = cubed(
        &[
            "test-program",
            "--tables",
            "small",
            "--cubes",
            "3",
            "--turns",
            "1",
        ],
        None,
    );
    assert!(program.status.success(), "{}", stderr(&program));
    let text = stdout(&program);
    assert_eq!(text.matches(": 1 move\n").count(), 3, "{text}");
}

#[test]
fn solve_prints_solutions_that_solve() {
    let cubes = scrambles("7", "3");
    let mut args = vec!["solve", "--tables", "small", "--budget-ms", "20"];
    args.extend(cubes.iter().map(String::as_str));
    let out = cubed(&args, None);
    assert!(out.status.success(), "{}", stderr(&out));
    let lines: Vec<String> = stdout(&out).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 3);
    for (cube, line) in cubes.iter().zip(&lines) {
        assert!(
            solves(cube, line, Notation::Singmaster),
            "{line} does not solve {cube}"
        );
    }
}

#[test]
fn solve_json_reports_bad_lines_on_stdin_and_solves_the_rest() {
    let good = scrambles("9", "2");
    // Comments and blank lines are skipped, and counted in the line numbers.
    let input = format!(
        "# two cubes\n{}\n\n  # and a bad line\nUUUU\n{}\n",
        good[0], good[1]
    );
    let out = cubed(
        &[
            "solve",
            "--stdin",
            "--tables",
            "small",
            "--budget-ms",
            "5",
            "--format",
            "json",
        ],
        Some(&input),
    );
    assert_eq!(
        out.status.code(),
        Some(2),
        "an invalid line makes the exit status 2"
    );
    let rows: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).expect("json line"))
        .collect();
    assert_eq!(rows.len(), 3);
    let lines: Vec<_> = rows.iter().map(|r| r["line"].as_u64()).collect();
    assert_eq!(
        lines,
        [Some(2), Some(5), Some(6)],
        "rows say their input line"
    );
    assert_eq!(rows[1]["error"]["kind"], "wrong_length");
    assert!(rows[1]["error"]["message"]
        .as_str()
        .unwrap_or("")
        .contains("4 stickers"));
    for row in [&rows[0], &rows[2]] {
        let solution = row["solution"].as_str().expect("solution");
        let facelets = row["facelets"].as_str().expect("facelets");
        assert!(solves(facelets, solution, Notation::Singmaster));
        assert_eq!(
            row["moves"].as_u64(),
            Some(solution.split_whitespace().count() as u64)
        );
    }
}

#[test]
fn solve_text_on_stdin_prints_one_line_per_cube_in_order() {
    let good = scrambles("10", "2");
    let input = format!("{}\nUUUU\n# a comment\n{SOLVED}\n{}\n", good[0], good[1]);
    let args = ["solve", "--stdin", "--tables", "small", "--budget-ms", "5"];
    let out = cubed(&args, Some(&input));
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert_eq!(
        (lines[1], lines[2]),
        ("invalid", "already solved (0 moves)")
    );
    assert!(solves(&good[0], lines[0], Notation::Singmaster));
    assert!(solves(&good[1], lines[3], Notation::Singmaster));
    assert!(
        stderr(&out).contains("line 2: invalid cube UUUU"),
        "{}",
        stderr(&out)
    );
}

/// A line that is not UTF-8 text is refused by its line number; the lines after it are solved.
#[test]
fn solve_on_stdin_refuses_a_line_that_is_not_text_and_solves_the_rest() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let good = scrambles("12", "1");
    let mut child = Command::new(env!("CARGO_BIN_EXE_cubed"))
        .args(["solve", "--stdin", "--tables", "small", "--budget-ms", "5"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cubed starts");
    let mut input = child.stdin.take().expect("stdin piped");
    let mut bytes = b"\xff\xfe".to_vec();
    bytes.extend_from_slice(format!("{}\n{}\n", good[0], good[0]).as_bytes());
    input.write_all(&bytes).expect("writes stdin");
    drop(input);
    let out = child.wait_with_output().expect("cubed finishes");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert_eq!(lines[0], "invalid");
    assert!(solves(&good[0], lines[1], Notation::Singmaster), "{text}");
    assert!(
        stderr(&out).contains("line 1: invalid cube"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn solve_reads_the_1988_face_order_and_writes_the_1988_notation() {
    let cube = &scrambles("11", "1")[0];
    let (f, scheme, _) = parse_cube(cube, FaceOrder::Urfdlb, None).expect("valid");
    let s = f.to_symbols(&scheme);
    // TFRPLB: top, front, right, posterior, left, bottom.
    let tfrplb: String = [0usize, 2, 1, 5, 4, 3]
        .iter()
        .map(|&b| &s[b * 9..b * 9 + 9])
        .collect();
    let args = [
        "solve",
        "--tables",
        "small",
        "--order",
        "TFRPLB",
        "--notation",
        "woolley",
        &tfrplb,
    ];
    let out = cubed(&args, None);
    assert!(out.status.success(), "{}", stderr(&out));
    let line = stdout(&out);
    assert!(line.contains('+') || line.contains('-') || line.contains('2'));
    assert!(solves(cube, line.trim(), Notation::Woolley), "{line}");
    // JSON says which notation its solution is in.
    let args = [&args[..], &["--format", "json"]].concat();
    let row: serde_json::Value =
        serde_json::from_str(&stdout(&cubed(&args, None))).expect("one JSON row");
    assert_eq!(row["notation"], "woolley", "{row}");
    let solution = row["solution"].as_str().expect("a solution");
    assert!(solves(cube, solution, Notation::Woolley), "{row}");
    // Refused, the message's Singmaster letters are said (there B is the back, P in 1988):
    // the 4th block typed, the posterior, holds sticker B1.
    let mut typo: Vec<char> = tfrplb.chars().collect();
    typo[27] = 'X';
    let typo: String = typo.into_iter().collect();
    let out = cubed(&["check", "--order", "TFRPLB", &typo], None);
    let said = stdout(&out);
    assert!(said.contains("at sticker B1 (index 27 as given)"), "{said}");
    assert!(said.contains("B the back (P)"), "{said}");
}

#[test]
fn an_impossible_cube_exits_2_with_the_reason() {
    let mut twisted: Vec<char> = SOLVED.chars().collect();
    (twisted[8], twisted[9], twisted[20]) = ('F', 'U', 'R');
    let twisted: String = twisted.into_iter().collect();
    let out = cubed(&["solve", "--tables", "small", &twisted], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("a corner is twisted in place"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn solve_without_a_cube_exits_2_and_says_how_to_give_one() {
    let out = cubed(&["solve", "--tables", "small"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--stdin"), "{}", stderr(&out));
}
