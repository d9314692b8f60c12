//! The cube and solver commands, run as a user runs them: check, solve, scramble, test-program, and the table cache.

use crate::common::{cubed, stderr, stdout, SOLVED};
use cubed::cube::{parse_cube, FaceOrder, Move, Notation};

fn solves(facelets: &str, solution: &str, notation: Notation) -> bool {
    let (cube, _, _) = parse_cube(facelets, FaceOrder::Urfdlb, None).expect("valid cube");
    let moves: Vec<Move> = cubed::cube::parse_moves(solution, notation).expect("solution parses");
    cube.apply_all(&moves).is_solved()
}

fn scrambles(seed: &str, count: &str) -> Vec<String> {
    let out = cubed(&["scramble", "--seed", seed, "--count", count], None);
    assert!(out.status.success());
    stdout(&out).lines().map(str::to_string).collect()
}

#[test]
fn check_says_ok_or_the_reason_with_exit_2() {
    let ok = cubed(&["check", SOLVED], None);
    assert_eq!((ok.status.code(), stdout(&ok).trim()), (Some(0), "ok"));
    let bad = cubed(&["check", &SOLVED[..53]], None);
    assert_eq!(bad.status.code(), Some(2));
    assert!(stdout(&bad).contains("53 stickers"), "{}", stdout(&bad));
    // Many cubes, one line each in order; from stdin, JSON rows say their line.
    // A cube typed a face at a time without quotes is six arguments: told to quote it.
    let faces: Vec<&str> = (0..6).map(|f| &SOLVED[f * 9..f * 9 + 9]).collect();
    let split = cubed(&[&["check"][..], &faces].concat(), None);
    assert_eq!(split.status.code(), Some(2));
    let said = String::from_utf8_lossy(&split.stderr);
    assert!(
        said.contains("six arguments of 9 stickers each") && said.contains("quote it"),
        "{said}"
    );
    // `#` and a space is a comment; `#` as a colour (first sticker too) is a cube.
    let hashed = SOLVED.replace('U', "#");
    let input = format!("{SOLVED}\n# a comment\n#\n{hashed}\n{}\n", &SOLVED[..53]);
    let text = cubed(&["check", "--stdin"], Some(&input));
    assert_eq!(text.status.code(), Some(2));
    let lines: Vec<String> = stdout(&text).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert_eq!(lines[..2], ["ok", "ok"]);
    assert!(lines[2].starts_with("invalid: wrong length"), "{lines:?}");
    let json = cubed(&["check", "--stdin", "--format", "json"], Some(&input));
    let rows: Vec<serde_json::Value> = (stdout(&json).lines())
        .map(|l| serde_json::from_str(l).expect("a JSON row"))
        .collect();
    assert_eq!(
        (rows[0]["ok"].clone(), rows[0]["line"].clone()),
        (true.into(), 1.into())
    );
    assert_eq!(
        (rows[1]["ok"].clone(), rows[1]["line"].clone()),
        (true.into(), 4.into())
    );
    assert_eq!(rows[2]["error"]["kind"], "wrong_length", "{rows:?}");
    assert_eq!(rows[2]["line"], 5, "{rows:?}");
}

/// `text` with the stickers at `at` set to `to`.
fn with_stickers(text: &str, at: &[usize], to: &str) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for (&i, c) in at.iter().zip(to.chars()) {
        chars[i] = c;
    }
    chars.into_iter().collect()
}

#[test]
fn the_same_fault_has_the_same_json_kind_on_a_2x2_and_a_3x3() {
    let pocket = "UUUURRRRFFFFDDDDLLLLBBBB";
    // The corner at U, R and F: stickers U9 R1 F3 on a 3x3, U4 R1 F2 on a 2x2.
    let (big_corner, small_corner) = ([8, 9, 20], [3, 4, 9]);
    let faults = [
        (
            "wrong_length",
            SOLVED[..53].to_string(),
            pocket[..23].to_string(),
        ),
        (
            "colour_count",
            with_stickers(SOLVED, &[0], "R"),
            with_stickers(pocket, &[0], "R"),
        ),
        // The corner's colours turned a third round in place.
        (
            "corner_twist",
            with_stickers(SOLVED, &big_corner, "FUR"),
            with_stickers(pocket, &small_corner, "FUR"),
        ),
        // Two of its stickers swapped: colours no corner piece has in that order.
        (
            "invalid_corner",
            with_stickers(SOLVED, &big_corner, "RUF"),
            with_stickers(pocket, &small_corner, "RUF"),
        ),
    ];
    for (kind, big, small) in faults {
        for (size, cube) in [("3", &big), ("2", &small)] {
            let out = cubed(&["check", "--size", size, "--format", "json", cube], None);
            assert_eq!(
                out.status.code(),
                Some(2),
                "{kind} {size}: {}",
                stdout(&out)
            );
            let row: serde_json::Value = serde_json::from_str(stdout(&out).trim()).expect("JSON");
            assert_eq!(row["error"]["kind"], kind, "{size}x{size} {cube}: {row}");
        }
    }
}

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
fn scramble_is_reproducible_and_valid() {
    let a = scrambles("42", "5");
    assert_eq!(a, scrambles("42", "5"));
    assert_eq!(a.len(), 5);
    for cube in &a {
        assert!(parse_cube(cube, FaceOrder::Urfdlb, None).is_ok(), "{cube}");
    }
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

/// A number that does not parse is said in words, naming the option, not as Rust's parse error.
#[test]
fn a_value_that_is_not_a_number_is_said_in_words() {
    let cases: [(&[&str], &str); 4] = [
        (
            &["dry-run", "--seed", "abc"],
            "--seed <SEED> 'abc': not a whole number",
        ),
        (
            &["dry-run", "--speed", "fast"],
            "--speed <SPEED> 'fast': not a number",
        ),
        (
            &["scramble", "--count", "12x"],
            "'12x' is not a whole number",
        ),
        (
            &["scramble", "--count", "99999999999999999999999"],
            "far too large",
        ),
    ];
    for (args, words) in cases {
        let out = cubed(args, None);
        let said = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {said}");
        assert!(said.contains(words), "{args:?}: {said}");
        for rust in ["invalid digit", "invalid float", "target type"] {
            assert!(!said.contains(rust), "{args:?}: {said}");
        }
    }
}

/// A negative number reaches the option's own check, which says what it takes, instead of
/// being taken for an unknown option.
#[test]
fn a_negative_number_is_refused_as_negative_by_its_option() {
    let cases: [(&[&str], &str); 5] = [
        (
            &["scramble", "--count", "-1"],
            "'-1' is negative: give 1 or more",
        ),
        (
            &["test-program", "--turns", "-3"],
            "'-3' is negative: give 0 or more",
        ),
        (&["dry-run", "--seed", "-5"], "--seed <SEED> '-5': negative"),
        (
            &["solve", "--budget-ms", "-2", "x"],
            "'-2' is negative: give 0 ms",
        ),
        (&["scramble", "--size", "-2"], "-2 is not in 2..=3"),
    ];
    for (args, words) in cases {
        let out = cubed(args, None);
        let said = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {said}");
        assert!(said.contains(words), "{args:?}: {said}");
        assert!(!said.contains("unexpected argument"), "{args:?}: {said}");
    }
}

/// Inputs that ask for nothing are refused, saying so, rather than answered with nothing.
#[test]
fn asking_for_nothing_is_refused_rather_than_answered_with_nothing() {
    let cases: [(&[&str], Option<&str>, &str); 6] = [
        (
            &["solve", "--stdin", "--tables", "small"],
            Some(""),
            "no cube on standard input",
        ),
        (
            &["check", "--stdin"],
            Some("\n# only a comment\n\n"),
            "no cube on standard input",
        ),
        (&["scramble", "--moves", ""], None, "no moves given"),
        (&["scramble", "--moves", "  "], None, "no moves given"),
        (
            &["scramble", "--turns", "0"],
            None,
            "--turns 0 makes no scramble",
        ),
        (
            &[
                "solve",
                "--size",
                "2",
                "--legacy",
                "--order",
                "ULFRBD",
                "yyyyggggwwwwbbbbrrrroooo",
            ],
            None,
            "'--legacy' cannot be used with '--order",
        ),
    ];
    for (args, input, words) in cases {
        let out = cubed(args, input);
        let said = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {said}");
        assert!(said.contains(words), "{args:?}: {said}");
        assert!(
            out.stdout.is_empty(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
}

#[test]
fn zero_cubes_and_endless_budgets_are_refused_with_the_range() {
    let cases: [(&[&str], &str); 7] = [
        (&["dry-run", "--cubes", "0"], "at least 1"),
        (&["test-program", "--cubes", "0"], "at least 1"),
        (&["scramble", "--count", "0"], "at least 1"),
        // Sizes that would not fit in memory are refused before anything is drawn.
        (
            &["test-program", "--cubes", "99999999999999"],
            "1000000 cubes",
        ),
        (
            &["test-program", "--turns", "18446744073709551615"],
            "1000 turns",
        ),
        (
            &["test-program", "--cubes", "1000000", "--turns", "1000"],
            "fewer cubes or fewer turns",
        ),
        (&["solve", "--budget-ms", "99999999999", SOLVED], "one hour"),
    ];
    for (args, reason) in cases {
        let out = cubed(args, None);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(reason), "{args:?}: {}", stderr(&out));
    }
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

#[test]
fn full_tables_are_cached_and_a_corrupt_cache_is_rebuilt() {
    let dir = tempfile::tempdir().expect("temp dir");
    let cache = dir.path().to_str().expect("utf-8 path");
    let stale = dir.path().join("cubed-tables-v0-full.bin");
    std::fs::write(&stale, b"an older format").expect("writing a stale cache file");
    let cube = &scrambles("5", "1")[0];
    let run = || {
        cubed(
            &["solve", "--budget-ms", "10", "--cache-dir", cache, cube],
            None,
        )
    };
    let cold = run();
    assert!(cold.status.success(), "{}", stderr(&cold));
    assert!(
        stderr(&cold).contains("built solver tables"),
        "{}",
        stderr(&cold)
    );
    assert!(solves(cube, stdout(&cold).trim(), Notation::Singmaster));
    assert!(
        !stale.exists(),
        "a cache file of an older format is removed"
    );
    let warm = run();
    assert!(
        warm.status.success() && stderr(&warm).is_empty(),
        "{}",
        stderr(&warm)
    );
    // The full search (endings, queued ends, phase 2) on random cubes.
    let many = scrambles("11", "20");
    let input = many.join("\n");
    let full = cubed(
        &[
            "solve",
            "--stdin",
            "--budget-ms",
            "100",
            "--cache-dir",
            cache,
        ],
        Some(&input),
    );
    assert!(full.status.success(), "{}", stderr(&full));
    let solutions: Vec<String> = stdout(&full).lines().map(str::to_string).collect();
    assert_eq!(solutions.len(), many.len());
    for (cube, solution) in many.iter().zip(&solutions) {
        assert!(
            solves(cube, solution, Notation::Singmaster),
            "{cube}: {solution}"
        );
        assert!(
            solution.split_whitespace().count() <= 22,
            "{cube}: {solution}"
        );
    }
    let file = std::fs::read_dir(dir.path())
        .expect("cache dir")
        .next()
        .expect("a cache file")
        .expect("entry")
        .path();
    let mut bytes = std::fs::read(&file).expect("cache file");
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0xff;
    std::fs::write(&file, &bytes).expect("corrupting the cache");
    let rebuilt = run();
    assert!(rebuilt.status.success());
    assert!(
        stderr(&rebuilt).contains("checksum mismatch"),
        "{}",
        stderr(&rebuilt)
    );
    assert!(solves(cube, stdout(&rebuilt).trim(), Notation::Singmaster));
}

/// "19 moves" or "1 move" (the singular for one) as a number.
pub fn move_count(text: &str) -> Option<usize> {
    let (n, noun) = text.split_once(' ')?;
    let n: usize = n.parse().ok()?;
    let expected = if n == 1 { "move" } else { "moves" };
    assert_eq!(noun, expected, "{text:?}: the noun agrees with the count");
    Some(n)
}

#[test]
fn tables_refuse_a_cache_folder_they_cannot_write_before_building_anything() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("a-file");
    std::fs::write(&file, b"").expect("write");
    let inside_a_file = file.join("cache");
    let out = cubed(
        &["tables", "--cache-dir", &inside_a_file.to_string_lossy()],
        None,
    );
    let said = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(said.contains("cannot cache the solver tables in"), "{said}");
    assert!(
        said.contains(&inside_a_file.display().to_string()),
        "{said}"
    );
    assert!(
        !said.contains("building"),
        "it must refuse before building: {said}"
    );
}
