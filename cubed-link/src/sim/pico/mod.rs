//! The Pico firmware exactly as `firmware/build.sh pico` builds it, on the rp2040js
//! emulator (`firmware/boards/pico/emulator`, a Node child process), its USB serial port
//! carried to a real pseudo-terminal behind a by-id style symlink, so that `cubed exec`,
//! the daemon and the tests talk to it as to a Pico on a cable. Found in a clone of cubed:
//! the emulator is a developer's tool, not part of the package.

mod bridge;
mod files;

pub use bridge::EmulatedPico;
pub use files::PicoFiles;

use std::path::PathBuf;

/// Why the emulated Pico cannot run here, or stopped.
#[derive(Debug, thiserror::Error)]
pub enum PicoError {
    #[error("the emulated Pico runs from a clone of cubed: no {emulator} in {} or a folder above it, nor above this program, nor in the clone it was built from: run it from inside a clone", searched.display())]
    NoClone {
        emulator: &'static str,
        searched: PathBuf,
    },
    #[error("no Pico firmware at {}: build it with `bash firmware/build.sh pico`, or give its ELF with --elf", elf.display())]
    NoFirmware { elf: PathBuf },
    #[error("{} is not an ELF file: give the firmware's ELF (the build's `.uf2` beside it is for copying onto a board)", elf.display())]
    NotElf { elf: PathBuf },
    #[error("the emulated Pico needs Node.js 18 or later: `node --version` {why} (apt-get install nodejs)")]
    NoNode { why: String },
    #[error("the emulator's rp2040js is not installed: run `npm ci` in {}", dir.display())]
    NoEmulator { dir: PathBuf },
    #[error("cannot write the emulator's {what} {}", path.display())]
    Write {
        what: &'static str,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot start the emulator (node {})", script.display())]
    Spawn {
        script: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot open a pseudo-terminal for the emulated Pico's USB port")]
    Pty(#[source] std::io::Error),
    #[error("cannot point {} at the emulated Pico's pseudo-terminal", link.display())]
    Link {
        link: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// What the emulated Pico and its cable do, as they happen (on the bridge's threads).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PicoEvent {
    /// A new pty carries the USB port (at start, after a plug, after a reset): its path.
    Port(PathBuf),
    /// The pty is gone (the cable pulled, the chip reset): nobody should open the old path.
    PortGone,
    /// The emulated host enumerated the firmware and opened its port: its USB serial number.
    Connected(String),
    /// The watchdog reset the chip, at this emulated time (ns); it boots and enumerates again.
    Reset(u64),
    /// The trace is written out: the emulated time (ns) and each stepper's modelled
    /// position (JSON, by actuator).
    Flushed(u64, String),
    /// Bytes the firmware sent, and the emulated time (ns) they left.
    FromFirmware(u64, Vec<u8>),
    /// Bytes the host wrote to the pty, handed to the firmware.
    ToFirmware(Vec<u8>),
    /// The emulated CPU failed (a HardFault, a jump out of flash and RAM); the emulator ends.
    Failed(String),
    /// The harness cannot obey a command (a `pin-at` function the ELF does not name once):
    /// why; nothing was done, and the emulator runs on.
    Refused(String),
    /// The emulator's output ended: it has stopped.
    Ended,
}

/// Receives every [`PicoEvent`], on the bridge's threads.
pub type PicoListener = Box<dyn Fn(PicoEvent) + Send + Sync>;
