//! Tests of the web layer against the scripted daemon: routes, errors, the token and Origin/Host guards, the WebSocket, and the control client.

use super::client::{control, ClientError, ControlCommand, ControlReply};
use super::scripted::{self, SECOND_START};
use super::server::{serve, WebSettings};
use crate::daemon::{DaemonHandle, DaemonState, History};
use futures_util::{SinkExt, StreamExt};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tokio_tungstenite::tungstenite::Message;

const TOKEN: &str = "0123456789abcdef-test";
/// Generous bound for anything that should happen at once (not a timing assertion).
const PATIENCE: Duration = Duration::from_secs(30);

/// A real, empty run history in a temporary directory (kept as long as the server).
fn test_history() -> (Arc<History>, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("temp dir");
    let history = History::open(dir.path()).expect("history opens");
    (Arc::new(history), dir)
}

struct Server {
    _history_dir: Option<tempfile::TempDir>,
    addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    served: JoinHandle<Result<(), super::WebError>>,
}

impl Server {
    async fn start(token: Option<&str>) -> Server {
        let (history, dir) = test_history();
        let (handle, inbox) = DaemonHandle::new(scripted::idle_status(), history);
        tokio::spawn(scripted::respond(inbox, Duration::from_millis(5)));
        let mut server = Server::start_with(handle, token).await;
        server._history_dir = Some(dir);
        server
    }

    async fn start_with(handle: DaemonHandle, token: Option<&str>) -> Server {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a free port");
        let addr = listener.local_addr().expect("bound address");
        let (stop, stopped) = oneshot::channel::<()>();
        let settings = WebSettings {
            bind: addr,
            token: token.map(str::to_string),
        };
        let served = tokio::spawn(serve(listener, handle, settings, async move {
            let _ = stopped.await;
        }));
        Server {
            _history_dir: None,
            addr,
            stop: Some(stop),
            served,
        }
    }

    async fn shut_down(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        let served = tokio::time::timeout(PATIENCE, &mut self.served)
            .await
            .expect("the server stops after shutdown");
        served
            .expect("serve task")
            .expect("serve ends without error");
    }

    /// One request: status and body.
    async fn call(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: Option<&str>,
    ) -> (u16, String) {
        let url = format!("http://{}{path}", self.addr);
        let method = method.to_string();
        let headers: Vec<(String, String)> = headers
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let body = body.map(str::to_string);
        tokio::task::spawn_blocking(move || {
            let agent: ureq::Agent = ureq::Agent::config_builder()
                .http_status_as_error(false)
                .build()
                .into();
            let response = if method == "GET" {
                let mut r = agent.get(&url);
                for (k, v) in &headers {
                    r = r.header(k, v);
                }
                r.call()
            } else {
                let mut r = agent.post(&url);
                for (k, v) in &headers {
                    r = r.header(k, v);
                }
                match body {
                    Some(b) => r.send(b),
                    None => r.send_empty(),
                }
            }
            .expect("the server answers");
            let status = response.status().as_u16();
            let text = response.into_body().read_to_string().expect("a text body");
            (status, text)
        })
        .await
        .expect("request task")
    }

    async fn control(
        &self,
        token: Option<&str>,
        command: ControlCommand,
    ) -> Result<ControlReply, ClientError> {
        let addr = self.addr;
        let token = token.map(str::to_string);
        tokio::task::spawn_blocking(move || control(addr, token.as_deref(), command))
            .await
            .expect("client task")
    }
}

fn error_of(body: &str) -> (String, String) {
    let v: serde_json::Value =
        serde_json::from_str(body).unwrap_or_else(|e| panic!("JSON error body, got {body:?}: {e}"));
    (
        v["error"]["kind"].as_str().unwrap_or("").to_string(),
        v["error"]["reason"].as_str().unwrap_or("").to_string(),
    )
}

#[tokio::test]
async fn the_page_and_its_files_are_served() {
    let server = Server::start(None).await;
    let (status, html) = server.call("GET", "/", &[], None).await;
    assert_eq!(status, 200);
    for id in [
        "state",
        "message",
        "start",
        "stop",
        "estop",
        "reset",
        "progress-text",
        "net",
        "runs",
        "guide-input",
        "guide-solve",
        "guide-next",
        "guide-prev",
        "guide-step",
        "error",
    ] {
        assert!(html.contains(&format!("id=\"{id}\"")), "the page has #{id}");
    }
    assert!(
        !html.contains("http://") && !html.contains("https://"),
        "nothing external"
    );
    let (status, js) = server.call("GET", "/app.js", &[], None).await;
    assert_eq!(status, 200);
    assert!(js.contains("/api/events"));
    let (status, css) = server.call("GET", "/style.css", &[], None).await;
    assert_eq!(status, 200);
    assert!(css.contains("#estop"));
    server.shut_down().await;
}

#[tokio::test]
async fn unknown_routes_and_methods_get_json_errors() {
    let server = Server::start(None).await;
    let (status, body) = server.call("GET", "/api/nothing", &[], None).await;
    assert_eq!((status, error_of(&body).0.as_str()), (404, "not_found"));
    let (status, body) = server.call("GET", "/api/start", &[], None).await;
    assert_eq!(
        (status, error_of(&body).0.as_str()),
        (405, "method_not_allowed")
    );
    server.shut_down().await;
}

#[tokio::test]
async fn bad_input_is_a_400_with_a_reason() {
    let server = Server::start(None).await;
    // Each reason names the value and what was expected, in the API's own words.
    for (path, said) in [
        (
            "/api/runs?limit=5000",
            "limit `5000` is not a number of runs from 1 to",
        ),
        (
            "/api/runs?limit=lots",
            "limit `lots` is not a number of runs",
        ),
        ("/api/runs?limit=-1", "limit `-1` is not a number of runs"),
        ("/api/runs?limit=0", "limit `0` is not a number of runs"),
        ("/api/runs?before=last", "before `last` is not a run number"),
        ("/api/runs/abc", "run `abc` is not a run number"),
        ("/api/runs/-1", "run `-1` is not a run number"),
        ("/api/runs/1/images/0/X", "face \"X\" is not one of"),
        ("/api/runs/1/images/0/UR", "face \"UR\" is not one of"),
        (
            "/api/runs/1/images/first/U",
            "scan `first` is not a scan number",
        ),
    ] {
        let (status, body) = server.call("GET", path, &[], None).await;
        let (kind, reason) = error_of(&body);
        assert_eq!(
            (status, kind.as_str()),
            (400, "bad_request"),
            "{path}: {body}"
        );
        assert!(reason.starts_with(said), "{path}: {reason}");
    }
    // A key a route does not take is named, with what it takes (a typo is no silent default).
    for (method, path, said) in [
        (
            "GET",
            "/api/runs?limt=5",
            "query key `limt` is not taken here: GET /api/runs takes only limit, before, token",
        ),
        (
            "GET",
            "/api/status?foo=1",
            "query key `foo` is not taken here: GET /api/status takes only token",
        ),
        (
            "POST",
            "/api/stop?now=1",
            "query key `now` is not taken here: POST /api/stop takes no query keys",
        ),
        (
            "POST",
            "/api/start?token=abc",
            "query key `token` is not taken here: POST /api/start takes only source (the token goes in",
        ),
    ] {
        let (status, body) = server.call(method, path, &[], None).await;
        let (kind, reason) = error_of(&body);
        assert_eq!((status, kind.as_str()), (400, "bad_request"), "{path}: {body}");
        assert!(reason.starts_with(said), "{path}: {reason}");
    }
    // A number too large for any run names no run: not found, not "not a number".
    for (path, said) in [
        (
            "/api/runs/99999999999999999999",
            "there is no run 99999999999999999999",
        ),
        (
            "/api/runs/99999999999999999999/images/0/U",
            "there is no run 99999999999999999999",
        ),
        (
            "/api/runs/1/images/99999999999/U",
            "run 1 has no scan 99999999999",
        ),
    ] {
        let (status, body) = server.call("GET", path, &[], None).await;
        assert_eq!(
            (status, error_of(&body).1.as_str()),
            (404, said),
            "{path}: {body}"
        );
    }
    // The event stream asked for as a plain page says what it is, in the API's error body.
    let (status, body) = server.call("GET", "/api/events", &[], None).await;
    let (kind, reason) = error_of(&body);
    assert!((400..500).contains(&status), "{status}: {body}");
    assert_eq!(kind, "not_a_websocket", "{body}");
    assert!(reason.contains("is a WebSocket"), "{reason}");
    let json = [("Content-Type", "application/json")];
    for body in [
        "{",
        "[]",
        "{\"facelets\": 5}",
        "{}",
        "{\"facelets\": \"UUU\", \"order\": \"ULFRBD\"}",
        "[\"UUU\"]",
    ] {
        let (status, answer) = server.call("POST", "/api/guide", &json, Some(body)).await;
        assert_eq!(status, 400, "{body}: {answer}");
        assert!(error_of(&answer).1.starts_with("request body"), "{answer}");
    }
    let (status, answer) = server
        .call("POST", "/api/guide", &[], Some("{\"facelets\":\"UUU\"}"))
        .await;
    assert_eq!(status, 400, "no content type: {answer}");
    // The daemon's own refusal passes through.
    let (status, answer) = server
        .call("POST", "/api/guide", &json, Some("{\"facelets\":\"UUU\"}"))
        .await;
    let (kind, reason) = error_of(&answer);
    assert_eq!((status, kind.as_str()), (400, "bad_request"));
    assert!(reason.contains('3'), "the daemon's reason: {reason}");
    server.shut_down().await;
}

#[tokio::test]
async fn guide_answers_the_daemons_solution() {
    let server = Server::start(None).await;
    let scrambled = &scripted::states()[0];
    let body = serde_json::json!({ "facelets": scrambled }).to_string();
    let (status, answer) = server
        .call(
            "POST",
            "/api/guide",
            &[("Content-Type", "application/json")],
            Some(&body),
        )
        .await;
    assert_eq!(status, 200, "{answer}");
    let doc: crate::daemon::docs::GuideDoc = serde_json::from_str(&answer).expect("a GuideDoc");
    assert_eq!(doc.solution.join(" "), scripted::SOLUTION);
    assert_eq!(doc.states.len(), doc.solution.len() + 1);
    server.shut_down().await;
}

#[tokio::test]
async fn the_client_drives_a_run_and_reports_refusals() {
    let server = Server::start(None).await;
    let reply = server
        .control(None, ControlCommand::Status)
        .await
        .expect("status");
    assert!(
        matches!(&reply, ControlReply::Status(s) if s.state == DaemonState::Idle),
        "{reply:?}"
    );
    assert!(reply.render().starts_with("idle"), "{}", reply.render());

    let reply = server
        .control(None, ControlCommand::Start)
        .await
        .expect("start");
    assert_eq!(reply, ControlReply::Started { run: 1 });
    assert!(reply.render().contains("run 1"));

    // Wait (bounded) until the scripted run is done.
    let deadline = tokio::time::Instant::now() + PATIENCE;
    let done = loop {
        match server.control(None, ControlCommand::Status).await {
            Ok(ControlReply::Status(s)) if s.state == DaemonState::Done => break s,
            Ok(_) => {}
            Err(e) => panic!("status while running: {e}"),
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the scripted run never reached done"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    let p = done.progress.as_ref().expect("progress when done");
    assert_eq!(p.moves_done, p.moves);

    match server.control(None, ControlCommand::Start).await {
        Err(e @ ClientError::Refused { .. }) => {
            assert!(e.to_string().contains(SECOND_START), "{e}")
        }
        other => panic!("second start: {other:?}"),
    }
    let reply = server
        .control(None, ControlCommand::EStop)
        .await
        .expect("estop");
    assert!(
        matches!(&reply, ControlReply::Accepted { status, .. } if status.state == DaemonState::EStopped),
        "{reply:?}"
    );
    assert!(reply.render().contains("e-stopped"), "{}", reply.render());
    let reply = server
        .control(None, ControlCommand::Reset)
        .await
        .expect("reset");
    assert!(
        matches!(&reply, ControlReply::Accepted { status, .. } if status.state == DaemonState::Idle),
        "{reply:?}"
    );
    assert!(matches!(
        server.control(None, ControlCommand::Reset).await,
        Err(ClientError::Refused { .. })
    ));
    server
        .control(None, ControlCommand::Stop)
        .await
        .expect("stop");
    server.shut_down().await;
}

#[tokio::test]
async fn the_client_says_when_no_daemon_listens() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    let addr = listener.local_addr().expect("address");
    drop(listener);
    let e = tokio::task::spawn_blocking(move || control(addr, None, ControlCommand::Status))
        .await
        .expect("client task")
        .expect_err("nobody listens");
    let text = e.to_string();
    assert!(matches!(e, ClientError::NotRunning { .. }), "{e:?}");
    assert!(
        text.contains(&addr.to_string()) && text.contains("cubed run"),
        "{text}"
    );
}

#[tokio::test]
async fn with_a_token_actions_need_it_and_reading_does_not() {
    let server = Server::start(Some(TOKEN)).await;
    let (status, _) = server.call("GET", "/api/status", &[], None).await;
    assert_eq!(status, 200);
    let (status, _) = server.call("GET", "/", &[], None).await;
    assert_eq!(status, 200);
    for headers in [
        vec![],
        vec![("Authorization", "Bearer wrong-token-of-length")],
        vec![("Authorization", TOKEN)],
    ] {
        let (status, body) = server.call("POST", "/api/estop", &headers, None).await;
        assert_eq!(
            (status, error_of(&body).0.as_str()),
            (401, "unauthorized"),
            "{headers:?}"
        );
    }
    assert!(matches!(
        server.control(None, ControlCommand::EStop).await,
        Err(ClientError::Unauthorized { .. })
    ));
    assert!(matches!(
        server
            .control(Some("not-the-token-at-all"), ControlCommand::EStop)
            .await,
        Err(ClientError::Unauthorized { .. })
    ));
    let reply = server
        .control(Some(TOKEN), ControlCommand::EStop)
        .await
        .expect("estop with the token");
    assert!(matches!(reply, ControlReply::Accepted { .. }));
    let bearer = format!("Bearer {TOKEN}");
    let (status, _) = server
        .call("POST", "/api/reset", &[("Authorization", &bearer)], None)
        .await;
    assert_eq!(status, 200);
    // The scheme's name is case-insensitive in HTTP.
    let lower = format!("bearer {TOKEN}");
    let (status, _) = server
        .call("POST", "/api/reset", &[("Authorization", &lower)], None)
        .await;
    assert_ne!(status, 401, "a lower-case scheme is the same scheme");
    server.shut_down().await;
}

#[tokio::test]
async fn other_sites_and_other_hosts_cannot_act() {
    let server = Server::start(None).await;
    let (status, body) = server
        .call(
            "POST",
            "/api/estop",
            &[("Origin", "http://evil.example")],
            None,
        )
        .await;
    assert_eq!((status, error_of(&body).0.as_str()), (403, "forbidden"));
    let (status, body) = server
        .call("POST", "/api/estop", &[("Host", "evil.example")], None)
        .await;
    assert_eq!(
        (status, error_of(&body).0.as_str()),
        (403, "forbidden"),
        "DNS rebinding"
    );
    let origin = format!("http://{}", server.addr);
    let (status, body) = server
        .call("POST", "/api/estop", &[("Origin", &origin)], None)
        .await;
    assert_eq!(status, 200, "the page itself: {body}");
    server.shut_down().await;
}

#[tokio::test]
async fn serve_refuses_an_open_address_without_a_token() {
    let (history, _dir) = test_history();
    let (handle, _inbox) = DaemonHandle::new(scripted::idle_status(), history);
    let listener = tokio::net::TcpListener::bind("0.0.0.0:0")
        .await
        .expect("a free port");
    let settings = WebSettings {
        bind: listener.local_addr().expect("address"),
        token: None,
    };
    let e = serve(listener, handle, settings, std::future::pending())
        .await
        .expect_err("refused");
    assert!(e.to_string().contains("[http] token"), "{e}");
}

async fn next_json<S>(ws: &mut S) -> serde_json::Value
where
    S: StreamExt<Item = Result<Message, tokio_tungstenite::tungstenite::Error>> + Unpin,
{
    loop {
        let message = tokio::time::timeout(PATIENCE, ws.next())
            .await
            .expect("a message in time")
            .expect("the socket is open")
            .expect("a good frame");
        match message {
            Message::Text(text) => return serde_json::from_str(text.as_str()).expect("JSON event"),
            Message::Close(frame) => panic!("closed early: {frame:?}"),
            _ => {}
        }
    }
}

#[tokio::test]
async fn the_socket_pushes_status_and_events_then_closes_on_shutdown() {
    let (history, _dir) = test_history();
    let (handle, inbox) = DaemonHandle::new(scripted::idle_status(), history);
    tokio::spawn(scripted::respond(inbox, Duration::from_millis(5)));
    let server = Server::start_with(handle, None).await;
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{}/api/events", server.addr))
        .await
        .expect("WebSocket connects");
    let first = next_json(&mut ws).await;
    assert_eq!(
        (first["type"].as_str(), first["state"].as_str()),
        (Some("status"), Some("idle"))
    );

    let (status, _) = server.call("POST", "/api/start", &[], None).await;
    assert_eq!(status, 200);
    let mut seen = Vec::new();
    let mut log = false;
    loop {
        let event = next_json(&mut ws).await;
        match event["type"].as_str() {
            Some("status") => {
                let state = event["state"].as_str().unwrap_or("").to_string();
                if seen.last() != Some(&state) {
                    seen.push(state);
                }
            }
            Some("log") => log = true,
            Some("run_finished") => {
                assert_eq!(
                    (event["run"].as_u64(), event["outcome"].as_str()),
                    (Some(1), Some("solved"))
                );
                break;
            }
            other => panic!("unexpected event {other:?}: {event}"),
        }
    }
    assert!(log, "the log event was forwarded");
    assert_eq!(seen.last().map(String::as_str), Some("done"), "{seen:?}");
    assert!(seen.contains(&"executing".to_string()), "{seen:?}");

    ws.send(Message::Ping(Vec::new().into()))
        .await
        .expect("ping");
    let stop = server.shut_down();
    let closing = async {
        while let Some(Ok(m)) = ws.next().await {
            if let Message::Close(frame) = m {
                return frame;
            }
        }
        None
    };
    let (frame, ()) = tokio::join!(closing, stop);
    let frame = frame.expect("a close frame");
    assert_eq!(u16::from(frame.code), 1001);
}

/// Statuses published in a burst, as the daemon's board publishes them (on the watch and as
/// events), reach a page in order: never an older state after a newer one.
#[tokio::test]
async fn the_socket_never_sends_a_state_older_than_one_it_sent() {
    let (history, _dir) = test_history();
    let (handle, inbox) = DaemonHandle::new(scripted::idle_status(), history);
    let board = crate::daemon::board::StatusBoard::new(&inbox);
    let server = Server::start_with(handle, None).await;
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{}/api/events", server.addr))
        .await
        .expect("WebSocket connects");
    assert_eq!(next_json(&mut ws).await["state"].as_str(), Some("idle"));
    let published = [
        DaemonState::Scanning,
        DaemonState::Solving,
        DaemonState::Executing,
        DaemonState::Verifying,
        DaemonState::Done,
    ];
    for round in 0..20 {
        for (i, &state) in published.iter().enumerate() {
            board.set(state, format!("round {round}, step {i}"));
        }
        let mut last_seen = 0;
        loop {
            let event = next_json(&mut ws).await;
            let message = event["message"].as_str().unwrap_or_default().to_string();
            let Some(step) = message.strip_prefix(&format!("round {round}, step ")) else {
                panic!("round {round}: an earlier round's status came late: {message}");
            };
            let step: usize = step.parse().expect("a step");
            assert!(
                step >= last_seen,
                "round {round}: step {step} after {last_seen}"
            );
            last_seen = step;
            if step == published.len() - 1 {
                break;
            }
        }
        board.set(DaemonState::Idle, format!("round {round} over"));
        assert_eq!(next_json(&mut ws).await["state"].as_str(), Some("idle"));
    }
    drop(ws);
    server.shut_down().await;
}
