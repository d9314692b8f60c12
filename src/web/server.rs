//! The HTTP server: settings and the bind check (token beyond loopback), the router with its guards, the embedded page, and graceful shutdown.

use super::listen::{accept_loop, WebLimits};
use super::state::AppState;
use super::{events, guard, routes};
use crate::daemon::DaemonHandle;
use axum::extract::DefaultBodyLimit;
use axum::http::{header, HeaderValue};
use axum::middleware;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, watch, Semaphore};

/// Shortest token accepted (`[http] token` in cubed.toml).
pub(crate) const MIN_TOKEN_LEN: usize = 16;

/// Where the web server listens and the token that guards state-changing requests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WebSettings {
    pub bind: SocketAddr,
    pub token: Option<String>,
}

/// Why the web server could not start or stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum WebError {
    #[error("refusing to listen on {addr} ([http] bind, or --http) without a token: anything beyond loopback (127.0.0.0/8, ::1) needs `[http] token` in cubed.toml (at least {MIN_TOKEN_LEN} characters; `openssl rand -hex 16` makes one), or bind 127.0.0.1 and reach the page through `ssh -L 8080:127.0.0.1:8080 THIS-HOST`")]
    TokenRequired { addr: SocketAddr },
    #[error("`[http] token` in cubed.toml (listening on {addr}): {problem}")]
    BadToken { addr: SocketAddr, problem: String },
    #[error("web server on {addr}")]
    Io {
        addr: String,
        #[source]
        source: std::io::Error,
    },
}

/// Checks that the settings are safe: a non-loopback address needs a token, and a given token must be usable.
pub(crate) fn check_bind(settings: &WebSettings) -> Result<(), WebError> {
    let addr = settings.bind;
    if let Some(token) = &settings.token {
        let problem = if token.is_empty() {
            Some("the token is empty".to_string())
        } else if token.chars().count() < MIN_TOKEN_LEN {
            Some(format!(
                "the token has {} characters; use at least {MIN_TOKEN_LEN}",
                token.chars().count()
            ))
        } else if !token.bytes().all(|b| b.is_ascii_graphic()) {
            Some(
                "the token must be printable ASCII without spaces (it is sent in an HTTP header)"
                    .to_string(),
            )
        } else {
            None
        };
        if let Some(problem) = problem {
            return Err(WebError::BadToken { addr, problem });
        }
    } else if !addr.ip().to_canonical().is_loopback() {
        return Err(WebError::TokenRequired { addr });
    }
    Ok(())
}

/// How long `serve` waits for open WebSockets to say goodbye after shutdown.
const SOCKET_CLOSE_WAIT: Duration = Duration::from_secs(3);

/// Serves the page and the API on `listener` until `shutdown` completes, with the default limits.
pub async fn serve(
    listener: tokio::net::TcpListener,
    handle: DaemonHandle,
    settings: WebSettings,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), WebError> {
    serve_with(listener, handle, settings, WebLimits::default(), shutdown).await
}

/// Serves the page and the API on `listener` until `shutdown` completes.
pub(crate) async fn serve_with(
    listener: tokio::net::TcpListener,
    handle: DaemonHandle,
    settings: WebSettings,
    limits: WebLimits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), WebError> {
    let local = listener.local_addr().map_err(|source| WebError::Io {
        addr: settings.bind.to_string(),
        source,
    })?;
    check_bind(&settings)?;
    check_bind(&WebSettings {
        bind: local,
        token: settings.token.clone(),
    })?;
    let (stop_tx, stop_rx) = watch::channel(false);
    let (sockets_tx, mut sockets_rx) = mpsc::channel::<()>(1);
    let state = AppState {
        handle,
        token: settings.token.as_deref().map(Arc::from),
        reads_need_token: !local.ip().to_canonical().is_loopback(),
        socket_permits: Arc::new(Semaphore::new(limits.max_sockets)),
        max_message: limits.max_message,
        body_timeout: limits.header_timeout,
        shutdown: stop_rx.clone(),
        sockets: sockets_tx,
    };
    let app = router(state);
    tokio::spawn(async move {
        shutdown.await;
        // Stops the accept loop and wakes the WebSocket tasks so they send a close frame.
        let _ = stop_tx.send(true);
    });
    accept_loop(listener, app, limits, stop_rx).await;
    // The router (and its sender) is gone; wait for the sockets still closing.
    let _ = tokio::time::timeout(SOCKET_CLOSE_WAIT, sockets_rx.recv()).await;
    Ok(())
}

fn router(state: AppState) -> Router {
    let actions = Router::new()
        .route("/api/start", post(routes::start))
        .route("/api/stop", post(routes::stop))
        .route("/api/estop", post(routes::estop))
        .route("/api/reset", post(routes::reset))
        .route("/api/resume", post(routes::resume))
        .route("/api/calibrate", post(routes::calibrate))
        .route("/api/guide", post(routes::guide))
        .route_layer(middleware::from_fn_with_state(
            state.clone(),
            guard::actions,
        ));
    let reads = Router::new()
        .route("/api/status", get(routes::status))
        .route("/api/calibration", get(routes::last_calibration))
        .route("/api/runs", get(routes::runs))
        .route("/api/runs/{id}", get(routes::run))
        .route("/api/runs/{id}/images/{attempt}/{face}", get(routes::image))
        .route(
            "/api/runs/{id}/images/{attempt}/{face}/{take}",
            get(routes::earlier_image),
        )
        .route("/api/events", get(events::upgrade))
        .route("/metrics", get(metrics))
        .route_layer(middleware::from_fn_with_state(state.clone(), guard::reads));
    Router::new()
        .route("/", get(index))
        .route("/index.html", get(index))
        .route("/app.js", get(app_js))
        .route("/style.css", get(style_css))
        .merge(reads)
        .merge(actions)
        .layer(DefaultBodyLimit::max(routes::MAX_BODY))
        .fallback(routes::not_found)
        .method_not_allowed_fallback(routes::method_not_allowed)
        .with_state(state)
}

const INDEX_HTML: &str = include_str!("page/index.html");
/// The page's script: its parts in order, as one file (no build step, one request).
const APP_JS: &str = concat!(
    include_str!("page/app.js"),
    include_str!("page/net.js"),
    include_str!("page/panels.js")
);
const STYLE_CSS: &str = include_str!("page/style.css");

/// The page may load nothing from elsewhere (the robot may be offline anyway).
const CSP: &str = "default-src 'self'; img-src 'self' data:; connect-src 'self'; \
                   style-src 'self'; script-src 'self'; object-src 'none'; frame-ancestors 'none'";

fn page(body: &'static str, content_type: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(content_type)),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
            (
                header::CONTENT_SECURITY_POLICY,
                HeaderValue::from_static(CSP),
            ),
            (
                header::X_CONTENT_TYPE_OPTIONS,
                HeaderValue::from_static("nosniff"),
            ),
        ],
        body,
    )
        .into_response()
}

/// Prometheus' scrape: the daemon's metrics in the text format.
async fn metrics() -> Response {
    (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static(crate::metrics::CONTENT_TYPE),
        )],
        crate::metrics::exposition(),
    )
        .into_response()
}

async fn index() -> Response {
    page(INDEX_HTML, "text/html; charset=utf-8")
}

async fn app_js() -> Response {
    page(APP_JS, "text/javascript; charset=utf-8")
}

async fn style_css() -> Response {
    page(STYLE_CSS, "text/css; charset=utf-8")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(bind: &str, token: Option<&str>) -> WebSettings {
        WebSettings {
            bind: bind.parse().expect("test address"),
            token: token.map(str::to_string),
        }
    }

    #[test]
    fn loopback_needs_no_token() {
        for addr in [
            "127.0.0.1:8080",
            "127.1.2.3:80",
            "[::1]:8080",
            "[::ffff:127.0.0.1]:1",
        ] {
            assert!(check_bind(&settings(addr, None)).is_ok(), "{addr}");
        }
    }

    #[test]
    fn beyond_loopback_needs_a_token() {
        for addr in ["0.0.0.0:8080", "192.168.1.5:80", "[::]:8080"] {
            let e = check_bind(&settings(addr, None))
                .expect_err(addr)
                .to_string();
            assert!(e.contains(addr) && e.contains("[http] token"), "{e}");
        }
        assert!(check_bind(&settings("0.0.0.0:8080", Some("0123456789abcdef"))).is_ok());
    }

    #[test]
    fn weak_tokens_are_refused_with_the_reason() {
        for (token, why) in [
            ("", "empty"),
            ("short", "5 characters"),
            ("0123456789 abcdef", "printable"),
        ] {
            let e = check_bind(&settings("0.0.0.0:8080", Some(token)))
                .expect_err(token)
                .to_string();
            assert!(e.contains(why) && e.contains("[http] token"), "{e}");
        }
    }
}
