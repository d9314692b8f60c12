//! `cubed-bench solver --threads-side-by-side`: the face-turn solver on one thread and on two, the same cubes and budget, alternated cube by cube.

use cubed::cube::random::random_cube;
use cubed::cube::CubieCube;
use cubed::solver::{SearchOptions, Solver, SOLVE_THREADS};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::time::Duration;

/// Prints one row per budget: average length on one thread and on [`SOLVE_THREADS`], and their
/// ratio. Each cube is solved both ways in turn (which goes first alternates), so a change in
/// the machine's load falls on both alike. Err if a solution does not solve its cube.
pub fn threads_side_by_side(
    solver: &Solver,
    budgets: &[u64],
    cubes: usize,
    seed: u64,
) -> anyhow::Result<()> {
    println!(
        "one thread against {SOLVE_THREADS} (the six search directions shared), the same cubes, alternated cube by cube (seed {seed})"
    );
    println!(
        "{:>9} {:>6} {:>11} {:>11} {:>7}",
        "budget", "cubes", "1 thread", "2 threads", "ratio"
    );
    for &budget in budgets {
        let opts = SearchOptions {
            budget: Duration::from_millis(budget),
            ..SearchOptions::default()
        };
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (mut one, mut two) = (0usize, 0usize);
        for i in 0..cubes {
            let cube = random_cube(&mut rng);
            let solve = |threads| solved_length(solver, &cube, &opts, threads);
            if i % 2 == 0 {
                one += solve(1)?;
                two += solve(SOLVE_THREADS)?;
            } else {
                two += solve(SOLVE_THREADS)?;
                one += solve(1)?;
            }
        }
        let (one, two) = (one as f64 / cubes as f64, two as f64 / cubes as f64);
        println!(
            "{:>9} {cubes:>6} {one:>11.3} {two:>11.3} {:>7.4}",
            format!("{budget}ms"),
            two / one
        );
    }
    Ok(())
}

/// The length of the solution found on `threads` threads, checked to solve the cube.
fn solved_length(
    solver: &Solver,
    cube: &CubieCube,
    opts: &SearchOptions,
    threads: usize,
) -> anyhow::Result<usize> {
    let solution = solver.solve_on_threads(cube, opts, threads)?;
    let end = solution.iter().fold(*cube, |c, &t| c.turn(t));
    anyhow::ensure!(
        end.is_solved(),
        "a {threads}-thread solution did not solve its cube"
    );
    Ok(solution.len())
}
