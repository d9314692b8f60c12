//! The control client (`cubed status`, `start`, …) against a served daemon: a whole run, the daemon's refusals, and no daemon listening.

use super::{Server, PATIENCE};
use crate::daemon::DaemonState;
use crate::web::client::{control, ClientError, ControlCommand, ControlReply};
use crate::web::scripted::SECOND_START;
use std::time::Duration;

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
