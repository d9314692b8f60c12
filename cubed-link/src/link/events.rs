//! What the daemon's handle and the link task tell each other: the link's settings, the requests sent to the task, the events it reports, and who the firmware is once greeted.

use super::error::LinkError;
use crate::robot::MotionGroup;
use firmware_protocol::message::{
    ChipInfo, Fault, FaultFlags, HelloReply, NakReason, ResetCause, Status,
};
use std::path::PathBuf;
use std::time::Duration;
use tokio::sync::oneshot;

/// Timeouts of the link, and how it names actuators in messages.
#[derive(Debug, Clone)]
pub struct LinkSettings {
    /// How long to wait for `HelloReply` and `ConfigureReply`.
    pub handshake_timeout: Duration,
    /// How long to keep trying to reopen a lost port before giving up.
    pub reconnect_timeout: Duration,
    /// Pause between attempts to reopen a lost port.
    pub reconnect_poll: Duration,
    /// After reopening, how long to wait for the firmware's `Status`.
    pub verify_timeout: Duration,
    /// Each actuator's name from the robot config, in firmware order (see
    /// [`crate::link::fault_words::actuator_names`]); empty: named by index and kind.
    pub actuator_names: Vec<String>,
    /// Clear a fault or emergency stop the firmware holds latched from before this session
    /// (`ClearFault` ahead of `Configure`): only when a person asked for it, having checked
    /// the robot. Without it such a latch refuses the configuration.
    pub clear_latched: bool,
}

impl Default for LinkSettings {
    fn default() -> Self {
        LinkSettings {
            handshake_timeout: Duration::from_secs(3),
            reconnect_timeout: Duration::from_secs(30),
            reconnect_poll: Duration::from_millis(20),
            verify_timeout: Duration::from_millis(600),
            actuator_names: Vec::new(),
            clear_latched: false,
        }
    }
}

/// Something the firmware or the link reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkEvent {
    /// A queued command finished; `outstanding` commands are still sent or waiting.
    MoveDone { move_id: u32, outstanding: usize },
    /// A button on the robot was pressed (0 = start).
    Button { button: u8 },
    /// The firmware latched a fault (motors stopped, queue flushed).
    Fault(Fault),
    /// The firmware refused a command it accepted in sequence (bad state, e-stop, impossible).
    Refused {
        move_id: Option<u32>,
        reason: NakReason,
    },
    /// The port failed; the link is trying to reopen it.
    LinkLost { path: PathBuf, reason: String },
    /// The port is back, the firmware kept its session; streaming resumes. The moves it
    /// completed meanwhile (`completed_meanwhile` of them) are reported next, as `MoveDone`.
    LinkRestored {
        path: PathBuf,
        last_completed_move_id: u32,
        completed_meanwhile: usize,
    },
    /// The robot's e-stop switch was pressed (`held`) or let go, as the firmware's `Status`
    /// reported it: told when it changes, and at the handshake while the stop is latched.
    /// Letting go does not clear the latched stop (a Reset does).
    EStopButton { held: bool },
    /// The emergency stop is latched in the firmware; these commands will not run.
    EStopped { cancelled: Vec<u32> },
    /// The firmware took a ClearFault (or it was overtaken by an e-stop): what it reported
    /// before is over. The handle reads it itself; [`LinkHandle::next_event`](crate::link::LinkHandle::next_event) never returns it.
    FaultCleared,
    /// The link stopped for good (the error, if any, says why).
    Stopped { error: Option<LinkError> },
}

/// Requests to the link task.
#[derive(Debug)]
pub(crate) enum LinkRequest {
    Send(MotionGroup),
    ClearFault,
    Status(oneshot::Sender<Status>),
    Shutdown,
}

/// The name a firmware gives in its `HelloReply` (`cubed-sim 0c9d` for a simulator).
pub fn firmware_name(hello: &HelloReply) -> String {
    String::from_utf8_lossy(hello.name_bytes()).into_owned()
}

/// Who the firmware is, from the handshake.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Connected {
    pub hello: HelloReply,
    pub config_checksum: u16,
    /// What the firmware held latched when greeted, before any clear this handshake sent
    /// (none set, too, when it did not say).
    pub latched: FaultFlags,
    /// Why the firmware started, when it said so just before this handshake (it had just
    /// booted, and its `Event Boot` reached the host).
    pub boot_cause: Option<ResetCause>,
    /// What the firmware's chip offers, when its `BoardInfo` came before the configuration
    /// was confirmed.
    pub chip: Option<ChipInfo>,
}
