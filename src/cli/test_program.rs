//! `cubed test-program`: the 1988 Test Program — scramble N cubes with M random turns, solve and verify each, print the counts and the summary.

use super::cube_args::NotationArg;
use crate::command_line::tables::pocket_solver;
use crate::command_line::tables::TableArgs;
use clap::Args;
use cubed_core::cube::random::random_scramble;
use cubed_core::cube::{format_moves, CubieCube, FaceletCube, Move, Notation};
use cubed_core::error_chain::error_chain;
use cubed_core::pocket::program::{self, ProgramFailure, ProgramOutcome};
use cubed_core::pocket::Metric;
use cubed_core::solver::Budget;
use cubed_core::solver::{SearchOptions, Solver};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

#[derive(Args, Debug)]
pub(crate) struct TestProgramArgs {
    /// How many cubes to scramble and solve (1 to 1000000).
    #[arg(long, default_value_t = 100, value_parser = crate::command_line::counts::test_cubes)]
    pub(crate) cubes: usize,
    /// Random turns per scramble (0 to 1000).
    #[arg(long, default_value_t = 25, value_parser = crate::command_line::counts::scramble_turns)]
    pub(crate) turns: usize,
    /// Seed for reproducible scrambles (default: from the clock). With a seed, the search's
    /// budget is counted in nodes (--budget-ms x 10 000), not time, so the same seed prints the
    /// same solutions on every machine and under any load.
    #[arg(long)]
    pub(crate) seed: Option<u64>,
    /// Also draw whole-cube rotations RC+ RC- RC2 in scrambles.
    #[arg(long)]
    pub(crate) rotations: bool,
    /// Stop searching a cube once a solution this short is found [default: 20] (a 3x3 only).
    #[arg(long)]
    pub(crate) target: Option<usize>,
    /// Longest search per cube when the target is not reached [default: 3] (a 3x3 only: a 2x2's
    /// solution is always optimal).
    #[arg(long, value_parser = crate::command_line::counts::budget_ms)]
    pub(crate) budget_ms: Option<u64>,
    /// Print each cube's scramble and solution after its count, in --notation.
    #[arg(long)]
    pub(crate) show: bool,
    /// The notation of scrambles and solutions printed (a failed cube's scramble too).
    #[arg(long, value_enum, default_value_t = NotationArg::Woolley)]
    pub(crate) notation: NotationArg,
    /// Worker threads (default: all cores).
    #[arg(long, value_parser = crate::command_line::counts::threads)]
    pub(crate) threads: Option<usize>,
    #[command(flatten)]
    pub(crate) tables: TableArgs,
    /// Cube size: 3, or 2 for pocket cubes (each solved optimally).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(2..=3))]
    pub(crate) size: u8,
    /// With --size 2: the metric the solutions are optimal in, and moves are counted in
    /// [default: htm].
    #[arg(long, value_enum)]
    pub(crate) metric: Option<super::cube_args::MetricArg>,
}

/// Runs the Test Program; exit 1 if any cube failed. Each cube's line is printed as soon as it
/// and the cubes before it are done.
pub(crate) fn test_program(args: TestProgramArgs) -> anyhow::Result<ExitCode> {
    if let Err(reason) = crate::command_line::counts::check_total_turns(args.cubes, args.turns) {
        return super::refuse(reason);
    }
    if let Some(done) = test_program_if_pocket(&args) {
        return done;
    }
    let seed = args.seed.unwrap_or_else(super::cube_args::clock_seed);
    let solver = args.tables.solver();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let scrambles: Vec<Vec<Move>> = (0..args.cubes)
        .map(|_| random_scramble(&mut rng, args.turns, args.rotations))
        .collect();
    let budget = Budget::Time(Duration::from_millis(args.budget_ms.unwrap_or(3)));
    let budget = match args.seed {
        Some(_) => budget.counted(),
        None => budget,
    };
    let (time, node_budget) = budget.for_search();
    let opts = SearchOptions {
        budget: time,
        node_budget,
        target_length: Some(args.target.unwrap_or(20)),
        ..SearchOptions::default()
    };
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    // Which limit the search kept: a time limit finds what this machine's load lets it, so
    // a run again with the printed seed (counted in nodes) may find other solutions.
    let counted = match node_budget {
        Some(n) => format!(
            ", {} at most per cube",
            crate::words::count(n as usize, "search node", "search nodes")
        ),
        None => format!(
            ", {} ms a cube (a time limit: --seed counts nodes instead, the same on any machine)",
            time.as_millis()
        ),
    };
    let mut report = Report::start(seed, &args, "cube", "cubes", &counted);
    solve_all(&solver, &scrambles, &opts, threads.max(1), &mut report)?;
    report.finish()
}

/// The Test Program's output: the header, a line per cube in order (a failure with its
/// scramble in the 1988 notation), then the average, most and least and the counts.
pub(crate) struct Report {
    bar: ProgressBar,
    start: Instant,
    outcomes: Vec<ProgramOutcome>,
    /// What a solution's length counts: moves, or quarter turns.
    unit: [&'static str; 2],
    /// Each cube's scramble and solution are printed too.
    show: bool,
    notation: Notation,
}

impl Report {
    /// Prints the header ("seed S, N cubes, M turns each…", `extra` after it) and starts the
    /// progress bar (on stderr, shown only on a terminal).
    pub(crate) fn start(
        seed: u64,
        args: &TestProgramArgs,
        one: &str,
        many: &str,
        extra: &str,
    ) -> Report {
        let rotations = if args.rotations {
            " with rotations"
        } else {
            ""
        };
        println!(
            "seed {seed}, {}, {} each{rotations}{extra}",
            crate::words::count(args.cubes, one, many),
            crate::words::count(args.turns, "turn", "turns"),
        );
        let bar =
            ProgressBar::with_draw_target(Some(args.cubes as u64), ProgressDrawTarget::stderr());
        if let Ok(style) =
            ProgressStyle::with_template("{bar:40} {pos}/{len} cubes  {per_sec}  eta {eta}")
        {
            bar.set_style(style);
        }
        Report {
            bar,
            start: Instant::now(),
            outcomes: Vec::new(),
            unit: ["move", "moves"],
            show: args.show,
            notation: args.notation.into(),
        }
    }

    /// Lengths counted in quarter turns (a half turn is two), and said so.
    pub(crate) fn in_quarter_turns(self) -> Report {
        Report {
            unit: ["quarter turn", "quarter turns"],
            ..self
        }
    }

    /// Prints the next cube's line (cubes come in order) and flushes it.
    pub(crate) fn cube(&mut self, outcome: ProgramOutcome) -> anyhow::Result<()> {
        let number = self.outcomes.len() + 1;
        let scramble = || format_moves(&outcome.scramble, self.notation);
        let line = match &outcome.moves {
            Ok(n) if self.show => format!(
                "cube {number}: {}; scramble: {}; solution: {}",
                crate::words::count(*n, self.unit[0], self.unit[1]),
                scramble()?,
                format_moves(&outcome.solution, self.notation)?
            ),
            Ok(n) => format!(
                "cube {number}: {}",
                crate::words::count(*n, self.unit[0], self.unit[1])
            ),
            Err(e) => format!("cube {number}: FAILED ({e}); scramble: {}", scramble()?),
        };
        self.bar.suspend(|| {
            let mut out = std::io::stdout().lock();
            writeln!(out, "{line}").and_then(|()| out.flush())
        })?;
        self.bar.inc(1);
        let scramble = match outcome.moves {
            Ok(_) => Vec::new(),
            Err(_) => outcome.scramble,
        };
        self.outcomes.push(ProgramOutcome {
            scramble,
            solution: Vec::new(),
            ..outcome
        });
        Ok(())
    }

    /// Prints the summary; exit 1 if any cube failed.
    pub(crate) fn finish(self) -> anyhow::Result<ExitCode> {
        self.bar.finish_and_clear();
        let summary = program::summarise(&self.outcomes);
        if let (Some(avg), Some(most), Some(least)) = (summary.average, summary.most, summary.least)
        {
            println!(
                "average {avg:.2} {}, most {most}, least {least}",
                self.unit[1]
            );
        }
        println!(
            "{} solved, {} failed, in {:.2} s",
            summary.solved,
            summary.failed,
            self.start.elapsed().as_secs_f64()
        );
        Ok(if summary.failed == 0 {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        })
    }
}

/// Solves the scrambles on `threads` workers, each taking the next cube not yet taken, and
/// reports them in order as they complete.
fn solve_all(
    solver: &Solver,
    scrambles: &[Vec<Move>],
    opts: &SearchOptions,
    threads: usize,
    report: &mut Report,
) -> anyhow::Result<()> {
    let next = AtomicUsize::new(0);
    let (done, results) = mpsc::channel::<(usize, ProgramOutcome)>();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let done = done.clone();
            let next = &next;
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(scramble) = scrambles.get(i) else {
                    break;
                };
                if done
                    .send((i, solve_scramble(solver, scramble, opts)))
                    .is_err()
                {
                    break;
                }
            });
        }
        drop(done);
        report_in_order(results, report)
    })
}

/// Prints outcomes in cube order as they arrive in any order.
fn report_in_order(
    results: mpsc::Receiver<(usize, ProgramOutcome)>,
    report: &mut Report,
) -> anyhow::Result<()> {
    let mut waiting = std::collections::BTreeMap::new();
    for (i, outcome) in results {
        waiting.insert(i, outcome);
        while let Some(outcome) = waiting.remove(&report.outcomes.len()) {
            report.cube(outcome)?;
        }
    }
    if waiting.is_empty() {
        Ok(())
    } else {
        anyhow::bail!("a solver thread stopped before its cube was done")
    }
}

/// Scrambles a solved cube, solves it and checks the solution on the stickers.
fn solve_scramble(solver: &Solver, scramble: &[Move], opts: &SearchOptions) -> ProgramOutcome {
    let scrambled = FaceletCube::default().apply_all(scramble);
    let mut solution = Vec::new();
    let moves = CubieCube::from_facelets(&scrambled.relabel_by_centres())
        .map_err(|e| ProgramFailure::Invalid(error_chain(&e)))
        .and_then(|c| {
            (solver.solve_with(&c, opts)).map_err(|e| ProgramFailure::Solver(error_chain(&e)))
        })
        .and_then(|turns| {
            solution = turns.iter().map(|&t| t.into()).collect();
            if scrambled.apply_all(&solution).is_solved() {
                Ok(turns.len())
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

/// `cubed test-program` for a 2x2 (or a refusal of 2x2 options on a 3x3); None: a 3x3 run.
pub(crate) fn test_program_if_pocket(args: &TestProgramArgs) -> Option<anyhow::Result<ExitCode>> {
    if args.size == 3 {
        let metric = args.metric.map(|_| "--metric applies to --size 2 only");
        return metric.map(super::refuse);
    }
    let only_3x3 = match (args.budget_ms, args.target) {
        (Some(_), _) => "--budget-ms applies to a 3x3 only: a 2x2's solution is always optimal",
        (_, Some(_)) => "--target applies to a 3x3 only: a 2x2's solution is always optimal",
        _ => return Some(test_program_pocket(args)),
    };
    Some(super::refuse(only_3x3))
}

fn test_program_pocket(args: &TestProgramArgs) -> anyhow::Result<ExitCode> {
    let seed = args.seed.unwrap_or_else(super::cube_args::clock_seed);
    let metric: Metric = args.metric.unwrap_or_default().into();
    let solver = pocket_solver(args.tables.cache_dir.as_deref());
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let scrambles = program::scrambles(&mut rng, args.cubes, args.turns, args.rotations);
    let optimal = format!(", optimal in {}", metric.name());
    let mut report = Report::start(seed, args, "2x2 cube", "2x2 cubes", &optimal);
    if metric == Metric::Qtm {
        report = report.in_quarter_turns();
    }
    for scramble in &scrambles {
        report.cube(program::run_one(&solver, scramble, metric))?;
    }
    report.finish()
}
