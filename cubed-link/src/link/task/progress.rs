//! How the handshake is going: hellos sent, configuration attempts, what the firmware said it held latched, and the setup frames not yet sent.

use firmware_protocol::message::FaultFlags;
use firmware_protocol::Message;
use std::collections::VecDeque;

/// How the handshake is going.
#[derive(Debug, Clone)]
pub(crate) struct Progress {
    /// When the first `Hello` went out.
    pub began: u64,
    /// `Hello`s sent in the current stage (for the backoff).
    pub hellos: u32,
    /// Configuration stages begun.
    pub configure_attempts: u32,
    /// Frames the firmware refused as damaged while configuring.
    pub naks: u32,
    /// What the firmware reported latched when greeted (its `Status`), if it said.
    pub latched: Option<FaultFlags>,
    /// Whether the e-stop switch was active at the firmware's last `Status`, if it said.
    pub estop_held: Option<bool>,
    /// Sequence number of the `ClearFault` sent ahead of `Configure`, if one was.
    pub clear_seq: Option<u8>,
    /// When the `ConfigureReply` came (its checksum right) and the `QueryStatus` that
    /// confirms what the firmware holds latched under its new machine was last sent.
    pub confirming_since: Option<u64>,
    /// The setup frames and the `Configure` not yet sent: they go out as the firmware's
    /// receive window takes them.
    pub unsent: VecDeque<Message>,
}

impl Progress {
    pub(crate) fn new(now: u64) -> Progress {
        Progress {
            began: now,
            hellos: 0,
            configure_attempts: 0,
            naks: 0,
            latched: None,
            estop_held: None,
            clear_seq: None,
            confirming_since: None,
            unsent: VecDeque::new(),
        }
    }
}
