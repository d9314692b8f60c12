//! `cubed sim`: the simulated robot on a pseudo-terminal, controlled from stdin
//! (`b` = start button, `u` = unplug, `r` = reboot, `q` or end of piped input = quit) and by
//! signals. Backgrounded (`cubed sim … &`) it keeps serving: stdin at `/dev/null` is not read,
//! and a terminal is read only while the simulator is in its foreground.

mod pico;
mod session;

use super::design_choice::{choose_design, cube_edge};
use super::refuse;
use crate::robot::load_robot;
use crate::robot::ActuatorMap;
use crate::sim::faults::FaultPlan;
use crate::sim::pty::{
    point_symlink, remove_symlink_if_at, serve, Control, PathAnnouncer, ServeCounts, ServeOptions,
};
use crate::sim::report::SimReport;
use crate::sim::{PhysicsMechanics, SimFirmware};
use anyhow::Context;
use clap::{ArgGroup, Args};
use cubed_core::cube::{parse_cube, random::random_cube, FaceOrder, FaceletCube};
use cubed_core::error_chain::error_chain;
use nix::sys::signal::{signal, SigHandler, Signal};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use session::{
    announce, forward_signals, link_refusal, link_taken_over, output_refusal, read_commands,
};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use tokio::sync::mpsc;

#[derive(Args, Debug)]
#[command(group(ArgGroup::new("start").args(["cube", "random", "no_cube"])))]
#[command(group(ArgGroup::new("serving").args(["pty", "pico"]).required(true)))]
pub(crate) struct SimArgs {
    /// Serve on a pseudo-terminal (its path is printed as the first line, and again after each unplug).
    #[arg(long)]
    pub(crate) pty: bool,
    /// Serve the Pico firmware as built on an emulated RP2040 instead, on a pseudo-terminal
    /// as --pty does, with the robot's motors and sensors modelled from its pins (no cube).
    /// Runs from a clone of cubed: `bash firmware/build.sh pico`, then `npm ci` in
    /// firmware/boards/pico/emulator. Typed commands: b = start button, e = e-stop pressed or
    /// released, u = cable out or in, r = hang the firmware (its watchdog resets the chip),
    /// q = quit.
    #[arg(long, conflicts_with_all = ["cube", "random", "no_cube", "speed", "faults", "report"])]
    pub(crate) pico: bool,
    /// With --pico: the firmware ELF (default: the one `firmware/build.sh pico` builds in
    /// the clone's target folder, or $CARGO_TARGET_DIR's).
    #[arg(long, conflicts_with = "pty")]
    pub(crate) elf: Option<PathBuf>,
    /// With --pico: write the emulated pins' trace here (every output edge, servo pulse and
    /// input change, on the emulated clock; the format is in firmware/boards/pico/emulator/machine.mjs).
    /// Without it, nothing is traced.
    #[arg(long, conflicts_with = "pty")]
    pub(crate) trace: Option<PathBuf>,
    /// Robot design file, or a shipped design's name (four-arm, six-motor, turntable-flipper);
    /// default: the design the daemon's configuration names (`[robot] design`).
    #[arg(long, value_parser = crate::command_line::designs::robot_design)]
    pub(crate) robot: Option<PathBuf>,
    /// The configuration whose `[robot] design` to simulate when --robot is not given (default:
    /// the daemon's search: $CUBED_CONFIG, ./config/cubed.toml, ~/.config/cubed/, /etc/cubed/).
    #[arg(long)]
    pub(crate) config: Option<PathBuf>,
    /// The cube in the robot (54 symbols, URFDLB; with --size 2, a 2x2's 24); solved if
    /// neither this nor --random.
    #[arg(long)]
    pub(crate) cube: Option<String>,
    /// Cube size: 3, or 2 for the pocket cube (held as a 3x3's corners: its 24 stickers in
    /// --cube, --random and the report) [default: the configuration's `[run] cube_size` when
    /// the design is the configuration's, else 3].
    #[arg(long, value_parser = clap::value_parser!(u8).range(2..=3))]
    pub(crate) size: Option<u8>,
    /// A uniformly random cube from this seed.
    #[arg(long)]
    pub(crate) random: Option<u64>,
    /// No cube in the robot: every motor moves freely within its range, as on a bench with
    /// the cube taken out (to try actuators one at a time with `cubed exec --actions`). The
    /// report's `cube` and `robot_frame` are null.
    #[arg(long)]
    pub(crate) no_cube: bool,
    /// Firmware time against the wall clock: 1 = real time, 10 = ten times faster, 0 = as fast as the host acknowledges.
    #[arg(long, default_value_t = 1.0, value_parser = crate::command_line::overrides::sim_speed)]
    pub(crate) speed: f64,
    /// Faults to inject, comma-separated: corrupt=P and drop=P (each byte, both directions, with
    /// probability P); unplug-every=DURATION (500ms, 2s) and unplug-at-move=N (the pty hangs up),
    /// unplug-for=DURATION (how long, default 100ms); reboot-at=N; estop-at-move=N (the e-stop
    /// button is pressed, 0 at power-on) and estop-for=DURATION (how long it stays pressed,
    /// default 1s). unplug-at-move, reboot-at and estop-at-move come once the N-th command has
    /// started (they may cut it short). E.g. corrupt=0.01,unplug-at-move=10. Where a simulated
    /// camera watches the robot (cubed dry-run --faults, cubed run's `[sim] faults`, not here):
    /// slip-at-turn=N (the N-th face turn slips) and hand-at-turn=N (a person's hand is in the
    /// six photos after the N-th face turn).
    #[arg(long, default_value = "")]
    pub(crate) faults: String,
    /// Seed of the fault injection (with --pico: of where the motors stand at power-on).
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// Keep this symlink pointing at the current pty (like /dev/serial/by-id; give it to `cubed exec --port`).
    #[arg(long)]
    pub(crate) link: Option<PathBuf>,
    /// Write the JSON report here on exit: `cube` (the cube in its own frame, 54 URFDLB
    /// letters, each sticker named by where its colour's centre was when the cube was put in),
    /// `robot_frame` (its stickers as the robot holds it, by robot-frame position), `solved`,
    /// `moves_executed` (commands the firmware started, the last perhaps cut short),
    /// `duplicates_rejected`, `move_ids_run_twice`, `reboots`, `unplugs`, `bytes_corrupted`,
    /// `bytes_dropped` and `faults` (each with `at_ms`, `move_id`, `fault`, `reason`; an
    /// emergency stop is no fault).
    #[arg(long)]
    pub(crate) report: Option<PathBuf>,
}

fn starting_cube(args: &SimArgs) -> Result<FaceletCube, String> {
    if args.size == Some(2) {
        return starting_pocket(args);
    }
    if let Some(text) = &args.cube {
        return parse_cube(text, FaceOrder::Urfdlb, None)
            .map(|(f, _, _)| f)
            .map_err(|e| error_chain(&e));
    }
    Ok(match args.random {
        Some(seed) => random_cube(&mut ChaCha8Rng::seed_from_u64(seed)).to_facelets(),
        None => FaceletCube::default(),
    })
}

/// A 2x2 as the 3x3 whose corners it is.
fn starting_pocket(args: &SimArgs) -> Result<FaceletCube, String> {
    use cubed_core::pocket::{parse_pocket, random_pocket, PocketFacelets, PocketFormat};
    let facelets = match (&args.cube, args.random) {
        (Some(text), _) => {
            let format = PocketFormat::Facelets(FaceOrder::Urfdlb);
            parse_pocket(text, format, None)
                .map(|(facelets, _, _)| facelets)
                .map_err(|e| format!("not a 2x2: {}", error_chain(&e)))?
        }
        (None, Some(seed)) => random_pocket(&mut ChaCha8Rng::seed_from_u64(seed)).to_facelets(),
        (None, None) => PocketFacelets::default(),
    };
    Ok(facelets.to_3x3())
}

/// Runs the simulator until piped stdin ends, `q`, SIGINT or SIGTERM.
pub(crate) fn sim(mut args: SimArgs) -> anyhow::Result<ExitCode> {
    // In the background of a terminal, a read or a terminal setting must not stop the process
    // (SIGTTIN/SIGTTOU): ignored, the read fails instead and is tried again in the foreground.
    // Nor may a reader of its output gone away (`| head -1`, a test that read the first pty)
    // stop it before the robot's unplug is over and its report written (SIGPIPE): the write
    // fails instead, and the pty it announces is still linked.
    // SAFETY: setting a signal's disposition to "ignore" before any thread starts.
    unsafe {
        let _ = signal(Signal::SIGTTIN, SigHandler::SigIgn);
        let _ = signal(Signal::SIGTTOU, SigHandler::SigIgn);
        let _ = signal(Signal::SIGPIPE, SigHandler::SigIgn);
    }
    let design = match choose_design(args.robot.as_deref(), args.config.as_deref()) {
        Ok(chosen) => {
            args.size = Some(cube_edge(args.size, chosen.cube_size));
            chosen.design
        }
        Err(e) => return super::refuse_error(&e),
    };
    if args.pico {
        let serving = pico::PicoServing {
            elf: args.elf,
            trace: args.trace,
            link: args.link,
            seed: args.seed,
        };
        return pico::serve(serving, &design);
    }
    let model = match load_robot(&design) {
        Ok(model) => model,
        Err(e) => return super::refuse_error(&e),
    };
    if args.size == Some(2) {
        if let Err(e) = crate::robot::pocket_plan::check_holds_a_2x2(&model) {
            return super::refuse_error(&e);
        }
    }
    let (cube, faults) = match (starting_cube(&args), FaultPlan::parse(&args.faults)) {
        (Ok(cube), Ok(faults)) => (cube, faults),
        (Err(e), _) => return refuse(e),
        (_, Err(e)) => return super::refuse_error(&e),
    };
    if let Some(watched) = faults.needing_a_camera().first() {
        return refuse(format!("--faults {watched}: face turns that slip and hands in the photos are simulated where a simulated camera watches the robot (cubed dry-run, or cubed run with port = \"sim\"); cubed sim serves the robot alone"));
    }
    if let Some(warning) = args.link.as_deref().and_then(link_taken_over) {
        eprintln!("{warning}");
    }
    if let Some(refused) = args.link.as_deref().and_then(link_refusal) {
        return refuse(refused);
    }
    if let Some(refused) = args
        .report
        .as_deref()
        .and_then(|r| output_refusal("--report", r))
    {
        return refuse(refused);
    }
    let map = ActuatorMap::new(&model)?;
    let held = match (args.no_cube, args.size) {
        (true, _) => "no cube in it".to_string(),
        (false, Some(2)) => format!(
            "2x2 {}",
            cubed_core::pocket::PocketFacelets::from_3x3(&cube)
        ),
        (false, _) => format!(
            "cube {}",
            cube.to_symbols(&cubed_core::cube::ColourScheme::default())
        ),
    };
    eprintln!("cubed sim: robot {}, {held}", model.name);
    let mechanics = match args.no_cube {
        true => PhysicsMechanics::empty(model, map),
        false => PhysicsMechanics::new(model, map, &cube),
    };
    let firmware = SimFirmware::new(mechanics, args.speed, 0)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let counts = Arc::new(ServeCounts::default());
    let current_pty = Arc::new(std::sync::Mutex::new(None));
    let served = runtime.block_on(async {
        let (controls, control_rx) = mpsc::unbounded_channel();
        let help = "b = button, u = unplug, r = reboot, q = quit";
        read_commands(controls.clone(), parse_control, help, Control::Shutdown);
        forward_signals(controls, Control::Shutdown);
        let options = ServeOptions {
            faults: faults.clone(),
            counts: Arc::clone(&counts),
            seed: args.seed,
            on_path: announcer(args.link.clone(), Arc::clone(&current_pty)),
            on_fault: Some(Box::new(|fault| {
                eprintln!("cubed sim: {}: {}", fault.fault, fault.reason)
            })),
        };
        serve(firmware, options, control_rx).await
    })?;
    // The pty is gone with the simulator: so is the link to it, as when a device is unplugged.
    let last_pty = current_pty.lock().ok().and_then(|pty| pty.clone());
    if let (Some(link), Some(pty)) = (&args.link, last_pty) {
        remove_symlink_if_at(link, &pty);
    }
    let executed = served.firmware.stats.moves_executed;
    let never = counts.not_reached(&faults, None);
    if !never.is_empty() {
        eprintln!(
            "cubed sim: {} never came: the firmware executed {executed} commands",
            never.join(", ")
        );
    }
    let report = match args.size {
        Some(2) => SimReport::of_served_pocket(&served),
        _ => SimReport::of_served(&served),
    };
    if let Some(path) = &args.report {
        std::fs::write(path, serde_json::to_string_pretty(&report)? + "\n")
            .with_context(|| format!("writing the report {}", path.display()))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Says each new pty and keeps `link` at it; `current` holds the pty now served.
fn announcer(
    link: Option<PathBuf>,
    current: Arc<std::sync::Mutex<Option<PathBuf>>>,
) -> PathAnnouncer {
    Box::new(move |path| {
        let was = current
            .lock()
            .ok()
            .and_then(|mut pty| std::mem::replace(&mut *pty, path.map(Path::to_path_buf)));
        let Some(path) = path else {
            // Unplugged: like udev, remove the by-id style link until the device is back.
            if let (Some(link), Some(was)) = (&link, was) {
                remove_symlink_if_at(link, &was);
            }
            return;
        };
        announce(path);
        if let Some(link) = &link {
            if let Err(e) = point_symlink(link, path) {
                eprintln!(
                    "cubed sim: cannot point {} at {}: {e}",
                    link.display(),
                    path.display()
                );
            }
        }
    })
}

fn parse_control(typed: &str) -> Option<Control> {
    match typed {
        "b" => Some(Control::Button),
        "u" => Some(Control::Unplug),
        "r" => Some(Control::Reboot),
        _ => None,
    }
}
