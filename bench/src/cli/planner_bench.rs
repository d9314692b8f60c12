//! `cubed-bench planner`: robot-aware solving against the naive baseline on uniformly random cubes, side by side in one run.

use anyhow::Context;
use clap::Args;
use cubed::command_line::designs::default_robot;
use cubed::command_line::tables::TableArgs;
use cubed::cube::random::random_cube;
use cubed::robot::{load_robot, solve_for_robot, solve_naive, AwareOptions, Planner};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(Args, Debug)]
pub struct PlannerBenchArgs {
    /// Robot design file, or a shipped design's name (four-arm, six-motor, turntable-flipper).
    #[arg(long, default_value_os_t = default_robot(), value_parser = cubed::command_line::designs::robot_design)]
    pub robot: PathBuf,
    /// Number of uniformly random cubes.
    #[arg(long, default_value_t = 100, value_parser = cubed::command_line::counts::at_least_one)]
    pub cubes: usize,
    /// Seed of the random cubes.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Solver budget of robot-aware solving, in ms.
    #[arg(long, default_value_t = 300, value_parser = cubed::command_line::counts::budget_ms)]
    pub budget_ms: u64,
    /// Whole-cube orientations searched (1..=24), sharing the budget.
    #[arg(long, default_value_t = AwareOptions::default().orientations)]
    pub orientations: usize,
    /// Candidates planned in full after ranking by estimate.
    #[arg(long, default_value_t = AwareOptions::default().full_plans)]
    pub full_plans: usize,
    /// Candidates may be this many turns longer than the shortest found so far.
    #[arg(long, default_value_t = AwareOptions::default().slack)]
    pub slack: usize,
    /// Threads searching for candidates, each with the whole budget.
    #[arg(long, default_value_t = AwareOptions::default().threads)]
    pub threads: usize,
    /// Phase-2 completions reported per phase-1 path (0 or 1: the first only).
    #[arg(long, default_value_t = AwareOptions::default().phase2_alternatives)]
    pub phase2_alternatives: usize,
    /// Count the budget in search nodes (`NODES_PER_MS` per ms, per thread) instead of wall
    /// time: the same choice on any machine and under any load.
    #[arg(long)]
    pub counted: bool,
    /// Also run the earlier robot-aware choice (one thread, one orientation, no slack, the
    /// first phase-2 completion only, one full plan) on each cube, side by side.
    #[arg(long)]
    pub earlier: bool,
    /// Search face turns even where the design's blocks are priced (the axial search).
    #[arg(long)]
    pub face_turns_only: bool,
    /// Also run the face-turn search's choice (same options) on each cube, side by side.
    #[arg(long)]
    pub versus_face_turns: bool,
    #[command(flatten)]
    pub tables: TableArgs,
}

/// Per-cube figures of one side of the comparison.
#[derive(Default)]
struct Column {
    program_ms: Vec<u32>,
    lengths: Vec<usize>,
    planning: Vec<Duration>,
}

impl Column {
    fn mean_ms(&self) -> f64 {
        mean(self.program_ms.iter().map(|&m| m as f64))
    }

    fn mean_length(&self) -> f64 {
        mean(self.lengths.iter().map(|&l| l as f64))
    }
}

fn mean(values: impl ExactSizeIterator<Item = f64>) -> f64 {
    let n = values.len().max(1) as f64;
    values.sum::<f64>() / n
}

fn quantile_ms(times: &[Duration], q: f64) -> f64 {
    let mut sorted = times.to_vec();
    sorted.sort();
    let at = ((sorted.len() as f64 - 1.0) * q).round().max(0.0) as usize;
    sorted.get(at).map_or(0.0, |d| d.as_secs_f64() * 1000.0)
}

/// Solves and plans random cubes both ways and prints the comparison.
pub fn planner_bench(args: PlannerBenchArgs) -> anyhow::Result<ExitCode> {
    println!("{}", super::host::host_line());
    let built = Instant::now();
    let model = load_robot(&args.robot)?;
    let planner = Planner::new(model);
    let setup = built.elapsed();
    let solver = args.tables.solver();
    let budget = cubed::solver::Budget::Time(Duration::from_millis(args.budget_ms));
    let opts = AwareOptions {
        budget: if args.counted {
            budget.counted()
        } else {
            budget
        },
        orientations: args.orientations,
        full_plans: args.full_plans,
        slack: args.slack,
        threads: args.threads,
        phase2_alternatives: args.phase2_alternatives,
        ..AwareOptions::default()
    };
    // The robot-aware choice as it was before two threads (#54): same budget and cancel.
    let earlier_opts = AwareOptions {
        orientations: 1,
        threads: 1,
        phase2_alternatives: 0,
        slack: 0,
        full_plans: 1,
        ..opts.clone()
    };
    let face_turns_planner = planner.clone();
    let planner = match args.tables.axial_tables_for(&planner) {
        Some(tables) if !args.face_turns_only => planner.with_axial(&tables)?,
        _ => planner,
    };
    let start = planner.home();
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    let mut face_turns = Column::default();
    let (mut aware, mut naive) = (Column::default(), Column::default());
    let mut alone = Column::default();
    let mut earlier = Column::default();
    let (mut candidates, mut naive_wins, mut wall) = (0usize, 0usize, Vec::new());
    for i in 0..args.cubes {
        let cube = random_cube(&mut rng);
        let began = Instant::now();
        let base = solve_naive(&planner, &solver, &start, &cube)
            .with_context(|| format!("naive baseline, cube {i}"))?;
        naive.planning.push(began.elapsed());
        naive.program_ms.push(base.total_ms);
        naive.lengths.push(base.solution.len());
        let began = Instant::now();
        let same = planner.plan(&start, &base.solution)?;
        alone.planning.push(began.elapsed());
        alone.program_ms.push(same.total_ms);
        alone.lengths.push(same.solution.len());
        let began = Instant::now();
        let solved = solve_for_robot(&planner, &solver, &start, &cube, &opts)
            .with_context(|| format!("robot-aware solving, cube {i}"))?;
        wall.push(began.elapsed());
        aware.program_ms.push(solved.plan.total_ms);
        aware.lengths.push(solved.plan.solution.len());
        aware.planning.push(solved.planning);
        candidates += solved.candidates;
        naive_wins += usize::from(solved.naive_won);
        if args.versus_face_turns {
            let other = solve_for_robot(&face_turns_planner, &solver, &start, &cube, &opts)
                .with_context(|| format!("face-turn robot-aware solving, cube {i}"))?;
            face_turns.program_ms.push(other.plan.total_ms);
            face_turns.lengths.push(other.plan.solution.len());
            face_turns.planning.push(other.planning);
        }
        if args.earlier {
            let before =
                solve_for_robot(&face_turns_planner, &solver, &start, &cube, &earlier_opts)
                    .with_context(|| format!("earlier robot-aware solving, cube {i}"))?;
            earlier.program_ms.push(before.plan.total_ms);
            earlier.lengths.push(before.plan.solution.len());
            earlier.planning.push(before.planning);
        }
    }
    print_report(&args, &planner, setup, [&aware, &alone, &naive], &wall);
    if args.earlier {
        println!(
            "earlier robot-aware choice: mean {:.0} ms/cube, length {:.2}, ratio to naive {:.3}; robot-aware / earlier: {:.3}",
            earlier.mean_ms(),
            earlier.mean_length(),
            earlier.mean_ms() / naive.mean_ms().max(1.0),
            aware.mean_ms() / earlier.mean_ms().max(1.0)
        );
    }
    if args.versus_face_turns {
        println!(
            "face-turn choice: mean {:.0} ms/cube, length {:.2}, ratio to naive {:.3}; robot-aware / face-turn: {:.3}",
            face_turns.mean_ms(),
            face_turns.mean_length(),
            face_turns.mean_ms() / naive.mean_ms().max(1.0),
            aware.mean_ms() / face_turns.mean_ms().max(1.0)
        );
    }
    println!(
        "candidates per cube: mean {:.1}; naive program kept on {naive_wins} cubes",
        candidates as f64 / args.cubes.max(1) as f64
    );
    Ok(ExitCode::SUCCESS)
}

fn print_report(
    args: &PlannerBenchArgs,
    planner: &Planner,
    setup: Duration,
    [aware, alone, naive]: [&Column; 3],
    wall: &[Duration],
) {
    println!(
        "robot {}: {} uniformly random cubes (seed {}); robot-aware: solver budget {} ms{} on {} threads over {} orientations, slack {}, {} phase-2 completions, {} full plans",
        planner.model().name, args.cubes, args.seed, args.budget_ms, if args.counted { " (counted)" } else { "" }, args.threads, args.orientations, args.slack, args.phase2_alternatives, args.full_plans
    );
    let search = match planner.axial() {
        Some(_) => "the axial search (blocks priced in the design's times) and the face-turn search, half the threads each",
        None => "the face-turn search",
    };
    println!("robot-aware candidates from {search}");
    println!(
        "setup (load, state graph, bounds): {:.0} ms, {} states",
        setup.as_secs_f64() * 1000.0,
        planner.state_count()
    );
    println!(
        "{:<12} {:>14} {:>12} {:>24}",
        "", "mean ms/cube", "mean length", "planning ms median / p99"
    );
    let columns = [
        ("robot-aware", aware),
        ("planner only", alone),
        ("naive", naive),
    ];
    for (name, c) in columns {
        println!(
            "{name:<12} {:>14.0} {:>12.2} {:>15.1} / {:.1}",
            c.mean_ms(),
            c.mean_length(),
            quantile_ms(&c.planning, 0.5),
            quantile_ms(&c.planning, 0.99)
        );
    }
    println!(
        "ratio robot-aware / naive: {:.3} (planner only, on the naive solution: {:.3})",
        aware.mean_ms() / naive.mean_ms().max(1.0),
        alone.mean_ms() / naive.mean_ms().max(1.0)
    );
    println!(
        "robot-aware wall time per cube (solver + planning): median {:.0} ms, p99 {:.0} ms",
        quantile_ms(wall, 0.5),
        quantile_ms(wall, 0.99)
    );
}
