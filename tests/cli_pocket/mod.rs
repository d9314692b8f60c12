//! The 2x2 from the command line, run as a user runs it: the shared helpers (seeded random 2x2s, a solution checked to solve, the table cache in a temporary directory) and one submodule per command or concern.

use cubed::cube::{parse_moves, ColourScheme, FaceOrder, Move, Notation};
use cubed::pocket::{parse_pocket, random_pocket, PocketFormat};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

mod plan_and_exec;
mod solve;
mod test_program_scramble_check;

pub(super) const URFDLB: PocketFormat = PocketFormat::Facelets(FaceOrder::Urfdlb);

pub(super) fn random_cubes(seed: u64, n: usize) -> Vec<String> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let scheme = ColourScheme {
        symbols: ['w', 'r', 'g', 'y', 'o', 'b'],
    };
    (0..n)
        .map(|_| random_pocket(&mut rng).to_facelets().to_symbols(&scheme))
        .collect()
}

/// The number of face turns, after checking the solution solves the cube.
pub(super) fn solves(
    facelets: &str,
    format: PocketFormat,
    solution: &str,
    notation: Notation,
) -> usize {
    let (cube, _, _) = parse_pocket(facelets, format, None).expect("valid cube");
    let moves: Vec<Move> = parse_moves(solution, notation).expect("solution parses");
    assert!(
        cube.apply_all(&moves).is_solved(),
        "{solution} does not solve {facelets}"
    );
    moves.len()
}

pub(super) fn with_cache<'a>(dir: &'a tempfile::TempDir, args: &[&'a str]) -> Vec<&'a str> {
    let mut all = args.to_vec();
    all.extend(["--cache-dir", dir.path().to_str().expect("utf-8 temp path")]);
    all
}
