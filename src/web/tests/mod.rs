//! Tests of the web layer against the scripted daemon, by concept, and what they share: a server on a scripted daemon with a real empty history, one request through it, the error body read.

mod client;
mod guards;
mod routes;
mod socket;

use super::client::{control, ClientError, ControlCommand, ControlReply};
use super::scripted;
use super::server::{serve, WebSettings};
use crate::daemon::{DaemonHandle, History};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

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
