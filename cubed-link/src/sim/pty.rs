//! The simulator served over a real pseudo-terminal, so the host's real serial code talks
//! to it. The slave side is put in raw mode before its path is announced (bytes written
//! earlier would be echoed) and kept open by the simulator, so the master never reads EIO
//! while no host is connected.
//!
//! Unplug: a pty cannot come back at the same path, so the simulator closes both sides
//! (the host reads a hang-up), waits, opens a new pty and announces the new path through
//! the `on_path` callback (stdout for `cubed sim`, a [`crate::link::SharedPath`] in tests)
//! and, if asked, by re-pointing a symlink (`--link`), as udev does for `/dev/serial/by-id`.

use super::faults::{FaultPlan, InjectionStats, Mangler};
use super::firmware::SimFirmware;
use super::mechanics::Mechanics;
use crate::link::{Clock, FdStream, TokioClock};
use nix::pty::{grantpt, posix_openpt, ptsname_r, unlockpt};
use nix::sys::termios::{cfmakeraw, tcgetattr, tcsetattr, SetArg};
use std::io;
use std::os::fd::{FromRawFd, IntoRawFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::mpsc;

/// How long a write to a host that does not read may block before its bytes are dropped.
const WRITE_STALL: Duration = Duration::from_millis(50);

/// A gap between two looks at the port longer than this is the simulator's own thread
/// starved (a look waits at most 5 ms, a write at most [`WRITE_STALL`]).
const STARVED_MS: u64 = 100;

/// Orders for a running simulator (its control endpoint).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Control {
    /// The start button.
    Button,
    /// Pull the cable now.
    Unplug,
    /// Reset the firmware now.
    Reboot,
    /// Stop serving and return the firmware.
    Shutdown,
}

/// One pseudo-terminal: the master the simulator drives and its slave's path.
pub struct PtyEndpoint {
    pub master: FdStream,
    _slave: OwnedFd,
    pub path: PathBuf,
}

/// A pty's two ends, its slave in raw mode, and the slave's path.
pub struct RawPty {
    pub master: OwnedFd,
    pub slave: OwnedFd,
    pub path: PathBuf,
}

/// Opens a pty with its slave in raw mode (bytes written before a host opens it would
/// otherwise be echoed), its master blocking. Both ends are closed on exec: a child another
/// thread spawns meanwhile (a test beside this one, a daemon's helper) must not keep a copy
/// of the master, or an unplug (the master dropped) would never reach the host as a
/// hang-up. `openpty` opens both ends inheritable, so the pty is opened here step by step.
pub fn open_raw_pty() -> io::Result<RawPty> {
    use nix::fcntl::OFlag;
    use std::os::unix::fs::OpenOptionsExt;
    let master = posix_openpt(OFlag::O_RDWR | OFlag::O_NOCTTY | OFlag::O_CLOEXEC)
        .map_err(io::Error::from)?;
    grantpt(&master).map_err(io::Error::from)?;
    unlockpt(&master).map_err(io::Error::from)?;
    let path = PathBuf::from(ptsname_r(&master).map_err(io::Error::from)?);
    // std opens with O_CLOEXEC.
    let slave: OwnedFd = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .custom_flags(OFlag::O_NOCTTY.bits())
        .open(&path)?
        .into();
    let mut termios = tcgetattr(&slave).map_err(io::Error::from)?;
    cfmakeraw(&mut termios);
    tcsetattr(&slave, SetArg::TCSANOW, &termios).map_err(io::Error::from)?;
    // SAFETY: `into_raw_fd` gives up the descriptor, which is open and owned by nothing else.
    let master = unsafe { OwnedFd::from_raw_fd(master.into_raw_fd()) };
    Ok(RawPty {
        master,
        slave,
        path,
    })
}

/// Opens a pty with its slave in raw mode.
pub fn open_pty() -> io::Result<PtyEndpoint> {
    let pty = open_raw_pty()?;
    Ok(PtyEndpoint {
        master: FdStream::new(pty.master)?,
        _slave: pty.slave,
        path: pty.path,
    })
}

/// Points `link` at `target`, replacing any previous link atomically.
pub fn point_symlink(link: &Path, target: &Path) -> io::Result<()> {
    let temporary = link.with_extension("new");
    let _ = std::fs::remove_file(&temporary);
    std::os::unix::fs::symlink(target, &temporary)?;
    std::fs::rename(&temporary, link)
}

/// Removes the symlink `link` if it still points at `target` (this simulator's pty): another
/// simulator may have taken the path over since, and its link is not ours to remove.
pub fn remove_symlink_if_at(link: &Path, target: &Path) {
    if std::fs::read_link(link).is_ok_and(|at| at == target) {
        let _ = std::fs::remove_file(link);
    }
}

/// Receives each new pty path, or `None` when the pty is unplugged.
pub type PathAnnouncer = Box<dyn FnMut(Option<&Path>) + Send>;
/// Told each fault the simulated machine causes, as it happens (what jammed, and why).
pub(crate) type FaultTeller = Box<dyn FnMut(&super::firmware::FaultRecord) + Send>;

/// How the simulator is served.
pub struct ServeOptions {
    pub faults: FaultPlan,
    pub seed: u64,
    /// Called with each new pty path (first one included), and with `None` the moment the
    /// pty is unplugged so that nobody opens the old path (pty numbers are reused).
    pub on_path: PathAnnouncer,
    /// What has happened so far, kept up to date for whoever watches (which faults of the
    /// plan have come).
    pub counts: Arc<ServeCounts>,
    /// Told each fault as it happens, if anyone listens (a person at the simulator's terminal).
    pub on_fault: Option<FaultTeller>,
}

/// Counts of a serving simulator, readable while it runs.
#[derive(Debug, Default)]
pub struct ServeCounts {
    /// Commands the firmware has executed over the simulator's life.
    pub executed: AtomicU64,
    /// Unplugs `unplug-every` has made.
    pub timed_unplugs: AtomicU64,
}

impl ServeCounts {
    /// The fault plan's entries that have not come yet (see [`FaultPlan::not_reached`]).
    pub fn not_reached(&self, plan: &FaultPlan, turns: Option<u64>) -> Vec<String> {
        let executed = self.executed.load(Ordering::Relaxed);
        let timed = self.timed_unplugs.load(Ordering::Relaxed);
        plan.not_reached(executed, turns, timed)
    }
}

/// What serving did, besides the firmware's own counts.
pub struct Served<M: Mechanics> {
    pub firmware: SimFirmware<M>,
    pub injected: InjectionStats,
}

struct Triggers {
    next_unplug_ms: Option<u64>,
    unplug_at_moves: Vec<u64>,
    reboot_at_moves: Vec<u64>,
    estop_at_moves: Vec<u64>,
    /// When the pressed e-stop button is let go (wall ms).
    estop_release_at: Option<u64>,
}

impl Triggers {
    fn new(plan: &FaultPlan) -> Triggers {
        Triggers {
            next_unplug_ms: plan.unplug_every_ms,
            unplug_at_moves: plan.unplug_at_moves.clone(),
            reboot_at_moves: plan.reboot_at_moves.clone(),
            estop_at_moves: plan.estop_at_moves.clone(),
            estop_release_at: None,
        }
    }

    fn take(list: &mut Vec<u64>, executed: u64) -> bool {
        let before = list.len();
        list.retain(|&at| at > executed);
        list.len() != before
    }

    /// Whether an unplug is due, and whether `unplug-every` is why.
    fn unplug_due(&mut self, now: u64, executed: u64, every: Option<u64>) -> (bool, bool) {
        let timed = match (self.next_unplug_ms, every) {
            (Some(at), Some(every)) if now >= at => {
                self.next_unplug_ms = Some(now + every);
                true
            }
            _ => false,
        };
        (
            Self::take(&mut self.unplug_at_moves, executed) || timed,
            timed,
        )
    }
}

/// Serves `firmware` over ptys until `Shutdown` (or the control channel closes).
pub async fn serve<M: Mechanics>(
    firmware: SimFirmware<M>,
    options: ServeOptions,
    mut controls: mpsc::UnboundedReceiver<Control>,
) -> io::Result<Served<M>> {
    let mut server = Server::new(firmware, options)?;
    let mut last_look = server.clock.now_ms();
    loop {
        let now = server.clock.now_ms();
        // The loop looks at least every few ms; a longer gap is the simulator starved.
        let gap = now.saturating_sub(last_look);
        if gap > STARVED_MS {
            server.firmware.excuse_host(gap);
        }
        last_look = now;
        server.firmware.poll(now);
        server.inject_faults(now);
        server.replug_when_due(now)?;
        server.flush_output().await;
        // Told before the next wait: a shutdown asked for right after the host heard of a
        // fault (its stall report just flushed) must not leave it unsaid.
        server.tell_faults();
        if !server.wait_for_input(now, &mut controls).await? {
            break;
        }
    }
    server.tell_faults();
    Ok(server.finish())
}

/// The simulator's side of the cable: the firmware, the pty (absent while unplugged) and the
/// byte manglers.
struct Server<M: Mechanics> {
    firmware: SimFirmware<M>,
    options: ServeOptions,
    clock: TokioClock,
    mangle_out: Mangler,
    mangle_in: Mangler,
    triggers: Triggers,
    endpoint: Option<PtyEndpoint>,
    unplugged_until: Option<u64>,
    unplugs: u64,
    buf: Vec<u8>,
    /// Faults already told (`ServeOptions::on_fault`).
    faults_told: usize,
}

impl<M: Mechanics> Server<M> {
    fn new(firmware: SimFirmware<M>, mut options: ServeOptions) -> io::Result<Server<M>> {
        let endpoint = open_pty()?;
        (options.on_path)(Some(&endpoint.path));
        Ok(Server {
            firmware,
            clock: TokioClock::new(),
            mangle_out: Mangler::new(&options.faults, options.seed),
            mangle_in: Mangler::new(&options.faults, options.seed ^ 0x5eed),
            triggers: Triggers::new(&options.faults),
            options,
            endpoint: Some(endpoint),
            unplugged_until: None,
            unplugs: 0,
            buf: vec![0u8; 4096],
            faults_told: 0,
        })
    }

    /// Reboots, e-stop presses and unplugs that the fault plan schedules by move count or time.
    fn inject_faults(&mut self, now: u64) {
        let executed = self.firmware.stats.moves_executed;
        self.options
            .counts
            .executed
            .store(executed, Ordering::Relaxed);
        if Triggers::take(&mut self.triggers.reboot_at_moves, executed) {
            self.firmware.reboot(now);
        }
        if Triggers::take(&mut self.triggers.estop_at_moves, executed) {
            self.firmware.set_estop_button(now, true);
            self.triggers.estop_release_at = Some(now + self.options.faults.estop_for_ms);
        }
        self.release_estop_when_due(now);
        let every = self.options.faults.unplug_every_ms;
        if self.endpoint.is_some() {
            let (due, timed) = self.triggers.unplug_due(now, executed, every);
            if timed {
                self.options
                    .counts
                    .timed_unplugs
                    .fetch_add(1, Ordering::Relaxed);
            }
            if due {
                self.unplug(now, self.options.faults.unplug_for_ms);
            }
        }
    }

    /// Lets go of the e-stop button once it has been held long enough (also just before the
    /// host's bytes are read, so a late wake-up does not hold it longer).
    fn release_estop_when_due(&mut self, now: u64) {
        if self.triggers.estop_release_at.is_some_and(|at| now >= at) {
            self.firmware.set_estop_button(now, false);
            self.triggers.estop_release_at = None;
        }
    }

    fn unplug(&mut self, now: u64, for_ms: u64) {
        (self.options.on_path)(None);
        self.endpoint = None;
        self.unplugs += 1;
        self.unplugged_until = Some(now + for_ms);
    }

    /// Plugs a fresh pty back in once the unplug has lasted long enough.
    fn replug_when_due(&mut self, now: u64) -> io::Result<()> {
        if self.unplugged_until.is_some_and(|until| now >= until) {
            let fresh = open_pty()?;
            (self.options.on_path)(Some(&fresh.path));
            self.firmware.reset_decoder();
            self.endpoint = Some(fresh);
            self.unplugged_until = None;
        }
        Ok(())
    }

    /// Writes what the firmware said. Like a UART with nobody listening: bytes the host does
    /// not read are lost, the simulator never blocks on them.
    async fn flush_output(&mut self) {
        let output = self.firmware.take_output();
        if let Some(e) = self.endpoint.as_mut() {
            if !output.is_empty() {
                let bytes = self.mangle_out.mangle(&output);
                let _ = tokio::time::timeout(WRITE_STALL, e.master.write_all(&bytes)).await;
            }
        }
    }

    /// Waits for a control order, bytes from the host, or the firmware's next deadline;
    /// `false` once the simulator must stop.
    async fn wait_for_input(
        &mut self,
        now: u64,
        controls: &mut mpsc::UnboundedReceiver<Control>,
    ) -> io::Result<bool> {
        let wait = self.firmware.wait_ms(now);
        let read = async {
            match self.endpoint.as_mut() {
                Some(e) => e.master.read(&mut self.buf).await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            biased;
            control = controls.recv() => match control {
                None | Some(Control::Shutdown) => return Ok(false),
                Some(control) => self.obey(control),
            },
            read = read => match read {
                Ok(0) => {}
                Ok(n) => {
                    let now = self.clock.now_ms();
                    self.release_estop_when_due(now);
                    let bytes = self.mangle_in.mangle(&self.buf[..n]);
                    self.firmware.on_bytes(&bytes, now);
                }
                Err(e) => return Err(e),
            },
            _ = tokio::time::sleep(Duration::from_millis(wait)) => {}
        }
        Ok(true)
    }

    /// Tells the faults that came since the last look.
    fn tell_faults(&mut self) {
        let faults = &self.firmware.stats.faults;
        if let Some(tell) = self.options.on_fault.as_mut() {
            faults[self.faults_told.min(faults.len())..]
                .iter()
                .for_each(tell);
        }
        self.faults_told = faults.len();
    }

    fn obey(&mut self, control: Control) {
        let now = self.clock.now_ms();
        match control {
            Control::Button => self.firmware.press_button(now),
            Control::Reboot => self.firmware.reboot(now),
            Control::Unplug => self.unplug(now, self.options.faults.unplug_for_ms.max(1)),
            Control::Shutdown => {}
        }
    }

    fn finish(self) -> Served<M> {
        let mut injected = self.mangle_out.stats;
        injected.bytes_corrupted += self.mangle_in.stats.bytes_corrupted;
        injected.bytes_dropped += self.mangle_in.stats.bytes_dropped;
        injected.unplugs = self.unplugs;
        Served {
            firmware: self.firmware,
            injected,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::open_raw_pty;
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;

    /// A child spawned while the simulator's pty is open (as another test, or the daemon,
    /// spawns one) keeps no copy of it: unplugged, the host's end hangs up at once.
    #[test]
    fn an_unplug_hangs_up_the_host_even_with_a_child_spawned_meanwhile() {
        use nix::fcntl::OFlag;
        let pty = open_raw_pty().expect("a pseudo-terminal");
        let mut host = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .custom_flags((OFlag::O_NOCTTY | OFlag::O_NONBLOCK).bits())
            .open(&pty.path)
            .expect("the host opens the slave");
        let mut child = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .expect("a child process");
        drop(pty);
        let read = host.read(&mut [0u8; 1]);
        let _ = child.kill();
        let _ = child.wait();
        // A hang-up reads as end of file or EIO; still plugged in (the child holding the
        // master), the read would find nothing yet (EAGAIN).
        match read {
            Ok(0) => {}
            Err(e) if e.raw_os_error() == Some(nix::errno::Errno::EIO as i32) => {}
            other => panic!("the host was not hung up on: {other:?}"),
        }
    }
}
