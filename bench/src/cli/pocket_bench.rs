//! `cubed-bench pocket`: the 2x2 figures — distance-table build and cache load, optimal solve time per cube in both metrics, the 10,000-cube Test Program in-process and as a whole process, robot-aware against naive programs on the shipped designs, and every plan replayed on the simulator's own machine.

use super::bench_report::{median, thread_cpu_secs};
use anyhow::Context;
use clap::Args;
use cubed::pocket::{program, random_pocket, Metric, PocketSolver, PocketTables};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::process::{Command, ExitCode, Stdio};
use std::sync::Arc;
use std::time::Instant;

#[derive(Args, Debug)]
pub struct PocketBenchArgs {
    /// Table builds (and cache loads) to take the median of.
    #[arg(long, default_value_t = 5, value_parser = cubed::command_line::counts::at_least_one)]
    pub builds: usize,
    /// Uniformly random cubes to solve per metric.
    #[arg(long, default_value_t = 10_000, value_parser = cubed::command_line::counts::at_least_one)]
    pub cubes: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Skip the whole-process Test Program run (it runs `cubed test-program --size 2` in a child).
    #[arg(long)]
    pub no_process: bool,
    /// Random cubes planned on each robot design, robot-aware and naive (0 skips).
    #[arg(long, default_value_t = 50)]
    pub plan_cubes: usize,
    /// The robot designs the plans are for: design files or shipped designs' names, comma
    /// separated (a design that turns faces by their centre caps cannot hold a 2x2 and is
    /// said so, not planned).
    #[arg(
        long,
        alias = "robots",
        value_delimiter = ',',
        value_parser = cubed::command_line::designs::robot_design,
        default_value = "four-arm,turntable-flipper"
    )]
    pub robot: Vec<std::path::PathBuf>,
}

pub fn pocket_bench(args: PocketBenchArgs) -> anyhow::Result<ExitCode> {
    println!("{}", super::host::host_line());
    let (mut build_ms, mut build_cpu_ms) = (Vec::new(), Vec::new());
    let mut tables = None;
    for _ in 0..args.builds {
        let cpu = thread_cpu_secs();
        let t = PocketTables::build();
        build_cpu_ms.push((thread_cpu_secs() - cpu) * 1000.0);
        build_ms.push(t.build_seconds * 1000.0);
        tables = Some(t);
    }
    let tables = tables.context("no table was built")?;
    println!(
        "table build (move tables + HTM and QTM distances, 2 x 3,674,160 bytes), median of {}: {:.1} ms wall, {:.1} ms CPU of the building thread",
        args.builds,
        median(&mut build_ms),
        median(&mut build_cpu_ms)
    );
    load_row(&tables, args.builds)?;
    let solver = PocketSolver::new(Arc::new(tables));
    for metric in [Metric::Htm, Metric::Qtm] {
        solve_row(&solver, metric, args.cubes, args.seed);
    }
    program_row(&solver, args.seed)?;
    if args.plan_cubes > 0 {
        for design in &args.robot {
            plan_row(&solver, design, args.plan_cubes, args.seed)?;
        }
    }
    if !args.no_process {
        process_row(args.seed)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Median time to read the tables back from their cache bytes (in memory: the disk is not measured).
fn load_row(tables: &PocketTables, builds: usize) -> anyhow::Result<()> {
    let mut bytes = Vec::new();
    tables
        .write_to(&mut bytes)
        .context("writing tables to memory")?;
    let mut ms = Vec::new();
    for _ in 0..builds {
        let start = Instant::now();
        PocketTables::read_from(bytes.as_slice()).context("reading tables back")?;
        ms.push(start.elapsed().as_secs_f64() * 1000.0);
    }
    println!(
        "cache load ({} bytes, checksum checked, from memory): median {:.1} ms",
        bytes.len(),
        median(&mut ms)
    );
    Ok(())
}

fn solve_row(solver: &PocketSolver, metric: Metric, cubes: usize, seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut us = Vec::with_capacity(cubes);
    let mut total_len = 0;
    for _ in 0..cubes {
        let cube = random_pocket(&mut rng);
        let start = Instant::now();
        let turns = solver.solve(&cube, metric);
        us.push(start.elapsed().as_secs_f64() * 1e6);
        total_len += cubed::pocket::length_in(&turns, metric);
    }
    let p99 = {
        us.sort_by(|a, b| a.total_cmp(b));
        us[(us.len() * 99 / 100).min(us.len() - 1)]
    };
    println!(
        "optimal solve, {}, {cubes} uniformly random cubes (seed {seed}): median {:.2} µs, p99 {p99:.2} µs, max {:.2} µs, average length {:.3}",
        metric.name(),
        median(&mut us),
        us.last().copied().unwrap_or(0.0),
        total_len as f64 / cubes as f64
    );
}

/// The Test Program's work in-process: 10,000 scrambles of 25 moves, solved and checked on stickers.
fn program_row(solver: &PocketSolver, seed: u64) -> anyhow::Result<()> {
    let start = Instant::now();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let scrambles = program::scrambles(&mut rng, 10_000, 25, true);
    let outcomes: Vec<_> = (scrambles.iter())
        .map(|s| program::run_one(solver, s, Metric::Htm))
        .collect();
    let summary = program::summarise(&outcomes);
    anyhow::ensure!(summary.failed == 0, "{} cubes failed", summary.failed);
    println!(
        "test program, 10,000 cubes x 25 moves with rotations, in-process (tables ready): {:.0} ms, average {:.3} moves",
        start.elapsed().as_secs_f64() * 1000.0,
        summary.average.unwrap_or(0.0)
    );
    Ok(())
}

/// `cubed test-program --size 2 --cubes 10000` as a user runs it: once building the tables, once from the cache.
fn process_row(seed: u64) -> anyhow::Result<()> {
    let exe = super::cubed_exe()?;
    let dir = tempfile::tempdir().context("creating a temporary cache directory")?;
    for label in ["no cache, builds tables", "tables from cache"] {
        let start = Instant::now();
        let status = Command::new(&exe)
            .args([
                "test-program",
                "--size",
                "2",
                "--cubes",
                "10000",
                "--rotations",
            ])
            .args(["--seed", &seed.to_string(), "--cache-dir"])
            .arg(dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .with_context(|| format!("running {}", exe.display()))?;
        anyhow::ensure!(status.success(), "cubed test-program failed: {status}");
        println!(
            "cubed test-program --size 2 --cubes 10000 ({label}): {:.0} ms whole process",
            start.elapsed().as_secs_f64() * 1000.0
        );
    }
    Ok(())
}

/// Mean program time of 2x2 solutions on a design: robot-aware against naive.
fn plan_row(
    solver: &PocketSolver,
    path: &std::path::Path,
    cubes: usize,
    seed: u64,
) -> anyhow::Result<()> {
    use cubed::robot::pocket_plan::PocketAwareOptions;
    use cubed::robot::pocket_plan::{check_holds_a_2x2, pocket_naive, solve_pocket_for_robot};
    let planner = cubed::robot::Planner::new(cubed::robot::load_robot(path)?);
    let design = planner.model().name.clone();
    if let Err(why) = check_holds_a_2x2(planner.model()) {
        println!("plan, {design}: not planned: {why}");
        return Ok(());
    }
    let start = planner.home();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut aware_ms, mut naive_ms, mut plan_ms) = (0u64, 0u64, Vec::new());
    let mut machine = MachineTally::default();
    for _ in 0..cubes {
        let facelets = random_pocket(&mut rng).to_facelets();
        let began = Instant::now();
        let aware = solve_pocket_for_robot(
            &planner,
            solver,
            &start,
            &facelets,
            &PocketAwareOptions::default(),
        )?;
        plan_ms.push(began.elapsed().as_secs_f64() * 1000.0);
        let naive = pocket_naive(&planner, solver, &start, &facelets, Metric::Htm)?;
        aware_ms += u64::from(aware.total_ms);
        naive_ms += u64::from(naive.total_ms);
        for plan in [&aware, &naive] {
            machine.replay(planner.model(), plan, &facelets);
        }
    }
    println!(
        "plan, {design}, {cubes} random cubes: robot-aware {:.2} s, naive {:.2} s per cube (ratio {:.3}); choosing took median {:.1} ms",
        aware_ms as f64 / cubes as f64 / 1000.0,
        naive_ms as f64 / cubes as f64 / 1000.0,
        aware_ms as f64 / naive_ms.max(1) as f64,
        median(&mut plan_ms)
    );
    machine.print(&design, cubes, seed);
    Ok(())
}

/// Robot-aware and naive 2x2 plans run on the simulator's own machine (`sim::rigid`).
#[derive(Default)]
struct MachineTally {
    plans: usize,
    solved: usize,
    refused: Vec<String>,
    machine_ms: u64,
    planned_ms: u64,
    replay_ms: Vec<f64>,
}

impl MachineTally {
    fn replay(
        &mut self,
        model: &cubed::robot::RobotModel,
        plan: &cubed::robot::Plan,
        facelets: &cubed::pocket::PocketFacelets,
    ) {
        use cubed_bench::sim::machine_replay::{describe, run_on_machine};
        self.plans += 1;
        let began = Instant::now();
        let run = run_on_machine(model, &plan.program, &facelets.to_3x3());
        self.replay_ms.push(began.elapsed().as_secs_f64() * 1000.0);
        match run {
            Ok(run) => {
                let end = cubed::pocket::PocketFacelets::from_3x3(&run.robot_frame);
                self.solved += usize::from(end.is_solved());
                self.machine_ms += run.ms;
                self.planned_ms += u64::from(plan.total_ms);
            }
            Err(e) => self.refused.push(format!("{facelets}: {}", describe(&e))),
        }
    }

    fn print(&mut self, design: &str, cubes: usize, seed: u64) {
        println!(
            "machine replay (sim::rigid, never the planner's rules), {design}, {cubes} random cubes (seed {seed}), robot-aware and naive: {}/{} plans end solved, {} refused a step; machine time / planned time {:.3}; replay median {:.2} ms",
            self.solved,
            self.plans,
            self.refused.len(),
            self.machine_ms as f64 / self.planned_ms.max(1) as f64,
            median(&mut self.replay_ms)
        );
        for r in self.refused.iter().take(5) {
            println!("    refused: {r}");
        }
    }
}
