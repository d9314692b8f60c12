//! `cubed config show`: which configuration file the daemon would use, why, and where its robot design, palette and data directory come from; then whether the files it names load. `cubed config wiring`: which pin drives what on the robot's board.

use super::design_choice::choose_design;
use super::refuse;
use crate::daemon::config::search::{
    describe_sources, discover_config, ConfigOrigin, FoundConfig, GivenOnCommandLine,
};
use crate::daemon::config::PortChoice;
use crate::link::fault_words::{actuator_names, refusal_in_words};
use crate::robot::wiring::{refusal_placed_in, verdict_on, BoardVerdict, RobotSetup, WiringDoc};
use clap::{Args, Subcommand};
use cubed_core::error_chain::error_chain;
use cubed_firmware::{chips, Chip};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Subcommand, Debug)]
pub(crate) enum ConfigCommand {
    /// Where each configuration file comes from (the search order, the file chosen, its robot design and palette).
    Show(ShowArgs),
    /// The robot design's wiring: each actuator's pins, motor and sensors, and what the board shares (sent to the firmware at every connect).
    Wiring(WiringArgs),
}

#[derive(Args, Debug)]
pub(crate) struct WiringArgs {
    /// A robot design file, or a shipped design's name (four-arm, six-motor,
    /// turntable-flipper), instead of the configuration's (`[robot] design`).
    #[arg(long, visible_alias = "robot", value_parser = crate::command_line::designs::robot_design)]
    pub(crate) design: Option<PathBuf>,
    /// A configuration file instead of the search.
    #[arg(long, conflicts_with = "design")]
    pub(crate) config: Option<PathBuf>,
    /// `text` (a table) or `json`.
    #[arg(long, default_value = "text", value_parser = ["text", "json"])]
    pub(crate) format: String,
    /// Also check the design as a whole: that cubed can plan for it (every face turned
    /// either way again and again, as `cubed plan` and the daemon check), and against a
    /// shipped board as its firmware does at connect (the pins it has and keeps, shared PWM
    /// outputs, its step rate, every key's range); then list the pins left free: `pico`. A
    /// refusal exits 2.
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(chips::SHIPPED.map(|(name, _, _)| name)))]
    pub(crate) board: Option<String>,
}

#[derive(Args, Debug)]
pub(crate) struct ShowArgs {
    /// A configuration file instead of the search.
    #[arg(long)]
    pub(crate) config: Option<PathBuf>,
    /// As `cubed run --data-dir`: check this data directory (and a palette calibrated into it).
    #[arg(long)]
    pub(crate) data_dir: Option<PathBuf>,
    /// As `cubed run --http`: check this address for the page and API.
    #[arg(long, value_parser = super::daemon_cmds::parse_address)]
    pub(crate) http: Option<std::net::SocketAddr>,
}

/// Runs a `cubed config` subcommand.
pub(crate) fn run(command: ConfigCommand) -> anyhow::Result<ExitCode> {
    match command {
        ConfigCommand::Show(args) => show(args),
        ConfigCommand::Wiring(args) => wiring(args),
    }
}

fn wiring(args: WiringArgs) -> anyhow::Result<ExitCode> {
    let design = match choose_design(args.design.as_deref(), args.config.as_deref()) {
        Ok(chosen) => chosen.design,
        Err(e) => return refuse(e.to_string()),
    };
    // Known, the board's own step rate is checked before what follows from the speeds.
    let limit = args
        .board
        .as_deref()
        .and_then(chips::shipped)
        .map_or(crate::robot::StepLimit::ANY_BOARD, |(_, what, chip)| {
            board_step_limit(what, chip)
        });
    let model = match crate::robot::load_robot_for(&design, limit) {
        Ok(model) => model,
        Err(e) => return refuse(error_chain(&e)),
    };
    if args.board.is_some() {
        // A board that takes the wiring is no use if cubed cannot plan for the design.
        let limit = match crate::robot::planner_memory_limit() {
            Ok(limit) => limit,
            Err(e) => return refuse(e),
        };
        if let Err(e) = crate::robot::Planner::checked(model.clone(), limit) {
            return refuse(format!("{}: {e}", design.display()));
        }
    }
    let map = crate::robot::ActuatorMap::new(&model)?;
    let setup = match RobotSetup::for_design(&model, &map) {
        Ok(setup) => setup,
        Err(e) => return refuse(format!("{}: {}", design.display(), error_chain(&e))),
    };
    let doc = WiringDoc::new(&model, &map, &setup);
    let board = args.board.as_deref().and_then(|name| {
        let (name, what, chip) = chips::shipped(name)?;
        let verdict = verdict_on(chip, &setup);
        let names = actuator_names(&map, &model);
        let mut doc = BoardDoc::new(name, what, chip, &verdict, &setup, &names);
        if let BoardVerdict::Refuses(refusal) = &verdict {
            let text = std::fs::read_to_string(&design).unwrap_or_default();
            doc.place = refusal_placed_in(&text, &model, &map, refusal);
        }
        Some(doc)
    });
    if args.format == "json" {
        let mut json = serde_json::to_value(&doc)?;
        if let (Some(board), Some(fields)) = (&board, json.as_object_mut()) {
            fields.insert("board".to_string(), serde_json::to_value(board)?);
        }
        println!("{}", serde_json::to_string_pretty(&json)?);
    } else {
        println!("{}:", design.display());
        for line in doc.lines() {
            println!("{line}");
        }
        if let Some(BoardDoc {
            free_pins: Some(free),
            takes: t,
            ..
        }) = &board
        {
            println!("{t}; free: {}", pin_list(free));
        }
    }
    match board {
        Some(BoardDoc {
            refusal: Some(why),
            takes,
            place,
            ..
        }) => {
            let at = place.map_or(String::new(), |place| format!("{place}: "));
            refuse(format!("{}: {at}{takes}: {why}", design.display()))
        }
        _ => Ok(ExitCode::SUCCESS),
    }
}

/// A shipped board's verdict on the design, as `--board` prints it.
#[derive(Debug, serde::Serialize)]
struct BoardDoc {
    board: &'static str,
    firmware: String,
    /// "a Raspberry Pi Pico (cubed-fw-pico 0.3.0) takes this design", or would refuse it.
    takes: String,
    /// Whether its firmware would take the design at connect (`refusal` says why not).
    accepted: bool,
    /// Why its firmware would refuse the design at connect, in the words the link uses.
    refusal: Option<String>,
    /// The board's pins the design leaves free (not the board's own, not used).
    free_pins: Option<Vec<u8>>,
    /// Where the design writes what the board refuses: "[[gripper]] #2 'right'
    /// [gripper.wiring] (line 58): key 'step'".
    place: Option<String>,
}

impl BoardDoc {
    fn new(
        board: &'static str,
        what: &str,
        chip: &Chip,
        verdict: &BoardVerdict,
        setup: &RobotSetup,
        names: &[String],
    ) -> BoardDoc {
        let (major, minor, patch) = chip.version;
        let firmware = format!("{} {major}.{minor}.{patch}", chip.name);
        let (takes, refusal, free_pins) = match verdict {
            BoardVerdict::Takes { free_pins } => ("takes this design", None, Some(free_pins.clone())),
            BoardVerdict::Unwired => ("would refuse this design at connect", Some("the design gives no wiring ([board] and a `wiring` table per gripper and flipper), and a real board refuses to guess which pins drive what; describe the wiring in the design (docs/wiring.md)".to_string()), None),
            BoardVerdict::Refuses(refusal) => ("would refuse this design at connect", Some(refusal_in_words(refusal, &setup.configure, names)), None),
        };
        BoardDoc {
            board,
            takes: format!("a {what} ({firmware}) {takes}"),
            accepted: refusal.is_none(),
            firmware,
            refusal,
            free_pins,
            place: None,
        }
    }
}

/// Why the Raspberry Pi Pico's firmware would refuse `design` at connect, naming the file,
/// in the words `config wiring --board pico` uses (its step rate first, then the wiring), or
/// `None` if it takes it. A design that does not load is said by the checks before this one.
fn pico_refusal(design: &Path) -> Option<String> {
    let (name, what, chip) = chips::shipped("pico")?;
    let model = match crate::robot::load_robot_for(design, board_step_limit(what, chip)) {
        Ok(model) => model,
        Err(e) => return Some(error_chain(&e)),
    };
    let map = crate::robot::ActuatorMap::new(&model).ok()?;
    let setup = RobotSetup::for_design(&model, &map).ok()?;
    let names = actuator_names(&map, &model);
    let board = BoardDoc::new(name, what, chip, &verdict_on(chip, &setup), &setup, &names);
    let why = board.refusal?;
    Some(format!(
        "{}: {why} (`cubed config wiring --board pico` names the key)",
        design.display()
    ))
}

/// The most steps a second a shipped board (`what`, "Raspberry Pi Pico") takes, as the
/// design's speeds are checked against it.
fn board_step_limit(what: &'static str, chip: &Chip) -> crate::robot::StepLimit {
    crate::robot::StepLimit {
        max_steps_s: chip.max_step_rate,
        board: Some(what),
    }
}

/// "GP0, GP1, GP17 (3 pins)".
fn pin_list(pins: &[u8]) -> String {
    let names: Vec<String> = pins.iter().map(|p| format!("GP{p}")).collect();
    format!("{} ({} pins)", names.join(", "), pins.len())
}

/// Where the Debian package installs the service, and the configuration it runs with.
const SERVICE_UNIT: &str = "/lib/systemd/system/cubed.service";
const SERVICE_CONFIG: &str = "/etc/cubed/cubed.toml";

/// With the package's service installed but its configuration gone, the built-in one is what
/// this command found: the service itself, given that file, will not start.
fn service_file_missing(found: &FoundConfig) -> Option<String> {
    let built_in = found.origin == ConfigOrigin::BuiltIn;
    (built_in && Path::new(SERVICE_UNIT).exists() && !Path::new(SERVICE_CONFIG).exists()).then(|| {
        format!(
            "the cubed service ({SERVICE_UNIT}) runs with {SERVICE_CONFIG}, which is missing, so it will not start: put it back with `sudo apt-get install --reinstall -o Dpkg::Options::=--force-confmiss cubed` (or `sudo dpkg -i --force-confmiss` on the package file)"
        )
    })
}

fn show(args: ShowArgs) -> anyhow::Result<ExitCode> {
    let (mut config, found) = match discover_config(args.config.as_deref()) {
        Ok(pair) => pair,
        Err(e) => return refuse(error_chain(&e)),
    };
    // What `cubed run` is given on its command line is checked as it will be used.
    let given = GivenOnCommandLine {
        data_dir: args.data_dir.is_some(),
        http: args.http.is_some(),
    };
    if let Some(dir) = args.data_dir {
        config.data_dir = dir;
    }
    if let Some(bind) = args.http {
        config.bind = bind;
    }
    for line in describe_sources(&found, &config, given) {
        println!("{line}");
    }
    if let Some(note) = service_file_missing(&found) {
        println!("note: {note}");
    }
    // What `cubed run` would refuse is refused here too, before anything is opened.
    match crate::daemon::check_config_files(&config) {
        // Another user's data folder (the service's): what matters is that user can write it.
        Err(e) if e.is_another_users_data_dir() => println!("note: {}", error_chain(&e)),
        Err(e) => return refuse(format!("{}: {}", config.file.display(), error_chain(&e))),
        Ok(()) => {}
    }
    let slow = crate::robot::load_robot(&config.robot_design).map(|m| m.slow_turns_note());
    if let Ok(Some(note)) = slow {
        println!("note: {}: {note}", config.robot_design.display());
    }
    // A real robot's board may be another, so this is a note, not a refusal.
    if let PortChoice::Serial(port) = &config.port {
        if let Some(why) = pico_refusal(&config.robot_design) {
            let port = port.display();
            println!(
                "note: a Raspberry Pi Pico on {port} would refuse the design at connect: {why}"
            );
        }
    }
    let web = crate::web::WebSettings {
        bind: config.bind,
        token: config.token.clone(),
    };
    if let Err(e) = crate::web::check_bind(&web) {
        return refuse(format!("{}: {}", config.file.display(), error_chain(&e)));
    }
    println!(
        "ok: the robot design and palette load, and the page's address and token are accepted"
    );
    Ok(ExitCode::SUCCESS)
}
