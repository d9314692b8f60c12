//! One emulated Pico for a test: `cubed::sim::pico` on the shipped four-arm design's
//! wiring, what it says gathered for the test (the bytes each way with their times, the
//! harness's answers), and waits that fail the test with what they waited for.

use super::trace::{FirmwareBytes, Trace};
use cubed::sim::pico::{PicoEvent, PicoFiles};
use firmware_protocol::Message;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The host's bytes, chunk by chunk, with the wall time each left the pty.
type HostChunks = Vec<(Instant, Vec<u8>)>;

/// What the harness says besides serial bytes.
#[derive(Debug)]
enum Said {
    Connected(String),
    Reset(u64),
    Flushed(u64, String),
    Error(String),
    Refused(String),
}

/// An emulated Pico on a cable; the harness is stopped on drop.
pub struct EmulatedPico {
    pico: cubed::sim::pico::EmulatedPico,
    said: Receiver<Said>,
    /// The symlink `cubed exec --port` opens.
    pub port: PathBuf,
    /// Every chunk the firmware sent, with its emulated time.
    pub from_firmware: Arc<Mutex<FirmwareBytes>>,
    to_firmware: Arc<Mutex<HostChunks>>,
    /// The USB serial number the emulated host read from the firmware.
    pub serial_number: String,
    _dir: tempfile::TempDir,
}

/// The ELF and the emulator, or why this machine cannot run them. A test calls this
/// first: `None` means skip (said loudly), unless `CUBED_REQUIRE_FIRMWARE=1`.
pub fn available(test: &str) -> Option<PathBuf> {
    match prerequisites() {
        Ok(elf) => Some(elf),
        Err(why) => {
            let why = format!("{test}: {why}");
            crate::common::not_checked(&why, Some("CUBED_REQUIRE_FIRMWARE"));
            None
        }
    }
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn prerequisites() -> Result<PathBuf, String> {
    let elf = std::env::var_os("CUBED_FW_PICO_ELF").map(PathBuf::from);
    match PicoFiles::find(root(), elf.as_deref()) {
        Ok(files) => Ok(files.elf),
        Err(why) => Err(why.to_string()),
    }
}

impl EmulatedPico {
    /// Boots the firmware, with the motors at seeded positions, and waits until the
    /// emulated host has enumerated it.
    pub fn start(elf: &Path, seed: u64) -> EmulatedPico {
        EmulatedPico::start_design(elf, seed, "four-arm")
    }

    /// As [`EmulatedPico::start`], wired as the shipped design `design`.
    pub fn start_design(elf: &Path, seed: u64, design: &str) -> EmulatedPico {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let port = dir.path().join("serial-by-id-cubed-pico");
        let files = PicoFiles::find(root(), Some(elf))
            .expect("the emulator's parts, checked by `available`");
        let (tell, said) = channel();
        let from_firmware = Arc::new(Mutex::new(FirmwareBytes::default()));
        let to_firmware = Arc::new(Mutex::new(Vec::new()));
        let listener = gatherer(tell, from_firmware.clone(), to_firmware.clone());
        let wiring = wiring_json(design);
        let trace = dir.path().join("trace.txt");
        let pico = cubed::sim::pico::EmulatedPico::start(
            &files,
            &wiring,
            seed,
            &port,
            Some(&trace),
            listener,
        )
        .expect("the emulator starts");
        let mut pico = EmulatedPico {
            pico,
            said,
            port,
            from_firmware,
            to_firmware,
            serial_number: String::new(),
            _dir: dir,
        };
        pico.serial_number = pico.wait_connected();
        pico
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
        let sent = self.to_firmware.lock().expect("sent lock").clone();
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
        self.pico.set_pin(gpio, high);
    }

    /// Drives a board input to `high` the next time the CPU enters `function` (see
    /// [`cubed::sim::pico::EmulatedPico::set_pin_on_entry`]).
    pub fn set_pin_on_entry(&self, function: &str, gpio: u8, high: bool) {
        self.pico.set_pin_on_entry(function, gpio, high);
    }

    /// Asks to drive a pin on entry to `function`, which names no one function: the
    /// harness's refusal, in its words.
    pub fn pin_on_entry_refused(&self, function: &str, gpio: u8) -> String {
        self.pico.set_pin_on_entry(function, gpio, true);
        match self.said.recv_timeout(Duration::from_secs(30)) {
            Ok(Said::Refused(why)) => why,
            Ok(other) => panic!("expected pin-at {function} refused, got {other:?}"),
            Err(_) => panic!("pin-at {function} was neither refused nor obeyed within 30 s"),
        }
    }

    /// Pulls the USB cable: the host's port hangs up, the firmware hears nothing more.
    pub fn unplug(&self) {
        self.pico.unplug();
    }

    /// Puts the cable back: a new pty behind the same symlink, enumerated afresh.
    pub fn plug(&self) {
        self.pico.plug().expect("a new pty");
        self.wait_connected();
    }

    /// The firmware stops making progress (its CPU spins, interrupts off); returns when
    /// the watchdog has reset the chip and it has enumerated again: the reset's time, ns.
    pub fn hang_until_reset(&self) -> u64 {
        self.pico.hang();
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
        let until = self.flushed().0 + ms * 1_000_000;
        let deadline = std::time::Instant::now() + Duration::from_secs(60);
        while self.flushed().0 < until && std::time::Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Everything traced so far, and each stepper's modelled position (by actuator).
    pub fn trace(&self) -> Trace {
        let (now_ns, positions) = self.flushed();
        let path = self.pico.trace_path().expect("a trace was asked for");
        let text = std::fs::read_to_string(path).expect("trace file");
        Trace::parse(&text, now_ns, &positions)
    }

    /// The trace written out: the emulated time now, and each stepper's modelled position
    /// (without reading the trace back, which a long run makes large).
    fn flushed(&self) -> (u64, String) {
        self.pico.flush();
        loop {
            match self.said.recv_timeout(Duration::from_secs(60)) {
                Ok(Said::Flushed(now_ns, positions)) => return (now_ns, positions),
                Ok(Said::Error(e)) => panic!("the emulated CPU failed: {e}"),
                Ok(Said::Refused(why)) => panic!("the emulator refused a command: {why}"),
                Ok(Said::Connected(_) | Said::Reset(_)) => {}
                Err(_) => panic!("the emulator did not flush its trace within 60 s"),
            }
        }
    }
}

/// The listener that gathers what the emulated Pico says for the test.
fn gatherer(
    tell: Sender<Said>,
    from_firmware: Arc<Mutex<FirmwareBytes>>,
    to_firmware: Arc<Mutex<HostChunks>>,
) -> cubed::sim::pico::PicoListener {
    let tell = Mutex::new(tell);
    Box::new(move |event| {
        let said = match event {
            PicoEvent::FromFirmware(ns, bytes) => {
                let mut log = from_firmware.lock().expect("log lock");
                log.push(ns, Instant::now(), bytes);
                return;
            }
            PicoEvent::ToFirmware(bytes) => {
                let chunk = (Instant::now(), bytes);
                to_firmware.lock().expect("sent lock").push(chunk);
                return;
            }
            PicoEvent::Connected(serial) => Said::Connected(serial),
            PicoEvent::Reset(ns) => Said::Reset(ns),
            PicoEvent::Flushed(ns, positions) => Said::Flushed(ns, positions),
            PicoEvent::Failed(why) => {
                eprintln!("emulated Pico: {why}");
                Said::Error(why)
            }
            PicoEvent::Refused(why) => Said::Refused(why),
            PicoEvent::Port(_) | PicoEvent::PortGone | PicoEvent::Ended => return,
        };
        let _ = tell.lock().expect("tell lock").send(said);
    })
}

/// The shipped four-arm design's wiring, as `cubed config wiring --format json` prints it
/// for a builder: the machine the emulator models around the chip, and the one the host
/// sends the firmware.
pub fn four_arm_wiring_json() -> String {
    wiring_json("four-arm")
}

/// `cubed config wiring --format json` of the shipped design `name`.
pub fn wiring_json(name: &str) -> String {
    let design = crate::common::shipped_design_file(name);
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
