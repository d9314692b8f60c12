//! `cubed-bench link` (frames/s and move-ack latency over a pty) and `cubed-bench soak`
//! (many random cubes solved through the simulator with faults and an unplug each).

use anyhow::Context;
use clap::Args;
use cubed::command_line::tables::TableArgs;
use cubed::cube::random::random_cube;
use cubed::cube::FaceletCube;
use cubed::link::{open_serial, LinkEvent, LinkHandle, LinkSettings, SerialConnector, TokioClock};
use cubed::robot::{load_robot, Planner, Program, RobotModel};
use cubed::robot::{ActuatorMap, MotionGroup};
use cubed::sim::faults::FaultPlan;
use cubed::sim::spawn::RunningSim;
use cubed::sim::{PhysicsMechanics, SimFirmware};
use cubed_bench::sim::soak::run_soak;
use firmware_protocol::{encode, Decoder, Frame, Message, Seq, MAX_WIRE_LEN};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

#[derive(Args, Debug)]
pub struct LinkBenchArgs {
    /// Ping/Pong round trips.
    #[arg(long, default_value_t = 5000)]
    pub pings: usize,
    /// Commands sent one at a time for the move-ack latency.
    #[arg(long, default_value_t = 2000)]
    pub moves: usize,
    /// Commands streamed back to back for the throughput.
    #[arg(long, default_value_t = 5000)]
    pub streamed: usize,
    #[arg(long, default_value_os_t = cubed::command_line::designs::default_robot(), value_parser = cubed::command_line::designs::robot_design)]
    pub robot: PathBuf,
}

fn quantile(sorted: &[Duration], q: f64) -> f64 {
    let index = ((sorted.len().max(1) - 1) as f64 * q).round() as usize;
    sorted.get(index).map_or(0.0, |d| d.as_secs_f64() * 1e6)
}

fn print_latency(name: &str, mut samples: Vec<Duration>) {
    samples.sort();
    println!(
        "{name}: median {:.0} µs, p99 {:.0} µs, max {:.0} µs ({} samples)",
        quantile(&samples, 0.5),
        quantile(&samples, 0.99),
        quantile(&samples, 1.0),
        samples.len()
    );
}

/// Runs the three link measurements against an in-process simulator over a real pty.
pub fn link_bench(args: LinkBenchArgs) -> anyhow::Result<ExitCode> {
    let model = load_robot(&args.robot)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    runtime.block_on(async {
        println!(
            "pty, simulator at speed 0 (instant actions), robot {}",
            model.name
        );
        ping_bench(&model, args.pings).await?;
        move_bench(&model, args.moves, args.streamed).await
    })?;
    Ok(ExitCode::SUCCESS)
}

async fn start_sim(model: &RobotModel) -> anyhow::Result<RunningSim<PhysicsMechanics>> {
    let map = ActuatorMap::new(model)?;
    let mechanics = PhysicsMechanics::new(model.clone(), map, &FaceletCube::default());
    RunningSim::start(
        SimFirmware::new(mechanics, 0.0, 0)?,
        FaultPlan::default(),
        1,
    )
    .await
    .context("starting the simulator on a pty")
}

async fn ping_bench(model: &RobotModel, pings: usize) -> anyhow::Result<()> {
    let sim = start_sim(model).await?;
    let path = cubed::link::PathResolver::resolve(&sim.path);
    let mut port = open_serial(&path, 115_200)?;
    let (mut decoder, mut out, mut buf) = (Decoder::new(), [0u8; MAX_WIRE_LEN], [0u8; 512]);
    let mut samples = Vec::with_capacity(pings);
    let began = Instant::now();
    for nonce in 0..pings as u32 {
        let sent = Instant::now();
        let len = encode(
            &Frame::unsequenced(Seq(0), Message::Ping { nonce }),
            &mut out,
        )?;
        port.write_all(&out[..len]).await?;
        'wait: loop {
            let n = port.read(&mut buf).await?;
            anyhow::ensure!(n > 0, "the simulator hung up");
            for frame in decoder.feed(&buf[..n]).flatten() {
                if frame.message == (Message::Pong { nonce }) {
                    break 'wait;
                }
            }
        }
        samples.push(sent.elapsed());
    }
    let secs = began.elapsed().as_secs_f64();
    println!(
        "ping/pong: {pings} round trips in {secs:.2} s: {:.0} round trips/s = {:.0} frames/s",
        pings as f64 / secs,
        2.0 * pings as f64 / secs
    );
    print_latency("ping round trip", samples);
    drop(port);
    sim.stop().await?;
    Ok(())
}

async fn move_bench(model: &RobotModel, moves: usize, streamed: usize) -> anyhow::Result<()> {
    let sim = start_sim(model).await?;
    let map = ActuatorMap::new(model)?;
    let connector = Arc::new(SerialConnector::new(sim.path.clone(), 115_200));
    let mut link = LinkHandle::open(
        connector,
        cubed::robot::wiring::RobotSetup::for_design(model, &map)?,
        LinkSettings::default(),
        Arc::new(TokioClock::new()),
    )
    .await?;
    link.send(MotionGroup::Home {
        move_id: 1,
        mask: map.home_mask(),
    })?;
    wait_done(&mut link, 1).await?;
    let mut samples = Vec::with_capacity(moves);
    for move_id in 2..2 + moves as u32 {
        let sent = Instant::now();
        link.send(MotionGroup::Dwell { move_id, ms: 0 })?;
        wait_done(&mut link, move_id).await?;
        samples.push(sent.elapsed());
    }
    print_latency("move-ack latency (send → MoveDone, one at a time)", samples);
    let first = 2 + moves as u32;
    let began = Instant::now();
    for move_id in first..first + streamed as u32 {
        link.send(MotionGroup::Dwell { move_id, ms: 0 })?;
    }
    wait_done(&mut link, first + streamed as u32 - 1).await?;
    let secs = began.elapsed().as_secs_f64();
    println!(
        "streamed: {streamed} commands in {secs:.2} s: {:.0} commands/s (each: command, ack, MoveDone, ack, host ack = 5 frames → {:.0} frames/s)",
        streamed as f64 / secs,
        5.0 * streamed as f64 / secs
    );
    link.shutdown().await;
    sim.stop().await?;
    Ok(())
}

async fn wait_done(link: &mut LinkHandle, move_id: u32) -> anyhow::Result<()> {
    loop {
        match link.next_event().await {
            Some(LinkEvent::MoveDone { move_id: done, .. }) if done == move_id => return Ok(()),
            Some(LinkEvent::Stopped { error }) => anyhow::bail!("link stopped: {error:?}"),
            Some(_) => {}
            None => anyhow::bail!("link closed"),
        }
    }
}

#[derive(Args, Debug)]
pub struct SoakArgs {
    /// Random cubes to solve.
    #[arg(long, default_value_t = 1000, value_parser = cubed::command_line::counts::at_least_one)]
    pub cubes: usize,
    /// Faults on every solve (an unplug at a random command is always added).
    #[arg(long, default_value = "corrupt=0.01,drop=0.01,unplug-for=100ms")]
    pub faults: String,
    /// Solves running at once (each with its own simulator and pty).
    #[arg(long, default_value_t = 16, value_parser = cubed::command_line::counts::at_least_one)]
    pub parallel: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Solver budget per cube, ms.
    #[arg(long, default_value_t = 50, value_parser = cubed::command_line::counts::budget_ms)]
    pub budget_ms: u64,
    #[arg(long, default_value_os_t = cubed::command_line::designs::default_robot(), value_parser = cubed::command_line::designs::robot_design)]
    pub robot: PathBuf,
    #[command(flatten)]
    pub tables: TableArgs,
}

/// Solves `cubes` random cubes through simulators with faults; exits 1 unless all are
/// solved with nothing lost and nothing run twice.
pub fn soak(args: SoakArgs) -> anyhow::Result<ExitCode> {
    let model = load_robot(&args.robot)?;
    let faults = FaultPlan::parse(&args.faults)?;
    let began = Instant::now();
    let cases = solve_cases(&args, &model)?;
    println!(
        "solved and planned {} cubes in {:.1} s",
        cases.len(),
        began.elapsed().as_secs_f64()
    );
    let began = Instant::now();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    let (mut finished, mut reported) = (0, 0);
    let summary = runtime.block_on(run_soak(
        &model,
        cases,
        &faults,
        args.parallel,
        args.seed,
        |s| {
            finished += 1;
            for failure in &s.failures[reported..] {
                eprintln!("  failure: {failure}");
            }
            reported = s.failures.len();
            if finished % 100 == 0 {
                eprintln!(
                    "  {finished}/{} cubes, {} failures",
                    s.cubes,
                    s.failures.len()
                );
            }
        },
    ));
    println!(
        "streamed through simulators in {:.1} s ({} at a time)",
        began.elapsed().as_secs_f64(),
        args.parallel
    );
    println!("{}", serde_json::to_string_pretty(&summary)?);
    println!("{}", if summary.passed() { "PASS" } else { "FAIL" });
    Ok(if summary.passed() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

fn solve_cases(args: &SoakArgs, model: &RobotModel) -> anyhow::Result<Vec<(FaceletCube, Program)>> {
    let solver = args.tables.solver();
    let planner = Planner::new(model.clone());
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    (0..args.cubes)
        .map(|_| {
            let cube = random_cube(&mut rng);
            let solution = solver.solve(&cube, Duration::from_millis(args.budget_ms))?;
            let plan = planner.plan(&planner.home(), &solution)?;
            Ok((cube.to_facelets(), plan.program))
        })
        .collect()
}
