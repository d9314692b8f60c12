//! The serial link to the robot firmware: transports (serial ports, ptys), the tokio task
//! that owns the port and the protocol's `HostLink`. Programs become firmware commands through
//! the robot model's [`crate::robot::ActuatorMap`].
//!
//! Guarantees: a move is sent as a new command once (ids unique and increasing, targets
//! absolute); retransmissions carry the same seq, so the firmware runs each once. A lost
//! port is reported at once ([`LinkEvent::LinkLost`]); the link reopens the port (asking a
//! [`PathResolver`] where it is now), checks with `QueryStatus` that the firmware kept the
//! session and configuration, reports moves done meanwhile and resends only unacked frames
//! ([`LinkEvent::LinkRestored`]). A rebooted firmware ends the link with
//! [`LinkError::FirmwareRebooted`]: re-home and rescan, never guess.
//!
//! Reconnection keeps the protocol session rather than sending a new `Hello`: a `Hello`
//! flushes the firmware's queue and interrupts the running move (PROTOCOL.md §9).

mod classic_termios;
pub(crate) mod clock;
pub mod counted;
pub(crate) mod error;
pub(crate) mod events;
pub mod fault_words;
pub(crate) mod handle;
pub(crate) mod stream;
mod task;
pub(crate) mod transport;

pub use clock::Clock;
pub use clock::TokioClock;
pub use error::LatchedBefore;
pub use error::LinkError;
pub use error::RestartCause;
pub use events::{firmware_name, Connected, LinkEvent, LinkSettings};
pub use handle::EStopHandle;
pub use handle::LinkHandle;
pub use stream::stream_gated;
pub use stream::stream_program;
pub use stream::StreamError;
pub use stream::StreamOutcome;
pub use transport::dangling_link;
pub use transport::no_port_at;
pub use transport::open_serial;
pub use transport::Connector;
pub use transport::FdStream;
pub use transport::FixedPath;
pub use transport::PathResolver;
pub use transport::SerialConnector;
pub use transport::SharedPath;
pub use transport::Transport;
