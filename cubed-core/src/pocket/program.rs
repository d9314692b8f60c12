//! The Test Program for the 2x2: scramble solved cubes with the 1988 program's random moves, solve each optimally, check the solution on the stickers, and sum up (counts, average, most, least, failures). Pure: the random source is injected.

use super::facelets::PocketFacelets;
use super::model::PocketCube;
use super::solver::{length_in, PocketSolver};
use super::tables::Metric;
use crate::cube::random::random_pocket_scramble;
use crate::cube::Move;
use rand::Rng;

/// One cube's result: its scramble and the solution length, or why it failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProgramOutcome {
    pub scramble: Vec<Move>,
    /// The solution's length, or why there is none.
    pub moves: Result<usize, ProgramFailure>,
    /// The solution checked (empty where there is none).
    pub solution: Vec<Move>,
}

/// Why the Test Program failed on one cube (of either size): each cause is kept as its
/// chained text, since the report prints it beside the cube's scramble.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProgramFailure {
    /// The scrambled stickers are not a cube (a bug in the scramble or the sticker model).
    #[error("scrambled cube is invalid: {0}")]
    Invalid(String),
    /// The solver gave no solution.
    #[error("{0}")]
    Solver(String),
    /// The solver's answer, applied to the stickers, leaves the cube unsolved.
    #[error("the solution does not solve the cube")]
    NotSolved,
}

/// The summary over all cubes.
#[derive(Clone, Debug, PartialEq)]
pub struct ProgramSummary {
    pub solved: usize,
    pub failed: usize,
    pub average: Option<f64>,
    pub most: Option<usize>,
    pub least: Option<usize>,
}

/// `cubes` 2x2 scrambles of `turns` random moves each (with `rotations`, also `RC+ RC- RC2`),
/// none of which merge on a 2x2.
pub fn scrambles<R: Rng>(
    rng: &mut R,
    cubes: usize,
    turns: usize,
    rotations: bool,
) -> Vec<Vec<Move>> {
    (0..cubes)
        .map(|_| random_pocket_scramble(rng, turns, rotations))
        .collect()
}

/// Scrambles a solved cube, solves it in `metric` and checks the solution on the stickers.
pub fn run_one(solver: &PocketSolver, scramble: &[Move], metric: Metric) -> ProgramOutcome {
    let scrambled = PocketFacelets::default().apply_all(scramble);
    let mut solution = Vec::new();
    let moves = PocketCube::read(&scrambled.relabel_by_fixed_corner())
        .map_err(|e| ProgramFailure::Invalid(e.to_string()))
        .and_then(|cube| {
            let turns = solver.solve(&cube, metric);
            solution = turns.iter().map(|&t| t.into()).collect();
            if scrambled.apply_all(&solution).is_solved() {
                Ok(length_in(&turns, metric))
            } else {
                Err(ProgramFailure::NotSolved)
            }
        });
    ProgramOutcome {
        scramble: scramble.to_vec(),
        moves,
        solution,
    }
}

/// Counts, average, most and least over the cubes that were solved.
pub fn summarise(outcomes: &[ProgramOutcome]) -> ProgramSummary {
    let counts: Vec<usize> = outcomes
        .iter()
        .filter_map(|o| o.moves.as_ref().ok().copied())
        .collect();
    ProgramSummary {
        solved: counts.len(),
        failed: outcomes.len() - counts.len(),
        average: (!counts.is_empty())
            .then(|| counts.iter().sum::<usize>() as f64 / counts.len() as f64),
        most: counts.iter().max().copied(),
        least: counts.iter().min().copied(),
    }
}
