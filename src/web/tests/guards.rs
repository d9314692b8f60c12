//! Who may act: the token for actions (not for reading), the Origin and Host guards, and an open address refused without a token.

use super::{error_of, test_history, Server};
use crate::daemon::DaemonHandle;
use crate::web::client::{ClientError, ControlCommand, ControlReply};
use crate::web::scripted;
use crate::web::server::{serve, WebSettings};

const TOKEN: &str = "0123456789abcdef-test";

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
