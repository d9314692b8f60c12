//! `cubed exec`: plan a program and stream it to a real or simulated robot with a progress
//! bar; exits 0 only when every command is acknowledged done.

use super::plan_cmds::{face_turns, plan_cube, RobotJob};
use super::refuse;
use crate::link::{
    stream_program, FixedPath, LinkHandle, LinkSettings, SerialConnector, TokioClock,
};
use crate::robot::wiring::refusal_placed_in;
use crate::robot::{plan_recovery, ActuatorMap, MotionGroup, RecoveryInput};
use crate::robot::{Planner, Program, RobotModel};
use crate::words::count;
use anyhow::Context;
use clap::{ArgGroup, Args};
use cubed_core::cube::{format_moves, Move};
use cubed_core::error_chain::error_chain;
use firmware_protocol::message::{Fault, FaultFlags};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Arc;
use std::time::Duration;

mod news;
mod program_file;
mod signals;

use news::{link_news, wait_for_port, PORT_APPEAR_SECS};
use signals::{estop_on_interrupt, Interrupts};

#[derive(Args, Debug)]
#[command(group(ArgGroup::new("input").required(true).args(["moves", "facelets", "program", "actions"])))]
pub(crate) struct ExecArgs {
    /// Serial port (e.g. /dev/serial/by-id/…, or the pty / --link symlink of `cubed sim`).
    #[arg(long)]
    pub(crate) port: PathBuf,
    /// Baud rate.
    #[arg(long, default_value_t = 115_200, value_parser = crate::command_line::overrides::baud)]
    pub(crate) baud: u32,
    #[command(flatten)]
    pub(crate) job: RobotJob,
    /// A program document (JSON, as printed by `cubed plan --format json`).
    #[arg(long)]
    pub(crate) program: Option<PathBuf>,
    /// Move single actuators, as `cubed plan` prints steps: "open left; turn left +1, turn
    /// right -1" (`;` between steps, `,` between actions done together). For first power-up:
    /// the robot is homed, then does exactly these, unchecked against a cube (take it out),
    /// and each actuator's position is printed after.
    #[arg(long)]
    pub(crate) actions: Option<String>,
    /// Seconds to keep trying to reopen a lost port.
    #[arg(long, default_value_t = 30)]
    pub(crate) reconnect_secs: u64,
    /// First clear an emergency stop or fault the robot holds latched from before (an
    /// interrupted program, the e-stop button): check the robot first, it moves at once.
    #[arg(long)]
    pub(crate) reset: bool,
    #[command(flatten)]
    pub(crate) size: super::cube_args::SizeArgs,
}

/// A program to stream, and how it leaves the cube held (the face up, then the face to
/// the front), when that is known.
struct Streamed {
    program: Program,
    ends_held: Option<String>,
    /// Actions moved by hand: say where every actuator ends.
    by_hand: bool,
    /// What was planned, for a cube or moves planned here (`cubed plan`'s summary: the
    /// solution and the planned time), said before streaming.
    planned: Option<String>,
}

fn program_for(
    args: &ExecArgs,
    planner: &Planner,
    design: &Path,
) -> anyhow::Result<Result<Streamed, String>> {
    if args.size.is_pocket() {
        if let Err(e) = crate::robot::pocket_plan::check_holds_a_2x2(planner.model()) {
            return Ok(Err(error_chain(&e)));
        }
    }
    if let Some(path) = &args.program {
        return Ok(program_file::read(args, planner, design, path));
    }
    if let Some(text) = &args.actions {
        return Ok(by_hand(args, planner, text));
    }
    let start = match super::plan_cmds::start_state(planner, &args.job.start) {
        Ok(start) => start,
        Err(e) => return Ok(Err(e)),
    };
    let plan = match (&args.job.moves, &args.job.facelets) {
        (None, Some(text)) if args.size.is_pocket() => {
            let naive = false;
            match super::plan_cmds::pocket_plan(
                &args.job,
                &args.size,
                naive,
                (planner, &start),
                text,
            )? {
                Ok(plan) => plan,
                Err(e) => return Ok(Err(e)),
            }
        }
        (Some(moves), _) => match face_turns(moves, args.job.notation.into()) {
            Ok(turns) => planner.plan(&start, &turns)?,
            Err(e) => return Ok(Err(e)),
        },
        (None, Some(text)) => match plan_cube(&args.job, planner, &start, text, false)? {
            Ok(plan) => plan,
            Err(e) => return Ok(Err(e)),
        },
        (None, None) => return Ok(Err("give --moves, --facelets or --program".into())),
    };
    let moves: Vec<Move> = plan.solution.iter().map(|&t| Move::Turn(t)).collect();
    let planned = format!(
        "cubed exec: planned {:.2} s on robot '{}': {}, {}; solution {}",
        plan.total_ms as f64 / 1000.0,
        planner.model().name,
        count(plan.face_turns, "face turn", "face turns"),
        count(plan.cube_rotations, "cube rotation", "cube rotations"),
        format_moves(&moves, args.job.notation.into())?
    );
    Ok(Ok(Streamed {
        program: plan.program,
        ends_held: Some(plan.end.orientation.holding()),
        by_hand: false,
        planned: Some(planned),
    }))
}

/// Refuses a `--start` other than the default where the input leaves no holding to choose
/// (`why` says so).
fn no_start_given(args: &ExecArgs, why: &str) -> Result<(), String> {
    match args.job.start == super::plan_cmds::HOME_HOLDING {
        true => Ok(()),
        false => Err(format!("--start {}: {why}", args.job.start)),
    }
}

/// `--actions`: the written actions, from home; no cube is assumed, so none is checked.
fn by_hand(args: &ExecArgs, planner: &Planner, text: &str) -> Result<Streamed, String> {
    no_start_given(
        args,
        "--actions move the actuators as written, whatever holds the cube",
    )?;
    let program = crate::robot::action_words::parse_actions(planner.model(), text)
        .map_err(|e| format!("--actions: {e}"))?;
    Ok(Streamed {
        program,
        ends_held: None,
        by_hand: true,
        planned: None,
    })
}

/// The commands, and what each does in words where it is said (the homing once, at its last
/// command): first the robot is homed in the recovery
/// plan's order for a robot whose positions are unknown with a cube in it (jaws first, then
/// each gripper while a support set holds the cube), as a previous program may have left
/// grippers closed and turned; then the program, planned from home.
fn homed_then(
    map: &ActuatorMap,
    model: &RobotModel,
    program: &Program,
) -> anyhow::Result<(Vec<MotionGroup>, Vec<Option<String>>)> {
    let homing = plan_recovery(model, &RecoveryInput::all_lost(model))?;
    let mut groups = homing.encode(map, 1)?;
    let mut words = vec![None; groups.len()];
    if let Some(last) = words.last_mut() {
        *last = Some("homing".to_string());
    }
    let first_move_id = 1 + groups.len() as u32;
    let encoded = map.encode_program(program, &model.home(), first_move_id)?;
    for (step, group) in encoded.groups {
        let actions = program
            .steps
            .get(step)
            .map(|s| &s.actions[..])
            .unwrap_or(&[]);
        let said: Vec<String> = actions.iter().map(|a| a.describe(model)).collect();
        words.push(Some(said.join(" and ")));
        groups.push(group);
    }
    Ok((groups, words))
}

/// Said after an interruption stopped the program.
const INTERRUPTED: &str = "interrupted: an emergency stop was sent and the motors halted at once";

/// Said after an interruption the firmware did not confirm (the link was lost, or ended).
const INTERRUPTED_UNCONFIRMED: &str = "interrupted, but the robot never confirmed the emergency stop (the link was lost): it may still run the commands it had queued; press the robot's e-stop button or cut its power";

/// Said after an emergency stop this program did not send.
const BUTTON: &str = "the robot's e-stop input stopped it: its button was pressed (or a normally-closed switch's wire came loose)";

/// Said after the firmware latched a fault or an emergency stop.
const LATCHED: &str = "the firmware keeps it latched: check the robot, then give the next program --reset (or power-cycle the board)";

/// Plans, connects, streams, and reports.
pub(crate) fn exec(mut args: ExecArgs) -> anyhow::Result<ExitCode> {
    let (planner, design) = match args.job.planner(&mut args.size) {
        Ok(chosen) => chosen,
        Err(refused) => return refused,
    };
    if let Some(refused) = args.size.refuse_on_3x3() {
        return refused;
    }
    if args.job.robot.is_none() {
        let whence = match cubed_files::named_file::is_built_in(&design) {
            true => "no configuration file was found, so the built-in design: give your robot's with --robot my-robot.toml",
            false => "as the configuration names it; --robot to choose another",
        };
        eprintln!(
            "cubed exec: robot '{}' ({}, {whence})",
            planner.model().name,
            design.display()
        );
    }
    let streamed = match program_for(&args, &planner, &design)? {
        Ok(streamed) => streamed,
        Err(e) => return refuse(e),
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(stream(&args, &design, planner.model(), &streamed))
}

async fn stream(
    args: &ExecArgs,
    design: &std::path::Path,
    model: &RobotModel,
    streamed: &Streamed,
) -> anyhow::Result<ExitCode> {
    let map = ActuatorMap::new(model)?;
    let (groups, words) = homed_then(&map, model, &streamed.program)?;
    wait_for_port(&args.port, Duration::from_secs(PORT_APPEAR_SECS)).await;
    let connector = Arc::new(SerialConnector::new(
        FixedPath(args.port.clone()),
        args.baud,
    ));
    let settings = LinkSettings {
        reconnect_timeout: Duration::from_secs(args.reconnect_secs),
        actuator_names: crate::link::fault_words::actuator_names(&map, model),
        clear_latched: args.reset,
        ..LinkSettings::default()
    };
    let opened = LinkHandle::open(
        connector,
        crate::robot::wiring::RobotSetup::for_design(model, &map)?,
        settings,
        Arc::new(TokioClock::new()),
    )
    .await;
    let mut link = match opened {
        Ok(link) => link,
        Err(e) => match e.failure() {
            // The firmware cannot drive this design: a configuration error, not a runtime one.
            crate::link::LinkError::ConfigureRefused { refusal, .. } => {
                let text = std::fs::read_to_string(design).unwrap_or_default();
                let place = refusal_placed_in(&text, model, &map, refusal);
                let at = place.map_or(String::new(), |p| {
                    format!(" (the design writes it at {}: {p})", design.display())
                });
                let cleared = match &e {
                    crate::link::LinkError::AfterClear { cleared, .. } => {
                        format!("; {}", crate::link::fault_words::cleared_in_words(*cleared))
                    }
                    _ => String::new(),
                };
                return super::refuse(format!("{}{at}{cleared}", error_chain(e.failure())));
            }
            _ => return Err(e.into()),
        },
    };
    if let Some(words) = crate::link::RestartCause::abnormal(link.connected.boot_cause) {
        eprintln!("cubed exec: the robot's firmware had just restarted{words}");
    }
    // Latched before this program (the button pressed at power-on, say): nothing will run.
    if !args.reset && link.connected.latched.any(FaultFlags::ESTOP) {
        link.shutdown().await;
        eprintln!(
            "error: the robot's emergency stop was latched before this program (its e-stop button pressed, perhaps at power-on, or no switch fitted to an input the design's [board] names as `estop`); nothing was sent"
        );
        eprintln!("{LATCHED}");
        return Ok(ExitCode::FAILURE);
    }
    if args.reset {
        match crate::link::fault_words::latched_in_words(link.connected.latched) {
            Some(what) => eprintln!("cubed exec: cleared {what}, latched from before"),
            None => eprintln!("cubed exec: nothing was latched to clear"),
        }
    }
    if let Some(planned) = &streamed.planned {
        eprintln!("{planned}");
    }
    let signals = Interrupts::catch().context("watching for Ctrl-C")?;
    eprintln!(
        "cubed exec: streaming {} to {} (Ctrl-C sends an emergency stop)",
        crate::words::count(groups.len(), "command", "commands"),
        args.port.display()
    );
    let bar = ProgressBar::new(groups.len() as u64);
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:40} {pos}/{len} commands  {elapsed_precise} ETA {eta}  {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let interrupted = Arc::new(AtomicU8::new(0));
    let watcher = tokio::spawn(estop_on_interrupt(
        signals,
        link.estop_handle(),
        interrupted.clone(),
    ));
    let mut logged_tenths = 0;
    let mut said_done = 0;
    let outcome = stream_program(&mut link, &groups, |done, _, event| {
        bar.set_position(done as u64);
        if streamed.by_hand {
            // Actions moved by hand: each said as it is done (homing's commands once).
            for said in words[said_done.min(done)..done.min(words.len())]
                .iter()
                .flatten()
            {
                let line = format!(
                    "cubed exec: done: {said} (at {:.1} s)",
                    bar.elapsed().as_secs_f64()
                );
                match bar.is_hidden() {
                    true => eprintln!("{line}"),
                    false => bar.println(line),
                }
            }
            said_done = said_done.max(done);
        }
        if bar.is_hidden() && !streamed.by_hand {
            // No bar to watch (output to a log): a line at each tenth of the program.
            let tenths = done * 10 / groups.len().max(1);
            if tenths > logged_tenths {
                logged_tenths = tenths;
                eprintln!(
                    "cubed exec: {done} of {} commands done ({} s)",
                    groups.len(),
                    bar.elapsed().as_secs()
                );
            }
        }
        if let Some(news) = link_news(event) {
            // A hidden bar (output not a terminal: a log) would swallow its printed lines.
            match bar.is_hidden() {
                true => eprintln!("cubed exec: {news}"),
                false => bar.println(news),
            }
        }
    })
    .await;
    let progress = (bar.position(), groups.len());
    bar.finish_and_clear();
    watcher.abort();
    if streamed.by_hand && outcome.is_ok() {
        super::actuator_positions::say_positions(&link, &map, model).await;
    }
    let firmware = crate::link::firmware_name(&link.connected.hello);
    let simulated = crate::robot::wiring::is_simulator(&firmware);
    link.shutdown().await;
    let latched = matches!(
        outcome,
        Err(crate::link::StreamError::Fault { .. } | crate::link::StreamError::EStopped { .. })
    );
    let estopped = matches!(outcome, Err(crate::link::StreamError::EStopped { .. }));
    let code = report(outcome, progress, (&map, model), simulated);
    if code.as_ref().is_ok_and(|c| *c == ExitCode::SUCCESS) {
        if let Some(words) = super::plan_cmds::held_words(streamed.ends_held.as_deref()) {
            println!("{words}");
        }
    }
    let signal_code = interrupted.load(Ordering::SeqCst);
    if signal_code != 0 {
        let said = if latched {
            INTERRUPTED
        } else {
            INTERRUPTED_UNCONFIRMED
        };
        eprintln!("{said}");
    }
    if estopped && signal_code == 0 {
        // Not this program's Ctrl-C: the robot's own e-stop input.
        eprintln!("{BUTTON}");
    }
    if latched {
        eprintln!("{LATCHED}");
    }
    match signal_code {
        0 => code,
        signalled => Ok(ExitCode::from(signalled)),
    }
}

/// Prints how the program ended; exit 0 only if every command was done. A simulator
/// (`simulated`) knows why an actuator stopped, and says so on its own terminal.
fn report(
    outcome: Result<crate::link::StreamOutcome, crate::link::StreamError>,
    (done, total): (u64, usize),
    (map, model): (&ActuatorMap, &RobotModel),
    simulated: bool,
) -> anyhow::Result<ExitCode> {
    match outcome {
        Ok(outcome) => {
            println!(
                "done: {} acknowledged ({}, {} restored)",
                crate::words::count(outcome.done, "command", "commands"),
                crate::words::count(outcome.links_lost, "link loss", "link losses"),
                outcome.links_restored
            );
            Ok(ExitCode::SUCCESS)
        }
        Err(crate::link::StreamError::Fault { fault, done, total }) => {
            let words = crate::link::fault_words::fault_in_words(&fault, map, model);
            eprintln!("error: after {done} of {total} commands, {words}");
            let moved = matches!(fault, Fault::Stall { .. } | Fault::Limit { .. });
            if simulated && moved {
                eprintln!("the simulator says what stopped it on its own terminal (its stderr)");
            }
            Ok(ExitCode::FAILURE)
        }
        Err(e @ crate::link::StreamError::Link(_)) => {
            eprintln!(
                "error: after {done} of {total} commands acknowledged, {}",
                error_chain(&e)
            );
            eprintln!("the robot may have stopped part way through a command: check the cube; the next exec homes the robot first");
            Ok(ExitCode::FAILURE)
        }
        Err(e) => {
            eprintln!("error: {}", error_chain(&e));
            Ok(ExitCode::FAILURE)
        }
    }
}
