//! One emulated Pico: the Node harness as a child process, its USB serial bytes carried
//! to and from a pseudo-terminal, the cable pulled and put back as a person would (the
//! pty goes away and a new one appears behind the same symlink, as udev does with
//! `/dev/serial/by-id`).

use super::trace::{FirmwareBytes, Trace};
use firmware_protocol::Message;
use nix::fcntl::{fcntl, FcntlArg, OFlag};
use nix::poll::{poll, PollFd, PollFlags, PollTimeout};
use nix::pty::openpty;
use nix::sys::termios::{cfmakeraw, tcgetattr, tcsetattr, SetArg};
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::fd::{AsFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const ELF: &str = "thumbv6m-none-eabi/release/cubed-fw-pico";
const EMULATOR: &str = "firmware/boards/pico/emulator";

/// The host's bytes, chunk by chunk, with the wall time each left the pty.
type HostChunks = Vec<(Instant, Vec<u8>)>;

/// What the harness says besides serial bytes.
#[derive(Debug)]
enum Said {
    Connected(String),
    Reset(u64),
    Flushed(u64, String),
    Error(String),
}

/// The pty the cable ends in: the master's writing half, and a flag that stops its reader.
struct Cable {
    master: File,
    unplugged: Arc<AtomicBool>,
}

/// What the test and the harness's reader share: the harness's input, the cable, the
/// symlink, and the host's bytes.
struct Bridge {
    stdin: Mutex<ChildStdin>,
    cable: Mutex<Option<Cable>>,
    port: PathBuf,
    to_firmware: Arc<Mutex<HostChunks>>,
    /// The chip was reset: its USB comes back, on a new pty, when it enumerates again.
    replug_on_connect: AtomicBool,
}

/// An emulated Pico on a cable; the harness is killed on drop.
pub struct EmulatedPico {
    child: Child,
    bridge: Arc<Bridge>,
    said: Receiver<Said>,
    /// The symlink `cubed exec --port` opens.
    pub port: PathBuf,
    trace_path: PathBuf,
    /// Every chunk the firmware sent, with its emulated time.
    pub from_firmware: Arc<Mutex<FirmwareBytes>>,
    /// The USB serial number the emulated host read from the firmware.
    pub serial_number: String,
    _dir: tempfile::TempDir,
}

impl Drop for EmulatedPico {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.bridge.unplug_pty();
    }
}

/// The ELF and the emulator, or why this machine cannot run them. A test calls this
/// first: `None` means skip (said loudly), unless `CUBED_REQUIRE_FIRMWARE=1`.
pub fn available(test: &str) -> Option<PathBuf> {
    match prerequisites() {
        Ok(elf) => Some(elf),
        Err(why) if std::env::var_os("CUBED_REQUIRE_FIRMWARE").is_some() => {
            panic!("{test}: {why} (CUBED_REQUIRE_FIRMWARE=1 makes this a failure)")
        }
        Err(why) => {
            let bar = "!".repeat(78);
            eprintln!("\n{bar}\n*** SKIPPED {test}: {why} ***\n{bar}\n");
            None
        }
    }
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn prerequisites() -> Result<PathBuf, String> {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target"));
    let elf = std::env::var_os("CUBED_FW_PICO_ELF")
        .map(PathBuf::from)
        .unwrap_or_else(|| target.join(ELF));
    if !elf.is_file() {
        return Err(format!(
            "no Pico firmware at {} (run firmware/build.sh pico)",
            elf.display()
        ));
    }
    let node = Command::new("node").arg("--version").output();
    if !node.is_ok_and(|o| o.status.success()) {
        return Err("no `node` (apt-get install nodejs)".into());
    }
    if !root().join(EMULATOR).join("node_modules/rp2040js").is_dir() {
        return Err(format!(
            "rp2040js is not installed (cd {EMULATOR} && npm ci)"
        ));
    }
    Ok(elf)
}

impl EmulatedPico {
    /// Boots the firmware, with the motors at seeded positions, and waits until the
    /// emulated host has enumerated it.
    pub fn start(elf: &Path, seed: u64) -> EmulatedPico {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let trace_path = dir.path().join("trace.txt");
        let wiring_path = dir.path().join("wiring.json");
        std::fs::write(&wiring_path, four_arm_wiring_json()).expect("wiring written");
        let mut child = Command::new("node")
            .arg(root().join(EMULATOR).join("pico.mjs"))
            .arg("--elf")
            .arg(elf)
            .arg("--machine")
            .arg(&wiring_path)
            .arg("--trace")
            .arg(&trace_path)
            .args(["--seed", &seed.to_string()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("node starts");
        let port = dir.path().join("serial-by-id-cubed-pico");
        let bridge = Arc::new(Bridge {
            stdin: Mutex::new(child.stdin.take().expect("piped stdin")),
            cable: Mutex::new(None),
            port: port.clone(),
            to_firmware: Arc::new(Mutex::new(Vec::new())),
            replug_on_connect: AtomicBool::new(false),
        });
        let stdout = child.stdout.take().expect("piped stdout");
        let (tell, said) = channel();
        let from_firmware = Arc::new(Mutex::new(FirmwareBytes::default()));
        spawn_reader(stdout, bridge.clone(), from_firmware.clone(), tell);
        let mut pico = EmulatedPico {
            child,
            bridge,
            said,
            port,
            trace_path,
            from_firmware,
            serial_number: String::new(),
            _dir: dir,
        };
        pico.bridge.plug_pty();
        pico.serial_number = pico.wait_connected();
        pico
    }

    fn command(&self, line: &str) {
        self.bridge.command(line);
    }

    fn wait_connected(&self) -> String {
        match self.said.recv_timeout(Duration::from_secs(120)) {
            Ok(Said::Connected(serial)) => serial,
            Ok(other) => panic!("expected the emulated Pico to enumerate, got {other:?}"),
            Err(_) => panic!("the emulated Pico did not enumerate within 120 s"),
        }
    }

    /// For each frame the host sent that the firmware answers at once (a sequenced frame
    /// is acknowledged, a query answered), the wall time until the firmware's next bytes
    /// came back, sorted: the margin the host's 100 ms retransmit timeout has here.
    pub fn reply_wall_ms(&self) -> Vec<f64> {
        let sent = self.bridge.to_firmware.lock().expect("sent lock").clone();
        let replies = self.from_firmware.lock().expect("log lock").wall_times();
        let mut decoder = firmware_protocol::Decoder::new();
        let mut asked = Vec::new();
        for (at, bytes) in &sent {
            for &byte in bytes {
                if let Some(Ok(frame)) = decoder.push(byte) {
                    let message = frame.message;
                    let answered = message.is_sequenced()
                        || matches!(message, Message::QueryStatus | Message::Ping { .. });
                    if answered {
                        asked.push(*at);
                    }
                }
            }
        }
        let mut waits: Vec<f64> = asked
            .iter()
            .filter_map(|at| {
                let reply = replies.iter().find(|r| *r >= at)?;
                Some((*reply - *at).as_secs_f64() * 1e3)
            })
            .collect();
        waits.sort_by(f64::total_cmp);
        waits
    }

    /// Drives a board input (the e-stop, the start button) to `high`.
    pub fn set_pin(&self, gpio: u8, high: bool) {
        self.command(&format!("pin {gpio} {}", u8::from(high)));
    }

    /// Pulls the USB cable: the host's port hangs up, the firmware hears nothing more.
    pub fn unplug(&self) {
        self.bridge.unplug_pty();
        self.command("unplug");
    }

    /// Puts the cable back: a new pty behind the same symlink, enumerated afresh.
    pub fn plug(&self) {
        self.bridge.plug_pty();
        self.command("plug");
        self.wait_connected();
    }

    /// The firmware stops making progress (its CPU spins, interrupts off); returns when
    /// the watchdog has reset the chip and it has enumerated again: the reset's time, ns.
    pub fn hang_until_reset(&self) -> u64 {
        self.command("hang");
        let reset = match self.said.recv_timeout(Duration::from_secs(120)) {
            Ok(Said::Reset(ns)) => ns,
            Ok(Said::Error(e)) => panic!("the emulated CPU failed: {e}"),
            Ok(other) => panic!("expected the watchdog's reset, got {other:?}"),
            Err(_) => panic!("the watchdog did not reset the hung chip within 120 s"),
        };
        self.wait_connected();
        reset
    }

    /// Waits until the emulated chip's clock has run `ms` further: the emulator runs slower
    /// than real time, and slower still on a busy machine, so a wall-clock sleep may give the
    /// firmware less time than it needs. At most 60 s of wall time.
    pub async fn run_for_emulated_ms(&self, ms: u64) {
        let until = self.trace().now_ns + ms * 1_000_000;
        let deadline = std::time::Instant::now() + Duration::from_secs(60);
        while self.trace().now_ns < until && std::time::Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Everything traced so far, and each stepper's modelled position (by actuator).
    pub fn trace(&self) -> Trace {
        self.command("flush");
        loop {
            match self.said.recv_timeout(Duration::from_secs(60)) {
                Ok(Said::Flushed(now_ns, positions)) => {
                    let text = std::fs::read_to_string(&self.trace_path).expect("trace file");
                    return Trace::parse(&text, now_ns, &positions);
                }
                Ok(Said::Error(e)) => panic!("the emulated CPU failed: {e}"),
                Ok(Said::Connected(_) | Said::Reset(_)) => {}
                Err(_) => panic!("the emulator did not flush its trace within 60 s"),
            }
        }
    }
}

impl Bridge {
    fn command(&self, line: &str) {
        let mut stdin = self.stdin.lock().expect("stdin lock");
        writeln!(stdin, "{line}").expect("the emulator reads its commands");
    }

    fn plug_pty(self: &Arc<Self>) {
        let pty = openpty(None, None).expect("openpty");
        let mut termios = tcgetattr(&pty.slave).expect("tcgetattr");
        cfmakeraw(&mut termios);
        tcsetattr(&pty.slave, SetArg::TCSANOW, &termios).expect("raw mode");
        let path = nix::unistd::ttyname(&pty.slave).expect("the slave's path");
        let flags = fcntl(&pty.master, FcntlArg::F_GETFL).expect("F_GETFL");
        let nonblocking = OFlag::from_bits_truncate(flags) | OFlag::O_NONBLOCK;
        fcntl(&pty.master, FcntlArg::F_SETFL(nonblocking)).expect("O_NONBLOCK");
        let master = File::from(pty.master);
        let reader = master.try_clone().expect("a second master handle");
        let unplugged = Arc::new(AtomicBool::new(false));
        spawn_pty_reader(reader, pty.slave, unplugged.clone(), self.clone());
        cubed::sim::pty::point_symlink(&self.port, &path).expect("symlink to the pty");
        *self.cable.lock().expect("cable lock") = Some(Cable { master, unplugged });
    }

    fn unplug_pty(&self) {
        let _ = std::fs::remove_file(&self.port);
        if let Some(cable) = self.cable.lock().expect("cable lock").take() {
            cable.unplugged.store(true, Ordering::SeqCst);
        }
    }
}

/// The harness's standard output: serial bytes to the pty, the rest to `tell`.
fn spawn_reader(
    stdout: impl Read + Send + 'static,
    bridge: Arc<Bridge>,
    from_firmware: Arc<Mutex<FirmwareBytes>>,
    tell: Sender<Said>,
) {
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let mut words = line.splitn(3, ' ');
            match (words.next(), words.next(), words.next()) {
                (Some("rx"), Some(ns), Some(hex)) => {
                    let bytes = decode_hex(hex);
                    if let Some(cable) = bridge.cable.lock().expect("cable lock").as_mut() {
                        // Like a UART nobody reads: what the host does not take is lost.
                        let _ = cable.master.write_all(&bytes);
                    }
                    let ns = ns.parse().unwrap_or(0);
                    let mut log = from_firmware.lock().expect("log lock");
                    log.push(ns, Instant::now(), bytes);
                }
                (Some("reset"), Some(ns), _) => {
                    // Its USB is gone until it enumerates again, as a rebooting Pico's is.
                    bridge.unplug_pty();
                    bridge.replug_on_connect.store(true, Ordering::SeqCst);
                    let _ = tell.send(Said::Reset(ns.parse().unwrap_or(0)));
                }
                (Some("connected"), serial, rest) => {
                    if bridge.replug_on_connect.swap(false, Ordering::SeqCst) {
                        bridge.plug_pty();
                    }
                    let serial = [serial.unwrap_or(""), rest.unwrap_or("")].join(" ");
                    let _ = tell.send(Said::Connected(serial.trim().to_string()));
                }
                (Some("flushed"), Some(ns), Some(positions)) => {
                    let ns = ns.parse().unwrap_or(0);
                    let _ = tell.send(Said::Flushed(ns, positions.to_string()));
                }
                (Some("error"), ..) => {
                    eprintln!("emulated Pico: {line}");
                    let _ = tell.send(Said::Error(line.clone()));
                }
                _ => eprintln!("emulated Pico said: {line}"),
            }
        }
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
                    let mut stdin = bridge.stdin.lock().expect("stdin lock");
                    if writeln!(stdin, "tx {hex}").is_err() {
                        return;
                    }
                    let chunk = (Instant::now(), buf[..n].to_vec());
                    bridge.to_firmware.lock().expect("sent lock").push(chunk);
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

/// The shipped four-arm design's wiring, as `cubed config wiring --format json` prints it
/// for a builder: the machine the emulator models around the chip, and the one the host
/// sends the firmware.
pub fn four_arm_wiring_json() -> String {
    let design = crate::common::shipped_design_file("four-arm");
    let design = design.to_str().expect("a UTF-8 path");
    let output = crate::common::cubed(
        &["config", "wiring", "--design", design, "--format", "json"],
        None,
    );
    assert!(
        output.status.success(),
        "cubed config wiring: {}",
        crate::common::stderr(&output)
    );
    crate::common::stdout(&output)
}
