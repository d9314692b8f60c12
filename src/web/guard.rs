//! Request guards: the bearer token, the Origin/Host checks, and which of them actions and reads need (reads need the token when the server listens beyond loopback); the body limit on every guarded route.

use super::routes::ApiError;
use super::state::AppState;
use axum::extract::{MatchedPath, Request, State};
use axum::http::{header, HeaderMap, StatusCode, Uri};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// Guards state-changing requests: the bearer token when one is set; otherwise
/// (loopback only) the request must name a loopback host and come from no other
/// site, so a web page elsewhere cannot drive the robot through the browser.
pub(super) async fn actions(State(app): State<AppState>, request: Request, next: Next) -> Response {
    let checked = check_action(&app, request.headers())
        .and_then(|()| check_query_keys(&request, Access::Action));
    if let Err(e) = checked {
        return e.into_response();
    }
    match within_body_limit(request, app.body_timeout).await {
        Ok(request) => next.run(request).await,
        Err(e) => e.into_response(),
    }
}

/// The request with its body read whole, or 413 when it is over `MAX_BODY`: a route that
/// takes no body (stop, reset, …) must not take a huge one either; 408 when the body does not
/// arrive whole within `timeout` (a client that stops half-way must not hold a connection).
async fn within_body_limit(
    request: Request,
    timeout: std::time::Duration,
) -> Result<Request, ApiError> {
    use super::routes::MAX_BODY;
    let (parts, body) = request.into_parts();
    let read = tokio::time::timeout(timeout, axum::body::to_bytes(body, MAX_BODY)).await;
    let bytes = match read {
        Ok(Ok(bytes)) => bytes,
        Ok(Err(_)) => {
            return Err(ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "too_large",
                format!("request body: larger than {MAX_BODY} bytes (or not sent whole)"),
            ))
        }
        Err(_) => {
            return Err(ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                "timed_out",
                format!(
                    "request body: not sent whole within {:.1} s",
                    timeout.as_secs_f64()
                ),
            ))
        }
    };
    Ok(Request::from_parts(parts, axum::body::Body::from(bytes)))
}

/// Guards reads (status, runs, photos, events, metrics): beyond loopback they need the token
/// (as a bearer header, or `?token=` where a browser cannot set headers: images, WebSockets);
/// on loopback they need a loopback host, so a rebound DNS name cannot read them either.
pub(super) async fn reads(State(app): State<AppState>, request: Request, next: Next) -> Response {
    let checked = check_read(&app, request.headers(), request.uri())
        .and_then(|()| check_query_keys(&request, Access::Read));
    if let Err(e) = checked {
        return e.into_response();
    }
    next.run(request).await
}

/// Whether a route changes state (the token only as a header) or reads (`?token=` too).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Access {
    Action,
    Read,
}

/// The query keys a route takes: a key it does not take is refused, so a typo such as
/// `?limt=5` is not silently read as no limit.
fn keys_taken(route: &str, access: Access) -> &'static [&'static str] {
    match (route, access) {
        ("/api/runs", _) => &["limit", "before", "token"],
        ("/api/start", _) => &["source"],
        (_, Access::Read) => &["token"],
        (_, Access::Action) => &[],
    }
}

fn check_query_keys(request: &Request, access: Access) -> Result<(), ApiError> {
    let Some(query) = request.uri().query() else {
        return Ok(());
    };
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or(request.uri().path(), MatchedPath::as_str);
    let taken = keys_taken(route, access);
    let Some((key, _)) = form_urlencoded::parse(query.as_bytes())
        .find(|(key, _)| !key.is_empty() && !taken.contains(&key.as_ref()))
    else {
        return Ok(());
    };
    let takes = match taken {
        [] => "takes no query keys".to_string(),
        keys => format!("takes only {}", keys.join(", ")),
    };
    let header = if key == "token" {
        " (the token goes in `Authorization: Bearer <token>`)"
    } else {
        ""
    };
    Err(ApiError::new(
        StatusCode::BAD_REQUEST,
        "bad_request",
        format!(
            "query key `{key}` is not taken here: {} {} {takes}{header}",
            request.method(),
            request.uri().path()
        ),
    ))
}

fn check_action(app: &AppState, headers: &HeaderMap) -> Result<(), ApiError> {
    let host = host_of(headers);
    check_origin(headers, host)?;
    match &app.token {
        Some(token) => match bearer(headers) {
            Some(given) => check_token(given, token),
            None => Err(unauthorized(
                "this request needs `Authorization: Bearer <token>` (`[http] token` in cubed.toml)",
            )),
        },
        None => check_loopback_host(host),
    }
}

fn check_read(app: &AppState, headers: &HeaderMap, uri: &Uri) -> Result<(), ApiError> {
    let host = host_of(headers);
    check_origin(headers, host)?;
    let given = bearer(headers)
        .map(str::to_string)
        .or_else(|| query_token(uri));
    match (&app.token, given.as_deref()) {
        (Some(token), Some(given)) => check_token(given, token),
        (_, None) if app.reads_need_token => Err(unauthorized(
            "this server listens beyond this machine: reading needs the token too \
             (`Authorization: Bearer <token>`, or `?token=` for images and the event stream)",
        )),
        // No token configured: a given one has nothing to match, the host decides.
        _ => check_loopback_host(host),
    }
}

fn host_of(headers: &HeaderMap) -> &str {
    headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("")
}

/// A request sent by a page from another site names that site in `Origin`.
fn check_origin(headers: &HeaderMap, host: &str) -> Result<(), ApiError> {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return Ok(());
    };
    let origin = origin.to_str().unwrap_or("");
    let origin_host = origin.split_once("://").map_or("", |(_, rest)| rest);
    if origin_host == host {
        return Ok(());
    }
    Err(ApiError::new(
        StatusCode::FORBIDDEN,
        "forbidden",
        format!("requests from {origin} may not use this robot (this server is {host})"),
    ))
}

fn check_loopback_host(host: &str) -> Result<(), ApiError> {
    if is_loopback_host(host) {
        return Ok(());
    }
    Err(ApiError::new(
        StatusCode::FORBIDDEN,
        "forbidden",
        format!("host \"{host}\" is not this machine; use http://127.0.0.1 or set `[http] token`"),
    ))
}

fn check_token(given: &str, token: &str) -> Result<(), ApiError> {
    if same(given.trim().as_bytes(), token.as_bytes()) {
        Ok(())
    } else {
        Err(unauthorized("wrong token"))
    }
}

/// The token of `Authorization: Bearer <token>` (the scheme's name in any case, as HTTP has it).
fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then_some(token)
}

/// `token=…` in the query, `%`-escapes decoded (the page sends it `encodeURIComponent`ed).
fn query_token(uri: &Uri) -> Option<String> {
    form_urlencoded::parse(uri.query()?.as_bytes())
        .find(|(key, _)| key == "token")
        .map(|(_, value)| value.into_owned())
}

fn unauthorized(reason: &str) -> ApiError {
    ApiError::new(StatusCode::UNAUTHORIZED, "unauthorized", reason.to_string())
}

/// Equal, in time that depends only on the lengths (the token's length is no secret).
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |diff, (x, y)| diff | (x ^ y)) == 0
}

/// `localhost`, `127.x.y.z` or `[::1]`, with or without a port.
fn is_loopback_host(host: &str) -> bool {
    let name = match host.strip_prefix('[') {
        Some(rest) => rest.split(']').next().unwrap_or(""),
        None => host.rsplit_once(':').map_or(host, |(name, _)| name),
    };
    name.eq_ignore_ascii_case("localhost")
        || name
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.to_canonical().is_loopback())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comparison_is_exact() {
        assert!(same(b"abc", b"abc"));
        assert!(!same(b"abc", b"abd"));
        assert!(!same(b"ab", b"abc"));
        assert!(!same(b"abc", b"ab"));
        assert!(!same(b"", b"a"));
        assert!(same(b"", b""));
    }

    #[test]
    fn loopback_host_names() {
        for h in [
            "localhost",
            "localhost:8080",
            "127.0.0.1:1",
            "[::1]:8080",
            "[::1]",
        ] {
            assert!(is_loopback_host(h), "{h}");
        }
        for h in [
            "",
            "evil.example:8080",
            "192.168.1.2:80",
            "localhost.evil.example",
        ] {
            assert!(!is_loopback_host(h), "{h}");
        }
    }

    #[test]
    fn the_token_is_found_in_the_query() {
        let uri: Uri = "/api/events?a=1&token=abc&b=2".parse().expect("uri");
        assert_eq!(query_token(&uri).as_deref(), Some("abc"));
        let uri: Uri = "/api/events?token=a%26b%2Bc".parse().expect("uri");
        assert_eq!(query_token(&uri).as_deref(), Some("a&b+c"));
        let uri: Uri = "/api/events?tokens=abc".parse().expect("uri");
        assert_eq!(query_token(&uri), None);
        let uri: Uri = "/api/events".parse().expect("uri");
        assert_eq!(query_token(&uri), None);
    }
}
