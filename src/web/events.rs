//! `GET /api/events`: the WebSocket that pushes the status on connect and on every change, and forwards every daemon event; closes cleanly on shutdown.

use super::server::AppState;
use crate::daemon::{DaemonEvent, StatusDoc};
use axum::extract::ws::{close_code, CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::response::Response;
use tokio::sync::broadcast::error::RecvError;

pub(super) async fn upgrade(ws: WebSocketUpgrade, State(app): State<AppState>) -> Response {
    ws.on_upgrade(move |socket| pump(socket, app))
}

/// Why a socket ends.
enum End {
    /// The browser closed it or went away: nothing more to send.
    Peer,
    /// We close it, with this code and reason.
    Close(u16, &'static str),
}

async fn pump(mut socket: WebSocket, app: AppState) {
    // Held until this socket is done, so `serve` can wait for the goodbye.
    let _alive = app.sockets.clone();
    let mut shutdown = app.shutdown.clone();
    // Subscribe before reading the status so no change falls in between.
    let mut events = app.handle.subscribe();
    let mut status = app.handle.watch_status();
    let mut last = status.borrow_and_update().clone();
    let end = 'pump: {
        if send(&mut socket, &DaemonEvent::Status(last.clone()))
            .await
            .is_err()
        {
            break 'pump End::Peer;
        }
        loop {
            if *shutdown.borrow() {
                break 'pump End::Close(close_code::AWAY, "the daemon is shutting down");
            }
            let outgoing = tokio::select! {
                changed = shutdown.changed() => {
                    if changed.is_err() {
                        break 'pump End::Close(close_code::AWAY, "the daemon is shutting down");
                    }
                    continue;
                }
                changed = status.changed() => {
                    if changed.is_err() {
                        break 'pump End::Close(close_code::AWAY, "the daemon stopped");
                    }
                    let now = status.borrow_and_update().clone();
                    fresh_status(&mut last, now)
                }
                event = events.recv() => match event {
                    Ok(DaemonEvent::Status(now)) => fresh_status(&mut last, now),
                    Ok(other) => {
                        // A status change published before this event goes first
                        // (the page must see `done` before `run_finished`).
                        if status.has_changed().unwrap_or(false) {
                            let now = status.borrow_and_update().clone();
                            if let Some(update) = fresh_status(&mut last, now) {
                                if send(&mut socket, &update).await.is_err() {
                                    break 'pump End::Peer;
                                }
                            }
                        }
                        Some(other)
                    }
                    // Lost some: the current status says where things are.
                    Err(RecvError::Lagged(_)) => {
                        let now = status.borrow_and_update().clone();
                        last = now.clone();
                        Some(DaemonEvent::Status(now))
                    }
                    Err(RecvError::Closed) => {
                        break 'pump End::Close(close_code::AWAY, "the daemon stopped");
                    }
                },
                incoming = socket.recv() => match incoming {
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break 'pump End::Peer,
                    // Pings are answered by axum; the page sends nothing else we need.
                    Some(Ok(_)) => None,
                },
            };
            if let Some(event) = outgoing {
                if send(&mut socket, &event).await.is_err() {
                    break 'pump End::Peer;
                }
            }
        }
    };
    if let End::Close(code, reason) = end {
        let frame = CloseFrame {
            code,
            reason: reason.into(),
        };
        if socket.send(Message::Close(Some(frame))).await.is_ok() {
            // Wait for the browser's close reply (or its going away), briefly.
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
}

/// The status to push, unless the page already has exactly this one (the daemon
/// may publish a change both on the watch and as an event).
fn fresh_status(last: &mut StatusDoc, now: StatusDoc) -> Option<DaemonEvent> {
    if *last == now {
        return None;
    }
    *last = now.clone();
    Some(DaemonEvent::Status(now))
}

async fn send(socket: &mut WebSocket, event: &DaemonEvent) -> Result<(), ()> {
    let text = serde_json::to_string(event).map_err(|_| ())?;
    socket
        .send(Message::Text(text.into()))
        .await
        .map_err(|_| ())
}
