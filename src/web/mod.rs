//! The HTTP side of the daemon: REST API, WebSocket events and the page (served from the binary), talking to the daemon only through a [`crate::daemon::DaemonHandle`].
