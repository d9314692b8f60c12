//! `cubed plan` (gripper programs for a robot design) and `cubed plan-bench` (planned against naive on random cubes).

use super::EXIT_INVALID;
use crate::cube::{format_moves, parse_moves, random::random_scramble, Move, Notation, Turn};
use crate::robot::{load_robot, Plan, Planner, ProgramDoc};
use anyhow::Context;
use clap::{ArgGroup, Args, ValueEnum};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// The default robot design.
pub const DEFAULT_ROBOT: &str = "config/robots/four-arm.toml";

/// Output format of a program.
#[derive(Clone, Copy, Debug, ValueEnum, Default, PartialEq, Eq)]
pub enum Format {
    #[default]
    Text,
    Json,
}

#[derive(Args, Debug)]
#[command(group(ArgGroup::new("input").required(true).args(["moves", "facelets", "scan"])))]
pub struct PlanArgs {
    /// Robot design file.
    #[arg(long, default_value = DEFAULT_ROBOT)]
    pub robot: PathBuf,
    /// Face turns to perform, e.g. "R U F'" (the planner chooses the rotations).
    #[arg(long)]
    pub moves: Option<String>,
    /// A cube to solve (54 symbols, URFDLB): solved robot-aware, then planned.
    #[arg(long)]
    pub facelets: Option<String>,
    /// Plan the scan: show all six faces to the cameras.
    #[arg(long)]
    pub scan: bool,
    /// The baseline: first solution found in 10 ms, each face turn planned alone.
    #[arg(long)]
    pub naive: bool,
    /// Compute budget for finding solutions, in ms.
    #[arg(long, default_value_t = 300)]
    pub budget_ms: u64,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

fn refuse(message: impl std::fmt::Display) -> anyhow::Result<ExitCode> {
    eprintln!("invalid: {message}");
    Ok(ExitCode::from(EXIT_INVALID))
}

/// Reads face turns; whole-cube rotations are refused (the planner chooses them).
pub fn face_turns(text: &str) -> Result<Vec<Turn>, String> {
    let moves = parse_moves(text, Notation::Singmaster).map_err(|e| e.to_string())?;
    moves
        .into_iter()
        .map(|m| match m {
            Move::Turn(t) => Ok(t),
            Move::Rotate(_) => Err(format!(
                "'{}' is a whole-cube rotation; give face turns only, the planner chooses the rotations",
                format_moves(&[m], Notation::Singmaster).unwrap_or_default()
            )),
        })
        .collect()
}

/// Prints the program for the requested moves, cube or scan.
pub fn plan(args: PlanArgs) -> anyhow::Result<ExitCode> {
    let model = match load_robot(&args.robot) {
        Ok(model) => model,
        Err(e) => return refuse(e),
    };
    let planner = Planner::new(model);
    let start = planner.home();
    if args.scan {
        let scan = planner.plan_scan(&start)?;
        print_program(&planner, &scan.program, 0, 0, String::new(), args.format)?;
        return Ok(ExitCode::SUCCESS);
    }
    let solution = match (&args.moves, &args.facelets) {
        (Some(moves), _) => match face_turns(moves) {
            Ok(turns) => turns,
            Err(e) => return refuse(e),
        },
        (None, Some(_)) => anyhow::bail!(
            "solving a cube needs the solver, which this build does not have yet; give --moves"
        ),
        (None, None) => unreachable!("clap requires one input"),
    };
    let plan = if args.naive {
        planner.plan_naive(&start, &solution)?
    } else {
        planner.plan(&start, &solution)?
    };
    print_plan(&planner, &plan, args.format)?;
    Ok(ExitCode::SUCCESS)
}

fn print_plan(planner: &Planner, plan: &Plan, format: Format) -> anyhow::Result<()> {
    let moves: Vec<Move> = plan.solution.iter().map(|&t| Move::Turn(t)).collect();
    let solution = format_moves(&moves, Notation::Singmaster)?;
    print_program(
        planner,
        &plan.program,
        plan.face_turns,
        plan.cube_rotations,
        solution,
        format,
    )
}

fn print_program(
    planner: &Planner,
    program: &crate::robot::Program,
    face_turns: usize,
    cube_rotations: usize,
    solution: String,
    format: Format,
) -> anyhow::Result<()> {
    let doc = ProgramDoc::new(
        &planner.model,
        program,
        face_turns,
        cube_rotations,
        solution,
    );
    match format {
        Format::Json => println!("{}", serde_json::to_string_pretty(&doc)?),
        Format::Text => {
            print!("{}", program.to_text(&planner.model));
            println!(
                "robot {}: {} steps, {:.2} s, {} face turns, {} cube rotations{}",
                doc.robot,
                doc.steps.len(),
                doc.total_ms as f64 / 1000.0,
                doc.face_turns,
                doc.cube_rotations,
                if doc.solution.is_empty() {
                    String::new()
                } else {
                    format!("; solution {}", doc.solution)
                }
            );
        }
    }
    Ok(())
}

#[derive(Args, Debug)]
pub struct PlanBenchArgs {
    /// Robot design file.
    #[arg(long, default_value = DEFAULT_ROBOT)]
    pub robot: PathBuf,
    /// Number of random cubes.
    #[arg(long, default_value_t = 100)]
    pub cubes: usize,
    /// Seed of the random cubes.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Length of the random scrambles whose inverses are planned.
    #[arg(long, default_value_t = 20)]
    pub scramble_length: usize,
    /// Most nodes the planner's search expands per layer (0: exact search).
    #[arg(long, default_value_t = crate::robot::planner::DEFAULT_PER_LAYER)]
    pub per_layer: usize,
}

/// Plans random cubes both ways and prints mean program time, the ratio, and planning times.
pub fn plan_bench(args: PlanBenchArgs) -> anyhow::Result<ExitCode> {
    let built = Instant::now();
    let model = match load_robot(&args.robot) {
        Ok(model) => model,
        Err(e) => return refuse(e),
    };
    let mut planner = Planner::new(model);
    planner.per_layer = if args.per_layer == 0 {
        usize::MAX
    } else {
        args.per_layer
    };
    let setup = built.elapsed();
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    let (mut planned_ms, mut naive_ms, mut times) = (0u64, 0u64, Vec::new());
    for _ in 0..args.cubes {
        let scramble = random_scramble(&mut rng, args.scramble_length, false);
        let solution: Vec<Turn> = scramble
            .iter()
            .rev()
            .filter_map(|m| match m.inverse() {
                Move::Turn(t) => Some(t),
                Move::Rotate(_) => None,
            })
            .collect();
        let began = Instant::now();
        let plan = planner
            .plan(&planner.home(), &solution)
            .context("planning")?;
        times.push(began.elapsed());
        planned_ms += plan.total_ms as u64;
        naive_ms += planner
            .plan_naive(&planner.home(), &solution)
            .context("naive planning")?
            .total_ms as u64;
    }
    times.sort();
    let n = args.cubes.max(1) as f64;
    let quantile = |q: f64| {
        times
            .get(((times.len() as f64 - 1.0) * q).round() as usize)
            .copied()
            .unwrap_or(Duration::ZERO)
    };
    println!(
        "robot {}: {} cubes (seed {}), solutions = inverses of {}-move scrambles",
        planner.model.name, args.cubes, args.seed, args.scramble_length
    );
    println!(
        "setup (load, state graph, bounds): {:.0} ms, {} states",
        setup.as_secs_f64() * 1000.0,
        planner.graph.states.len()
    );
    println!("planned: mean {:.0} ms per cube", planned_ms as f64 / n);
    println!("naive:   mean {:.0} ms per cube", naive_ms as f64 / n);
    println!(
        "ratio planned/naive: {:.3}",
        planned_ms as f64 / naive_ms.max(1) as f64
    );
    println!(
        "planning time per cube: median {:.1} ms, p99 {:.1} ms",
        quantile(0.5).as_secs_f64() * 1000.0,
        quantile(0.99).as_secs_f64() * 1000.0
    );
    Ok(ExitCode::SUCCESS)
}
