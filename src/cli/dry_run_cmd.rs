//! `cubed dry-run`: the whole daemon pipeline (scan → solve → execute → verify) against the simulated robot on a pty and the simulated camera, for N random cubes; exits 0 only if every cube ends verified solved.

use super::refuse;
use super::tables_arg::TableArgs;
use anyhow::Context;
use clap::Args;
use cubed::daemon::config::{load_config, CameraChoice, DaemonConfig, PortChoice, DEFAULT_CONFIG};
use cubed::daemon::dry_run::{dry_run, CubeResult};
use cubed::daemon::RunningDaemon;
use cubed::error_chain::error_chain;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

#[derive(Args, Debug)]
pub struct DryRunArgs {
    /// Random cubes to solve, one after another.
    #[arg(long, default_value_t = 3, value_parser = super::counts::at_least_one)]
    pub cubes: usize,
    /// Seed of the random cubes.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Faults to inject in the simulator, e.g. unplug-at-move=20,slip-at-turn=5,corrupt=0.001.
    #[arg(long, default_value = "")]
    pub faults: String,
    /// Daemon configuration (its robot, palette and run settings are used; robot and camera are simulated).
    #[arg(long, default_value = DEFAULT_CONFIG)]
    pub config: PathBuf,
    /// Robot design file instead of the configured one.
    #[arg(long)]
    pub robot: Option<PathBuf>,
    /// Simulator speed: 0 = as fast as the host acknowledges, 1 = real time.
    #[arg(long, default_value_t = 0.0)]
    pub speed: f64,
    /// Keep the run history and photos here (default: a temporary directory, removed at exit).
    #[arg(long)]
    pub data_dir: Option<PathBuf>,
    /// Longest one cube may take, seconds.
    #[arg(long, default_value_t = 300)]
    pub timeout_secs: u64,
    #[command(flatten)]
    pub tables: TableArgs,
}

fn configure(args: &DryRunArgs, data_dir: PathBuf) -> Result<DaemonConfig, String> {
    let mut config = load_config(&args.config).map_err(|e| error_chain(&e))?;
    config.port = PortChoice::Sim;
    config.camera = CameraChoice::Sim;
    config.data_dir = data_dir;
    config.sim.speed = args.speed;
    config.sim.faults = args.faults.clone();
    cubed::sim::faults::FaultPlan::parse(&args.faults)
        .map_err(|e| format!("--faults: {}", error_chain(&e)))?;
    if !(args.speed.is_finite() && args.speed >= 0.0) {
        return Err(format!(
            "--speed {}: must be 0 (instant) or more",
            args.speed
        ));
    }
    if let Some(robot) = &args.robot {
        config.robot_design = robot.clone();
    }
    Ok(config)
}

/// Runs the dry run and prints the summary.
pub fn dry_run_cmd(args: DryRunArgs) -> anyhow::Result<ExitCode> {
    super::init_logging("warn");
    let temporary = tempfile::tempdir().context("creating a temporary data directory")?;
    let data_dir = args
        .data_dir
        .clone()
        .unwrap_or_else(|| temporary.path().to_path_buf());
    let config = match configure(&args, data_dir) {
        Ok(c) => c,
        Err(e) => return refuse(e),
    };
    let solver = Arc::new(args.tables.solver());
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let daemon = RunningDaemon::start(&config, solver).await?;
        println!(
            "cubed dry-run: robot {}, {} cube(s) from seed {}, simulated robot (speed {}) and camera, faults: {}",
            daemon.handle.status().robot,
            args.cubes,
            args.seed,
            args.speed,
            if args.faults.is_empty() { "none" } else { &args.faults }
        );
        let results = dry_run(&daemon, args.cubes, args.seed, Duration::from_secs(args.timeout_secs), print_cube).await;
        daemon.shutdown().await;
        let results = results?;
        print_summary(&results);
        Ok(if results.iter().all(|r| r.verified) && results.len() == args.cubes {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        })
    })
}

fn print_cube(index: usize, r: &CubeResult) {
    println!(
        "cube {index} (run {}): {}, {} moves, {} solve(s), {} scan(s); planned {:.1} s, simulated {:.1} s; link losses {}",
        r.run,
        if r.verified { "solved (verified)" } else { &r.outcome },
        r.moves,
        r.solves,
        r.scans,
        r.planned_ms as f64 / 1000.0,
        r.simulated_ms as f64 / 1000.0,
        r.link_losses
    );
    if !r.verified {
        println!(
            "  failed: {}",
            r.error
                .as_deref()
                .unwrap_or("the simulator's cube is not solved")
        );
        println!("  scramble (URFDLB): {}", r.scramble);
    }
}

fn print_summary(results: &[CubeResult]) {
    let solved = results.iter().filter(|r| r.verified).count();
    let moves: Vec<u32> = results
        .iter()
        .filter(|r| r.verified)
        .map(|r| r.moves)
        .collect();
    let planned: u64 = results.iter().map(|r| r.planned_ms).sum();
    let simulated: u64 = results.iter().map(|r| r.simulated_ms).sum();
    let resolves: usize = results.iter().map(|r| r.solves.saturating_sub(1)).sum();
    let expected_scans: usize = results.iter().map(|r| 1 + r.solves).sum();
    let recaptures = results
        .iter()
        .map(|r| r.scans)
        .sum::<usize>()
        .saturating_sub(expected_scans);
    let losses: usize = results.iter().map(|r| r.link_losses).sum();
    let average = moves.iter().sum::<u32>() as f64 / moves.len().max(1) as f64;
    println!(
        "solved {solved}/{} (verified by the simulator) · moves average {average:.1}, most {}, least {} · planned {:.1} s vs simulated {:.1} s (ratio {:.3}) · re-solves {resolves} · re-captures {recaptures} · link losses {losses}",
        results.len(),
        moves.iter().max().unwrap_or(&0),
        moves.iter().min().unwrap_or(&0),
        planned as f64 / 1000.0,
        simulated as f64 / 1000.0,
        simulated as f64 / planned.max(1) as f64,
    );
}
