//! `cubed dry-run`: the whole daemon pipeline (scan → solve → execute → verify) against the simulated robot on a pty and the simulated camera, for N random cubes; exits 0 only if every cube ends verified solved.

use super::refuse;
use crate::command_line::tables::TableArgs;
use crate::daemon::config::search::discover_config;
use crate::daemon::config::{CameraChoice, CubeSize, DaemonConfig, PortChoice};
use crate::daemon::dry_run::{dry_run, CubeResult, DryRunSettings};
use crate::daemon::RunningDaemon;
use crate::words::count;
use anyhow::Context;
use clap::Args;
use cubed_core::error_chain::error_chain;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// Prints a line to standard output; false once it is gone (a reader such as `| head` closed
/// the pipe), where `println!` would panic: the dry run then stops as on Ctrl-C, so its
/// temporary directory and simulator go with it.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let mut out = std::io::stdout().lock();
        matches!(writeln!(out, $($arg)*).and_then(|()| out.flush()), Ok(()))
    }};
}

/// The exit status of a dry run whose output was closed, as a shell reports a process SIGPIPE
/// ended (the dry run catches it to clean up first).
const EXIT_OUTPUT_GONE: u8 = 141;

#[derive(Args, Debug)]
pub(crate) struct DryRunArgs {
    /// Random cubes to solve, one after another.
    #[arg(long, default_value_t = 3, value_parser = crate::command_line::counts::at_least_one)]
    pub(crate) cubes: usize,
    /// Seed of the random cubes. The solver's budget (`[solver] budget_ms`) is counted in search
    /// nodes, not time, so the same seed prints the same solutions on every machine and under
    /// any load (the daemon, `cubed run`, keeps its wall-time budget).
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// Faults to inject in the simulator, e.g. unplug-at-move=20,slip-at-turn=5,corrupt=0.001
    /// (the keys: `cubed sim --help`; docs/simulator.md says what each stages). Default: the
    /// configuration's `[sim] faults`.
    #[arg(long)]
    pub(crate) faults: Option<String>,
    /// Daemon configuration (its robot, palette and run settings are used; robot and camera are
    /// simulated). Found as `cubed run` finds it; see `cubed config show`.
    #[arg(long)]
    pub(crate) config: Option<PathBuf>,
    /// Robot design file (or a shipped design's name) instead of the configured one.
    #[arg(long, value_parser = crate::command_line::designs::robot_design)]
    pub(crate) robot: Option<PathBuf>,
    /// Simulator speed: 0 = as fast as the host acknowledges, 1 = real time (the configuration's
    /// `[sim] speed` is `cubed run`'s).
    #[arg(long, default_value_t = 0.0, value_parser = crate::command_line::overrides::sim_speed)]
    pub(crate) speed: f64,
    /// Keep the run history and photos here (default: a temporary directory, removed at exit).
    #[arg(long)]
    pub(crate) data_dir: Option<PathBuf>,
    /// Runs that keep their photos (overrides `[history] keep_runs`).
    #[arg(long, value_parser = crate::command_line::overrides::keep_runs)]
    pub(crate) keep_runs: Option<u32>,
    /// Most disk the photos may take, MB (overrides `[history] max_photo_mb`).
    #[arg(long, value_parser = crate::command_line::overrides::max_photo_mb)]
    pub(crate) max_photo_mb: Option<u64>,
    /// Longest one cube may take, seconds (its resumptions included).
    #[arg(long, default_value_t = 300, value_parser = crate::command_line::overrides::timeout_secs)]
    pub(crate) timeout_secs: u64,
    /// Interruptions resumed per cube (an e-stop, a fault or a firmware restart during a move,
    /// from --faults): the dry run presses Resume as a person would once the robot's e-stop
    /// button is released; 0 leaves the run interrupted and ends the dry run there.
    #[arg(long, default_value_t = 2)]
    pub(crate) resumes: usize,
    /// Cube size: 3, or 2 for the pocket cube (default: the config's `[run] cube_size`).
    #[arg(long, value_parser = clap::value_parser!(u8).range(2..=3))]
    pub(crate) size: Option<u8>,
    #[command(flatten)]
    pub(crate) tables: TableArgs,
}

fn configure(args: &DryRunArgs, data_dir: PathBuf) -> Result<DaemonConfig, String> {
    let (mut config, _) = discover_config(args.config.as_deref()).map_err(|e| error_chain(&e))?;
    config.port = PortChoice::Sim;
    config.camera = CameraChoice::Sim;
    config.data_dir = data_dir;
    config.sim.speed = args.speed;
    if let Some(faults) = &args.faults {
        crate::sim::faults::FaultPlan::parse(faults)
            .map_err(|e| format!("--faults: {}", error_chain(&e)))?;
        config.sim.faults = faults.clone();
    }
    config.solve_budget = config.solve_budget.counted();
    if let Some(size) = args.size {
        config.cube_size = CubeSize::from_value(i64::from(size))
            .ok_or_else(|| format!("--size {size}: allowed 3, or 2 (the pocket cube)"))?;
    }
    if let Some(robot) = &args.robot {
        config.robot_design = robot.clone();
    }
    if let Some(keep_runs) = args.keep_runs {
        config.retention.keep_runs = keep_runs;
    }
    if let Some(mb) = args.max_photo_mb {
        config.retention.max_photo_bytes = mb.saturating_mul(1_000_000);
    }
    Ok(config)
}

/// The options that override the config's robot or cube size, as a config error names them.
fn overrides(args: &DryRunArgs) -> String {
    let robot = args
        .robot
        .as_ref()
        .map(|r| format!(" --robot {}", r.display()));
    let size = args.size.map(|s| format!(" --size {s}"));
    match [robot, size].into_iter().flatten().collect::<String>() {
        given if given.is_empty() => String::new(),
        given => format!(" with{given}"),
    }
}

/// Runs the dry run and prints the summary.
pub(crate) fn dry_run_cmd(args: DryRunArgs) -> anyhow::Result<ExitCode> {
    super::init_logging("warn");
    // A closed output must not end the process before its temporary directory is removed: the
    // write fails instead (`say!`), and the dry run stops.
    // SAFETY: setting a signal's disposition to "ignore" before any thread starts.
    let _ = unsafe {
        nix::sys::signal::signal(
            nix::sys::signal::Signal::SIGPIPE,
            nix::sys::signal::SigHandler::SigIgn,
        )
    };
    let temporary = tempfile::tempdir().context("creating a temporary data directory")?;
    let data_dir = args
        .data_dir
        .clone()
        .unwrap_or_else(|| temporary.path().to_path_buf());
    let config = match configure(&args, data_dir) {
        Ok(c) => c,
        Err(e) => return refuse(e),
    };
    let refused = |e: &crate::daemon::LaunchError| {
        let at =
            super::daemon_cmds::refused_at(&config, args.data_dir.is_some(), e, &overrides(&args));
        refuse(format!("{at}: {}", error_chain(e)))
    };
    if let Err(e) = crate::daemon::check_before_tables(&config) {
        return refused(&e);
    }
    // A 2x2 is solved by its own tables: the 3x3 solver, which a daemon keeps for the page's
    // guide, is never loaded in a dry run.
    let solver = args.tables.solver_for_config(&config);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    runtime.block_on(async {
        // Ctrl-C or SIGTERM ends the dry run with a summary of the cubes done, and the daemon
        // shut down so its temporary directory and simulator go with it.
        let (signalled, mut interrupted) = tokio::sync::oneshot::channel();
        tokio::spawn(async move {
            let _ = signalled.send(super::daemon_cmds::wait_for_signal().await);
        });
        let daemon = match RunningDaemon::start(&config, solver).await {
            Ok(daemon) => daemon,
            Err(e) if e.waits_for_a_person() => return refused(&e),
            Err(e) => return Err(e.into()),
        };
        let (output_gone, mut gone) = tokio::sync::oneshot::channel();
        let mut output_gone = Some(output_gone);
        say!(
            "cubed dry-run: robot {}, {} from seed {}, simulated robot (speed {}) and camera, faults: {}",
            daemon.handle.status().robot,
            count(args.cubes, &format!("{} cube", daemon.cube_size.name()), &format!("{} cubes", daemon.cube_size.name())),
            args.seed,
            args.speed,
            match config.sim.faults.as_str() {
                "" => "none",
                faults => faults,
            }
        );
        // A 2x2 is solved optimally by table, with no search to budget.
        let searched = daemon.cube_size == crate::daemon::cube_size::CubeSize::Three;
        if let (true, cubed_core::solver::Budget::Nodes(nodes)) = (searched, config.solve_budget) {
            say!("solver budget: {nodes} search nodes per solve, so this seed prints the same on any machine");
        }
        let settings = DryRunSettings {
            cubes: args.cubes,
            seed: args.seed,
            per_cube: Duration::from_secs(args.timeout_secs),
            resumes: args.resumes,
        };
        let mut done = Vec::new();
        let ended = tokio::select! {
            results = dry_run(&daemon, settings, |index, result| {
                if !print_cube(index, result) {
                    output_gone.take().map(|gone| gone.send(()));
                }
                done.push(result.clone());
            }) => Ok(results),
            code = &mut interrupted => Err(code.unwrap_or(super::EXIT_SIGINT)),
            _ = &mut gone => Err(EXIT_OUTPUT_GONE),
        };
        if ended.is_err() {
            say!("interrupted: stopping the daemon (the run under way stops at its next step)");
        }
        let never = daemon.sim.as_ref().map(|sim| sim.faults_not_reached());
        daemon.shutdown().await;
        if let Some(never) = never.filter(|never| !never.entries.is_empty()) {
            say!(
                "faults never reached: {} (the robot executed {} and {} in all)",
                never.entries.join(", "),
                count(never.commands, "command", "commands"),
                count(never.turns, "face turn", "face turns")
            );
        }
        let results = match ended {
            Ok(results) => results?,
            Err(code) => {
                say!("interrupted after {} of {} cubes", done.len(), args.cubes);
                print_summary(&done);
                return Ok(ExitCode::from(code));
            }
        };
        print_summary(&results);
        let photos_within = print_photos(&config, args.data_dir.is_none());
        Ok(if photos_within && results.iter().all(|r| r.verified()) && results.len() == args.cubes {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        })
    })
}

/// Prints one cube's line (and why it failed); false once standard output is gone.
fn print_cube(index: usize, r: &CubeResult) -> bool {
    if r.latch_reset {
        say!("cube {index}: the robot's e-stop was latched before it; reset as a person would");
    }
    let said = say!(
        "cube {index} (run {}): {}, {}, {}, {}; planned {:.1} s, simulated {:.1} s; link losses {}{}",
        r.run,
        match r.verified() {
            true => "solved (verified)",
            false => crate::daemon::outcome_in_words(&r.outcome),
        },
        count(r.moves, "move", "moves"),
        count(r.solves, "solve", "solves"),
        count(r.scans, "scan", "scans"),
        r.planned_ms as f64 / 1000.0,
        r.simulated_ms as f64 / 1000.0,
        r.link_losses,
        match r.resumes {
            0 => String::new(),
            n => format!("; resumed {} after an interruption", count(n, "time", "times")),
        }
    );
    if !r.verified() {
        say!(
            "  why: {}",
            r.error
                .as_deref()
                .unwrap_or("the simulator's cube is not solved")
        );
        let own = if r.sim_solved { "solved" } else { "not solved" };
        say!("  the simulator's own cube: {own}");
        say!("  scramble (URFDLB): {}", r.scramble);
    }
    if r.interruptions > r.resumes && !r.verified() {
        say!(
            "  it waits for a person, and the dry run's --resumes are used up: the dry run stops here"
        );
    }
    said
}

fn print_summary(results: &[CubeResult]) {
    let solved = results.iter().filter(|r| r.verified()).count();
    let moves: Vec<u32> = results
        .iter()
        .filter(|r| r.verified())
        .map(|r| r.moves)
        .collect();
    // An interrupted or failed program was planned whole but may have run only in part: its
    // cube is left out of the planned-against-simulated comparison. A run refused, or left
    // unverified, ends between programs: every program it streamed ran whole.
    let whole = |r: &&CubeResult| {
        let ended_between = matches!(r.outcome.as_str(), "unverified" | "refused");
        r.interruptions == 0 && (r.verified() || ended_between)
    };
    let timed = || results.iter().filter(whole);
    let planned: u64 = timed().map(|r| r.planned_ms).sum();
    let simulated: u64 = timed().map(|r| r.simulated_ms).sum();
    let timing = match (timed().count(), results.len() - timed().count()) {
        (0, _) => {
            "planned vs simulated: no cube ran its programs whole (each was interrupted or failed)"
                .to_string()
        }
        (_, left_out) => format!(
            "planned {:.1} s vs simulated {:.1} s (ratio {:.3}{})",
            planned as f64 / 1000.0,
            simulated as f64 / 1000.0,
            simulated as f64 / planned.max(1) as f64,
            match left_out {
                0 => String::new(),
                n => format!(
                    ", {} interrupted or failed left out",
                    count(n, "cube", "cubes")
                ),
            }
        ),
    };
    // Each resumption solves the cube again, as each slipped turn does: the re-solves
    // counted here are the slips' (the resumes are counted apart).
    let resolves: usize = results
        .iter()
        .map(|r| r.solves.saturating_sub(1 + r.resumes))
        .sum();
    let expected_scans: usize = results.iter().map(|r| 1 + r.solves).sum();
    let recaptures = results
        .iter()
        .map(|r| r.scans)
        .sum::<usize>()
        .saturating_sub(expected_scans);
    let losses: usize = results.iter().map(|r| r.link_losses).sum();
    let resumes: usize = results.iter().map(|r| r.resumes).sum();
    // Moves are counted over the cubes solved: a failed cube's turns say nothing of solutions.
    let lengths = match (moves.iter().min(), moves.iter().max()) {
        (Some(least), Some(most)) => format!(
            "moves average {:.1}, most {most}, least {least}",
            f64::from(moves.iter().sum::<u32>()) / moves.len() as f64
        ),
        _ => "no cube solved".to_string(),
    };
    say!(
        "solved {solved}/{} (verified by the simulator) · {lengths} · {timing} · re-solves after a slip {resolves} · re-captures {recaptures} · link losses {losses} · resumes {resumes}",
        results.len(),
    );
}

/// Prints the photos left on disk against the retention limits (measured on disk, apart from
/// the history's records: each run folder's photos, as pruning counts them; in a `temporary`
/// directory, removed at exit); false if they exceed them.
fn print_photos(config: &DaemonConfig, temporary: bool) -> bool {
    use crate::daemon::history::{photo_file_size, photo_folders};
    let runs: Vec<u64> = (photo_folders(&config.data_dir).into_iter())
        .map(|(_, photos)| {
            (photos.iter())
                .map(|p| photo_file_size(&config.data_dir, p))
                .sum()
        })
        .collect();
    let bytes: u64 = runs.iter().sum();
    let limit = config.retention;
    // The newest run keeps its photos even when they alone are over the byte limit.
    let within = runs.len() <= limit.keep_runs as usize
        && (bytes <= limit.max_photo_bytes || runs.len() <= 1);
    say!(
        "photos on disk: {:.1} MB for {} (limits: {} runs, {} MB){}{}",
        bytes as f64 / 1e6,
        count(runs.len(), "run", "runs"),
        limit.keep_runs,
        limit.max_photo_bytes / 1_000_000,
        if within { "" } else { ": OVER THE LIMIT" },
        if temporary {
            "; in a temporary directory, removed now (--data-dir DIR keeps them)"
        } else {
            ""
        }
    );
    within
}
