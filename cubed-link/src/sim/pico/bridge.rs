//! One emulated Pico on a cable: the Node harness as a child process, its USB serial bytes
//! carried to and from a pseudo-terminal, the cable pulled and put back as a person would
//! (the pty goes away and a new one appears behind the same symlink, as udev does with
//! `/dev/serial/by-id`).

use super::{PicoError, PicoEvent, PicoFiles, PicoListener};
use crate::sim::pty::{open_raw_pty, point_symlink};
use nix::fcntl::{fcntl, FcntlArg, OFlag};
use nix::poll::{poll, PollFd, PollFlags, PollTimeout};
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// How long the harness may take to write its trace out and stop after `quit`.
const QUIT_WAIT: Duration = Duration::from_secs(5);

/// The pty the cable ends in: the master's writing half, and a flag that stops its reader.
struct Cable {
    master: File,
    unplugged: Arc<AtomicBool>,
    /// The pty it is, which the link points at while it is in.
    pty: std::path::PathBuf,
}

/// What the caller and the bridge's threads share.
struct Bridge {
    stdin: Mutex<ChildStdin>,
    cable: Mutex<Option<Cable>>,
    port: PathBuf,
    listener: PicoListener,
    /// The chip was reset: its USB comes back, on a new pty, when it enumerates again.
    replug_on_connect: AtomicBool,
}

/// An emulated Pico on a cable; the harness is stopped on drop.
pub struct EmulatedPico {
    child: Child,
    bridge: Arc<Bridge>,
    trace: Option<PathBuf>,
    _dir: tempfile::TempDir,
}

/// Locks a mutex whose holder may have panicked: the data (a pipe, a cable) is still sound.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl EmulatedPico {
    /// Boots the firmware on the machine `wiring_json` describes (`cubed config wiring
    /// --format json`), with the motors at positions from `seed`, and plugs its cable into
    /// a pty behind `port`. The trace of every pin goes to `trace`; with none, nothing is
    /// traced (an emulator left running an hour would otherwise write about 10 MB).
    /// Events, the first pty's path among them, go to `listener` as they happen.
    pub fn start(
        files: &PicoFiles,
        wiring_json: &str,
        seed: u64,
        port: &Path,
        trace: Option<&Path>,
        listener: PicoListener,
    ) -> Result<EmulatedPico, PicoError> {
        let dir = tempfile::tempdir().map_err(|source| PicoError::Write {
            what: "folder",
            path: std::env::temp_dir(),
            source,
        })?;
        let wiring = dir.path().join("wiring.json");
        std::fs::write(&wiring, wiring_json).map_err(|source| PicoError::Write {
            what: "machine description",
            path: wiring.clone(),
            source,
        })?;
        let trace = trace.map(Path::to_path_buf);
        let mut command = Command::new("node");
        command
            .arg(&files.harness)
            .arg("--elf")
            .arg(&files.elf)
            .arg("--machine")
            .arg(&wiring)
            .args(["--seed", &seed.to_string()]);
        if let Some(trace) = &trace {
            command.arg("--trace").arg(trace);
        }
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            // Its own process group: a Ctrl-C at the terminal reaches the caller, which
            // stops the emulator with its trace written out.
            .process_group(0)
            .spawn()
            .map_err(|source| PicoError::Spawn {
                script: files.harness.clone(),
                source,
            })?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            unreachable!("both are piped");
        };
        let bridge = Arc::new(Bridge {
            stdin: Mutex::new(stdin),
            cable: Mutex::new(None),
            port: port.to_path_buf(),
            listener,
            replug_on_connect: AtomicBool::new(false),
        });
        let pico = EmulatedPico {
            child,
            bridge: bridge.clone(),
            trace,
            _dir: dir,
        };
        bridge.plug_pty()?;
        spawn_harness_reader(stdout, bridge);
        Ok(pico)
    }

    /// The pin trace's file (see `firmware/boards/pico/emulator/machine.mjs`), if one
    /// was asked for.
    pub fn trace_path(&self) -> Option<&Path> {
        self.trace.as_deref()
    }

    /// Drives a board input (the e-stop, the start button) to `high`.
    pub fn set_pin(&self, gpio: u8, high: bool) {
        self.bridge
            .command(&format!("pin {gpio} {}", u8::from(high)));
    }

    /// Drives a board input to `high` the next time the CPU enters `function` (the one
    /// function in the ELF's symbols whose name ends so, `Firmware>::next_deadline`): a
    /// moment inside the firmware's loop that no timing from outside the chip can hit. A
    /// name the ELF does not give one function is refused ([`PicoEvent::Refused`], naming
    /// the functions it found), and nothing is driven.
    pub fn set_pin_on_entry(&self, function: &str, gpio: u8, high: bool) {
        self.bridge
            .command(&format!("pin-at {function} {gpio} {}", u8::from(high)));
    }

    /// Pulls the USB cable: the host's port hangs up, the firmware hears nothing more.
    pub fn unplug(&self) {
        self.bridge.unplug_pty();
        self.bridge.command("unplug");
    }

    /// Puts the cable back: a new pty behind the same symlink, enumerated afresh
    /// ([`PicoEvent::Connected`] follows).
    pub fn plug(&self) -> Result<(), PicoError> {
        self.bridge.plug_pty()?;
        self.bridge.command("plug");
        Ok(())
    }

    /// The firmware stops making progress (its CPU spins, interrupts off): the watchdog
    /// should reset the chip ([`PicoEvent::Reset`]).
    pub fn hang(&self) {
        self.bridge.command("hang");
    }

    /// Asks for the trace to be written out ([`PicoEvent::Flushed`] follows).
    pub fn flush(&self) {
        self.bridge.command("flush");
    }

    /// Stops the emulator, its trace written out, and unplugs the cable: the symlink goes.
    pub fn stop(mut self) -> Option<ExitStatus> {
        self.bridge.command("quit");
        let deadline = Instant::now() + QUIT_WAIT;
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    }
}

impl Drop for EmulatedPico {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.bridge.unplug_pty();
    }
}

impl Bridge {
    /// One line to the harness; a harness gone is said by its [`PicoEvent::Ended`].
    fn command(&self, line: &str) {
        let _ = writeln!(lock(&self.stdin), "{line}");
    }

    fn plug_pty(self: &Arc<Self>) -> Result<(), PicoError> {
        let pty = open_raw_pty().map_err(PicoError::Pty)?;
        let flags = fcntl(&pty.master, FcntlArg::F_GETFL).map_err(|e| PicoError::Pty(e.into()))?;
        let nonblocking = OFlag::from_bits_truncate(flags) | OFlag::O_NONBLOCK;
        fcntl(&pty.master, FcntlArg::F_SETFL(nonblocking)).map_err(|e| PicoError::Pty(e.into()))?;
        let master = File::from(pty.master);
        let reader = master.try_clone().map_err(PicoError::Pty)?;
        let unplugged = Arc::new(AtomicBool::new(false));
        point_symlink(&self.port, &pty.path).map_err(|source| PicoError::Link {
            link: self.port.clone(),
            source,
        })?;
        spawn_pty_reader(reader, pty.slave, unplugged.clone(), self.clone());
        *lock(&self.cable) = Some(Cable {
            master,
            unplugged,
            pty: pty.path.clone(),
        });
        (self.listener)(PicoEvent::Port(pty.path));
        Ok(())
    }

    fn unplug_pty(&self) {
        if let Some(cable) = lock(&self.cable).take() {
            crate::sim::pty::remove_symlink_if_at(&self.port, &cable.pty);
            cable.unplugged.store(true, Ordering::SeqCst);
            (self.listener)(PicoEvent::PortGone);
        }
    }

    /// Serial bytes from the firmware to the pty: like a UART nobody reads, what the host
    /// does not take is lost.
    fn to_host(&self, bytes: &[u8]) {
        if let Some(cable) = lock(&self.cable).as_mut() {
            let _ = cable.master.write_all(bytes);
        }
    }

    /// One line of the harness's output.
    fn heard(self: &Arc<Self>, line: &str) {
        let mut words = line.splitn(3, ' ');
        let event = match (words.next(), words.next(), words.next()) {
            (Some("rx"), Some(ns), Some(hex)) => {
                let bytes = decode_hex(hex);
                self.to_host(&bytes);
                PicoEvent::FromFirmware(ns.parse().unwrap_or(0), bytes)
            }
            (Some("reset"), Some(ns), _) => {
                // Its USB is gone until it enumerates again, as a rebooting Pico's is.
                self.unplug_pty();
                self.replug_on_connect.store(true, Ordering::SeqCst);
                PicoEvent::Reset(ns.parse().unwrap_or(0))
            }
            (Some("connected"), serial, rest) => {
                if self.replug_on_connect.swap(false, Ordering::SeqCst) {
                    if let Err(e) = self.plug_pty() {
                        (self.listener)(PicoEvent::Failed(e.to_string()));
                    }
                }
                let serial = [serial.unwrap_or(""), rest.unwrap_or("")].join(" ");
                PicoEvent::Connected(serial.trim().to_string())
            }
            (Some("flushed"), Some(ns), Some(positions)) => {
                PicoEvent::Flushed(ns.parse().unwrap_or(0), positions.to_string())
            }
            (Some("error"), ..) => PicoEvent::Failed(line["error ".len().min(line.len())..].into()),
            (Some("refused"), ..) => {
                PicoEvent::Refused(line["refused ".len().min(line.len())..].into())
            }
            _ => {
                eprintln!("emulated Pico said: {line}");
                return;
            }
        };
        (self.listener)(event);
    }
}

/// The harness's standard output, line by line, until it ends.
fn spawn_harness_reader(stdout: impl Read + Send + 'static, bridge: Arc<Bridge>) {
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            bridge.heard(&line);
        }
        (bridge.listener)(PicoEvent::Ended);
    });
}

/// The host's bytes, from the pty master to the harness, until the cable is pulled.
fn spawn_pty_reader(
    mut master: File,
    slave: OwnedFd,
    unplugged: Arc<AtomicBool>,
    bridge: Arc<Bridge>,
) {
    std::thread::spawn(move || {
        // The slave stays open here so that the master never reads EIO between two hosts.
        let _slave = slave;
        let mut buf = [0u8; 512];
        while !unplugged.load(Ordering::SeqCst) {
            let mut fds = [PollFd::new(master.as_fd(), PollFlags::POLLIN)];
            if !matches!(poll(&mut fds, PollTimeout::from(20u8)), Ok(n) if n > 0) {
                continue;
            }
            match master.read(&mut buf) {
                Ok(0) => continue,
                Ok(n) => {
                    let hex: String = buf[..n].iter().map(|b| format!("{b:02x}")).collect();
                    if writeln!(lock(&bridge.stdin), "tx {hex}").is_err() {
                        return;
                    }
                    (bridge.listener)(PicoEvent::ToFirmware(buf[..n].to_vec()));
                }
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                Err(_) => std::thread::sleep(Duration::from_millis(20)),
            }
        }
    });
}

fn decode_hex(hex: &str) -> Vec<u8> {
    (0..hex.len() / 2)
        .filter_map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::decode_hex;

    #[test]
    fn hex_from_the_harness_is_read_two_digits_a_byte() {
        assert_eq!(decode_hex("00ff7e"), vec![0x00, 0xff, 0x7e]);
        assert_eq!(decode_hex(""), Vec::<u8>::new());
    }
}
