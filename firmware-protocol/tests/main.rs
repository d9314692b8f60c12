//! Integration tests of the protocol crate: one binary, one module per area.

mod common;
mod golden;
mod lossy_link;
mod messages;
mod props;
mod protocol_doc;
mod session;
