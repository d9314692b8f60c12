//! Option values the commands refuse in words: numbers that do not parse, negative numbers, flags beyond their keys' ranges, files given for folders, a token no header can carry, inputs asking for nothing, zero cubes and endless budgets.

use crate::common::{cubed, stderr, SOLVED};

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
            "'fast' is not a speed: 0 (instant)",
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

/// A flag that overrides a configuration key takes only what the key takes (a `--max-photo-mb
/// 0` would have pruned every photo kept; a `--speed nan` simulator never moved), and counts
/// have ceilings.
#[test]
fn flags_are_held_to_their_keys_ranges_and_counts_to_ceilings() {
    let cases: [(&[&str], &str); 10] = [
        (
            &["history", "--data-dir", "/etc/passwd"],
            "/etc/passwd: a file, not a directory",
        ),
        (
            &["solve", "--cache-dir", "/etc/passwd/tables", "R"],
            "/etc/passwd is a file, not a folder",
        ),
        (
            &["dry-run", "--max-photo-mb", "0"],
            "outside 10..=10000000 (as [history] max_photo_mb takes)",
        ),
        (
            &["dry-run", "--keep-runs", "0"],
            "outside 1..=1000000 (as [history] keep_runs takes)",
        ),
        (&["dry-run", "--speed", "nan"], "'nan' is not a speed"),
        (&["dry-run", "--timeout-secs", "0"], "must be at least 1"),
        (
            &["sim", "--pty", "--speed", "1e-300"],
            "'1e-300' is not a speed",
        ),
        (
            &["exec", "--port", "/dev/null", "--moves", "R", "--baud", "0"],
            "outside 300..=4000000 (as [robot] baud takes)",
        ),
        (
            &["test-program", "--threads", "100000"],
            "more than the 256 threads",
        ),
        (
            &["scramble", "--count", "1000001"],
            "more than the 1000000 scrambles",
        ),
    ];
    for (args, words) in cases {
        let out = cubed(args, None);
        let said = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {said}");
        assert!(said.contains(words), "{args:?}: {said}");
    }
}

/// A token from the environment that no request header can carry is refused as the setting's
/// fault, naming it, rather than failing as the request is made.
#[test]
fn a_token_with_a_line_break_is_refused_naming_cubed_token() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_cubed"))
        .args(["status", "--http", "127.0.0.1:1"])
        .env("CUBED_TOKEN", "abc\ndef")
        .output()
        .expect("cubed runs");
    let said = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(
        said.contains("$CUBED_TOKEN holds a space, a line break"),
        "{said}"
    );
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
            "'-3' is negative: give 1 or more",
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
    let cases: [(&[&str], Option<&str>, &str); 7] = [
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
            &["test-program", "--turns", "0"],
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
