//! The HTTP client behind `cubed start|stop|estop|reset|resume|status`: one blocking request to the running daemon's API, its answer or a clear error.

use super::routes::{ErrorBody, Started};
use crate::daemon::{DaemonState, RunDetail, RunSummary, StatusDoc};
use cubed_core::error_chain::error_chain;
use std::net::SocketAddr;
use std::time::Duration;

/// What to ask the daemon.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ControlCommand {
    Start,
    Stop,
    EStop,
    Reset,
    /// Go on with the interrupted run that waits for a person.
    Resume,
    Status,
}

impl ControlCommand {
    fn request(self) -> (&'static str, &'static str) {
        match self {
            ControlCommand::Start => ("POST", "/api/start?source=cli"),
            ControlCommand::Stop => ("POST", "/api/stop"),
            ControlCommand::EStop => ("POST", "/api/estop"),
            ControlCommand::Reset => ("POST", "/api/reset"),
            ControlCommand::Resume => ("POST", "/api/resume"),
            ControlCommand::Status => ("GET", "/api/status"),
        }
    }

    fn done(self) -> &'static str {
        match self {
            ControlCommand::Start => "started",
            ControlCommand::Stop => "stop requested",
            ControlCommand::EStop => {
                "EMERGENCY STOP latched (`cubed status` says what to do next once the robot has stopped)"
            }
            ControlCommand::Reset => "reset",
            ControlCommand::Resume => "resumed",
            ControlCommand::Status => "status",
        }
    }
}

/// The daemon's answer.
#[derive(Clone, Debug, PartialEq)]
pub enum ControlReply {
    Started {
        run: u64,
    },
    /// The interrupted run goes on.
    Resumed {
        run: u64,
    },
    /// Stop, e-stop or reset was taken; the status right after.
    Accepted {
        command: ControlCommand,
        status: Box<StatusDoc>,
    },
    Status(Box<StatusDoc>),
}

/// Why a control request failed.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    #[error("no daemon is listening on {addr}; start it with `cubed run`, or where the Debian package runs it as a service, see why it is not running: systemctl status cubed, journalctl -u cubed (one started with `--config FILE` or `--http HOST:PORT` is reached by giving the same here)")]
    NotRunning { addr: SocketAddr },
    #[error("the daemon refused: {reason}")]
    Refused { reason: String },
    #[error("the daemon on {addr} wants a valid token ({reason}): set $CUBED_TOKEN to its `[http] token`, or give its config with `--config FILE` and keep `--http {addr}` so the same daemon is asked")]
    Unauthorized { addr: SocketAddr, reason: String },
    #[error("the daemon on {addr} {}: {reason}", status_in_words(*status))]
    Daemon {
        addr: SocketAddr,
        status: u16,
        /// The daemon's machine-readable name of the refusal (as its JSON gives it).
        kind: String,
        reason: String,
    },
    #[error("talking to the daemon on {addr}: {message}")]
    Transport { addr: SocketAddr, message: String },
    #[error("the daemon on {addr} sent an answer that is not understood: {message}")]
    Reply { addr: SocketAddr, message: String },
}

/// An HTTP status the daemon answers with, as a person would say it.
fn status_in_words(status: u16) -> &'static str {
    match status {
        400 => "could not use the request",
        404 => "found nothing",
        503 => "cannot do it now",
        _ => "failed",
    }
}

/// How long one request may take (the daemon answers at once; a run goes on after).
const TIMEOUT: Duration = Duration::from_secs(30);

/// Sends `command` to the daemon's API at `addr` (plain HTTP), with the bearer token if given.
pub fn control(
    addr: SocketAddr,
    token: Option<&str>,
    command: ControlCommand,
) -> Result<ControlReply, ClientError> {
    let (method, path) = command.request();
    let body = send(addr, token, method, path)?;
    let unreadable = |e: serde_json::Error| ClientError::Reply {
        addr,
        message: error_chain(&e),
    };
    Ok(match command {
        ControlCommand::Start => {
            let started: Started = serde_json::from_str(&body).map_err(unreadable)?;
            ControlReply::Started { run: started.run }
        }
        ControlCommand::Resume => {
            let resumed: Started = serde_json::from_str(&body).map_err(unreadable)?;
            ControlReply::Resumed { run: resumed.run }
        }
        ControlCommand::Status => {
            ControlReply::Status(Box::new(serde_json::from_str(&body).map_err(unreadable)?))
        }
        command => ControlReply::Accepted {
            command,
            status: Box::new(serde_json::from_str(&body).map_err(unreadable)?),
        },
    })
}

/// The run history, newest first (`limit` runs, older than run `before` if given), as
/// `GET /api/runs` serves it.
pub fn runs(
    addr: SocketAddr,
    token: Option<&str>,
    limit: usize,
    before: Option<u64>,
) -> Result<Vec<RunSummary>, ClientError> {
    let before = before.map_or(String::new(), |id| format!("&before={id}"));
    read(addr, token, &format!("/api/runs?limit={limit}{before}"))
}

/// One run's record (`GET /api/runs/{id}`).
pub fn run(addr: SocketAddr, token: Option<&str>, id: u64) -> Result<RunDetail, ClientError> {
    read(addr, token, &format!("/api/runs/{id}"))
}

fn read<T: serde::de::DeserializeOwned>(
    addr: SocketAddr,
    token: Option<&str>,
    path: &str,
) -> Result<T, ClientError> {
    let body = send(addr, token, "GET", path)?;
    serde_json::from_str(&body).map_err(|e| ClientError::Reply {
        addr,
        message: error_chain(&e),
    })
}

/// One request (`GET`, or `POST` with no body); the answer's body, or what went wrong.
fn send(
    addr: SocketAddr,
    token: Option<&str>,
    method: &str,
    path: &str,
) -> Result<String, ClientError> {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(TIMEOUT))
        .build()
        .into();
    let url = format!("http://{addr}{path}");
    let transport = |e: ureq::Error| match e {
        ureq::Error::Io(io) if io.kind() == std::io::ErrorKind::ConnectionRefused => {
            ClientError::NotRunning { addr }
        }
        ureq::Error::ConnectionFailed => ClientError::NotRunning { addr },
        other => ClientError::Transport {
            addr,
            message: other.to_string(),
        },
    };
    // Reads need the token too when the daemon listens beyond loopback.
    let bearer = token.map(|token| format!("Bearer {token}"));
    let response = if method == "GET" {
        let mut request = agent.get(&url);
        if let Some(bearer) = &bearer {
            request = request.header("Authorization", bearer);
        }
        request.call()
    } else {
        let mut request = agent.post(&url);
        if let Some(bearer) = &bearer {
            request = request.header("Authorization", bearer);
        }
        request.send_empty()
    }
    .map_err(transport)?;
    let status = response.status().as_u16();
    let body = response.into_body().read_to_string().map_err(transport)?;
    if !(200..300).contains(&status) {
        let (kind, reason) = match serde_json::from_str::<ErrorBody>(&body) {
            Ok(b) => (b.error.kind, b.error.reason),
            // Not the daemon's JSON: something else listens there.
            Err(_) => {
                return Err(ClientError::Reply {
                    addr,
                    message: format!(
                    "HTTP {status} without the daemon's JSON: is it a cubed daemon (`cubed run`)?"
                ),
                })
            }
        };
        return Err(match status {
            409 => ClientError::Refused { reason },
            401 => ClientError::Unauthorized { addr, reason },
            _ => ClientError::Daemon {
                addr,
                status,
                kind,
                reason,
            },
        });
    }
    Ok(body)
}

impl ControlReply {
    /// One or two lines for people.
    pub fn render(&self) -> String {
        match self {
            ControlReply::Started { run } => {
                format!("started run {run} (follow it with `cubed status` or on the web page)")
            }
            ControlReply::Resumed { run } => format!(
                "resumed run {run}: re-homing, scanning again, solving (follow it with `cubed status` or on the web page)"
            ),
            // The daemon's message says what comes next for this run (or for none).
            ControlReply::Accepted { command, status } => {
                format!("{}\n{}", command.done(), line_and_message(status))
            }
            ControlReply::Status(status) => {
                let mut out = line_and_message(status);
                if let Some(notice) = &status.notice {
                    out.push_str("\nnotice: ");
                    out.push_str(notice);
                }
                if let Some(button) = &status.estop_button {
                    out.push('\n');
                    out.push_str(&button.line);
                }
                // Last, where a script finds it.
                out.push('\n');
                out.push_str(&status.link.line);
                out
            }
        }
    }
}

/// The status line, then the daemon's message (what is happening, or what to do next).
fn line_and_message(status: &StatusDoc) -> String {
    let mut out = status_line(status);
    // "executing: move 6 of 17" says again what the line says ("… (ETA 2 s), run 1").
    if !status.message.is_empty() && !out.starts_with(&status.message) {
        out.push('\n');
        out.push_str(&status.message);
    }
    out
}

/// `executing: move 12 of 19 (ETA 41 s), run 3`, `done, run 3`, `idle, last run 3`.
fn status_line(status: &StatusDoc) -> String {
    let mut line = status.state.name().to_string();
    // Once done, the message counts the run's turns in all (a resumed run made more than its
    // last solution's): no progress here.
    match (&status.progress, status.state) {
        (Some(p), DaemonState::Executing) => line.push_str(&format!(
            ": move {} of {} (ETA {} s)",
            p.moves_done,
            p.moves,
            p.eta_ms.div_ceil(1000)
        )),
        // Waiting for the link: the time left is not known until it is back.
        (Some(p), DaemonState::Paused) => {
            line.push_str(&format!(": move {} of {}", p.moves_done, p.moves))
        }
        _ => {}
    }
    match (status.run, status.state) {
        // Idle, the run named is over (stopped, reset, calibrated): not a current one.
        (Some(run), DaemonState::Idle) => line.push_str(&format!(", last run {run}")),
        (Some(run), _) => line.push_str(&format!(", run {run}")),
        (None, _) => {}
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::daemon::docs::Progress;

    #[test]
    fn status_lines_for_people() {
        let mut s = crate::web::scripted::idle_status();
        assert_eq!(status_line(&s), "idle");
        s.state = DaemonState::Executing;
        s.run = Some(3);
        s.progress = Some(Progress {
            moves_done: 12,
            moves: 19,
            commands_done: 40,
            commands: 60,
            elapsed_ms: 1000,
            eta_ms: 40_500,
        });
        let text = ControlReply::Status(Box::new(s.clone())).render();
        assert!(
            text.starts_with("executing: move 12 of 19 (ETA 41 s), run 3\n"),
            "{text}"
        );
        // The executing message says nothing the line does not.
        s.message = "executing: move 12 of 19".into();
        let text = ControlReply::Status(Box::new(s.clone())).render();
        assert!(!text.contains("\nexecuting: move 12 of 19\n"), "{text}");
        let mut paused = s.clone();
        paused.state = DaemonState::Paused;
        assert_eq!(status_line(&paused), "paused: move 12 of 19, run 3");
        let mut after = s.clone();
        after.state = DaemonState::Done;
        assert_eq!(
            status_line(&after),
            "done, run 3",
            "the message counts the run's turns"
        );
        after.state = DaemonState::Idle;
        assert_eq!(status_line(&after), "idle, last run 3");
        s.state = DaemonState::EStopped;
        assert!(
            status_line(&s).ends_with(", run 3"),
            "a run waiting is current"
        );
        s.message = "emergency stop; check the robot, then reset".into();
        let text = ControlReply::Accepted {
            command: ControlCommand::EStop,
            status: Box::new(s),
        }
        .render();
        assert!(
            text.contains("EMERGENCY STOP") && text.contains("e-stopped"),
            "{text}"
        );
        // What to do is the daemon's word for this case, not a generic one naming resume.
        assert!(text.ends_with("check the robot, then reset"), "{text}");
        assert!(!text.contains("cubed resume"), "{text}");
    }

    #[test]
    fn the_status_ends_with_where_the_robot_link_stands() {
        use crate::daemon::docs::{LinkDoc, LinkState};
        let mut s = crate::web::scripted::idle_status();
        s.link = LinkDoc::open();
        let text = ControlReply::Status(Box::new(s.clone())).render();
        assert!(text.ends_with("\nrobot link: open"), "{text}");
        let refused = "the firmware refused to clear its emergency stop: release the e-stop button";
        s.link = LinkDoc::down(LinkState::EStopHeld, refused);
        let text = ControlReply::Status(Box::new(s)).render();
        assert!(
            text.ends_with(&format!(
                "robot link: the robot's e-stop button was still held at the last Reset or Resume (release it, then reset or resume again): {refused}"
            )),
            "{text}"
        );
    }

    /// What the daemon answered is said in words, naming the daemon asked; its
    /// machine-readable kind stays out of the text.
    #[test]
    fn a_refusal_names_the_daemon_asked_in_words() {
        let addr: SocketAddr = "127.0.0.1:8181".parse().expect("address");
        let missing = ClientError::Daemon {
            addr,
            status: 404,
            kind: "not_found".into(),
            reason: "no run 99".into(),
        };
        assert_eq!(
            missing.to_string(),
            "the daemon on 127.0.0.1:8181 found nothing: no run 99"
        );
        let token = ClientError::Unauthorized {
            addr,
            reason: "no token given".into(),
        }
        .to_string();
        assert!(
            token.contains("127.0.0.1:8181") && token.contains("--http 127.0.0.1:8181"),
            "{token}"
        );
    }
}
