//! The cube and solver commands, run as a user runs them: the shared helpers (a solution that solves, seeded scrambles, a move count read from text) and one submodule per command or concern.

use crate::common::{cubed, stdout};
use cubed::cube::{parse_cube, FaceOrder, Move, Notation};

mod check_and_scramble;
mod refused_values;
mod solve;
mod tables;
mod test_program;

pub(super) fn solves(facelets: &str, solution: &str, notation: Notation) -> bool {
    let (cube, _, _) = parse_cube(facelets, FaceOrder::Urfdlb, None).expect("valid cube");
    let moves: Vec<Move> = cubed::cube::parse_moves(solution, notation).expect("solution parses");
    cube.apply_all(&moves).is_solved()
}

pub(super) fn scrambles(seed: &str, count: &str) -> Vec<String> {
    let out = cubed(&["scramble", "--seed", seed, "--count", count], None);
    assert!(out.status.success());
    stdout(&out).lines().map(str::to_string).collect()
}

/// "19 moves" or "1 move" (the singular for one) as a number.
pub fn move_count(text: &str) -> Option<usize> {
    let (n, noun) = text.split_once(' ')?;
    let n: usize = n.parse().ok()?;
    let expected = if n == 1 { "move" } else { "moves" };
    assert_eq!(noun, expected, "{text:?}: the noun agrees with the count");
    Some(n)
}
