//! The real daemon behind the real web server: a run started through the REST API (recorded as the CLI's), a 409 on a second start, a 400 for an unknown start source, the run's record and photos over HTTP, and the control client.

use super::{finished, random, start};
use cubed::daemon::DaemonState;
use cubed::web::{control, ClientError, ControlCommand, ControlReply};
use std::net::SocketAddr;

pub(super) async fn get(addr: SocketAddr, path: &str) -> (u16, Vec<u8>) {
    call(addr, "GET", path).await
}

async fn post(addr: SocketAddr, path: &str) -> (u16, String) {
    let (status, body) = call(addr, "POST", path).await;
    (status, String::from_utf8_lossy(&body).into_owned())
}

/// A request without a body; any status is an answer (not an error).
async fn call(addr: SocketAddr, method: &'static str, path: &str) -> (u16, Vec<u8>) {
    let url = format!("http://{addr}{path}");
    tokio::task::spawn_blocking(move || {
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .build()
            .new_agent();
        let answer = match method {
            "POST" => agent.post(&url).send_empty(),
            _ => agent.get(&url).call(),
        };
        let mut response = answer.expect("the daemon answers");
        let status = response.status().as_u16();
        let body = response.body_mut().read_to_vec().expect("a body");
        (status, body)
    })
    .await
    .expect("request task")
}

async fn ask(addr: SocketAddr, command: ControlCommand) -> Result<ControlReply, ClientError> {
    tokio::task::spawn_blocking(move || control(addr, None, command))
        .await
        .expect("client task")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_started_through_the_api_is_served_back_with_its_photos() {
    let dir = tempfile::tempdir().expect("temp dir");
    let daemon = start(dir.path(), "", 1.0).await;
    daemon.sim.as_ref().expect("sim").load_cube(random(31));
    let (addr, server) = crate::daemon::serve_web(&daemon).await;

    let run = match ask(addr, ControlCommand::Start).await.expect("start") {
        ControlReply::Started { run } => run,
        other => panic!("not started: {other:?}"),
    };
    let second = ask(addr, ControlCommand::Start)
        .await
        .expect_err("a second start");
    assert!(
        matches!(&second, ClientError::Refused { reason } if reason.contains(&format!("run {run}"))),
        "{second}"
    );
    let end = finished(&daemon.handle, run).await;
    assert_eq!(end.state, DaemonState::Done, "{}", end.message);

    let (status, body) = get(addr, &format!("/api/runs/{run}")).await;
    assert_eq!(status, 200);
    let detail: serde_json::Value = serde_json::from_slice(&body).expect("JSON");
    assert_eq!(detail["summary"]["outcome"], "solved");
    assert_eq!(
        detail["summary"]["source"], "cli",
        "started by the CLI's client"
    );
    let (status, body) = post(addr, "/api/start?source=robot").await;
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("robot") && body.contains("cli"), "{body}");
    assert!(
        body.contains("query string not accepted: source: unknown value `robot`"),
        "said in words, not as the parser's: {body}"
    );
    // Each photo's sticker box is kept with it: the history draws marks where the live page did.
    let kept = |attempt: u32, face: char| -> Option<Vec<f64>> {
        let scans = detail["scans"].as_array()?;
        let scan = scans.iter().find(|s| s["attempt"] == attempt)?;
        let images = scan["images"].as_array()?;
        let image = images.iter().find(|i| i["face"] == face.to_string())?;
        serde_json::from_value(image["grid"].clone()).ok()
    };
    assert!(end.photos.len() >= 6, "{:?}", end.photos.len());
    for photo in &end.photos {
        let shown = photo.grid.expect("a grid on the live page");
        let shown: Vec<f64> = shown.iter().map(|&v| f64::from(v)).collect();
        assert_eq!(
            kept(photo.attempt, photo.face),
            Some(shown),
            "{}-{}",
            photo.attempt,
            photo.face
        );
    }
    let url = detail["scans"][0]["images"][0]["url"]
        .as_str()
        .expect("an image URL")
        .to_string();
    let (status, png) = get(addr, &url).await;
    assert_eq!(status, 200);
    assert!(png.starts_with(b"\x89PNG"), "a PNG");
    let (status, runs) = get(addr, "/api/runs").await;
    assert_eq!(status, 200);
    assert!(String::from_utf8_lossy(&runs).contains(&format!("\"id\":{run}")));
    match ask(addr, ControlCommand::Status).await.expect("status") {
        ControlReply::Status(s) => assert_eq!(s.state, DaemonState::Done),
        other => panic!("{other:?}"),
    }
    daemon.shutdown().await;
    server
        .await
        .expect("server task")
        .expect("server ends cleanly");
}

/// A lamp two stops too bright: faces are taken again darker, and their first photos are kept
/// and served as earlier takes of the scan, beside the ones it was read from.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_face_taken_again_keeps_its_first_photo_as_an_earlier_take() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut config = super::config(dir.path(), "", 0.0);
    (config.sim.exposure, config.sim.highlight_rolloff) = (4.0, 1.0);
    let daemon = cubed::daemon::RunningDaemon::start(&config, super::solver())
        .await
        .expect("starts");
    daemon.sim.as_ref().expect("sim").load_cube(random(33));
    let (addr, server) = crate::daemon::serve_web(&daemon).await;
    let run = (daemon.handle)
        .start(cubed::daemon::StartSource::Web)
        .await
        .expect("start");
    let end = finished(&daemon.handle, run).await;
    assert_eq!(end.state, DaemonState::Done, "{}", end.message);
    let detail = daemon.handle.run(run).expect("history").expect("recorded");
    let first = &detail.scans[0];
    assert!(
        !first.earlier.is_empty(),
        "no face was taken again: {first:?}"
    );
    for earlier in &first.earlier {
        let (status, png) = get(addr, &earlier.url).await;
        assert_eq!(status, 200, "{}", earlier.url);
        let (_, latest) = get(addr, &format!("/api/runs/{run}/images/0/{}", earlier.face)).await;
        assert!(
            png.starts_with(b"\x89PNG") && png != latest,
            "{}",
            earlier.url
        );
    }
    // A photo that is not there says why: the takes there are, the scans there are, no run.
    let face = first.earlier[0].face;
    for (path, said) in [
        (
            format!("/api/runs/{run}/images/0/{face}/9"),
            format!("has no take 9 of face {face} (earlier takes: 1"),
        ),
        (
            format!("/api/runs/{run}/images/7/U"),
            format!("run {run} has no scan 7 (its scans: 0, 1)"),
        ),
        (
            format!("/api/runs/{}/images/0/U", run + 50),
            format!("there is no run {}", run + 50),
        ),
    ] {
        let (status, body) = get(addr, &path).await;
        let body = String::from_utf8_lossy(&body);
        assert_eq!(status, 404, "{path}: {body}");
        assert!(body.contains(&said), "{path}: {body}");
    }
    daemon.shutdown().await;
    let _ = server.await;
    // The command line names them too, as files in the data directory.
    let data = dir.path().to_str().expect("utf-8");
    let out = crate::common::cubed(&["history", &run.to_string(), "--data-dir", data], None);
    let text = crate::common::stdout(&out);
    let face = first.earlier[0].face;
    assert!(
        text.contains("the earlier takes: ") && text.contains(&format!("0-{face}-take1.png")),
        "{text}"
    );
}

/// Shut down mid-run (SIGTERM to `cubed run`), the daemon stops the run and records it, and a
/// page or script on the event stream hears how it ended before the stream closes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_stopped_by_shutdown_is_told_on_the_event_stream_before_it_closes() {
    use futures_util::StreamExt;
    use tokio_tungstenite::tungstenite::Message;
    let dir = tempfile::tempdir().expect("temp dir");
    let daemon = start(dir.path(), "", 10.0).await;
    daemon.sim.as_ref().expect("sim").load_cube(random(61));
    let (addr, server) = crate::daemon::serve_web(&daemon).await;
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/api/events"))
        .await
        .expect("the event stream opens");
    let run = (daemon.handle)
        .start(cubed::daemon::StartSource::Web)
        .await
        .expect("start");
    super::executing_with_done(&daemon.handle, 2).await;
    let history = daemon.handle.clone();
    let shutdown = tokio::spawn(daemon.shutdown());
    let mut told = None;
    while let Some(Ok(message)) = ws.next().await {
        let Message::Text(text) = message else {
            continue;
        };
        let event: serde_json::Value = serde_json::from_str(text.as_str()).expect("JSON event");
        if event["type"] == "run_finished" && event["run"].as_u64() == Some(run) {
            told = event["outcome"].as_str().map(String::from);
        }
    }
    shutdown.await.expect("shut down");
    let _ = server.await;
    let recorded = super::recorded(&history, run).outcome;
    assert!(
        told.is_some() && told == recorded,
        "told {told:?}, recorded {recorded:?}"
    );
}
