//! `cubed sim --pico`: the Pico firmware as built, on the emulated RP2040, served on a
//! pseudo-terminal as `cubed sim --pty` serves the simulated firmware, its board's inputs
//! worked from stdin: the start button, the e-stop, the USB cable, and a hang its watchdog
//! must end.

use super::session::{
    announce, forward_signals, link_refusal, link_taken_over, output_refusal, read_commands,
};
use crate::robot::wiring::{RobotSetup, WiringDoc};
use crate::robot::{load_robot, ActuatorMap};
use crate::sim::pico::{EmulatedPico, PicoEvent, PicoFiles};
use cubed_core::error_chain::error_chain;
use firmware_protocol::message::Signal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;

/// How long a typed `b` holds the start button down (wall time: the emulator runs slower
/// than real time, so the firmware's debounce sees it held for longer than it needs).
const BUTTON_HELD: Duration = Duration::from_millis(300);

/// What the serving loop acts on: a typed command, or what the emulated Pico did.
#[derive(Debug)]
enum Order {
    Button,
    ButtonUp,
    Estop,
    Cable,
    Hang,
    Shutdown,
    Heard(PicoEvent),
}

const HELP: &str = "b = start button, e = e-stop, u = cable, r = hang, q = quit";

fn typed(command: &str) -> Option<Order> {
    match command {
        "b" => Some(Order::Button),
        "e" => Some(Order::Estop),
        "u" => Some(Order::Cable),
        "r" => Some(Order::Hang),
        _ => None,
    }
}

/// What `cubed sim --pico` was asked for.
pub(super) struct PicoServing {
    /// The firmware ELF, if not the clone's build.
    pub(super) elf: Option<PathBuf>,
    /// Where to keep the pins' trace.
    pub(super) trace: Option<PathBuf>,
    /// The by-id style symlink to keep pointing at the pty.
    pub(super) link: Option<PathBuf>,
    /// Where the motors stand at power-on.
    pub(super) seed: u64,
}

/// The board's own inputs, as the design wires them.
struct Inputs {
    button: Option<Signal>,
    estop: Option<Signal>,
}

/// Serves the emulated Pico until `q`, the input's end, SIGINT or SIGTERM.
pub(super) fn serve(args: PicoServing, design: &Path) -> anyhow::Result<ExitCode> {
    if let Some(warning) = args.link.as_deref().and_then(link_taken_over) {
        eprintln!("{warning}");
    }
    if let Some(refused) = args.link.as_deref().and_then(link_refusal) {
        return crate::cli::refuse(refused);
    }
    if let Some(refused) = args
        .trace
        .as_deref()
        .and_then(|t| output_refusal("--trace", t))
    {
        return crate::cli::refuse(refused);
    }
    let model = match load_robot(design) {
        Ok(model) => model,
        Err(e) => return crate::cli::refuse_error(&e),
    };
    let map = ActuatorMap::new(&model)?;
    let setup = match RobotSetup::for_design(&model, &map) {
        Ok(setup) if setup.wired => setup,
        Ok(_) => return crate::cli::refuse(format!("{}: the design gives no wiring, and the Pico firmware takes only a real one: add its [board] and a `wiring` table to each gripper and flipper (docs/wiring.md), or serve it with --pty", design.display())),
        Err(e) => return crate::cli::refuse(format!("{}: {}", design.display(), error_chain(&e))),
    };
    let wiring = serde_json::to_string(&WiringDoc::new(&model, &map, &setup))?;
    let here = std::env::current_dir()?;
    let files = match PicoFiles::find(&here, args.elf.as_deref()) {
        Ok(files) => files,
        Err(e) => return crate::cli::refuse(e.to_string()),
    };
    let board = setup.machine.board;
    let inputs = Inputs {
        button: board.button,
        estop: board.estop,
    };
    eprintln!(
        "cubed sim: the Pico firmware {} on an emulated RP2040, robot {} ({HELP})",
        files.elf.display(),
        model.name
    );
    if let Some(source) = &files.newer_source {
        eprintln!(
            "cubed sim: warning: {} changed after this firmware was built: `bash firmware/build.sh pico` builds it as it stands (then start this again)",
            source.display()
        );
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(run(args, files, wiring, inputs))
}

async fn run(
    args: PicoServing,
    files: PicoFiles,
    wiring: String,
    inputs: Inputs,
) -> anyhow::Result<ExitCode> {
    let (orders, mut received) = mpsc::unbounded_channel();
    read_commands(orders.clone(), typed, HELP, Order::Shutdown);
    forward_signals(orders.clone(), Order::Shutdown);
    let fallback = tempfile::tempdir()?;
    let port = args
        .link
        .clone()
        .unwrap_or_else(|| fallback.path().join("cubed-pico"));
    let heard = orders.clone();
    let host_spoke = Arc::new(AtomicBool::new(false));
    let spoke = host_spoke.clone();
    let listener = Box::new(move |event: PicoEvent| {
        if matches!(event, PicoEvent::ToFirmware(_)) {
            spoke.store(true, Ordering::Relaxed);
        }
        if !matches!(
            event,
            PicoEvent::FromFirmware(..) | PicoEvent::ToFirmware(_)
        ) {
            let _ = heard.send(Order::Heard(event));
        }
    });
    let pico = EmulatedPico::start(
        &files,
        &wiring,
        args.seed,
        &port,
        args.trace.as_deref(),
        listener,
    )?;
    let mut board = Board {
        pico: &pico,
        inputs,
        orders,
        pressed: false,
        plugged: true,
        host_spoke,
    };
    let mut ended = Ended::Asked;
    while let Some(order) = received.recv().await {
        if let Some(end) = board.obey(order)? {
            ended = end;
            break;
        }
    }
    let status = pico.stop();
    if let Some(trace) = args.trace.as_ref().filter(|t| t.is_file()) {
        eprintln!("cubed sim: the pins' trace is in {}", trace.display());
    }
    Ok(match ended {
        Ended::Asked => ExitCode::SUCCESS,
        Ended::Failed => ExitCode::FAILURE,
        // The harness refused its arguments (status 2, said on stderr): a usage error.
        Ended::Stopped if status.and_then(|s| s.code()) == Some(2) => ExitCode::from(2),
        Ended::Stopped => {
            let how = status.map_or("and did not exit".to_string(), |s| format!("({s})"));
            eprintln!("cubed sim: the emulator stopped by itself {how}");
            ExitCode::FAILURE
        }
    })
}

/// Why serving ended.
enum Ended {
    /// `q`, the input's end, a signal.
    Asked,
    /// The emulated CPU failed.
    Failed,
    /// The emulator stopped by itself.
    Stopped,
}

/// The emulated board and what a person has done to it.
struct Board<'a> {
    pico: &'a EmulatedPico,
    inputs: Inputs,
    orders: mpsc::UnboundedSender<Order>,
    pressed: bool,
    plugged: bool,
    /// Bytes have come from a host: the firmware may have learnt its pins.
    host_spoke: Arc<AtomicBool>,
}

impl Board<'_> {
    /// Acts on one order; `Some` when serving ends.
    fn obey(&mut self, order: Order) -> anyhow::Result<Option<Ended>> {
        match order {
            Order::Button => self.button(true),
            Order::ButtonUp => self.button(false),
            Order::Estop => {
                self.pressed = !self.pressed;
                match self.inputs.estop {
                    Some(estop) => {
                        self.pico
                            .set_pin(estop.pin, estop.active_high == self.pressed);
                        let now = if self.pressed { "pressed" } else { "released" };
                        eprintln!("cubed sim: e-stop {now}{}", self.unheard());
                    }
                    None => eprintln!("cubed sim: the design wires no e-stop ([board] estop)"),
                }
            }
            Order::Cable => {
                self.plugged = !self.plugged;
                if self.plugged {
                    self.pico.plug()?;
                    eprintln!("cubed sim: cable put back");
                } else {
                    self.pico.unplug();
                    eprintln!("cubed sim: cable pulled (u puts it back)");
                }
            }
            Order::Hang => {
                eprintln!("cubed sim: the firmware hangs; its watchdog should reset the chip");
                self.pico.hang();
            }
            Order::Shutdown => return Ok(Some(Ended::Asked)),
            Order::Heard(event) => return Ok(said(event)),
        }
        Ok(None)
    }

    /// Said after a board input changes before any host has spoken: the firmware learns its
    /// pins at connect, so it cannot see the input yet.
    fn unheard(&self) -> &'static str {
        match self.host_spoke.load(Ordering::Relaxed) {
            true => "",
            false => " (no host has connected yet: the firmware learns its pins at connect, so it sees this only once `cubed exec` or the daemon has)",
        }
    }

    /// Presses the start button, and lets it go after [`BUTTON_HELD`].
    fn button(&self, down: bool) {
        let Some(button) = self.inputs.button else {
            eprintln!("cubed sim: the design wires no start button ([board] button)");
            return;
        };
        self.pico.set_pin(button.pin, button.active_high == down);
        if down {
            eprintln!("cubed sim: start button pressed{}", self.unheard());
            let orders = self.orders.clone();
            tokio::spawn(async move {
                tokio::time::sleep(BUTTON_HELD).await;
                let _ = orders.send(Order::ButtonUp);
            });
        }
    }
}

/// Says what the emulated Pico did; `Some` when it has stopped.
fn said(event: PicoEvent) -> Option<Ended> {
    match event {
        PicoEvent::Port(path) => announce(&path),
        PicoEvent::Connected(serial) if serial == "NO-BOOT-ROM" => eprintln!(
            "cubed sim: enumerated (USB serial number {serial}: the emulator has no boot ROM to read the flash id from, which a real Pico gives)"
        ),
        PicoEvent::Connected(serial) => {
            eprintln!("cubed sim: enumerated, USB serial number {serial}")
        }
        PicoEvent::Reset(ns) => eprintln!(
            "cubed sim: the watchdog reset the chip at {:.3} s emulated time",
            ns as f64 / 1e9
        ),
        PicoEvent::Failed(why) => {
            eprintln!("cubed sim: the emulated Pico failed: {why}");
            return Some(Ended::Failed);
        }
        PicoEvent::Refused(why) => eprintln!("cubed sim: the emulated Pico refused: {why}"),
        PicoEvent::Ended => return Some(Ended::Stopped),
        PicoEvent::PortGone
        | PicoEvent::Flushed(..)
        | PicoEvent::FromFirmware(..)
        | PicoEvent::ToFirmware(_) => {}
    }
    None
}
