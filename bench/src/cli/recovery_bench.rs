//! `cubed-bench recovery`: per design, random cubes solved on the simulator's own machine and
//! interrupted at a random step (an e-stop or a fault), then re-homed by the planner's
//! recovery plan with the positions known and with them lost, then rescanned (the machine's
//! true cube) and solved again: how many recover, how many end solved, and what it costs.

use super::design_sweep::DesignSweepArgs;
use anyhow::Context;
use clap::Args;
use cubed::cube::random::random_cube;
use cubed::robot::{load_robot, plan_recovery, solve_naive, Planner, Program, RecoveryInput};
use cubed::robot::{ActuatorMap, MotionGroup, RobotModel};
use cubed::sim::{MechanicalFault, PhysicsMechanics};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Args, Debug)]
pub struct RecoveryBenchArgs {
    #[command(flatten)]
    pub sweep: DesignSweepArgs,
}

/// Recoveries of one kind (positions known or lost) on one design.
#[derive(Default)]
struct Tally {
    recovered: usize,
    solved_after: usize,
    commands: usize,
    machine_ms: u64,
    plan_us: Vec<f64>,
    first_failure: Option<String>,
}

/// A command of a program the simulated machine could not carry out.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum CommandError {
    /// The machine faulted on command `number` (counted from 1).
    #[error("command {number}: {}", .fault.reason)]
    Faulted {
        number: usize,
        fault: MechanicalFault,
    },
}

/// Runs `groups` on the machine; the robot time, or why a command was impossible.
fn run_groups(machine: &mut PhysicsMechanics, groups: &[MotionGroup]) -> Result<u64, CommandError> {
    let mut ms = 0u64;
    for (i, group) in groups.iter().enumerate() {
        let took = match group {
            MotionGroup::Home { mask, .. } => machine.home(*mask),
            MotionGroup::Motion(motion) => machine.run(motion),
            MotionGroup::Dwell { ms, .. } => Ok(u32::from(*ms)),
        };
        let faulted = |fault| CommandError::Faulted {
            number: i + 1,
            fault,
        };
        ms += u64::from(took.map_err(faulted)?);
    }
    Ok(ms)
}

/// The machine after the first `cut` steps of `program`.
fn interrupted(
    model: &RobotModel,
    map: &ActuatorMap,
    cube: &cubed::cube::FaceletCube,
    program: &Program,
    cut: usize,
) -> anyhow::Result<PhysicsMechanics> {
    let mut machine = PhysicsMechanics::new(model.clone(), map.clone(), cube);
    let head = Program {
        steps: program.steps[..cut].to_vec(),
    };
    let encoded = map.encode_program(&head, &model.home(), 1)?;
    let groups: Vec<MotionGroup> = encoded.groups.iter().map(|(_, g)| *g).collect();
    run_groups(&mut machine, &groups).map_err(|e| anyhow::anyhow!("the planned program: {e}"))?;
    Ok(machine)
}

/// Recovers `machine` from `input`, then solves the cube it really holds and runs that.
fn recover_and_solve(
    machine: &mut PhysicsMechanics,
    input: &RecoveryInput,
    planner: &Planner,
    solver: &cubed::solver::Solver,
    tally: &mut Tally,
) -> anyhow::Result<()> {
    let began = Instant::now();
    let plan = plan_recovery(&machine.model, input)?;
    tally.plan_us.push(began.elapsed().as_secs_f64() * 1e6);
    let groups = plan.encode(&machine.map, 1)?;
    match run_groups(machine, &groups) {
        Ok(ms) => {
            tally.recovered += 1;
            tally.commands += groups.len();
            tally.machine_ms += ms;
        }
        Err(e) => {
            tally.first_failure.get_or_insert(format!("{input:?}: {e}"));
            return Ok(());
        }
    }
    let seen = machine.cube_frame();
    let cubies = cubed::cube::CubieCube::from_facelets(&seen).context("the rescanned cube")?;
    let again = solve_naive(planner, solver, &planner.home(), &cubies)?;
    let mut fresh = PhysicsMechanics::new(machine.model.clone(), machine.map.clone(), &seen);
    let encoded = machine
        .map
        .encode_program(&again.program, &again.start, 1)?;
    let groups: Vec<MotionGroup> = encoded.groups.iter().map(|(_, g)| *g).collect();
    if run_groups(&mut fresh, &groups).is_ok() && fresh.cube_solved() {
        tally.solved_after += 1;
    }
    Ok(())
}

pub fn recovery_bench(args: RecoveryBenchArgs) -> anyhow::Result<ExitCode> {
    println!("{}", super::host::host_line());
    let solver = args.sweep.tables.solver();
    println!(
        "{} per design (seed {}), each program cut at a random step, then re-homed by the recovery plan, rescanned and solved again",
        cubed::words::count(args.sweep.cubes, "uniformly random cube", "uniformly random cubes"), args.sweep.seed
    );
    println!(
        "{:<18} {:>9} {:>17} {:>17} {:>15} {:>17} {:>14}",
        "design",
        "positions",
        "recovered",
        "solved after",
        "commands mean",
        "robot ms mean",
        "plan µs median"
    );
    let mut clean = true;
    for robot in &args.sweep.robots {
        let model = load_robot(std::path::Path::new(robot))?;
        let map = ActuatorMap::new(&model)?;
        let planner = Planner::new(model.clone());
        let mut rng = ChaCha8Rng::seed_from_u64(args.sweep.seed);
        let (mut known, mut lost) = (Tally::default(), Tally::default());
        for i in 0..args.sweep.cubes {
            let cube = random_cube(&mut rng);
            let plan = solve_naive(&planner, &solver, &planner.home(), &cube)
                .with_context(|| format!("{}: cube {i}", robot.display()))?;
            let cut = rng.random_range(0..=plan.program.steps.len());
            let machine = interrupted(&model, &map, &cube.to_facelets(), &plan.program, cut)?;
            let reported = RecoveryInput::from_positions(&map, &model, &machine.positions());
            for (input, tally) in [
                (reported, &mut known),
                (RecoveryInput::all_lost(&model), &mut lost),
            ] {
                recover_and_solve(&mut machine.clone(), &input, &planner, &solver, tally)?;
            }
        }
        for (kind, tally) in [("known", &mut known), ("lost", &mut lost)] {
            tally.plan_us.sort_by(f64::total_cmp);
            let n = tally.recovered.max(1) as f64;
            println!(
                "{:<18} {:>9} {:>17} {:>17} {:>15.1} {:>17.0} {:>14.1}",
                model.name,
                kind,
                format!("{} / {}", tally.recovered, args.sweep.cubes),
                format!("{} / {}", tally.solved_after, args.sweep.cubes),
                tally.commands as f64 / n,
                tally.machine_ms as f64 / n,
                tally
                    .plan_us
                    .get(tally.plan_us.len() / 2)
                    .copied()
                    .unwrap_or(0.0)
            );
            if let Some(what) = &tally.first_failure {
                println!("  first failure ({kind}): {what}");
            }
            clean &= tally.recovered == args.sweep.cubes && tally.solved_after == args.sweep.cubes;
        }
    }
    Ok(if clean {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
