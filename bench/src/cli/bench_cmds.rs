//! `cubed-bench …`: benchmarks that measure what the issues ask for (never timing assertions in tests).

use super::bench_report::{median, thread_cpu_secs};
use anyhow::Context;
use clap::{Args, Subcommand};
use cubed::command_line::tables::TableArgs;
use cubed::cube::random::random_cube;
use cubed::cube::ColourScheme;
use cubed::solver::{SearchOptions, Solver};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

#[derive(Subcommand, Debug)]
pub enum BenchCommand {
    /// Solution length at several budgets on uniformly random cubes, cold and warm start, memory.
    Solver(SolverBenchArgs),
    /// Robot-aware solving against the naive baseline: mean program time per cube, ratio, planning time.
    Planner(super::planner_bench::PlannerBenchArgs),
    /// Real scans, real photos, lighting robustness, simulated camera, timings.
    Vision(super::vision_bench_args::VisionBenchArgs),
    /// Serial link over a pty: frames/s and move-ack latency (median, p99).
    Link(super::link_bench::LinkBenchArgs),
    /// The link's handshake over a pty with byte noise: success rate and time per noise level.
    Handshake(super::handshake_bench::HandshakeBenchArgs),
    /// Random cubes solved through the simulator with corrupted/dropped bytes and an unplug each.
    Soak(super::link_bench::SoakArgs),
    /// Programs of each design run on the simulator's own machine: illegal steps, planned vs simulated time.
    Trust(super::trust_bench::TrustBenchArgs),
    /// Programs cut at a random step, re-homed by the recovery plan on the simulator's machine, solved again.
    Recovery(super::recovery_bench::RecoveryBenchArgs),
    /// The counting floor of each design's robot time (no solver averages below it) against the naive baseline.
    Floor(super::floor_bench::FloorBenchArgs),
    /// The 2x2: table build, optimal solve time per cube, the 10,000-cube Test Program.
    Pocket(super::pocket_bench::PocketBenchArgs),
    /// The 2x2 found and read in cluttered 1920x1080 frames of our own, development and held-out sets apart.
    PocketFrames(super::pocket_frames_bench::PocketFramesArgs),
    /// A `cubed run` child measured over TCP: e-stop latency under hung connections, memory with WebSockets.
    Web(super::web_bench::WebBenchArgs),
}

#[derive(Args, Debug)]
pub struct SolverBenchArgs {
    /// Random cubes per budget.
    #[arg(long, default_value_t = 200, value_parser = cubed::command_line::counts::at_least_one)]
    pub cubes: usize,
    /// Budgets in milliseconds, comma separated.
    #[arg(long, value_delimiter = ',', default_value = "10,100", value_parser = cubed::command_line::counts::budget_ms)]
    pub budgets: Vec<u64>,
    /// Cubes for the "every cube ≤ 20 moves at 1 s" check (0 skips it).
    #[arg(long, default_value_t = 20)]
    pub long_cubes: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Treat the budgets as search-node counts instead of milliseconds: the
    /// lengths then do not depend on the machine's speed or load (for A/B runs).
    #[arg(long)]
    pub nodes: bool,
    /// Skip the cold/warm start and memory measurements (they run `cubed solve` in a child process).
    #[arg(long)]
    pub no_startup: bool,
    /// Also solve each cube on one thread and on two in turn, at each budget: average lengths
    /// side by side and their ratio.
    #[arg(long)]
    pub threads_side_by_side: bool,
    #[command(flatten)]
    pub tables: TableArgs,
}

pub fn run(cmd: BenchCommand) -> anyhow::Result<ExitCode> {
    match cmd {
        BenchCommand::Solver(args) => solver_bench(args),
        BenchCommand::Planner(args) => super::planner_bench::planner_bench(args),
        BenchCommand::Vision(args) => super::vision_bench::vision_bench(args),
        BenchCommand::Link(args) => super::link_bench::link_bench(args),
        BenchCommand::Soak(args) => super::link_bench::soak(args),
        BenchCommand::Handshake(args) => super::handshake_bench::handshake_bench(args),
        BenchCommand::Trust(args) => super::trust_bench::trust_bench(args),
        BenchCommand::Pocket(args) => super::pocket_bench::pocket_bench(args),
        BenchCommand::PocketFrames(args) => super::pocket_frames_bench::pocket_frames_bench(args),
        BenchCommand::Recovery(args) => super::recovery_bench::recovery_bench(args),
        BenchCommand::Floor(args) => super::floor_bench::floor_bench(args),
        BenchCommand::Web(args) => super::web_bench::web_bench(args),
    }
}

fn solver_bench(args: SolverBenchArgs) -> anyhow::Result<ExitCode> {
    println!("{}", super::host::host_line());
    if !args.no_startup {
        startup_bench(&args)?;
    }
    let solver = args.tables.solver();
    println!(
        "one thread, uniformly random cubes (seed {}); Mnodes/s per CPU second of the search thread",
        args.seed
    );
    println!(
        "{:>9} {:>6} {:>8} {:>5} {:>12} {:>14} {:>8}  distribution",
        "budget", "cubes", "average", "max", "first ms p50", "overrun ms max", "Mnodes/s"
    );
    for &budget in &args.budgets {
        length_row(&solver, budget, args.cubes, args.seed, args.nodes)?;
    }
    if args.long_cubes > 0 && !args.nodes {
        length_row(&solver, 1000, args.long_cubes, args.seed, false)?;
    }
    if args.threads_side_by_side {
        let (budgets, cubes) = (&args.budgets, args.cubes);
        super::solver_threads_bench::threads_side_by_side(&solver, budgets, cubes, args.seed)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// One row of the table; Err if any reported solution did not solve its cube.
fn length_row(
    solver: &Solver,
    budget: u64,
    cubes: usize,
    seed: u64,
    nodes: bool,
) -> anyhow::Result<()> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let opts = SearchOptions {
        budget: Duration::from_millis(if nodes { 3_600_000 } else { budget }),
        node_budget: nodes.then_some(budget),
        ..SearchOptions::default()
    };
    let mut lengths = Vec::with_capacity(cubes);
    let mut first_ms = Vec::with_capacity(cubes);
    let mut overrun_ms: f64 = 0.0;
    let (mut searched, mut search_secs) = (0u64, 0.0f64);
    let mut wrong = 0;
    for _ in 0..cubes {
        let cube = random_cube(&mut rng);
        let start = Instant::now();
        let cpu_start = thread_cpu_secs();
        let mut first = None;
        let mut best = usize::MAX;
        let stats = solver.search(&cube, &opts, |s| {
            first.get_or_insert_with(|| start.elapsed());
            let end = s.iter().fold(cube, |c, &t| c.turn(t));
            wrong += usize::from(!end.is_solved());
            best = best.min(s.len());
            cubed::solver::Flow::Continue
        });
        if let Ok(stats) = stats {
            searched += stats.nodes;
            search_secs += thread_cpu_secs() - cpu_start;
        }
        let total = start.elapsed();
        if !nodes {
            overrun_ms = overrun_ms.max((total.as_secs_f64() - opts.budget.as_secs_f64()) * 1000.0);
        }
        first_ms.push(first.unwrap_or(total).as_secs_f64() * 1000.0);
        lengths.push(best);
    }
    let avg = lengths.iter().sum::<usize>() as f64 / cubes as f64;
    let max = lengths.iter().max().copied().unwrap_or(0);
    println!(
        "{:>9} {cubes:>6} {avg:>8.3} {max:>5} {:>12.3} {overrun_ms:>14.2} {:>8.2}  {}",
        if nodes {
            format!("{budget}n")
        } else {
            format!("{budget}ms")
        },
        median(&mut first_ms),
        searched as f64 / search_secs.max(1e-9) / 1e6,
        distribution(&lengths)
    );
    anyhow::ensure!(
        wrong == 0,
        "{wrong} reported solutions did not solve their cube"
    );
    Ok(())
}

fn distribution(lengths: &[usize]) -> String {
    let mut counts = std::collections::BTreeMap::new();
    for &l in lengths {
        *counts.entry(l).or_insert(0) += 1;
    }
    counts
        .iter()
        .map(|(l, n)| format!("{l}:{n}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Runs `cubed solve` in a child with an empty cache (cold) and then with the cache (warm).
fn startup_bench(args: &SolverBenchArgs) -> anyhow::Result<()> {
    let exe = super::cubed_exe()?;
    let dir = tempfile::tempdir().context("creating a temporary cache directory")?;
    let cube = random_cube(&mut ChaCha8Rng::seed_from_u64(args.seed))
        .to_facelets()
        .to_symbols(&ColourScheme::default());
    let run = |label: &str| -> anyhow::Result<()> {
        let start = Instant::now();
        let status = Command::new(&exe)
            .args(["solve", "--budget-ms", "0", "--cache-dir"])
            .arg(dir.path())
            .arg(&cube)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .with_context(|| format!("running {}", exe.display()))?;
        anyhow::ensure!(status.success(), "cubed solve failed: {status}");
        println!(
            "{label}: first solution after {:.0} ms (whole process)",
            start.elapsed().as_secs_f64() * 1000.0
        );
        Ok(())
    };
    run("cold start (no cache, builds tables)")?;
    run("warm start (tables from cache)")?;
    println!(
        "peak resident memory of cubed solve: {:.0} MB",
        peak_child_rss_mb()
    );
    Ok(())
}

/// Largest peak resident set of any child process so far.
fn peak_child_rss_mb() -> f64 {
    use nix::sys::resource::{getrusage, UsageWho};
    match getrusage(UsageWho::RUSAGE_CHILDREN) {
        Ok(usage) => usage.max_rss() as f64 / 1024.0,
        Err(_) => f64::NAN,
    }
}
