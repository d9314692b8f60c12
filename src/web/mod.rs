//! The HTTP side of the daemon: REST API, WebSocket events and the page (served from the binary), talking to the daemon only through a [`crate::daemon::DaemonHandle`].

pub mod client;
mod events;
mod guard;
mod listen;
mod routes;
#[doc(hidden)]
pub mod scripted;
pub mod server;
mod state;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_limits;

pub use client::{control, ClientError, ControlCommand, ControlReply};
pub use listen::WebLimits;
pub use routes::{ErrorBody, ErrorDetail, Started, DEFAULT_RUNS, MAX_RUNS};
pub use server::{check_bind, serve, serve_with, WebError, WebSettings, MIN_TOKEN_LEN};
