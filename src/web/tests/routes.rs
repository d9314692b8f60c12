//! The routes as a browser meets them: the page and its files, JSON errors for unknown routes and methods, 400s naming bad input, and the guide's answer.

use super::{error_of, Server};
use crate::web::scripted;

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
