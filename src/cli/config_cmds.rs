//! `cubed config show`: which configuration file the daemon would use, why, and where its robot design, palette and data directory come from; then whether the files it names load. `cubed config wiring`: which pin drives what on the robot's board.

use super::design_choice::choose_design;
use super::refuse;
use crate::daemon::config::search::{describe_sources, discover_config};
use crate::robot::wiring::{RobotSetup, WiringDoc};
use clap::{Args, Subcommand};
use cubed_core::error_chain::error_chain;
use std::path::PathBuf;
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
        Ok(design) => design,
        Err(e) => return refuse(e.to_string()),
    };
    let model = match crate::robot::load_robot(&design) {
        Ok(model) => model,
        Err(e) => return refuse(error_chain(&e)),
    };
    let map = crate::robot::ActuatorMap::new(&model)?;
    let setup = match RobotSetup::for_design(&model, &map) {
        Ok(setup) => setup,
        Err(e) => return refuse(format!("{}: {}", design.display(), error_chain(&e))),
    };
    let doc = WiringDoc::new(&model, &map, &setup);
    if args.format == "json" {
        println!("{}", serde_json::to_string_pretty(&doc)?);
    } else {
        println!("{}:", design.display());
        for line in doc.lines() {
            println!("{line}");
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn show(args: ShowArgs) -> anyhow::Result<ExitCode> {
    let (mut config, found) = match discover_config(args.config.as_deref()) {
        Ok(pair) => pair,
        Err(e) => return refuse(error_chain(&e)),
    };
    // What `cubed run` is given on its command line is checked as it will be used.
    if let Some(dir) = args.data_dir {
        config.data_dir = dir;
    }
    if let Some(bind) = args.http {
        config.bind = bind;
    }
    for line in describe_sources(&found, &config) {
        println!("{line}");
    }
    // What `cubed run` would refuse is refused here too, before anything is opened.
    match crate::daemon::check_config_files(&config) {
        // Another user's data folder (the service's): what matters is that user can write it.
        Err(e) if e.is_another_users_data_dir() => println!("note: {}", error_chain(&e)),
        Err(e) => return refuse(format!("{}: {}", config.file.display(), error_chain(&e))),
        Ok(()) => {}
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
