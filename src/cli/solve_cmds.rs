//! `cubed solve` and `cubed scramble`: solving facelet strings from arguments or stdin, and printing random cubes.

use super::cube_args::clock_seed;
use super::cube_args::INVALID_LINE;
use super::cube_args::{each_cube, letters_note, moves_hint, no_cube_given, print_json};
use super::cube_args::{FormatArg, NotationArg, OrderArg};
use super::solve_steps::Walkthrough;
use crate::command_line::tables::pocket_solver;
use crate::command_line::tables::TableArgs;
use clap::Args;
use cubed_core::cube::random::random_cube;
use cubed_core::cube::FaceOrder;
use cubed_core::cube::FaceletCube;
use cubed_core::cube::{format_moves, parse_cube, states_after, ColourScheme, Move, Notation};
use cubed_core::error_chain::error_chain;
use cubed_core::pocket::program::scrambles;
use cubed_core::pocket::PocketFacelets;
use cubed_core::pocket::{length_in, parse_pocket, Metric, PocketFormat, PocketSolver};
use cubed_core::solver::{SolveError, Solver};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::json;
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(Args, Debug)]
pub(crate) struct SolveArgs {
    /// Cubes as 54 colour symbols each (centres say which colour is which face).
    pub(crate) facelets: Vec<String>,
    /// Read one cube per line from standard input (a bad line is reported, the others still
    /// solved; blank lines and comments, `#` followed by a space or alone, are skipped: `#`
    /// may be a colour). Text output has one line
    /// per cube in order: its solution, `already solved (0 moves)`, or `invalid` (the reason,
    /// with the line number, on stderr); `--format json` gives `"solution": ""` for a solved cube.
    #[arg(long)]
    pub(crate) stdin: bool,
    /// Order of the faces in the input (--legacy has its own: T F R P L B).
    #[arg(long, value_enum, default_value_t = OrderArg::Urfdlb, conflicts_with = "legacy")]
    pub(crate) order: OrderArg,
    #[arg(long, value_enum, default_value_t = NotationArg::Singmaster)]
    pub(crate) notation: NotationArg,
    /// Time to search each cube for shorter solutions [default: 100] (a 3x3 only: a 2x2's
    /// solution is always optimal).
    #[arg(long, value_parser = crate::command_line::counts::budget_ms)]
    pub(crate) budget_ms: Option<u64>,
    #[arg(long, value_enum, default_value_t = FormatArg::Text)]
    pub(crate) format: FormatArg,
    #[command(flatten)]
    pub(crate) tables: TableArgs,
    #[command(flatten)]
    pub(crate) size: super::cube_args::SizeArgs,
    /// Say the solution step by step, for a person to follow: how to hold the cube, then
    /// each turn in the notation and in words, with the cube drawn (as a net, in the colours
    /// typed) after it. With --format json, a `steps` list of `move`, `words` and `cube`.
    #[arg(long)]
    pub(crate) steps: bool,
}

/// Solves each cube; exit 2 if any was invalid.
pub(crate) fn solve(args: SolveArgs) -> anyhow::Result<ExitCode> {
    if let Some(done) = solve_if_pocket(&args) {
        return done;
    }
    if let Some(refused) = no_cube_given(&args.facelets, args.stdin) {
        return refused;
    }
    let solver = args.tables.solver();
    each_cube(&args.facelets, args.stdin, |text, line| {
        solve_one(&solver, &args, text, line)
    })
}

/// Prints one cube's solution or error; false if the cube was refused.
fn solve_one(
    solver: &Solver,
    args: &SolveArgs,
    text: &str,
    line: Option<usize>,
) -> anyhow::Result<bool> {
    let start = Instant::now();
    let result = parse_cube(text, args.order.into(), None)
        .map_err(SolveError::from)
        .and_then(|(facelets, scheme, cubies)| {
            let budget = Duration::from_millis(args.budget_ms.unwrap_or(100));
            Ok((facelets, scheme, solver.solve(&cubies, budget)?))
        });
    let ms = start.elapsed().as_secs_f64() * 1000.0;
    let where_ = line.map(|n| format!("line {n}: ")).unwrap_or_default();
    match result {
        Ok((facelets, scheme, turns)) => {
            let moves: Vec<Move> = turns.iter().map(|&t| t.into()).collect();
            let solution = format_moves(&moves, args.notation.into())?;
            let walk = args.steps.then(|| {
                let shown = |c: &FaceletCube| c.to_symbols(&scheme);
                let states = states_after(facelets, &moves, |c, m| c.apply(m), shown);
                let drawn = (3, &scheme, args.order.into());
                Walkthrough::new(drawn, &moves, states, args.notation.into())
            });
            let mut row = json!({"facelets": text, "solution": solution, "notation": args.notation.name(), "moves": turns.len(), "ms": (ms * 10.0).round() / 10.0});
            print_solution(args, &solution, walk.as_ref(), &mut row, line)?;
            Ok(true)
        }
        Err(e) => {
            let kind = e.kind();
            let in_1988 = matches!(args.order, OrderArg::Tfrplb);
            let message = error_chain(&e) + &moves_hint(text) + letters_note(in_1988, false, kind);
            match args.format {
                FormatArg::Text => {
                    println!("{INVALID_LINE}");
                    eprintln!("{where_}invalid cube {text}: {message}");
                }
                FormatArg::Json => print_json(
                    json!({"facelets": text, "error": {"kind": kind, "message": message}}),
                    line,
                ),
            }
            Ok(false)
        }
    }
}

/// Prints a solved cube's line or JSON row (`row`), with its steps (`walk`, when --steps).
fn print_solution(
    args: &SolveArgs,
    solution: &str,
    walk: Option<&Walkthrough>,
    row: &mut serde_json::Value,
    line: Option<usize>,
) -> anyhow::Result<()> {
    match args.format {
        FormatArg::Text => {
            println!("{}", crate::command_line::counts::solution_line(solution));
            if let Some(walk) = walk.filter(|w| !w.moves.is_empty()) {
                walk.print()?;
                println!();
            }
        }
        FormatArg::Json => {
            if let Some(walk) = walk {
                (row["hold"], row["steps"]) = walk.json()?;
            }
            print_json(row.take(), line);
        }
    }
    Ok(())
}

#[derive(Args, Debug)]
pub(crate) struct ScrambleArgs {
    /// Seed for reproducible cubes (default: from the clock).
    #[arg(long)]
    pub(crate) seed: Option<u64>,
    /// How many cubes (at least 1).
    #[arg(long, default_value_t = 1, value_parser = crate::command_line::counts::scramble_count)]
    pub(crate) count: usize,
    /// Cube size: 3, or 2 for the pocket cube (24 stickers).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(2..=3))]
    pub(crate) size: u8,
    /// Instead of random cubes, the cube these moves make of a solved one (`"R U F'"`, in
    /// --notation), as facelets.
    #[arg(long, conflicts_with_all = ["seed", "count", "turns"])]
    pub(crate) moves: Option<String>,
    /// Instead of random cubes, scrambles of this many random face turns, printed as the
    /// moves (in --notation; give one to --moves for its facelets).
    #[arg(long, value_parser = crate::command_line::counts::scramble_turns)]
    pub(crate) turns: Option<usize>,
    /// The notation of --moves and of --turns' scrambles.
    #[arg(long, value_enum, default_value_t = NotationArg::Singmaster)]
    pub(crate) notation: NotationArg,
}

/// Prints uniformly random cubes as facelet strings, random-turn scrambles, or the cube some
/// moves make.
pub(crate) fn scramble(args: ScrambleArgs) -> anyhow::Result<ExitCode> {
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed.unwrap_or_else(clock_seed));
    let notation = Notation::from(args.notation);
    if let Some(text) = &args.moves {
        return moves_made(text, notation, args.size);
    }
    if let Some(turns) = args.turns {
        for scramble in scrambles(&mut rng, args.count, turns, false) {
            println!("{}", format_moves(&scramble, notation)?);
        }
        return Ok(ExitCode::SUCCESS);
    }
    if args.size == 2 {
        scramble_pocket(&mut rng, args.count);
        return Ok(ExitCode::SUCCESS);
    }
    for _ in 0..args.count {
        println!(
            "{}",
            random_cube(&mut rng)
                .to_facelets()
                .to_symbols(&ColourScheme::default())
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Prints the cube `text`'s moves make of a solved cube of `size`.
fn moves_made(text: &str, notation: Notation, size: u8) -> anyhow::Result<ExitCode> {
    let moves = match super::cube_args::moves_argument(text, notation) {
        Ok(moves) => moves,
        Err(words) => return super::refuse(words),
    };
    let symbols = match size {
        2 => (PocketFacelets::default().apply_all(&moves)).to_symbols(&ColourScheme::default()),
        _ => (FaceletCube::default().apply_all(&moves)).to_symbols(&ColourScheme::default()),
    };
    println!("{symbols}");
    Ok(ExitCode::SUCCESS)
}

/// `cubed solve` for a 2x2 (or a refusal of 2x2 options on a 3x3); None: solve a 3x3.
pub(crate) fn solve_if_pocket(args: &SolveArgs) -> Option<anyhow::Result<ExitCode>> {
    if !args.size.is_pocket() {
        return args.size.refuse_on_3x3();
    }
    if args.budget_ms.is_some() {
        return Some(super::refuse(
            "--budget-ms applies to a 3x3 only: a 2x2's solution is always optimal",
        ));
    }
    Some(solve_pocket(args))
}

fn solve_pocket(args: &SolveArgs) -> anyhow::Result<ExitCode> {
    if let Some(refused) = no_cube_given(&args.facelets, args.stdin) {
        return refused;
    }
    let solver = pocket_solver(args.tables.cache_dir.as_deref());
    each_cube(&args.facelets, args.stdin, |text, line| {
        solve_one_pocket(&solver, args, text, line)
    })
}

/// Prints one cube's optimal solution or error; false if the cube was refused.
fn solve_one_pocket(
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
    let result = parse_pocket(text, format, None)
        .map(|(f, scheme, c)| (f, scheme, solver.solve(&c, metric)));
    let ms = start.elapsed().as_secs_f64() * 1000.0;
    let row = match result {
        Ok((facelets, scheme, turns)) => {
            let moves: Vec<Move> = turns.iter().map(|&t| t.into()).collect();
            let solution = format_moves(&moves, Notation::from(args.notation))?;
            let walk = args.steps.then(|| {
                let shown = |c: &PocketFacelets| c.to_symbols(&scheme);
                let states = states_after(facelets, &moves, |c, m| c.apply(m), shown);
                let typed = match format {
                    PocketFormat::Facelets(order) => order,
                    PocketFormat::Legacy => FaceOrder::default(),
                };
                Walkthrough::new((2, &scheme, typed), &moves, states, args.notation.into())
            });
            let mut row = json!({"facelets": text, "size": 2, "metric": metric.name(), "solution": solution, "notation": args.notation.name(),
                   "moves": length_in(&turns, metric), "ms": (ms * 1000.0).round() / 1000.0});
            print_solution(args, &solution, walk.as_ref(), &mut row, line)?;
            return Ok(true);
        }
        Err(e) => {
            let in_1988 = matches!(
                format,
                PocketFormat::Legacy | PocketFormat::Facelets(FaceOrder::Tfrplb)
            );
            let message = format.in_input_terms(&e.to_string())
                + &moves_hint(text)
                + letters_note(in_1988, format == PocketFormat::Legacy, e.kind());
            if args.format == FormatArg::Text {
                let at = line.map(|n| format!("line {n}: ")).unwrap_or_default();
                println!("{}", INVALID_LINE);
                eprintln!("{at}invalid cube {text}: {message}");
                return Ok(false);
            }
            json!({"facelets": text, "error": {"kind": e.kind(), "message": message}})
        }
    };
    let ok = row.get("error").is_none();
    print_json(row, line);
    Ok(ok)
}

/// `cubed scramble --size 2`: uniformly random 2x2 cubes as 24 URFDLB letters.
pub(crate) fn scramble_pocket(rng: &mut ChaCha8Rng, count: usize) {
    for _ in 0..count {
        let cube = cubed_core::pocket::random_pocket(rng).to_facelets();
        println!("{cube}");
    }
}
