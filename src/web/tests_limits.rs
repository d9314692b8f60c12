//! Tests of the web layer under load and misuse, over real TCP on loopback: hung connections and the e-stop, header timeouts, WebSocket Origin/token/size/count caps, reads beyond loopback, and 400 vs 413.

use super::listen::WebLimits;
use super::scripted;
use super::server::{serve_with, WebSettings};
use crate::daemon::{DaemonHandle, History};
use futures_util::{SinkExt, StreamExt};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::oneshot;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::Message;

const TOKEN: &str = "0123456789abcdef-limits";
/// Generous bound for anything that should happen soon (not a timing assertion).
const PATIENCE: Duration = Duration::from_secs(30);

/// A server on a scripted daemon, with the given bind address, token and limits.
struct Server {
    addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    _dir: tempfile::TempDir,
}

impl Server {
    async fn start(bind: &str, token: Option<&str>, limits: WebLimits) -> Server {
        let dir = tempfile::tempdir().expect("temp dir");
        let history = Arc::new(History::open(dir.path()).expect("history opens"));
        let (handle, inbox) = DaemonHandle::new(scripted::idle_status(), history);
        tokio::spawn(scripted::respond(inbox, Duration::from_millis(5)));
        let listener = tokio::net::TcpListener::bind(bind)
            .await
            .expect("a free port");
        let local = listener.local_addr().expect("bound address");
        let settings = WebSettings {
            bind: local,
            token: token.map(str::to_string),
        };
        let (stop, stopped) = oneshot::channel::<()>();
        tokio::spawn(serve_with(listener, handle, settings, limits, async move {
            let _ = stopped.await;
        }));
        // Reach it over loopback whatever it is bound to.
        let addr = SocketAddr::from(([127, 0, 0, 1], local.port()));
        Server {
            addr,
            stop: Some(stop),
            _dir: dir,
        }
    }

    /// One request on a new connection (`Connection: close`): the status and the body.
    async fn call(&self, head: &str, body: &[u8]) -> (u16, String) {
        let text = self.answer(head, body).await;
        let status = text
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("{head}: not an HTTP answer: {text:?}"));
        let body = text.split_once("\r\n\r\n").map_or("", |(_, b)| b);
        (status, body.to_string())
    }

    /// The whole answer to a request of `head` and `body`, its head included.
    async fn answer(&self, head: &str, body: &[u8]) -> String {
        let mut stream = TcpStream::connect(self.addr).await.expect("connects");
        let request = format!(
            "{head}\r\nHost: {}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            self.addr,
            body.len()
        );
        let answer = async {
            stream.write_all(request.as_bytes()).await?;
            stream.write_all(body).await?;
            let mut text = Vec::new();
            stream.read_to_end(&mut text).await?;
            Ok::<_, std::io::Error>(text)
        };
        let text = tokio::time::timeout(PATIENCE, answer)
            .await
            .unwrap_or_else(|_| panic!("{head}: no answer within {PATIENCE:?}"))
            .unwrap_or_else(|e| panic!("{head}: {e}"));
        String::from_utf8_lossy(&text).to_string()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

fn kind_of(body: &str) -> String {
    let v: serde_json::Value = serde_json::from_str(body)
        .unwrap_or_else(|e| panic!("a JSON error body, got {body:?}: {e}"));
    v["error"]["kind"].as_str().unwrap_or("").to_string()
}

/// Opens a connection that sends half a request header and then nothing.
async fn hang(addr: SocketAddr) -> TcpStream {
    let mut stream = TcpStream::connect(addr).await.expect("connects");
    stream
        .write_all(b"POST /api/estop HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Wait")
        .await
        .expect("half a header");
    stream
}

/// True when the server closed `stream` (end of file or reset) within `within`.
async fn closed_by_server(stream: &mut TcpStream, within: Duration) -> bool {
    let mut buf = [0u8; 512];
    loop {
        match tokio::time::timeout(within, stream.read(&mut buf)).await {
            Err(_) => return false,
            Ok(Ok(0)) | Ok(Err(_)) => return true,
            // An error answer (e.g. 408) before closing is fine; keep reading.
            Ok(Ok(_)) => {}
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_estop_gets_through_200_hung_connections() {
    let limits = WebLimits {
        // Long, so that only the connection limit can make room here.
        header_timeout: Duration::from_secs(600),
        max_connections: 32,
        ..WebLimits::default()
    };
    let server = Server::start("127.0.0.1:0", None, limits).await;
    let mut hung = Vec::new();
    for _ in 0..200 {
        hung.push(hang(server.addr).await);
    }
    let (status, body) = server.call("POST /api/estop HTTP/1.1", b"").await;
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("e_stopped"), "{body}");
    // The server holds at most its limit: the rest of the hung ones were closed.
    let mut closed = 0;
    for stream in &mut hung {
        if closed_by_server(stream, Duration::from_millis(200)).await {
            closed += 1;
        }
    }
    assert!(
        closed >= 200 - 32,
        "only {closed} of 200 hung connections were closed"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hung_and_silent_connections_are_closed_after_the_header_timeout() {
    let limits = WebLimits {
        header_timeout: Duration::from_millis(300),
        ..WebLimits::default()
    };
    let server = Server::start("127.0.0.1:0", None, limits).await;
    let mut half = hang(server.addr).await;
    let mut silent = TcpStream::connect(server.addr).await.expect("connects");
    assert!(closed_by_server(&mut half, PATIENCE).await, "half a header");
    assert!(
        closed_by_server(&mut silent, PATIENCE).await,
        "nothing sent"
    );
    let (status, _) = server.call("GET /api/status HTTP/1.1", b"").await;
    assert_eq!(status, 200, "a whole request is still answered");
    // A body that stops half-way: 100 bytes promised, 12 sent.
    let mut stream = TcpStream::connect(server.addr).await.expect("connects");
    let head = format!(
        "POST /api/guide HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
         Content-Length: 100\r\n\r\n{{\"facelets\":",
        server.addr
    );
    stream.write_all(head.as_bytes()).await.expect("sent");
    let mut answer = vec![0u8; 4096];
    let read = tokio::time::timeout(PATIENCE, stream.read(&mut answer)).await;
    let got = read.expect("answered within the patience").expect("read");
    let text = String::from_utf8_lossy(&answer[..got]);
    assert!(text.starts_with("HTTP/1.1 408"), "{text}");
}

#[tokio::test]
async fn bodies_too_large_are_413_and_malformed_ones_400() {
    let server = Server::start("127.0.0.1:0", None, WebLimits::default()).await;
    let json = "POST /api/guide HTTP/1.1\r\nContent-Type: application/json";
    let big = format!("{{\"facelets\": \"{}\"}}", "U".repeat(100 * 1024));
    let (status, body) = server.call(json, big.as_bytes()).await;
    assert_eq!((status, kind_of(&body).as_str()), (413, "too_large"));
    let (status, body) = server.call(json, b"{\"facelets\": ").await;
    assert_eq!((status, kind_of(&body).as_str()), (400, "bad_request"));
    // A route that takes no body refuses a huge one too, and acts on a small one.
    let huge = vec![b'x'; 100 * 1024];
    let (status, body) = server.call("POST /api/stop HTTP/1.1", &huge).await;
    assert_eq!((status, kind_of(&body).as_str()), (413, "too_large"));
    let (status, _) = server.call("POST /api/stop HTTP/1.1", b"x").await;
    assert_ne!(status, 413, "a small body is no reason to refuse");
}

#[tokio::test]
async fn beyond_loopback_reads_need_the_token() {
    let server = Server::start("0.0.0.0:0", Some(TOKEN), WebLimits::default()).await;
    let bearer = format!("Authorization: Bearer {TOKEN}");
    for path in [
        "/api/status",
        "/api/runs",
        "/api/runs/1",
        "/api/runs/1/images/0/U",
    ] {
        let (status, body) = server.call(&format!("GET {path} HTTP/1.1"), b"").await;
        assert_eq!(
            (status, kind_of(&body).as_str()),
            (401, "unauthorized"),
            "{path}"
        );
        let (status, _) = server
            .call(&format!("GET {path} HTTP/1.1\r\n{bearer}"), b"")
            .await;
        assert!(
            status == 200 || status == 404,
            "{path} with the token: {status}"
        );
        let (status, _) = server
            .call(&format!("GET {path}?token={TOKEN} HTTP/1.1"), b"")
            .await;
        assert!(status == 200 || status == 404, "{path}?token=: {status}");
    }
    let (status, _) = server.call("GET / HTTP/1.1", b"").await;
    assert_eq!(status, 200, "the page itself loads, to ask for the token");
    let (status, body) = server
        .call("GET /api/status?token=wrong-token-wrong HTTP/1.1", b"")
        .await;
    assert_eq!((status, kind_of(&body).as_str()), (401, "unauthorized"));
    // A 401 says the scheme the token goes in, as HTTP has it.
    let text = server.answer("GET /api/status HTTP/1.1", b"").await;
    assert!(
        text.to_lowercase().contains("\r\nwww-authenticate: bearer"),
        "{text}"
    );
}

#[tokio::test]
async fn on_loopback_reads_need_a_loopback_host() {
    let server = Server::start("127.0.0.1:0", None, WebLimits::default()).await;
    let (status, body) = server
        .call("GET /api/status HTTP/1.1\r\nHost: rebound.example", b"")
        .await;
    assert_eq!(
        (status, kind_of(&body).as_str()),
        (403, "forbidden"),
        "{body}"
    );
}

/// Opens the event socket with the given `Origin` (if any) and query.
async fn open_socket(
    addr: SocketAddr,
    query: &str,
    origin: Option<&str>,
) -> Result<
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>,
    tokio_tungstenite::tungstenite::Error,
> {
    let mut request = format!("ws://{addr}/api/events{query}")
        .into_client_request()
        .expect("a WebSocket request");
    if let Some(origin) = origin {
        let value = HeaderValue::from_str(origin).expect("an Origin header");
        request.headers_mut().insert("Origin", value);
    }
    let (socket, _) = tokio::time::timeout(PATIENCE, tokio_tungstenite::connect_async(request))
        .await
        .expect("the upgrade is answered")?;
    Ok(socket)
}

fn refused_status(result: Result<impl Sized, tokio_tungstenite::tungstenite::Error>) -> u16 {
    match result {
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => response.status().as_u16(),
        Err(e) => panic!("refused, but not with an HTTP answer: {e}"),
        Ok(_) => panic!("the socket opened"),
    }
}

#[tokio::test]
async fn the_socket_checks_origin_and_the_token() {
    let server = Server::start("0.0.0.0:0", Some(TOKEN), WebLimits::default()).await;
    let addr = server.addr;
    assert_eq!(refused_status(open_socket(addr, "", None).await), 401);
    let with_token = format!("?token={TOKEN}");
    let elsewhere = Some("http://evil.example");
    assert_eq!(
        refused_status(open_socket(addr, &with_token, elsewhere).await),
        403
    );
    let here = format!("http://{addr}");
    let mut socket = open_socket(addr, &with_token, Some(&here))
        .await
        .expect("the page's own socket opens");
    let first = socket.next().await.expect("a message").expect("a frame");
    assert!(
        first.to_text().is_ok_and(|t| t.contains("\"status\"")),
        "{first:?}"
    );
}

#[tokio::test]
async fn socket_messages_are_capped() {
    let limits = WebLimits {
        max_message: 1024,
        ..WebLimits::default()
    };
    let server = Server::start("127.0.0.1:0", None, limits).await;
    let mut socket = open_socket(server.addr, "", None).await.expect("opens");
    let _status = socket.next().await;
    // Within the cap: the socket stays and answers a ping.
    socket
        .send(Message::Text("x".repeat(1000).into()))
        .await
        .expect("a small message");
    socket
        .send(Message::Ping(Vec::new().into()))
        .await
        .expect("ping");
    let pong = tokio::time::timeout(PATIENCE, async {
        while let Some(Ok(m)) = socket.next().await {
            if matches!(m, Message::Pong(_)) {
                return true;
            }
        }
        false
    })
    .await;
    assert_eq!(pong.ok(), Some(true), "a message within the cap is taken");
    // Beyond it: the server drops the socket.
    let _ = socket.send(Message::Text("x".repeat(4096).into())).await;
    let ended = tokio::time::timeout(PATIENCE, async {
        loop {
            match socket.next().await {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return true,
                Some(Ok(_)) => {}
            }
        }
    })
    .await;
    assert_eq!(
        ended.ok(),
        Some(true),
        "a message beyond the cap ends the socket"
    );
}

#[tokio::test]
async fn sockets_beyond_the_cap_are_refused_clearly() {
    let limits = WebLimits {
        max_sockets: 2,
        ..WebLimits::default()
    };
    let server = Server::start("127.0.0.1:0", None, limits).await;
    let first = open_socket(server.addr, "", None).await.expect("first");
    let _second = open_socket(server.addr, "", None).await.expect("second");
    assert_eq!(
        refused_status(open_socket(server.addr, "", None).await),
        503
    );
    let (status, body) = server.call("GET /api/events HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", b"").await;
    assert_eq!((status, kind_of(&body).as_str()), (503, "too_many_sockets"));
    // Closing one makes room again (once the server has seen it go).
    drop(first);
    let deadline = tokio::time::Instant::now() + PATIENCE;
    while open_socket(server.addr, "", None).await.is_err() {
        assert!(
            tokio::time::Instant::now() < deadline,
            "no room after closing one"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn the_client_sends_the_token_on_reads_too() {
    use super::client::{control, ClientError, ControlCommand, ControlReply};
    let server = Server::start("0.0.0.0:0", Some(TOKEN), WebLimits::default()).await;
    let addr = server.addr;
    let ask = move |token: Option<&'static str>| {
        tokio::task::spawn_blocking(move || control(addr, token, ControlCommand::Status))
    };
    let refused = ask(None).await.expect("client task");
    assert!(
        matches!(refused, Err(ClientError::Unauthorized { .. })),
        "{refused:?}"
    );
    let reply = ask(Some(TOKEN)).await.expect("client task");
    assert!(matches!(reply, Ok(ControlReply::Status(_))), "{reply:?}");
}

#[tokio::test]
async fn metrics_are_served_and_guarded_like_reads() {
    let open = Server::start("127.0.0.1:0", None, WebLimits::default()).await;
    let (status, body) = open.call("GET /metrics HTTP/1.1", b"").await;
    assert_eq!(status, 200);
    assert!(body.contains("# TYPE cubed_uptime_seconds gauge"), "{body}");
    let guarded = Server::start("0.0.0.0:0", Some(TOKEN), WebLimits::default()).await;
    let (status, _) = guarded.call("GET /metrics HTTP/1.1", b"").await;
    assert_eq!(status, 401);
    let (status, _) = guarded
        .call(
            &format!("GET /metrics HTTP/1.1\r\nAuthorization: Bearer {TOKEN}"),
            b"",
        )
        .await;
    assert_eq!(status, 200);
}
