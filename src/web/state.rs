//! What every handler can reach: the daemon's handle, the token, and the limits on the event WebSockets.

use crate::daemon::DaemonHandle;
use std::sync::Arc;
use tokio::sync::{mpsc, watch, Semaphore};

/// What every handler can reach.
#[derive(Clone)]
pub(crate) struct AppState {
    pub handle: DaemonHandle,
    pub token: Option<Arc<str>>,
    /// The server listens beyond loopback: reads need the token as actions do.
    pub reads_need_token: bool,
    /// One permit per event WebSocket that may still open.
    pub socket_permits: Arc<Semaphore>,
    /// Largest WebSocket message taken from a page.
    pub max_message: usize,
    /// A request's body must arrive in full within this, as its header must.
    pub body_timeout: std::time::Duration,
    /// Becomes true when the server shuts down (WebSockets close then).
    pub shutdown: watch::Receiver<bool>,
    /// Held by every open WebSocket; `serve` waits until all are dropped.
    pub sockets: mpsc::Sender<()>,
}
