//! `cubed config show`: which configuration file the daemon would use, why, and where its robot design, palette and data directory come from; then whether the files it names load.

use super::refuse;
use clap::{Args, Subcommand};
use cubed::daemon::config_search::{describe_sources, discover_config};
use cubed::error_chain::error_chain;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Subcommand, Debug)]
pub enum ConfigCommand {
    /// Where each configuration file comes from (the search order, the file chosen, its robot design and palette).
    Show(ShowArgs),
}

#[derive(Args, Debug)]
pub struct ShowArgs {
    /// A configuration file instead of the search.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// As `cubed run --data-dir`: check this data directory (and a palette calibrated into it).
    #[arg(long)]
    pub data_dir: Option<PathBuf>,
    /// As `cubed run --http`: check this address for the page and API.
    #[arg(long, value_parser = super::daemon_cmds::parse_address)]
    pub http: Option<std::net::SocketAddr>,
}

/// Runs a `cubed config` subcommand.
pub fn run(command: ConfigCommand) -> anyhow::Result<ExitCode> {
    match command {
        ConfigCommand::Show(args) => show(args),
    }
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
    if let Err(e) = cubed::daemon::check_config_files(&config) {
        return refuse(format!("{}: {}", config.file.display(), error_chain(&e)));
    }
    let web = cubed::web::WebSettings {
        bind: config.bind,
        token: config.token.clone(),
    };
    if let Err(e) = cubed::web::check_bind(&web) {
        return refuse(format!("{}: {}", config.file.display(), error_chain(&e)));
    }
    println!(
        "ok: the robot design and palette load, and the page's address and token are accepted"
    );
    Ok(ExitCode::SUCCESS)
}
