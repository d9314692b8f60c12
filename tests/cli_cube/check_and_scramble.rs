//! `cubed check` and `cubed scramble`: ok or the reason with exit 2, the same fault's JSON kind on a 2x2 and a 3x3, reproducible valid scrambles.

use super::scrambles;
use crate::common::{cubed, stdout, SOLVED};
use cubed::cube::{parse_cube, FaceOrder};

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
    // The input line is named, the blank and comment lines counted.
    assert!(
        lines[2].starts_with("invalid: line 5: wrong length"),
        "{lines:?}"
    );
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
    // A byte-order mark and Windows line ends are no stickers; a cube whose first sticker
    // is `#`, typed with spaces between stickers, is a comment, and said to be one.
    let spaced: String = hashed.chars().flat_map(|c| [c, ' ']).collect();
    let input = format!("\u{feff}{SOLVED}\r\n{spaced}\n");
    let text = cubed(&["check", "--stdin"], Some(&input));
    assert_eq!((text.status.code(), stdout(&text).trim()), (Some(0), "ok"));
    let said = String::from_utf8_lossy(&text.stderr);
    assert!(
        said.contains("line 2: skipped as a comment ('#' then a space), though it has 54 symbols"),
        "{said}"
    );
    // A cube typed a face at a time, one sticker short, is not taken for moves.
    let faces: Vec<&str> = (0..6).map(|f| &SOLVED[f * 9..f * 9 + 9]).collect();
    let short = faces.join(" ")[1..].to_string();
    let out = cubed(&["check", &short], None);
    let said = stdout(&out);
    assert!(said.contains("wrong length: 53 stickers"), "{said}");
    assert!(!said.contains("reads as moves"), "{said}");
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
fn scramble_is_reproducible_and_valid() {
    let a = scrambles("42", "5");
    assert_eq!(a, scrambles("42", "5"));
    assert_eq!(a.len(), 5);
    for cube in &a {
        assert!(parse_cube(cube, FaceOrder::Urfdlb, None).is_ok(), "{cube}");
    }
}
