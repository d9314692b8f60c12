//! `cubed-bench trust`: planned programs of each design run on the simulator (the firmware
//! core on simulated motors driving the simulator's own machine, `sim::rigid`, not the
//! planner's rules): illegal steps, cubes left unsolved, planned against simulated time
//! (the firmware's ramps), and the planner's time per cube. 3x3s, or with `--size 2`
//! 2x2s (riding in the machine's 3x3's corners, `PocketFacelets::to_3x3`).

use super::design_sweep::DesignSweepArgs;
use super::sized_cubes::SizedCubes;
use anyhow::Context;
use clap::Args;
use cubed::robot::{load_robot, Plan, Planner};
use cubed::robot::{ActuatorMap, MotionGroup};
use cubed::sim::inprocess::{run_program, InProcessError};
use cubed::sim::{PhysicsMechanics, SimFirmware};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Largest mean |planned − simulated| / planned a design may show.
const MAX_MEAN_DEVIATION: f64 = 0.03;

#[derive(Args, Debug)]
pub struct TrustBenchArgs {
    #[command(flatten)]
    pub sweep: DesignSweepArgs,
    /// Solver budget of robot-aware solving (the default plans), in ms.
    #[arg(long, default_value_t = 50, value_parser = cubed::command_line::counts::budget_ms)]
    pub budget_ms: u64,
    /// Cube size: 3, or 2 for the pocket cube (its optimal solutions, HTM; a design that
    /// turns faces by their centre caps cannot hold one and is said so, not run).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(2..=3))]
    pub size: u8,
}

/// One kind of plan (default or naive) of one design, run on the machine.
#[derive(Default)]
struct Tally {
    illegal: usize,
    unsolved: usize,
    planned_ms: u64,
    simulated_ms: u64,
    /// Per program run to the end, |planned − simulated| / planned.
    deviations: Vec<f64>,
    first_illegal: Option<String>,
}

/// What running one program on a fresh simulator showed.
enum Verdict {
    Solved { simulated_us: u64 },
    Unsolved,
    Illegal(String),
}

fn run_on_machine(
    model: &cubed::robot::RobotModel,
    map: &ActuatorMap,
    cube: &cubed::cube::FaceletCube,
    plan: &Plan,
    sized: &SizedCubes,
) -> anyhow::Result<Verdict> {
    let machine = PhysicsMechanics::new(model.clone(), map.clone(), cube);
    let mut firmware = SimFirmware::new(machine, 1.0, 0)?;
    let encoded = map.encode_program(&plan.program, &plan.start, 2)?;
    let groups: Vec<MotionGroup> = encoded.groups.iter().map(|(_, g)| *g).collect();
    match run_program(&mut firmware, map.configure(), map.home_mask(), &groups) {
        Ok(simulated_us) if sized.solved(&firmware.mechanics) => {
            Ok(Verdict::Solved { simulated_us })
        }
        Ok(_) => Ok(Verdict::Unsolved),
        Err(InProcessError::Fault(what)) => {
            let step = (firmware.stats.faults.last())
                .and_then(|f| f.move_id)
                .and_then(|id| encoded.groups.iter().find(|(_, g)| g.move_id() == id))
                .map(|(step, _)| *step);
            let actions: Vec<String> = step
                .and_then(|s| plan.program.steps.get(s))
                .map(|s| s.actions.iter().map(|a| a.describe(model)).collect())
                .unwrap_or_default();
            Ok(Verdict::Illegal(format!(
                "step {} ({}): {what}",
                step.map_or(0, |s| s + 1),
                actions.join(", ")
            )))
        }
        Err(e) => Err(e.into()),
    }
}

impl Tally {
    fn add(&mut self, plan: &Plan, verdict: Verdict) {
        match verdict {
            Verdict::Solved { simulated_us } => {
                let planned_us = u64::from(plan.total_ms) * 1000;
                self.planned_ms += u64::from(plan.total_ms);
                self.simulated_ms += simulated_us / 1000;
                let off = planned_us.abs_diff(simulated_us) as f64;
                self.deviations.push(off / planned_us.max(1) as f64);
            }
            Verdict::Unsolved => self.unsolved += 1,
            Verdict::Illegal(what) => {
                self.illegal += 1;
                self.first_illegal.get_or_insert(what);
            }
        }
    }

    /// Mean planned and simulated ms of the programs run to the end, of `cubes`.
    fn planned_and_simulated(&self, cubes: usize) -> String {
        let ran = (cubes - self.illegal - self.unsolved).max(1) as f64;
        format!(
            "{:.0} / {:.0}",
            self.planned_ms as f64 / ran,
            self.simulated_ms as f64 / ran
        )
    }

    /// Mean and largest |planned − simulated| / planned, per cent.
    fn deviation(&self) -> String {
        let n = self.deviations.len().max(1) as f64;
        let mean = 100.0 * self.deviations.iter().sum::<f64>() / n;
        let max = 100.0 * self.deviations.iter().copied().fold(0.0, f64::max);
        format!("{mean:.2} / {max:.2}")
    }
}

/// Plans random cubes on every design both ways and runs each program on the machine.
pub fn trust_bench(args: TrustBenchArgs) -> anyhow::Result<ExitCode> {
    println!("{}", super::host::host_line());
    let sized = SizedCubes::new(args.size, &args.sweep.tables);
    let (one, many) = sized.words();
    println!(
        "{} per design (seed {}); default = robot-aware ({} ms budget), naive = first solution, each turn alone",
        cubed::words::count(args.sweep.cubes, one, many), args.sweep.seed, args.budget_ms
    );
    println!("(times are means per cube; dev = |planned - simulated| as a share of the plan's time, mean / max over the cubes; a row is named by its design, and its file where the two differ)");
    println!(
        "{:<18} {:>12} {:>13} {:>9} {:>20} {:>20} {:>20} {:>20} {:>14}",
        "design",
        "illegal dflt",
        "illegal naive",
        "unsolved",
        "dflt planned/sim ms",
        "naive planned/sim ms",
        "dflt dev mean/max %",
        "naive dev mean/max %",
        "plan ms median"
    );
    let mut clean = true;
    for robot in &args.sweep.robots {
        clean &= trust_design(robot, &sized, &args)?;
    }
    Ok(if clean {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// One design's row: whether every program was legal, ended solved and took its time.
fn trust_design(
    robot: &std::path::Path,
    sized: &SizedCubes,
    args: &TrustBenchArgs,
) -> anyhow::Result<bool> {
    let model = load_robot(robot)?;
    // The design's own name, as the other benches print it (and its file where that
    // differs: two files may describe designs of one name).
    let stem = robot.file_stem().map(|s| s.to_string_lossy().into_owned());
    let row_name = match stem {
        Some(stem) if stem != model.name => format!("{} ({stem})", model.name),
        _ => model.name.clone(),
    };
    if let Some(why) = sized.refusal(&model) {
        println!("{row_name:<18} not run: {why}");
        return Ok(true);
    }
    let map = ActuatorMap::new(&model)?;
    let planner = Planner::new(model.clone());
    let start = planner.home();
    let budget = Duration::from_millis(args.budget_ms);
    let mut rng = ChaCha8Rng::seed_from_u64(args.sweep.seed);
    let (mut default, mut naive) = (Tally::default(), Tally::default());
    let mut plan_times = Vec::new();
    for i in 0..args.sweep.cubes {
        let trial = (sized.naive(&planner, &start, &mut rng))
            .with_context(|| format!("{}: cube {i}", robot.display()))?;
        let began = Instant::now();
        planner.plan(&start, &trial.naive.solution)?;
        plan_times.push(began.elapsed());
        let aware = (sized.aware(&planner, &start, &trial.cube, budget))
            .with_context(|| format!("{}: robot-aware plan, cube {i}", robot.display()))?;
        let on_machine = |plan| run_on_machine(&model, &map, &trial.cube, plan, sized);
        naive.add(&trial.naive, on_machine(&trial.naive)?);
        default.add(&aware, on_machine(&aware)?);
    }
    plan_times.sort();
    let median = plan_times[plan_times.len() / 2].as_secs_f64() * 1000.0;
    let n = args.sweep.cubes;
    println!(
        "{:<18} {:>12} {:>13} {:>9} {:>20} {:>20} {:>20} {:>20} {:>14.1}",
        row_name,
        default.illegal,
        naive.illegal,
        default.unsolved + naive.unsolved,
        default.planned_and_simulated(n),
        naive.planned_and_simulated(n),
        default.deviation(),
        naive.deviation(),
        median
    );
    let mut clean = true;
    for (kind, tally) in [("default", &default), ("naive", &naive)] {
        if let Some(what) = &tally.first_illegal {
            println!("  first illegal {kind} step: {what}");
        }
        let mean = tally.deviations.iter().sum::<f64>() / tally.deviations.len().max(1) as f64;
        if mean > MAX_MEAN_DEVIATION {
            println!(
                "  {kind}: mean |planned - simulated| is {:.2} % of the plan, above {:.0} %",
                100.0 * mean,
                100.0 * MAX_MEAN_DEVIATION
            );
        }
        clean &= tally.illegal == 0 && tally.unsolved == 0 && mean <= MAX_MEAN_DEVIATION;
    }
    Ok(clean)
}
