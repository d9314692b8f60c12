//! Command-line interface: the clap definitions and one module per group of subcommands (the binary's edge, where anyhow lives).

use crate::web::client::ControlCommand;
use clap::{Parser, Subcommand};
use std::process::ExitCode;

pub(crate) use crate::command_line::{refuse, refuse_error, EXIT_INVALID};

mod actuator_positions;
pub(crate) mod argument_words;
mod calibrate_cmd;
pub(crate) mod config_cmds;
pub(crate) mod cube_args;
pub(crate) mod cube_cmds;
pub(crate) mod daemon_cmds;
pub(crate) mod design_choice;
pub(crate) mod dry_run_cmd;
pub(crate) mod exec_cmds;
pub(crate) mod history_cmd;
pub(crate) mod plan_cmds;
pub(crate) mod pocket_vision;
pub(crate) mod progress;
pub(crate) mod sim;
pub(crate) mod solve_cmds;
mod solve_steps;
pub(crate) mod tables_cmd;
pub(crate) mod test_program;
pub(crate) mod vision_cmds;
mod vision_folder;

/// Exit status of `cubed status` when the daemon waits for a person (e-stopped, faulted, a run
/// interrupted), so a script sees trouble without reading the text.
pub(crate) const EXIT_ATTENTION: u8 = 3;

/// Exit statuses of a command Ctrl-C (SIGINT) or SIGTERM ended, as a shell reports them.
pub(crate) const EXIT_SIGINT: u8 = 130;
pub(crate) const EXIT_SIGTERM: u8 = 143;

/// The exit statuses, as `--help` shows them.
pub(crate) const EXIT_STATUS_HELP: &str = "Exit status:
  0  done (every cube solved, the command did what it says)
  1  a runtime failure: the robot, the serial link, the camera, the disk, a daemon that does not answer
  2  usage or configuration: a wrong option, a bad config file (named with its section and key), an
     impossible cube or an unsure scan, or a request the daemon refused in its state (a run in
     progress, nothing to resume or reset); what is wrong is said on stderr
  3  `cubed status` only: the daemon needs a person (e-stopped, a run interrupted that waits for
     Resume or Reset, the last run failed, the robot cannot be reached or its e-stop button is
     still held, the run history cannot be written); what to do next is in the message and the `robot link:` line
  130, 143  `cubed exec` (after sending the robot an emergency stop) or `cubed dry-run` (after a
     summary of the cubes done) ended by Ctrl-C or SIGTERM
  141  `cubed dry-run` whose output was closed (`| head`), after removing its temporary directory";

/// The version, and whether this build drives a USB webcam.
const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (USB webcams: ",
    usb_camera_words!(),
    ")"
);

#[cfg(feature = "camera")]
macro_rules! usb_camera_words {
    () => {
        "built in"
    };
}

#[cfg(not(feature = "camera"))]
macro_rules! usb_camera_words {
    () => {
        "not built in; `cargo build --release --features camera`, or the Debian package, has them"
    };
}
use usb_camera_words;

#[derive(Parser, Debug)]
#[command(
    name = "cubed",
    version = VERSION,
    about = "Drives a Rubik's-cube-solving robot: scan, solve, plan, execute, verify",
    after_help = EXIT_STATUS_HELP
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: CubedCommand,
}

impl Cli {
    /// The command line parsed, where a negative number given to an option reaches that
    /// option's own check, which says what it allows ("--count '-1': ..."), instead of being
    /// taken for an unknown option.
    pub(crate) fn parse_with_negative_numbers() -> Result<Self, clap::Error> {
        use clap::{CommandFactory, FromArgMatches};
        let matches = negative_numbers_are_values(Self::command()).try_get_matches()?;
        Self::from_arg_matches(&matches)
    }
}

/// `command` and its subcommands with every option that takes a value taking "-1" as one.
fn negative_numbers_are_values(command: clap::Command) -> clap::Command {
    let names: Vec<String> = command
        .get_subcommands()
        .map(|sub| sub.get_name().to_string())
        .collect();
    let command = command.mut_args(|arg| match arg.get_action().takes_values() {
        true => arg.allow_negative_numbers(true),
        false => arg,
    });
    names.iter().fold(command, |command, name| {
        command.mut_subcommand(name, negative_numbers_are_values)
    })
}

#[derive(Subcommand, Debug)]
pub(crate) enum CubedCommand {
    /// Check that facelet strings describe a cube that can exist.
    Check(cube_cmds::CheckArgs),
    /// Solve cubes given as facelet strings.
    Solve(solve_cmds::SolveArgs),
    /// Print uniformly random cubes as facelet strings.
    Scramble(solve_cmds::ScrambleArgs),
    /// The 1988 Test Program: scramble, solve and verify many cubes, print the statistics.
    TestProgram(test_program::TestProgramArgs),
    /// The simulated robot on a pseudo-terminal (or, with --pico, the Pico firmware on an emulated chip).
    Sim(sim::SimArgs),
    /// Plan a program and stream it to a robot (real or simulated).
    ///
    /// The robot is homed first, in a safe order (jaws closed, then each gripper opened, turned
    /// back to its mark and closed while others hold the cube), so a program can follow another;
    /// moves are then made on the cube as it sits after homing (a motor without a jaw turns its
    /// face back as it homes, and a previous program may have left the cube rotated). Ctrl-C
    /// sends an emergency stop; the firmware keeps it latched until the next exec gives --reset.
    Exec(exec_cmds::ExecArgs),
    /// Plan gripper commands for a robot design: face turns, a cube, or the scan.
    Plan(plan_cmds::PlanArgs),
    /// Read a cube from sticker readings (scan JSON): facelets and per-sticker confidence.
    Classify(vision_cmds::ClassifyArgs),
    /// Read a cube from six photos (U.png … B.png).
    Scan(vision_cmds::ScanArgs),
    /// Write a palette of valid colours from a scan of a solved cube.
    Calibrate(calibrate_cmd::CalibrateArgs),
    /// The whole daemon pipeline on the simulated robot and camera, for N random cubes.
    DryRun(dry_run_cmd::DryRunArgs),
    /// The daemon: robot, camera, run history, and the web page and API, until SIGINT/SIGTERM.
    Run(daemon_cmds::RunArgs),
    /// Ask the running daemon to start a run.
    Start(daemon_cmds::ControlArgs),
    /// Ask the running daemon to stop the run at the next step boundary.
    Stop(daemon_cmds::ControlArgs),
    /// Emergency stop: the running daemon halts the motors at once (latched until reset).
    Estop(daemon_cmds::ControlArgs),
    /// Clear a latched emergency stop or fault in the running daemon.
    Reset(daemon_cmds::ControlArgs),
    /// Go on with the run an e-stop, a fault or a firmware restart interrupted: re-home,
    /// scan again, solve (after doing what `cubed status` says).
    Resume(daemon_cmds::ControlArgs),
    /// The running daemon's state.
    Status(daemon_cmds::StatusArgs),
    /// The running daemon's run history: the runs, newest first, or one run's record.
    History(history_cmd::HistoryArgs),
    /// Build the solver tables into the cache now (else the first solve does), and say where they are.
    Tables(tables_cmd::TablesArgs),
    /// The daemon's configuration: which files are used and where they come from.
    #[command(subcommand)]
    Config(config_cmds::ConfigCommand),
}

impl CubedCommand {
    /// For a command that loads the solver tables, its `--cache-dir`: `Some(None)` when it was
    /// not given (the default folder, perhaps from `$CUBED_CACHE_DIR`, is used).
    fn table_cache_flag(&self) -> Option<Option<&std::path::Path>> {
        let tables = match self {
            CubedCommand::Solve(args) => &args.tables,
            CubedCommand::TestProgram(args) => &args.tables,
            // Only a cube given as stickers is solved; moves and actions are only planned.
            CubedCommand::Plan(args) if args.job.facelets.is_some() => &args.job.tables,
            CubedCommand::Exec(args) if args.job.facelets.is_some() => &args.job.tables,
            CubedCommand::DryRun(args) => &args.tables,
            CubedCommand::Run(args) => &args.tables,
            CubedCommand::Tables(args) => return Some(args.cache_dir.as_deref()),
            _ => return None,
        };
        Some(tables.cache_dir.as_deref())
    }
}

/// Runs the parsed command.
pub(crate) fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    if let Some(None) = cli.command.table_cache_flag() {
        if let Err(refused) = crate::command_line::tables::cache_folder_from_env() {
            eprintln!("error: {refused}");
            return Ok(ExitCode::from(2));
        }
    }
    match cli.command {
        CubedCommand::Check(args) => cube_cmds::check(args),
        CubedCommand::Solve(args) => solve_cmds::solve(args),
        CubedCommand::Scramble(args) => solve_cmds::scramble(args),
        CubedCommand::TestProgram(args) => test_program::test_program(args),
        CubedCommand::Sim(args) => sim::sim(args),
        CubedCommand::Exec(args) => exec_cmds::exec(args),
        CubedCommand::Plan(args) => plan_cmds::plan(args),
        CubedCommand::Classify(args) if args.flags.palette.cube_edge(args.size) == 2 => {
            pocket_vision::classify_pocket_cmd(&args.scan, &args.flags)
        }
        CubedCommand::Classify(args) => vision_cmds::classify_cmd(args),
        CubedCommand::Scan(args) if args.flags.palette.cube_edge(args.size) == 2 => {
            pocket_vision::scan_pocket_cmd(&args)
        }
        CubedCommand::Scan(args) => vision_cmds::scan_cmd(args),
        CubedCommand::Calibrate(args) => calibrate_cmd::calibrate_cmd(args),
        CubedCommand::DryRun(args) => dry_run_cmd::dry_run_cmd(args),
        CubedCommand::Run(args) => daemon_cmds::run_cmd(args),
        CubedCommand::Start(args) => daemon_cmds::control_cmd(ControlCommand::Start, args),
        CubedCommand::Stop(args) => daemon_cmds::control_cmd(ControlCommand::Stop, args),
        CubedCommand::Estop(args) => daemon_cmds::control_cmd(ControlCommand::EStop, args),
        CubedCommand::Reset(args) => daemon_cmds::control_cmd(ControlCommand::Reset, args),
        CubedCommand::Resume(args) => daemon_cmds::control_cmd(ControlCommand::Resume, args),
        CubedCommand::Status(args) => daemon_cmds::status_cmd(args),
        CubedCommand::History(args) => history_cmd::history_cmd(args),
        CubedCommand::Tables(args) => tables_cmd::tables_cmd(args),
        CubedCommand::Config(cmd) => config_cmds::run(cmd),
    }
}

/// Logs to stderr with `tracing`; `RUST_LOG` overrides the default level.
pub(crate) fn init_logging(default: &str) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .try_init();
}
