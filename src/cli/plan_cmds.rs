//! `cubed plan`: gripper programs for a robot design, from face turns, from a cube (solved robot-aware, or the naive baseline), or for the scan.

use super::cube_args::{NotationArg, SizeArgs};
use super::design_choice::choose_design;
use super::refuse;
use crate::command_line::designs::robot_design;
use crate::command_line::tables::pocket_solver;
use crate::command_line::tables::TableArgs;
use crate::robot::{
    load_robot, solve_for_robot, solve_naive, AwareError, AwareOptions, Plan, Planner, ProgramDoc,
};
use crate::robot::{planner_memory_limit, Direction, Orientation, RobotState};
use crate::words::count;
use clap::{ArgGroup, Args, ValueEnum};
use cubed_core::cube::Face;
use cubed_core::cube::{format_moves, parse_cube, FaceOrder, Move, Notation, Turn};
use cubed_core::error_chain::error_chain;
use cubed_core::pocket::{parse_pocket, Metric, PocketFormat};
use cubed_core::solver::SolveError;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// How the cube is held unless `--start` says otherwise: U up, F to the front.
pub(crate) const HOME_HOLDING: &str = "UF";

/// Output format of a program.
#[derive(Clone, Copy, Debug, ValueEnum, Default, PartialEq, Eq)]
pub(crate) enum Format {
    #[default]
    Text,
    Json,
}

/// What `cubed plan` and `cubed exec` work on: a robot design, and face turns or a cube.
#[derive(Args, Debug)]
pub(crate) struct RobotJob {
    /// Robot design file, or a shipped design's name (four-arm, six-motor, turntable-flipper);
    /// default: the design the daemon's configuration names (`[robot] design`).
    #[arg(long, value_parser = robot_design)]
    pub(crate) robot: Option<PathBuf>,
    /// The configuration whose `[robot] design` to use when --robot is not given (default: the
    /// daemon's search: $CUBED_CONFIG, ./config/cubed.toml, ~/.config/cubed/, /etc/cubed/).
    #[arg(long)]
    pub(crate) config: Option<PathBuf>,
    /// Moves to perform, e.g. "R U F'". Whole-cube rotations (x y z, or RC+ RC- RC2 in the
    /// 1988 notation) rename the faces turned after them; the robot reorients as its planner
    /// chooses, so the cube ends as the moves leave it, held as the robot finds best.
    #[arg(long)]
    pub(crate) moves: Option<String>,
    /// The notation of --moves and of the text summary's solution: Singmaster (R U F'), or the
    /// 1988 program's (T+ F- R2, where B is the bottom and P the back). JSON is always Singmaster.
    #[arg(long, value_enum, default_value_t = NotationArg::Singmaster)]
    pub(crate) notation: NotationArg,
    /// A cube to solve (54 symbols, URFDLB): solved robot-aware, then planned.
    #[arg(long)]
    pub(crate) facelets: Option<String>,
    /// Compute budget for finding and rating candidate solutions, in ms.
    #[arg(long, default_value_t = 300, value_parser = crate::command_line::counts::budget_ms)]
    pub(crate) budget_ms: u64,
    /// Start with this cube face up and this one to the front (e.g. `FR`), as the cube was put
    /// in; grippers at home. Every design starts from every holding.
    #[arg(long, default_value = HOME_HOLDING)]
    pub(crate) start: String,
    #[command(flatten)]
    pub(crate) tables: TableArgs,
}

#[derive(Args, Debug)]
#[command(group(ArgGroup::new("input").required(true).args(["moves", "facelets", "scan"])))]
pub(crate) struct PlanArgs {
    #[command(flatten)]
    pub(crate) job: RobotJob,
    /// Plan the scan: show all six faces to the cameras.
    #[arg(long)]
    pub(crate) scan: bool,
    /// The baseline: the solver's first solution (10 ms budget), each face turn planned alone.
    #[arg(long)]
    pub(crate) naive: bool,
    /// Text: one line per step (at its start time) and a summary; JSON: the program document
    /// that `cubed exec --program` streams.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub(crate) format: Format,
    #[command(flatten)]
    pub(crate) size: super::cube_args::SizeArgs,
}

/// Reads face turns; whole-cube rotations are refused (the planner chooses them).
pub(crate) fn face_turns(text: &str, notation: Notation) -> Result<Vec<Turn>, String> {
    let moves = super::cube_args::moves_argument(text, notation)?;
    // A whole-cube rotation renames the faces after it; the robot reorients as its planner
    // chooses, so each turn is planned as the face it turns in the cube's starting frame.
    Ok(cubed_core::cube::FaceletCube::turns_without_rotations(
        &moves,
    ))
}

/// The home state with the cube held as `faces` says: the face up, then the face to the front.
pub(super) fn start_state(planner: &Planner, faces: &str) -> Result<RobotState, String> {
    let orientation = orientation_held(faces).map_err(|why| format!("--start '{faces}': {why}"))?;
    // Every holding starts at home: the state graph holds them all (see `robot::graph`).
    Ok(RobotState {
        orientation,
        ..planner.home()
    })
}

/// How the cube is held when `faces` names the face up, then the face to the front (as
/// `--start` and a program document's `starts_held` give it), or why it cannot be.
pub(super) fn orientation_held(faces: &str) -> Result<Orientation, String> {
    // Lower case is read as the facelets are (`fr` is FR).
    let letters: Vec<Option<Face>> = (faces.trim().chars())
        .map(|c| Face::from_letter(c.to_ascii_uppercase()))
        .collect();
    let [Some(up), Some(front)] = letters[..] else {
        return Err(
            "give two face letters, the face up then the face to the front (e.g. UF)".into(),
        );
    };
    if up == front {
        return Err(format!(
            "{up} is given twice; give the face up, then another face to the front"
        ));
    }
    Orientation::all()
        .find(|o| o.face_at(Direction::Up) == up && o.face_at(Direction::Front) == front)
        .ok_or_else(|| {
            format!("{up} and {front} are opposite faces; they cannot be up and front at once")
        })
}

impl RobotJob {
    /// The design (`--robot`, else the configuration's) and its planner, loaded and checked
    /// to turn every face again and again, with the size the configuration gives when
    /// `size` does not say; Err: the refusal (exit 2) naming the file.
    pub(crate) fn planner(
        &self,
        size: &mut SizeArgs,
    ) -> Result<(Planner, PathBuf), anyhow::Result<ExitCode>> {
        let chosen = choose_design(self.robot.as_deref(), self.config.as_deref())
            .map_err(|e| refuse(e.to_string()))?;
        size.or_configured(chosen.cube_size);
        let design = chosen.design;
        let model = load_robot(&design).map_err(|e| super::refuse_error(&e))?;
        if let Some(note) = model.slow_turns_note() {
            eprintln!("note: {}: {note}", design.display());
        }
        let limit = planner_memory_limit().map_err(refuse)?;
        let planner = Planner::checked(model, limit)
            .map_err(|e| refuse(format!("{}: {e}", design.display())))?;
        Ok((planner, design))
    }
}

/// Prints the program for the requested moves, cube or scan.
pub(crate) fn plan(mut args: PlanArgs) -> anyhow::Result<ExitCode> {
    let (planner, design) = match args.job.planner(&mut args.size) {
        Ok(planner) => planner,
        Err(refused) => return refused,
    };
    let start = match start_state(&planner, &args.job.start) {
        Ok(start) => start,
        Err(e) => return refuse(e),
    };
    // A design that cannot hold a 2x2 has no 2x2 plan, its scan's either.
    if args.size.is_pocket() {
        if let Err(e) = crate::robot::pocket_plan::check_holds_a_2x2(planner.model()) {
            return super::refuse_error(&e);
        }
    }
    if args.scan {
        if planner.model().cameras.is_empty() {
            return refuse(format!(
                "{}: robot '{}' has no [[camera]], so it has no scan to plan (add a [[camera]] with `at`, as in config/robots/)",
                design.display(),
                planner.model().name
            ));
        }
        let scan = planner.plan_scan(&start)?;
        let tally = count(scan.photos.len(), "photo", "photos");
        let doc = ProgramDoc::new(planner.model(), &scan.program, 0, 0, String::new())
            .held(scan.start.orientation, scan.end.orientation);
        print_program(&planner, &scan.program, doc, tally, args.format)?;
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(done) = plan_if_pocket(&args, &planner, &start) {
        return done;
    }
    let plan = if let Some(facelets) = &args.job.facelets {
        plan_cube(&args.job, &planner, &start, facelets, args.naive)?
    } else {
        let Some(moves) = &args.job.moves else {
            anyhow::bail!("give --moves, --facelets or --scan");
        };
        match face_turns(moves, args.job.notation.into()) {
            Ok(solution) if args.naive => Ok(planner.plan_naive(&start, &solution)?),
            Ok(solution) => Ok(planner.plan(&start, &solution)?),
            Err(e) => Err(e),
        }
    };
    match plan {
        Ok(plan) => {
            print_plan(
                &planner,
                &plan,
                (args.format, args.job.notation.into()),
                false,
            )?;
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => refuse(e),
    }
}

/// Solves the cube in `facelets` (robot-aware, or the naive baseline) and plans it from
/// `start`; an invalid cube is `Ok(Err(reason))`.
pub(crate) fn plan_cube(
    job: &RobotJob,
    planner: &Planner,
    start: &RobotState,
    facelets: &str,
    naive: bool,
) -> anyhow::Result<Result<Plan, String>> {
    let cube = match parse_cube(facelets, FaceOrder::Urfdlb, None) {
        Ok((_, _, cube)) => cube,
        Err(e) => return Ok(Err(error_chain(&e))),
    };
    let solver = job.tables.solver();
    let result = if naive {
        solve_naive(planner, &solver, start, &cube)
    } else {
        let priced;
        let planner = match job.tables.axial_tables_for(planner) {
            Some(tables) => {
                priced = planner.clone().with_axial(&tables)?;
                &priced
            }
            None => planner,
        };
        let opts = AwareOptions {
            budget: cubed_core::solver::Budget::Time(Duration::from_millis(job.budget_ms)),
            ..AwareOptions::default()
        };
        solve_for_robot(planner, &solver, start, &cube, &opts).map(|s| s.plan)
    };
    match result {
        Ok(plan) => Ok(Ok(plan)),
        Err(AwareError::Solve(SolveError::InvalidCube(e))) => Ok(Err(error_chain(&e))),
        Err(e) => Err(e.into()),
    }
}

/// The text's summary gives the solution in `notation`; the JSON document always in Singmaster's.
/// `pocket`: the cube is a 2x2 (the summary says so).
pub(crate) fn print_plan(
    planner: &Planner,
    plan: &Plan,
    (format, notation): (Format, Notation),
    pocket: bool,
) -> anyhow::Result<()> {
    let moves: Vec<Move> = plan.solution.iter().map(|&t| Move::Turn(t)).collect();
    let solution = match format {
        Format::Json => format_moves(&moves, Notation::Singmaster)?,
        Format::Text => format_moves(&moves, notation)?,
    };
    let tally = format!(
        "{}{}, {}",
        if pocket { "a 2x2, " } else { "" },
        count(plan.face_turns, "face turn", "face turns"),
        count(plan.cube_rotations, "cube rotation", "cube rotations"),
    );
    let doc = ProgramDoc::new(
        planner.model(),
        &plan.program,
        plan.face_turns,
        plan.cube_rotations,
        solution,
    )
    .held(plan.start.orientation, plan.end.orientation);
    print_program(planner, &plan.program, doc, tally, format)
}

/// Prints a program as JSON or as text ending in a summary line and how the cube ends
/// held; `tally` says what it does ("3 face turns, 1 cube rotation", "6 photos").
fn print_program(
    planner: &Planner,
    program: &crate::robot::Program,
    doc: ProgramDoc,
    tally: String,
    format: Format,
) -> anyhow::Result<()> {
    match format {
        Format::Json => println!("{}", serde_json::to_string_pretty(&doc)?),
        Format::Text => {
            print!("{}", program.to_text(planner.model()));
            println!(
                "robot {}: {}, {:.2} s, {tally}{}",
                doc.robot,
                count(doc.steps.len(), "step", "steps"),
                doc.total_ms as f64 / 1000.0,
                if doc.solution.is_empty() {
                    String::new()
                } else {
                    format!("; solution {}", doc.solution)
                }
            );
            if let Some(words) = held_words(doc.ends_held.as_deref()) {
                println!("{words}");
            }
        }
    }
    Ok(())
}

/// `cubed plan --size 2 --facelets …` (robot-aware, or `--naive`; a design that turns faces by
/// centre caps is refused before); None: plan as for a 3x3 (face turns and the scan are the same
/// for both sizes).
pub(crate) fn plan_if_pocket(
    args: &super::plan_cmds::PlanArgs,
    planner: &crate::robot::Planner,
    start: &crate::robot::RobotState,
) -> Option<anyhow::Result<ExitCode>> {
    if !args.size.is_pocket() {
        return args.size.refuse_on_3x3();
    }
    let text = args.job.facelets.as_deref()?;
    Some(plan_pocket(args, planner, start, text))
}

fn plan_pocket(
    args: &super::plan_cmds::PlanArgs,
    planner: &crate::robot::Planner,
    start: &crate::robot::RobotState,
    text: &str,
) -> anyhow::Result<ExitCode> {
    let plan = match pocket_plan(&args.job, &args.size, args.naive, (planner, start), text)? {
        Ok(plan) => plan,
        Err(refused) => return super::refuse(refused),
    };
    super::plan_cmds::print_plan(
        planner,
        &plan,
        (args.format, args.job.notation.into()),
        true,
    )?;
    Ok(ExitCode::SUCCESS)
}

/// The robot's plan for the 2x2 `text` (robot-aware, or `naive`: the first optimal solution,
/// each turn planned alone); Err inside: the refusal in words (a design without centre caps,
/// a cube that cannot be read).
pub(crate) fn pocket_plan(
    job: &super::plan_cmds::RobotJob,
    size: &SizeArgs,
    naive: bool,
    (planner, start): (&crate::robot::Planner, &crate::robot::RobotState),
    text: &str,
) -> anyhow::Result<Result<crate::robot::Plan, String>> {
    use crate::robot::pocket_plan::{pocket_naive, solve_pocket_for_robot, PocketAwareOptions};
    let format = if size.legacy {
        PocketFormat::Legacy
    } else {
        PocketFormat::Facelets(FaceOrder::Urfdlb)
    };
    let facelets = match parse_pocket(text, format, None) {
        Ok((facelets, _, _)) => facelets,
        Err(e) => {
            let why = format.in_input_terms(&e.to_string());
            return Ok(Err(why + &size.taken_from()));
        }
    };
    let solver = pocket_solver(job.tables.cache_dir.as_deref());
    let metric: Metric = size.metric.unwrap_or_default().into();
    Ok(Ok(if naive {
        pocket_naive(planner, &solver, start, &facelets, metric)?
    } else {
        let opts = PocketAwareOptions {
            metric,
            budget: cubed_core::solver::Budget::Time(std::time::Duration::from_millis(
                job.budget_ms,
            )),
            ..PocketAwareOptions::default()
        };
        solve_pocket_for_robot(planner, &solver, start, &facelets, &opts)?
    }))
}

/// How the cube ends held (`held`: the face up, then the face to the front), in words
/// that say what to give the next program.
pub(crate) fn held_words(held: Option<&str>) -> Option<String> {
    let mut faces = held?.chars();
    let (up, front) = (faces.next()?, faces.next()?);
    Some(format!(
        "the cube ends held {up} up, {front} to the front: give the next program --start {up}{front}"
    ))
}
