//! `cubed-bench handshake`: how often the link's handshake (Hello, then Configure) succeeds over a real pty while the simulator corrupts bytes in both directions, at several noise levels; with the time it took and, for failures, the stage that failed.

use anyhow::Context;
use clap::Args;
use cubed::cube::FaceletCube;
use cubed::error_chain::error_chain;
use cubed::link::{LinkHandle, LinkSettings, SerialConnector, TokioClock};
use cubed::robot::{load_robot, ActuatorMap, RobotModel};
use cubed::sim::faults::FaultPlan;
use cubed::sim::spawn::RunningSim;
use cubed::sim::{PhysicsMechanics, SimFirmware};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

#[derive(Args, Debug)]
pub struct HandshakeBenchArgs {
    /// Probability that each byte is corrupted (both directions), comma separated.
    #[arg(long, value_delimiter = ',', default_value = "0.01,0.02,0.03")]
    pub noise: Vec<f64>,
    /// Handshakes per noise level (each with a fresh simulator on a fresh pty).
    #[arg(long, default_value_t = 100, value_parser = cubed::command_line::counts::at_least_one)]
    pub tries: usize,
    #[arg(long, default_value_os_t = cubed::command_line::designs::default_robot(), value_parser = cubed::command_line::designs::robot_design)]
    pub robot: PathBuf,
}

/// What the handshakes at one noise level did.
#[derive(Default)]
struct Tally {
    times: Vec<Duration>,
    failures: BTreeMap<String, usize>,
}

/// Runs the handshakes and prints one line per noise level; exits 1 if any failed.
pub fn handshake_bench(args: HandshakeBenchArgs) -> anyhow::Result<ExitCode> {
    let model = load_robot(&args.robot)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    println!(
        "{}; pty, simulator at speed 0, robot {}, {} handshakes per level",
        super::host::host_line(),
        model.name,
        args.tries
    );
    let mut all_passed = true;
    for &noise in &args.noise {
        let tally = runtime.block_on(tally_at(&model, noise, args.tries))?;
        all_passed &= tally.failures.is_empty();
        print_tally(noise, args.tries, tally);
    }
    Ok(if all_passed {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

async fn tally_at(model: &RobotModel, noise: f64, tries: usize) -> anyhow::Result<Tally> {
    let faults = FaultPlan::parse(&format!("corrupt={noise}"))?;
    let map = ActuatorMap::new(model)?;
    let mut tally = Tally::default();
    for attempt in 0..tries {
        let mechanics = PhysicsMechanics::new(model.clone(), map.clone(), &FaceletCube::default());
        let firmware = SimFirmware::new(mechanics, 0.0, 0)?;
        let sim = RunningSim::start(firmware, faults.clone(), attempt as u64 + 1)
            .await
            .context("starting the simulator on a pty")?;
        let connector = Arc::new(SerialConnector::new(sim.path.clone(), 115_200));
        let began = Instant::now();
        let opened = LinkHandle::open(
            connector,
            cubed::robot::wiring::RobotSetup::for_design(model, &map)?,
            LinkSettings::default(),
            Arc::new(TokioClock::new()),
        )
        .await;
        match opened {
            Ok(link) => {
                tally.times.push(began.elapsed());
                link.shutdown().await;
            }
            Err(e) => *tally.failures.entry(error_chain(&e)).or_default() += 1,
        }
        sim.stop().await?;
    }
    Ok(tally)
}

fn print_tally(noise: f64, tries: usize, mut tally: Tally) {
    tally.times.sort();
    let ms = |q: f64| {
        let i = ((tally.times.len().max(1) - 1) as f64 * q).round() as usize;
        tally.times.get(i).map_or(0.0, |d| d.as_secs_f64() * 1000.0)
    };
    let ok = tally.times.len();
    println!(
        "noise {:.1} %: {ok}/{tries} handshakes ({:.1} %), time median {:.0} ms, p99 {:.0} ms, max {:.0} ms",
        noise * 100.0,
        100.0 * ok as f64 / tries as f64,
        ms(0.5),
        ms(0.99),
        ms(1.0)
    );
    for (why, n) in tally.failures {
        println!("  {n} failed: {why}");
    }
}
