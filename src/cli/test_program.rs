//! `cubed test-program`: the 1988 Test Program — scramble N cubes with M random turns, solve and verify each, print the counts and the summary.

use super::tables_arg::TableArgs;
use clap::Args;
use cubed::cube::random::random_scramble;
use cubed::cube::{format_moves, CubieCube, FaceletCube, Move, Notation};
use cubed::error_chain::error_chain;
use cubed::solver::{SearchOptions, Solver};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(Args, Debug)]
pub struct TestProgramArgs {
    /// How many cubes to scramble and solve (1 to 1000000).
    #[arg(long, default_value_t = 100, value_parser = super::counts::test_cubes)]
    pub cubes: usize,
    /// Random turns per scramble (0 to 1000).
    #[arg(long, default_value_t = 25, value_parser = super::counts::scramble_turns)]
    pub turns: usize,
    /// Seed for reproducible scrambles (default: from the clock).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Also draw whole-cube rotations RC+ RC- RC2 in scrambles.
    #[arg(long)]
    pub rotations: bool,
    /// Stop searching a cube once a solution this short is found.
    #[arg(long, default_value_t = 20)]
    pub target: usize,
    /// Longest search per cube when the target is not reached.
    #[arg(long, default_value_t = 3, value_parser = super::counts::budget_ms)]
    pub budget_ms: u64,
    /// Worker threads (default: all cores).
    #[arg(long, value_parser = super::counts::at_least_one)]
    pub threads: Option<usize>,
    #[command(flatten)]
    pub tables: TableArgs,
    #[command(flatten)]
    pub size: super::pocket_cmds::SizeArgs,
}

/// One cube's result.
struct Outcome {
    scramble: Vec<Move>,
    moves: Result<usize, String>,
}

/// Runs the Test Program; exit 1 if any cube failed.
pub fn test_program(args: TestProgramArgs) -> anyhow::Result<ExitCode> {
    if let Err(reason) = super::counts::check_total_turns(args.cubes, args.turns) {
        return super::refuse(reason);
    }
    if let Some(done) = super::pocket_cmds::test_program_if_pocket(&args) {
        return done;
    }
    let seed = args.seed.unwrap_or_else(super::solve_cmds::clock_seed);
    let solver = args.tables.solver();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let scrambles: Vec<Vec<Move>> = (0..args.cubes)
        .map(|_| random_scramble(&mut rng, args.turns, args.rotations))
        .collect();
    let opts = SearchOptions {
        budget: Duration::from_millis(args.budget_ms),
        target_length: Some(args.target),
        ..SearchOptions::default()
    };
    let bar = progress_bar(args.cubes as u64);
    let start = Instant::now();
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let outcomes = solve_all(&solver, scrambles, &opts, threads.max(1), &bar)?;
    bar.finish_and_clear();
    println!(
        "seed {seed}, {}, {} each{}",
        super::counts::count(args.cubes, "cube", "cubes"),
        super::counts::count(args.turns, "turn", "turns"),
        if args.rotations {
            " with rotations"
        } else {
            ""
        }
    );
    print_report(&outcomes, start.elapsed())
}

fn progress_bar(len: u64) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    if let Ok(style) =
        ProgressStyle::with_template("{bar:40} {pos}/{len} cubes  {per_sec}  eta {eta}")
    {
        bar.set_style(style);
    }
    bar
}

fn solve_all(
    solver: &Solver,
    scrambles: Vec<Vec<Move>>,
    opts: &SearchOptions,
    threads: usize,
    bar: &ProgressBar,
) -> anyhow::Result<Vec<Outcome>> {
    let chunk = scrambles.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        let workers: Vec<_> = scrambles
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    part.iter()
                        .map(|s| {
                            let o = solve_scramble(solver, s, opts);
                            bar.inc(1);
                            o
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        let mut all = Vec::with_capacity(scrambles.len());
        for w in workers {
            all.extend(
                w.join()
                    .map_err(|_| anyhow::anyhow!("a solver thread panicked"))?,
            );
        }
        Ok(all)
    })
}

/// Scrambles a solved cube, solves it and checks the solution on the stickers.
fn solve_scramble(solver: &Solver, scramble: &[Move], opts: &SearchOptions) -> Outcome {
    let scrambled = FaceletCube::default().apply_all(scramble);
    let moves = CubieCube::from_facelets(&scrambled.relabel_by_centres())
        .map_err(|e| format!("scrambled cube is invalid: {}", error_chain(&e)))
        .and_then(|c| solver.solve_with(&c, opts).map_err(|e| error_chain(&e)))
        .and_then(|turns| {
            let solution: Vec<Move> = turns.iter().map(|&t| t.into()).collect();
            if scrambled.apply_all(&solution).is_solved() {
                Ok(turns.len())
            } else {
                Err("the solution does not solve the cube".to_string())
            }
        });
    Outcome {
        scramble: scramble.to_vec(),
        moves,
    }
}

fn print_report(outcomes: &[Outcome], elapsed: Duration) -> anyhow::Result<ExitCode> {
    let mut counts = Vec::new();
    for (i, o) in outcomes.iter().enumerate() {
        match &o.moves {
            Ok(n) => {
                println!(
                    "cube {}: {}",
                    i + 1,
                    super::counts::count(*n, "move", "moves")
                );
                counts.push(*n);
            }
            Err(e) => {
                let scramble = format_moves(&o.scramble, Notation::Woolley)?;
                println!("cube {}: FAILED ({e}); scramble: {scramble}", i + 1);
            }
        }
    }
    let failed = outcomes.len() - counts.len();
    if let (Some(most), Some(least)) = (counts.iter().max(), counts.iter().min()) {
        let avg = counts.iter().sum::<usize>() as f64 / counts.len() as f64;
        println!("average {avg:.2} moves, most {most}, least {least}");
    }
    println!(
        "{} solved, {failed} failed, in {:.2} s",
        counts.len(),
        elapsed.as_secs_f64()
    );
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
