//! The HTTP side of the daemon: REST API, WebSocket events and the page (served from the binary), talking to the daemon only through a [`crate::daemon::DaemonHandle`].

pub mod client;
mod events;
mod guard;
mod listen;
mod missing_photo;
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
pub use routes::Started;
pub(crate) use server::check_bind;
pub use server::serve;
pub use server::WebError;
pub use server::WebSettings;
