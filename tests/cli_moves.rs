//! `cubed scramble --moves` and `--turns`: moves made into a cube, and random-turn scrambles
//! as moves, checked against a cube turned by hand and against the solver.

use crate::common::{cubed, stderr, stdout};

/// R on a solved cube, worked out by hand from the net: F's right column goes up, U's to
/// the back (upside down), B's left column down, D's right column to the front.
const AFTER_R: &str = "UUFUUFUUFRRRRRRRRRFFDFFDFFDDDBDDBDDBLLLLLLLLLUBBUBBUBB";

#[test]
fn scramble_moves_make_the_cube_a_person_turns_by_hand() {
    let r = cubed(&["scramble", "--moves", "R"], None);
    assert!(r.status.success(), "{}", stderr(&r));
    assert_eq!(stdout(&r).trim(), AFTER_R);
    let woolley = cubed(
        &["scramble", "--moves", "R+", "--notation", "woolley"],
        None,
    );
    assert_eq!(stdout(&woolley).trim(), AFTER_R);
    // Four quarter turns of one face are none.
    let four = cubed(&["scramble", "--moves", "U U U U"], None);
    let solved = "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB";
    assert_eq!(stdout(&four).trim(), solved);
    let bad = cubed(&["scramble", "--moves", "R Q"], None);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stderr(&bad).contains("'Q' at character 3"),
        "{}",
        stderr(&bad)
    );
}

#[test]
fn scramble_turns_print_moves_that_make_a_cube_the_solver_undoes() {
    let args = ["scramble", "--turns", "12", "--seed", "5", "--count", "3"];
    let out = cubed(&args, None);
    let lines: Vec<String> = stdout(&out).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert_eq!(
        stdout(&cubed(&args, None)),
        stdout(&out),
        "the seed repeats"
    );
    // Moves given where a cube is wanted: said how to make them one.
    let piped = cubed(&["check", "--stdin"], Some(&stdout(&out)));
    assert_eq!(piped.status.code(), Some(2));
    assert!(
        stdout(&piped).contains("this reads as moves, not stickers"),
        "{}",
        stdout(&piped)
    );
    for scramble in &lines {
        assert_eq!(scramble.split(' ').count(), 12, "{scramble}");
        let made = stdout(&cubed(&["scramble", "--moves", scramble], None));
        let solved = cubed(&["solve", "--tables", "small", made.trim()], None);
        let solution = stdout(&solved);
        let undone = format!("{scramble} {}", solution.trim());
        let back = stdout(&cubed(&["scramble", "--moves", &undone], None));
        let faces = back.trim().as_bytes().chunks(9);
        assert!(
            faces.clone().all(|f| f.iter().all(|&c| c == f[0])),
            "{scramble} then {solution}: {back}"
        );
    }
}
