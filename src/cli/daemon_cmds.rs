//! `cubed run` (the daemon: robot, camera, run history, web page and API, until SIGINT/SIGTERM) and `cubed start|stop|estop|reset|resume|status` (ask the running daemon).

use super::{refuse, EXIT_ATTENTION, EXIT_INVALID, EXIT_SIGINT, EXIT_SIGTERM};
use crate::command_line::tables::TableArgs;
use crate::daemon::config::search::discover_config;
use crate::daemon::config::DaemonConfig;
use crate::daemon::RunningDaemon;
use crate::daemon::{DaemonState, LinkState};
use crate::web::client::{control, ClientError, ControlCommand, ControlReply};
use crate::web::server::{check_bind, serve, WebSettings};
use clap::Args;
use cubed_core::error_chain::error_chain;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub(crate) struct RunArgs {
    /// Daemon configuration (default: the first of $CUBED_CONFIG, ./config/cubed.toml,
    /// $XDG_CONFIG_HOME/cubed/cubed.toml, /etc/cubed/cubed.toml, else built in; see `cubed config show`).
    #[arg(long)]
    pub(crate) config: Option<PathBuf>,
    /// Address of the page and API, HOST:PORT (overrides `[http] bind`).
    #[arg(long, value_parser = parse_address)]
    pub(crate) http: Option<SocketAddr>,
    /// Run history and photos here (overrides `[data] dir`).
    #[arg(long)]
    pub(crate) data_dir: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) tables: TableArgs,
}

#[derive(Args, Debug)]
pub(crate) struct ControlArgs {
    /// The daemon's configuration, for its address and token (found as `cubed run` finds it).
    #[arg(long)]
    pub(crate) config: Option<PathBuf>,
    /// The daemon's address, HOST:PORT or http://HOST:PORT/ (default: $CUBED_HTTP, else the
    /// config's `[http] bind`).
    #[arg(long, value_parser = parse_address)]
    pub(crate) http: Option<SocketAddr>,
}

#[derive(Args, Debug)]
pub(crate) struct StatusArgs {
    #[command(flatten)]
    pub(crate) control: ControlArgs,
    /// Print the daemon's status document as JSON (as `GET /api/status` serves it: `state`,
    /// `run`, `message`, `progress`, …) instead of the lines for people.
    #[arg(long)]
    pub(crate) json: bool,
}

/// `cubed status`: the daemon's state, for people or (`--json`) for scripts; exits 3 when the
/// daemon needs a person.
pub(crate) fn status_cmd(args: StatusArgs) -> anyhow::Result<ExitCode> {
    let print = match args.json {
        true => Print::Json,
        false => Print::Text,
    };
    ask(ControlCommand::Status, args.control, print)
}

/// 3 when the daemon needs a person, else 0.
fn exit_for(status: &crate::daemon::StatusDoc) -> ExitCode {
    // A robot that cannot be reached, or whose e-stop button is still held, waits for a
    // person too, whatever the state; so does a daemon that cannot write its run history.
    let robot_away = matches!(
        status.link.state,
        LinkState::Unreachable | LinkState::EStopHeld
    );
    match needs_a_person(status.state) || robot_away || status.history_read_only {
        true => ExitCode::from(EXIT_ATTENTION),
        false => ExitCode::SUCCESS,
    }
}

/// The daemon's address (`--http`, `$CUBED_HTTP`, the config's) and token (`$CUBED_TOKEN`, the
/// config's); a refusal to return when neither names an address.
pub(super) fn address_and_token(
    args: &ControlArgs,
) -> Result<(SocketAddr, Option<String>), anyhow::Result<ExitCode>> {
    let from_env = match std::env::var("CUBED_HTTP").ok().filter(|v| !v.is_empty()) {
        Some(given) => {
            Some(parse_address(&given).map_err(|e| refuse(format!("$CUBED_HTTP={given}: {e}")))?)
        }
        None => None,
    };
    let config = discover_config(args.config.as_deref()).map(|(config, _)| config);
    let (bind, token) = match (&config, args.http.or(from_env)) {
        (Ok(c), http) => (http.unwrap_or(c.bind), c.token.clone()),
        (Err(_), Some(http)) => (http, None),
        // Kept from other users for its token (docs/raspberry-pi.md): said how to go on.
        (Err(e), None) if denied(e) => {
            return Err(refuse(format!(
                "{}: this user may not read it (it holds the daemon's [http] token): run the \
                 command with sudo, or give the daemon's address with --http 127.0.0.1:8080 \
                 (or $CUBED_HTTP), which needs no file, and the token with $CUBED_TOKEN where \
                 one is needed",
                cubed_core::error_chain::error_chain(e)
            )))
        }
        (Err(e), None) => return Err(super::refuse_error(e)),
    };
    let from_env = std::env::var("CUBED_TOKEN").ok().filter(|t| !t.is_empty());
    // A token goes in a request's header: spaces, line breaks and other controls cannot.
    if from_env
        .as_deref()
        .is_some_and(|t| !t.chars().all(|c| c.is_ascii_graphic()))
    {
        return Err(refuse(
            "$CUBED_TOKEN holds a space, a line break or another character a token cannot have: set it to the token alone (the daemon's `[http] token`)",
        ));
    }
    Ok((bind, from_env.or(token)))
}

/// Whether `error` comes of a file this user may not read.
fn denied(error: &(dyn std::error::Error + 'static)) -> bool {
    let mut cause = Some(error);
    while let Some(e) = cause {
        let io = e.downcast_ref::<std::io::Error>();
        if io.is_some_and(|io| io.kind() == std::io::ErrorKind::PermissionDenied) {
            return true;
        }
        cause = e.source();
    }
    false
}

/// `HOST:PORT` (an IP address or a name such as `localhost`), with or without `http://` and a
/// trailing `/`, as the page's address is copied from a browser. A name is looked up, IPv4
/// first (the daemon's default address is 127.0.0.1).
pub(super) fn parse_address(given: &str) -> Result<SocketAddr, String> {
    use std::net::ToSocketAddrs;
    if given.starts_with("https://") {
        return Err("the daemon serves plain HTTP: give HOST:PORT or http://HOST:PORT/".into());
    }
    let bare = given.strip_prefix("http://").unwrap_or(given);
    let bare = bare.strip_suffix('/').unwrap_or(bare);
    if let Some((_, path)) = bare.split_once('/') {
        return Err(format!(
            "give the daemon's address only, HOST:PORT, without a path (/{path})"
        ));
    }
    if let Ok(addr) = bare.parse() {
        return Ok(addr);
    }
    let found: Vec<SocketAddr> = bare
        .to_socket_addrs()
        .map_err(|e| format!("expected HOST:PORT, e.g. 127.0.0.1:8080 or localhost:8080 ({e})"))?
        .collect();
    (found
        .iter()
        .find(|a| a.is_ipv4())
        .or(found.first())
        .copied())
    .ok_or_else(|| format!("{bare} names no address"))
}

/// Why the daemon cannot listen on `bind` (set by `from`), in words, with what to do.
fn cannot_listen(bind: SocketAddr, from: &str, e: &std::io::Error) -> String {
    use std::io::ErrorKind;
    let what = match e.kind() {
        ErrorKind::AddrInUse => format!(
            "another program already listens on {bind} (another `cubed run`?): stop it, or give \
             this daemon another address with --http HOST:PORT"
        ),
        ErrorKind::PermissionDenied => format!(
            "this user may not listen on {bind} (ports below 1024 need root): pick a port \
             above 1024"
        ),
        ErrorKind::AddrNotAvailable => format!(
            "{bind} is not an address of this machine: use 127.0.0.1, 0.0.0.0 or one of its \
             own addresses"
        ),
        _ => format!("cannot listen on {bind}: {}", io_words(e)),
    };
    format!("{what} (the address is set by {from})")
}

/// A line on stderr from the running daemon. A stderr nobody reads any more (a closed pipe,
/// a terminal gone) loses the line: the daemon runs on, where `eprintln!` would panic.
fn tell(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// An I/O error without Rust's "(os error N)" suffix.
fn io_words(e: &std::io::Error) -> String {
    let text = e.to_string();
    match text.rfind(" (os error ") {
        Some(at) => text[..at].to_string(),
        None => text,
    }
}

/// Where a launch refusal is: `--data-dir` when it named the data directory at fault, else
/// the configuration file (with `overrides`, the options that changed what it says).
pub(super) fn refused_at(
    config: &DaemonConfig,
    data_dir_given: bool,
    e: &crate::daemon::LaunchError,
    overrides: &str,
) -> String {
    match (e, data_dir_given) {
        (crate::daemon::LaunchError::Locked(_), true) => "--data-dir".to_string(),
        _ => format!("{}{overrides}", config.file.display()),
    }
}

fn settings(args: &RunArgs) -> Result<(DaemonConfig, WebSettings), String> {
    let (mut config, _) = discover_config(args.config.as_deref()).map_err(|e| error_chain(&e))?;
    if let Some(dir) = &args.data_dir {
        config.data_dir = dir.clone();
    }
    let web = WebSettings {
        bind: args.http.unwrap_or(config.bind),
        token: config.token.clone(),
    };
    check_bind(&web).map_err(|e| format!("{}: {}", config.file.display(), error_chain(&e)))?;
    Ok((config, web))
}

/// Runs the daemon until SIGINT or SIGTERM.
pub(crate) fn run_cmd(args: RunArgs) -> anyhow::Result<ExitCode> {
    // A reader of the daemon's output gone away (`cubed run 2>&1 | grep -m1 serving`, a
    // logger restarted) must not end the daemon mid-run (SIGPIPE): the lines are lost instead.
    // SAFETY: setting a signal's disposition to "ignore" before any thread starts.
    unsafe {
        use nix::sys::signal::{signal, SigHandler, Signal};
        let _ = signal(Signal::SIGPIPE, SigHandler::SigIgn);
    }
    super::init_logging("info");
    let (config, web) = match settings(&args) {
        Ok(pair) => pair,
        Err(e) => return refuse(e),
    };
    if let Err(e) = crate::daemon::check_before_tables(&config) {
        let at = refused_at(&config, args.data_dir.is_some(), &e, "");
        return refuse(format!("{at}: {}", error_chain(&e)));
    }
    let solver = args.tables.solver_for_config(&config);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    let from = match args.http {
        Some(_) => "--http".to_string(),
        None => format!("[http] bind in {}", config.file.display()),
    };
    runtime.block_on(async move {
        let listener = match tokio::net::TcpListener::bind(web.bind).await {
            Ok(listener) => listener,
            Err(e) => return Err(anyhow::anyhow!("{}", cannot_listen(web.bind, &from, &e))),
        };
        // The launch errors already say what and where (file, key, port), cause included:
        // printed once, not again as an error chain.
        let daemon = match RunningDaemon::start(&config, solver).await {
            Ok(daemon) => daemon,
            Err(e) if e.waits_for_a_person() => {
                let at = refused_at(&config, args.data_dir.is_some(), &e, "");
                return refuse(format!("{at}: {}", error_chain(&e)));
            }
            Err(e) => {
                return Err(anyhow::anyhow!(
                    "starting the daemon ({}): {}",
                    config.file.display(),
                    error_chain(&e)
                ))
            }
        };
        daemon.keep_scrambling(config.sim.seed);
        if let Some(notice) = daemon.handle.status().notice {
            tell(&format!("cubed: {notice}"));
        }
        let address = listener.local_addr().unwrap_or(web.bind);
        tell(&format!(
            "cubed: serving the page and API on http://{address}/ (history in {})",
            config.data_dir.display()
        ));
        let palette = crate::daemon::config::palette_choice::choose_palette(None, &config);
        tell(&format!(
            "cubed: reading colours with {}",
            palette.describe(&config)
        ));
        let server = tokio::spawn(serve(
            listener,
            daemon.handle.clone(),
            web,
            daemon.shutdown_signal(),
        ));
        wait_for_signal().await;
        tell("cubed: shutting down (a run stops at the next step boundary)");
        daemon.shutdown().await;
        match server.await {
            Ok(Ok(())) => Ok(ExitCode::SUCCESS),
            Ok(Err(e)) => Err(e.into()),
            Err(e) => Err(anyhow::anyhow!("web server task: {}", error_chain(&e))),
        }
    })
}

/// Waits for SIGINT (Ctrl-C) or SIGTERM; the exit status a shell gives a program either ends.
pub(super) async fn wait_for_signal() -> u8 {
    use tokio::signal::unix::{signal, SignalKind};
    match (
        signal(SignalKind::interrupt()),
        signal(SignalKind::terminate()),
    ) {
        (Ok(mut int), Ok(mut term)) => {
            tokio::select! {
                _ = int.recv() => EXIT_SIGINT,
                _ = term.recv() => EXIT_SIGTERM,
            }
        }
        _ => {
            let _ = tokio::signal::ctrl_c().await;
            EXIT_SIGINT
        }
    }
}

/// How an answer is printed: the lines for people, or the status document as JSON.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Print {
    Text,
    Json,
}

/// Sends one control command to the running daemon and prints its answer.
pub(crate) fn control_cmd(command: ControlCommand, args: ControlArgs) -> anyhow::Result<ExitCode> {
    ask(command, args, Print::Text)
}

fn ask(command: ControlCommand, args: ControlArgs, print: Print) -> anyhow::Result<ExitCode> {
    let (bind, token) = match address_and_token(&args) {
        Ok(pair) => pair,
        Err(refused) => return refused,
    };
    match control(reachable(bind), token.as_deref(), command) {
        Ok(ControlReply::Status(status)) if print == Print::Json => {
            println!("{}", serde_json::to_string(&status)?);
            Ok(exit_for(&status))
        }
        Ok(reply) => Ok(match &reply {
            ControlReply::Accepted { command, status }
                if *command == ControlCommand::EStop && status.link.state != LinkState::Open =>
            {
                // Latched in the daemon, but the robot did not hear it: said first, and a
                // script must know.
                eprintln!("EMERGENCY STOP NOT DELIVERED to the robot ({}): it goes out when the link is back; if the robot moves, use its e-stop button or cut its power", status.link.line);
                println!("emergency stop latched in the daemon only, not at the robot");
                ExitCode::FAILURE
            }
            ControlReply::Status(status) => {
                println!("{}", reply.render());
                exit_for(status)
            }
            _ => {
                println!("{}", reply.render());
                ExitCode::SUCCESS
            }
        }),
        Err(e) => {
            if command == ControlCommand::EStop {
                // Said first and plainly: someone reaching for the stop must not misread this.
                eprintln!(
                    "EMERGENCY STOP NOT SENT: use the robot's e-stop button or cut its power"
                );
            }
            eprintln!("{}", error_chain(&e));
            Ok(match e {
                // A missing or wrong token is a configuration mistake, said with its remedy.
                ClientError::Refused { .. } | ClientError::Unauthorized { .. } => {
                    ExitCode::from(EXIT_INVALID)
                }
                _ => ExitCode::FAILURE,
            })
        }
    }
}

/// The states in which nothing goes on until a person acts: Resume or Reset awaited, or a run
/// that failed and waits for someone to look at why.
fn needs_a_person(state: DaemonState) -> bool {
    state.waits_for_a_person() || state == DaemonState::Faulted
}

/// A daemon bound to every address is reached on loopback.
pub(super) fn reachable(bind: SocketAddr) -> SocketAddr {
    match bind.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => {
            SocketAddr::new(Ipv4Addr::LOCALHOST.into(), bind.port())
        }
        IpAddr::V6(ip) if ip.is_unspecified() => {
            SocketAddr::new(Ipv6Addr::LOCALHOST.into(), bind.port())
        }
        _ => bind,
    }
}

#[cfg(test)]
mod tests {
    use super::{denied, parse_address};

    /// A configuration this user may not read is told apart from one that is broken or gone,
    /// however deep in the error the file system's refusal lies.
    #[test]
    fn a_file_this_user_may_not_read_is_told_apart() {
        use cubed_files::config_file::ConfigError;
        let read = |kind: std::io::ErrorKind| ConfigError::Read {
            file: "/etc/cubed/cubed.toml".into(),
            source: std::io::Error::from(kind),
        };
        assert!(denied(&read(std::io::ErrorKind::PermissionDenied)));
        assert!(!denied(&read(std::io::ErrorKind::NotFound)));
        let syntax = ConfigError::WrongKind {
            file: "/etc/cubed/cubed.toml".into(),
            words: "not a configuration".into(),
        };
        assert!(!denied(&syntax));
    }

    #[test]
    fn an_address_is_taken_as_ip_or_name_with_or_without_the_pages_prefix() {
        let local = "127.0.0.1:8080".parse().expect("address");
        for given in ["127.0.0.1:8080", "http://127.0.0.1:8080/", "localhost:8080"] {
            assert_eq!(parse_address(given), Ok(local), "{given}");
        }
        for bad in [
            "8080",
            "localhost",
            "127.0.0.1:99999",
            "http://",
            "https://127.0.0.1:8080/",
            "http://127.0.0.1:8080/api",
        ] {
            let said = parse_address(bad).expect_err(bad);
            assert!(
                said.contains("HOST:PORT") || said.contains("no address"),
                "{bad}: {said}"
            );
        }
    }
}
