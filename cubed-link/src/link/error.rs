//! The link layer's errors: each names the port path, the frame or the move id involved.

use cubed_core::error_chain::error_chain;
use firmware_protocol::message::{ConfigRefusal, FaultFlags, NakReason, ResetCause};
use std::path::PathBuf;

/// Everything that stops or refuses the serial link.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LinkError {
    #[error("cannot open serial port {path}: {reason}")]
    Open { path: PathBuf, reason: String },
    #[error("serial port {path}: {reason}")]
    Io { path: PathBuf, reason: String },
    #[error("no HelloReply from the firmware on {path} within {waited_ms} ms (is it a cubed robot, at the right baud rate?)")]
    NoAnswer { path: PathBuf, waited_ms: u64 },
    #[error("the firmware on {path} speaks protocol {firmware}, this cubed needs {host}: refusing to run; {}", version_advice(*firmware, *host))]
    VersionMismatch {
        path: PathBuf,
        host: u8,
        firmware: u8,
    },
    #[error("firmware on {path} reports configuration checksum {found:#06x}, the robot config gives {expected:#06x}: refusing to run (wrong robot file or firmware?)")]
    ConfigMismatch {
        path: PathBuf,
        expected: u16,
        found: u16,
    },
    #[error("the firmware on {path} answered Hello but did not confirm the configuration (no ConfigureReply) in {attempts} attempt(s) over {waited_ms} ms, {naks} frame(s) refused as damaged; the baud rate is right (its HelloReply came through), so the line is too noisy for the long Configure frame: check the cable (length, shielding, a shared ground) and any USB hub")]
    NoConfigureReply {
        path: PathBuf,
        attempts: u32,
        waited_ms: u64,
        naks: u32,
    },
    #[error("{}", config_refused_in_words(path, *reason, *latched))]
    ConfigRefused {
        path: PathBuf,
        reason: NakReason,
        /// What the firmware reported latched while it was greeted, if it said.
        latched: Option<FaultFlags>,
        /// Whether its e-stop switch was active then, if it said.
        estop_held: Option<bool>,
    },
    #[error("the firmware on {path} would not clear {}: its emergency-stop input is still active; release the e-stop button (a normally-closed switch also reads pressed when a wire is loose), then clear it again; with no switch fitted, the input reads pressed for ever: take `estop` out of the robot design's [board]", latched_or(*latched, "what it holds latched"))]
    ClearRefused {
        path: PathBuf,
        latched: Option<FaultFlags>,
        /// Whether its e-stop switch was active then, if it said.
        estop_held: Option<bool>,
    },
    /// A handshake that failed after the firmware took the `ClearFault` asked for: the
    /// latch is gone whatever the failure, and a person must know it.
    #[error("{failed}; {}", super::fault_words::cleared_in_words(*cleared))]
    AfterClear {
        cleared: FaultFlags,
        failed: Box<LinkError>,
    },
    #[error("the robot design gives no wiring ([board] and a `wiring` table per gripper and flipper), and the firmware on {path} ('{firmware}') is a real board, not the simulator: refusing to guess which pins drive what; describe the wiring in the design (docs/wiring.md)")]
    Unwired { path: PathBuf, firmware: String },
    #[error("the simulator on {path} simulates another robot{} ('{firmware}', where this design's machine would be '{expected}'): start it with the design this command uses (`cubed sim --pty --robot DESIGN`, the same DESIGN as here), or give this command the simulator's --robot", shipped.map(|name| format!(", the shipped design '{name}'")).unwrap_or_default())]
    OtherSimulatedRobot {
        path: PathBuf,
        firmware: String,
        expected: String,
        /// The shipped design it simulates, if it is one of them.
        shipped: Option<&'static str>,
    },
    #[error("the firmware on {path} cannot drive this robot as configured: {words}")]
    ConfigureRefused {
        path: PathBuf,
        refusal: ConfigRefusal,
        /// The reason in words, naming the actuator.
        words: String,
    },
    #[error("the firmware on {path} restarted{cause}: the run is interrupted; re-home the robot and rescan the cube")]
    FirmwareRebooted { path: PathBuf, cause: RestartCause },
    #[error("the device now at {path} reports move {reported} as its last completed, but this session saw {done} done and sent up to {sent}: not the same firmware session; refusing to guess")]
    NotOurSession {
        path: PathBuf,
        reported: u32,
        done: u32,
        sent: u32,
    },
    #[error("serial port {path} did not come back within {:.1} s", *.waited_ms as f64 / 1000.0)]
    PortGone { path: PathBuf, waited_ms: u64 },
    #[error("move id {given} is not greater than the previous move id {previous}: move ids must be unique and increasing")]
    MoveIdNotIncreasing { previous: u32, given: u32 },
    #[error("cannot encode a frame")]
    Protocol(#[source] firmware_protocol::Error),
    #[error("the link task has stopped")]
    Closed,
}

/// What to flash or install when the protocol versions differ.
fn version_advice(firmware: u8, host: u8) -> &'static str {
    if firmware < host {
        "flash the firmware built from this cubed version (the package's /usr/share/cubed/firmware/cubed-pico.uf2, or in a clone `bash firmware/build.sh pico` makes cubed-fw-pico.uf2: hold BOOTSEL, plug in, copy it to the RPI-RP2 drive; see firmware/README.md)"
    } else {
        "this cubed is older than the firmware: install the cubed version the firmware was built from, or flash the firmware from this one"
    }
}

impl LinkError {
    /// An I/O failure on `path`.
    pub fn io(path: &std::path::Path, error: &std::io::Error) -> LinkError {
        LinkError::Io {
            path: path.to_path_buf(),
            reason: error_chain(&error),
        }
    }

    /// The failure itself, whether or not a clear was taken before it ([`LinkError::AfterClear`]).
    pub fn failure(&self) -> &LinkError {
        match self {
            LinkError::AfterClear { failed, .. } => failed,
            other => other,
        }
    }
}

impl From<firmware_protocol::Error> for LinkError {
    fn from(error: firmware_protocol::Error) -> Self {
        LinkError::Protocol(error)
    }
}

/// A fault or an emergency stop the firmware holds latched from before this session: a
/// person checks the robot and clears it on purpose.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LatchedBefore {
    /// What is latched, if the firmware said.
    pub faults: Option<FaultFlags>,
    /// A clear was asked for and refused: the e-stop input is still active.
    pub clear_refused: bool,
    /// Whether the e-stop switch was active at the firmware's last `Status`, if it said.
    pub estop_held: Option<bool>,
}

impl LatchedBefore {
    /// What is latched in words, e.g. `the emergency stop`.
    pub fn what(&self) -> String {
        latched_or(self.faults, "a fault or an emergency stop")
    }

    /// Whether the emergency stop is among what is latched (or the firmware did not say).
    pub fn estop(&self) -> bool {
        self.faults.is_none_or(|f| f.any(FaultFlags::ESTOP))
    }
}

impl LinkError {
    /// Whether the firmware holds a fault or an emergency stop latched from before this
    /// session, and what.
    pub fn latched_before_session(&self) -> Option<LatchedBefore> {
        match self {
            LinkError::ConfigRefused {
                reason: NakReason::BadState | NakReason::EStopLatched,
                latched,
                estop_held,
                ..
            } => Some(LatchedBefore {
                faults: *latched,
                clear_refused: false,
                estop_held: *estop_held,
            }),
            LinkError::ClearRefused {
                latched,
                estop_held,
                ..
            } => Some(LatchedBefore {
                faults: *latched,
                clear_refused: true,
                estop_held: *estop_held,
            }),
            _ => None,
        }
    }
}

/// The latched faults in words, or `otherwise` when the firmware did not say.
fn latched_or(latched: Option<FaultFlags>, otherwise: &str) -> String {
    latched
        .and_then(super::fault_words::latched_in_words)
        .unwrap_or_else(|| otherwise.to_string())
}

/// Why the firmware refused `Configure`: a fault or an e-stop latched from before (a new
/// session keeps them, so that a person clears it on purpose), or this design.
fn config_refused_in_words(
    path: &std::path::Path,
    reason: NakReason,
    latched: Option<FaultFlags>,
) -> String {
    let words = super::fault_words::nak_in_words(reason);
    let path = path.display();
    match reason {
        NakReason::BadState | NakReason::EStopLatched => format!(
            "the firmware on {path} refused the configuration ({words}): it holds {} latched from before this session; check the robot, then clear it on purpose: `cubed exec --reset`, the daemon's Reset (the page or `cubed reset`; a run that waits for a person is resumed instead by its Resume, which clears it too), or power-cycle the board",
            latched_or(latched, "a fault or an emergency stop")
        ),
        _ => format!("the firmware on {path} refused the configuration ({words}): it cannot drive this robot design"),
    }
}

/// Why a firmware restarted, in words for a person (empty when it did not say).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RestartCause(pub Option<ResetCause>);

impl RestartCause {
    /// The cause in words when it was not an ordinary power-on (a hang, a firmware
    /// error, a supply dip): worth telling a person who connects just after it.
    pub fn abnormal(cause: Option<ResetCause>) -> Option<RestartCause> {
        let abnormal = matches!(
            cause,
            Some(ResetCause::Watchdog | ResetCause::Software | ResetCause::BrownOut)
        );
        abnormal.then_some(RestartCause(cause))
    }
}

impl std::fmt::Display for RestartCause {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let words = match self.0 {
            None | Some(ResetCause::Unknown) => return Ok(()),
            Some(ResetCause::PowerOn) => "it lost power, or was plugged in again",
            Some(ResetCause::Watchdog) => "its watchdog reset it: the firmware hung",
            Some(ResetCause::BrownOut) => "its supply voltage dipped",
            Some(ResetCause::Software) => "it reset itself after a firmware error",
            Some(ResetCause::ResetPin) => "its reset pin was pulled",
        };
        write!(f, " ({words})")
    }
}

#[cfg(test)]
mod restart_tests {
    use super::*;

    #[test]
    fn a_restart_says_why_only_when_the_firmware_said() {
        assert_eq!(RestartCause(None).to_string(), "");
        assert_eq!(
            RestartCause(Some(ResetCause::Watchdog)).to_string(),
            " (its watchdog reset it: the firmware hung)"
        );
        assert!(RestartCause::abnormal(Some(ResetCause::PowerOn)).is_none());
        assert!(RestartCause::abnormal(Some(ResetCause::Software)).is_some());
    }
}
