//! `--size 2` for `cubed solve` and `cubed test-program`: the options, loading the 2x2 tables, and printing (the work is in `cubed::pocket`).

use super::solve_cmds::{FormatArg, SolveArgs};
use super::test_program::{Report, TestProgramArgs};
use super::EXIT_INVALID;
use clap::{Args, ValueEnum};
use cubed::cube::{format_moves, FaceOrder, Move, Notation};
use cubed::pocket::{length_in, parse_pocket, program, Metric, PocketFormat, PocketSolver};
use cubed::table_cache::{default_cache_dir, load_or_build_pocket, CacheOutcome};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::json;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq, Default)]
pub enum MetricArg {
    /// Half-turn metric: every face turn counts 1.
    #[default]
    Htm,
    /// Quarter-turn metric: a half turn counts 2.
    Qtm,
}

impl From<MetricArg> for Metric {
    fn from(m: MetricArg) -> Metric {
        match m {
            MetricArg::Htm => Metric::Htm,
            MetricArg::Qtm => Metric::Qtm,
        }
    }
}

/// The cube size and what only the 2x2 has.
#[derive(Args, Debug, Clone)]
pub struct SizeArgs {
    /// Cube size: 3, or 2 for the pocket cube (24 stickers, always an optimal solution).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(2..=3))]
    pub size: u8,
    /// With --size 2: the metric the solution is optimal in [default: htm].
    #[arg(long, value_enum)]
    pub metric: Option<MetricArg>,
    /// With --size 2: cubes in the old 2x2 solver's format, 24 letters y g w b r o
    /// in the face order T F R P L B (instead of the URFDLB order).
    #[arg(long)]
    pub legacy: bool,
}

impl SizeArgs {
    /// Refuses the 2x2-only options on a 3x3.
    pub(super) fn refuse_on_3x3(&self) -> Option<anyhow::Result<ExitCode>> {
        match (self.size, self.metric, self.legacy) {
            (3, Some(_), _) => Some(super::refuse("--metric applies to --size 2 only")),
            (3, _, true) => Some(super::refuse("--legacy applies to --size 2 only")),
            _ => None,
        }
    }
}

/// Loads (or builds and caches) the 2x2 tables, saying on stderr when they were built.
pub fn pocket_solver(cache_dir: Option<&Path>) -> PocketSolver {
    let dir = cache_dir.map_or_else(default_cache_dir, Path::to_path_buf);
    let (tables, outcome) = load_or_build_pocket(&dir);
    let ms = tables.build_seconds * 1000.0;
    match outcome {
        CacheOutcome::Loaded | CacheOutcome::BuiltSmall => {}
        CacheOutcome::Built => eprintln!("cubed: built 2x2 tables in {ms:.0} ms and cached them"),
        CacheOutcome::Rebuilt { reason } => {
            eprintln!("cubed: cached 2x2 tables were unusable ({reason}); rebuilt in {ms:.0} ms")
        }
        CacheOutcome::NotSaved { reason } => {
            eprintln!("cubed: built 2x2 tables in {ms:.0} ms but could not cache them: {reason}")
        }
    }
    PocketSolver::new(Arc::new(tables))
}

/// `cubed solve` for a 2x2 (or a refusal of 2x2 options on a 3x3); None: solve a 3x3.
pub fn solve_if_pocket(args: &SolveArgs) -> Option<anyhow::Result<ExitCode>> {
    if args.size.size == 3 {
        return args.size.refuse_on_3x3();
    }
    if args.budget_ms.is_some() {
        return Some(super::refuse(
            "--budget-ms applies to a 3x3 only: a 2x2's solution is always optimal",
        ));
    }
    Some(solve(args))
}

fn solve(args: &SolveArgs) -> anyhow::Result<ExitCode> {
    if args.facelets.is_empty() && !args.stdin {
        return super::refuse("no cube given: give cubes as arguments or use --stdin");
    }
    let solver = pocket_solver(args.tables.cache_dir.as_deref());
    let mut any_invalid = false;
    for cube in &args.facelets {
        any_invalid |= !solve_one(&solver, args, cube.trim(), None)?;
    }
    if args.stdin {
        for cube in super::solve_cmds::cube_lines() {
            let (n, line) = cube?;
            any_invalid |= !solve_one(&solver, args, &line, Some(n))?;
        }
    }
    Ok(if any_invalid {
        ExitCode::from(EXIT_INVALID)
    } else {
        ExitCode::SUCCESS
    })
}

/// Prints one cube's optimal solution or error; false if the cube was refused.
fn solve_one(
    solver: &PocketSolver,
    args: &SolveArgs,
    text: &str,
    line: Option<usize>,
) -> anyhow::Result<bool> {
    let start = Instant::now();
    let format = if args.size.legacy {
        PocketFormat::Legacy
    } else {
        PocketFormat::Facelets(FaceOrder::from(args.order))
    };
    let metric: Metric = args.size.metric.unwrap_or_default().into();
    let result = parse_pocket(text, format, None).map(|(_, _, c)| solver.solve(&c, metric));
    let ms = start.elapsed().as_secs_f64() * 1000.0;
    let row = match result {
        Ok(turns) => {
            let moves: Vec<Move> = turns.iter().map(|&t| t.into()).collect();
            let solution = format_moves(&moves, Notation::from(args.notation))?;
            if args.format == FormatArg::Text {
                println!("{}", super::counts::solution_line(&solution));
                return Ok(true);
            }
            json!({"facelets": text, "size": 2, "metric": metric.name(), "solution": solution,
                   "moves": length_in(&turns, metric), "ms": (ms * 1000.0).round() / 1000.0})
        }
        Err(e) => {
            let message = format.in_input_terms(&e.to_string());
            if args.format == FormatArg::Text {
                let at = line.map(|n| format!("line {n}: ")).unwrap_or_default();
                println!("{}", super::solve_cmds::INVALID_LINE);
                eprintln!("{at}invalid cube {text}: {message}");
                return Ok(false);
            }
            json!({"facelets": text, "error": {"kind": e.kind(), "message": message}})
        }
    };
    let ok = row.get("error").is_none();
    super::solve_cmds::print_json(row, line);
    Ok(ok)
}

/// `cubed test-program` for a 2x2 (or a refusal of 2x2 options on a 3x3); None: a 3x3 run.
pub fn test_program_if_pocket(args: &TestProgramArgs) -> Option<anyhow::Result<ExitCode>> {
    if args.size.size == 3 {
        return args.size.refuse_on_3x3();
    }
    let only_3x3 = match (args.budget_ms, args.target, args.size.legacy) {
        (Some(_), _, _) => "--budget-ms applies to a 3x3 only: a 2x2's solution is always optimal",
        (_, Some(_), _) => "--target applies to a 3x3 only: a 2x2's solution is always optimal",
        (_, _, true) => "--legacy reads 2x2 cubes typed in; test-program makes its own",
        _ => return Some(test_program(args)),
    };
    Some(super::refuse(only_3x3))
}

fn test_program(args: &TestProgramArgs) -> anyhow::Result<ExitCode> {
    let seed = args.seed.unwrap_or_else(super::solve_cmds::clock_seed);
    let metric: Metric = args.size.metric.unwrap_or_default().into();
    let solver = pocket_solver(args.tables.cache_dir.as_deref());
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let scrambles = program::scrambles(&mut rng, args.cubes, args.turns, args.rotations);
    let optimal = format!(", optimal in {}", metric.name());
    let mut report = Report::start(seed, args, "2x2 cube", "2x2 cubes", &optimal);
    for scramble in &scrambles {
        report.cube(program::run_one(&solver, scramble, metric))?;
    }
    report.finish()
}

/// `cubed plan --size 2 --facelets …` (robot-aware, or `--naive`), refused on a design that
/// turns faces by centre caps; None: plan as for a 3x3 (face turns and the scan are the same
/// for both sizes).
pub fn plan_if_pocket(
    args: &super::plan_cmds::PlanArgs,
    planner: &cubed::robot::Planner,
    start: &cubed::robot::RobotState,
) -> Option<anyhow::Result<ExitCode>> {
    if args.size.size == 3 {
        return args.size.refuse_on_3x3();
    }
    if let Err(e) = cubed::robot::pocket_plan::check_holds_a_2x2(planner) {
        return Some(super::refuse_error(&e));
    }
    let text = args.job.facelets.as_deref()?;
    Some(plan_pocket(args, planner, start, text))
}

fn plan_pocket(
    args: &super::plan_cmds::PlanArgs,
    planner: &cubed::robot::Planner,
    start: &cubed::robot::RobotState,
    text: &str,
) -> anyhow::Result<ExitCode> {
    let plan = match pocket_plan(&args.job, &args.size, args.naive, (planner, start), text)? {
        Ok(plan) => plan,
        Err(refused) => return super::refuse(refused),
    };
    super::plan_cmds::print_plan(planner, &plan, args.format, args.job.notation.into())?;
    Ok(ExitCode::SUCCESS)
}

/// The robot's plan for the 2x2 `text` (robot-aware, or `naive`: the first optimal solution,
/// each turn planned alone); Err inside: the refusal in words (a design without centre caps,
/// a cube that cannot be read).
pub fn pocket_plan(
    job: &super::plan_cmds::RobotJob,
    size: &SizeArgs,
    naive: bool,
    (planner, start): (&cubed::robot::Planner, &cubed::robot::RobotState),
    text: &str,
) -> anyhow::Result<Result<cubed::robot::Plan, String>> {
    use cubed::robot::pocket_plan::{pocket_naive, solve_pocket_for_robot, PocketAwareOptions};
    let format = if size.legacy {
        PocketFormat::Legacy
    } else {
        PocketFormat::Facelets(FaceOrder::Urfdlb)
    };
    let facelets = match parse_pocket(text, format, None) {
        Ok((facelets, _, _)) => facelets,
        Err(e) => return Ok(Err(format.in_input_terms(&e.to_string()))),
    };
    let solver = pocket_solver(job.tables.cache_dir.as_deref());
    let metric: Metric = size.metric.unwrap_or_default().into();
    Ok(Ok(if naive {
        pocket_naive(planner, &solver, start, &facelets, metric)?
    } else {
        let opts = PocketAwareOptions {
            metric,
            budget: std::time::Duration::from_millis(job.budget_ms),
            ..PocketAwareOptions::default()
        };
        solve_pocket_for_robot(planner, &solver, start, &facelets, &opts)?
    }))
}

/// `cubed check --size 2`: prints `ok` or the reason (exit 2).
pub fn check(text: &str, order: FaceOrder) -> ExitCode {
    let format = PocketFormat::Facelets(order);
    match parse_pocket(text, format, None) {
        Ok(_) => {
            println!("ok");
            ExitCode::SUCCESS
        }
        Err(e) => {
            println!("invalid: {}", format.in_input_terms(&e.to_string()));
            ExitCode::from(EXIT_INVALID)
        }
    }
}

/// `cubed scramble --size 2`: uniformly random 2x2 cubes as 24 URFDLB letters.
pub fn scramble(rng: &mut ChaCha8Rng, count: usize) {
    for _ in 0..count {
        let cube = cubed::pocket::random_pocket(rng).to_facelets();
        println!("{cube}");
    }
}
