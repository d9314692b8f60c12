//! `GET /api/events`: the WebSocket that pushes the status on connect and on every change, and forwards every daemon event; capped in number and message size; closes cleanly on shutdown.

use super::routes::ApiError;
use super::state::AppState;
use crate::daemon::{DaemonEvent, StatusDoc};
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{close_code, CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::OwnedSemaphorePermit;

pub(super) async fn upgrade(
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
    State(app): State<AppState>,
) -> Response {
    let ws = match ws {
        Ok(ws) => ws,
        Err(rejection) => return not_a_websocket(&rejection).into_response(),
    };
    let Ok(permit) = app.socket_permits.clone().try_acquire_owned() else {
        return ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "too_many_sockets",
            "too many pages are following this robot's events now; close one and reload"
                .to_string(),
        )
        .into_response();
    };
    ws.max_message_size(app.max_message)
        .max_frame_size(app.max_message)
        .on_upgrade(move |socket| pump(socket, app, permit))
}

/// A plain request to the event stream: the answer says it is a WebSocket, in the API's error body.
fn not_a_websocket(rejection: &WebSocketUpgradeRejection) -> ApiError {
    ApiError::new(
        rejection.status(),
        "not_a_websocket",
        format!(
            "/api/events is a WebSocket: connect with a WebSocket client (GET with \
             `Connection: Upgrade` and `Upgrade: websocket`); /api/status answers plain HTTP \
             ({})",
            rejection.body_text()
        ),
    )
}

/// Why a socket ends.
enum End {
    /// The browser closed it or went away: nothing more to send.
    Peer,
    /// We close it, with this code and reason.
    Close(u16, &'static str),
}

async fn pump(socket: WebSocket, app: AppState, _permit: OwnedSemaphorePermit) {
    // Held until this socket is done, so `serve` can wait for the goodbye.
    let _alive = app.sockets.clone();
    let mut feed = Feed::new(socket, &app);
    let end = feed.run().await;
    if let End::Close(code, reason) = end {
        close(&mut feed.socket, code, reason).await;
    }
}

/// One socket's subscription: the daemon's status and events, and the shutdown signal.
struct Feed {
    socket: WebSocket,
    shutdown: tokio::sync::watch::Receiver<bool>,
    events: tokio::sync::broadcast::Receiver<DaemonEvent>,
    status: tokio::sync::watch::Receiver<StatusDoc>,
    /// The status the page has now.
    last: StatusDoc,
    /// The log's last lines when the page opened.
    recent: Vec<DaemonEvent>,
}

/// What one wait of the feed brought.
enum Next {
    Send(Box<DaemonEvent>),
    Nothing,
    End(End),
}

impl Feed {
    fn new(socket: WebSocket, app: &AppState) -> Feed {
        // Subscribe before reading the status so no change falls in between.
        let events = app.handle.subscribe();
        let mut status = app.handle.watch_status();
        let last = status.borrow_and_update().clone();
        let recent = app.handle.recent_log();
        Feed {
            recent,
            socket,
            shutdown: app.shutdown.clone(),
            events,
            status,
            last,
        }
    }

    /// Sends the status, then every change and event until the page or the daemon goes away.
    async fn run(&mut self) -> End {
        // What was said before the page opened, oldest first (the page puts the newest on top).
        for line in &std::mem::take(&mut self.recent) {
            if self.send(line).await.is_err() {
                return End::Peer;
            }
        }
        if self
            .send(&DaemonEvent::Status(self.last.clone()))
            .await
            .is_err()
        {
            return End::Peer;
        }
        loop {
            if *self.shutdown.borrow() {
                return self.last_words().await;
            }
            match self.next().await {
                Next::Send(event) => {
                    if self.send(&event).await.is_err() {
                        return End::Peer;
                    }
                }
                Next::Nothing => {}
                Next::End(end) => return end,
            }
        }
    }

    /// At shutdown: the events already published (a run's end among them) go out before the
    /// socket closes.
    async fn last_words(&mut self) -> End {
        while let Ok(event) = self.events.try_recv() {
            if let Next::Send(event) = self.on_event(Ok(event)).await {
                if self.send(&event).await.is_err() {
                    return End::Peer;
                }
            }
        }
        End::Close(close_code::AWAY, "the daemon is shutting down")
    }

    async fn next(&mut self) -> Next {
        tokio::select! {
            changed = self.shutdown.changed() => match changed {
                Ok(()) => Next::Nothing,
                Err(_) => Next::End(End::Close(close_code::AWAY, "the daemon is shutting down")),
            },
            changed = self.status.changed() => match changed {
                Ok(()) => self.status_now(),
                Err(_) => Next::End(End::Close(close_code::AWAY, "the daemon stopped")),
            },
            event = self.events.recv() => self.on_event(event).await,
            incoming = self.socket.recv() => match incoming {
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => Next::End(End::Peer),
                // Pings are answered by axum; the page sends nothing else we need.
                Some(Ok(_)) => Next::Nothing,
            },
        }
    }

    async fn on_event(&mut self, event: Result<DaemonEvent, RecvError>) -> Next {
        match event {
            // The daemon publishes each status on the watch and as an event: one the watch
            // has since moved on from is stale (its newer one is, or will be, sent), and a page
            // must never see the state go back.
            Ok(DaemonEvent::Status(now)) if now != *self.status.borrow() => Next::Nothing,
            Ok(DaemonEvent::Status(_)) => self.status_now(),
            Ok(other) => {
                // A status change published before this event goes first
                // (the page must see `done` before `run_finished`).
                if self.status.has_changed().unwrap_or(false) {
                    if let Next::Send(update) = self.status_now() {
                        if self.send(&update).await.is_err() {
                            return Next::End(End::Peer);
                        }
                    }
                }
                Next::Send(Box::new(other))
            }
            // Lost some: the current status says where things are.
            Err(RecvError::Lagged(_)) => {
                self.last = self.status.borrow_and_update().clone();
                Next::Send(Box::new(DaemonEvent::Status(self.last.clone())))
            }
            Err(RecvError::Closed) => Next::End(End::Close(close_code::AWAY, "the daemon stopped")),
        }
    }

    fn status_now(&mut self) -> Next {
        let now = self.status.borrow_and_update().clone();
        self.fresh(now)
    }

    /// The status to push, unless the page already has exactly this one (the daemon
    /// may publish a change both on the watch and as an event).
    fn fresh(&mut self, now: StatusDoc) -> Next {
        if self.last == now {
            return Next::Nothing;
        }
        self.last = now.clone();
        Next::Send(Box::new(DaemonEvent::Status(now)))
    }

    async fn send(&mut self, event: &DaemonEvent) -> Result<(), ()> {
        let text = serde_json::to_string(event).map_err(|_| ())?;
        self.socket
            .send(Message::Text(text.into()))
            .await
            .map_err(|_| ())
    }
}

/// Closes with a code and reason and waits briefly for the browser's close reply.
async fn close(socket: &mut WebSocket, code: u16, reason: &'static str) {
    let frame = CloseFrame {
        code,
        reason: reason.into(),
    };
    if socket.send(Message::Close(Some(frame))).await.is_ok() {
        let _ = tokio::time::timeout(std::time::Duration::from_secs(1), async {
            while let Some(Ok(m)) = socket.recv().await {
                if matches!(m, Message::Close(_)) {
                    break;
                }
            }
        })
        .await;
    }
}
