//! The WebSocket of events: status and a run's events pushed, closed on shutdown, and never a state older than one already sent.

use super::{test_history, Server, PATIENCE};
use crate::daemon::{DaemonHandle, DaemonState};
use crate::web::scripted;
use futures_util::{SinkExt, StreamExt};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

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
