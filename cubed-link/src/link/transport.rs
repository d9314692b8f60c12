//! Byte transports under the link: a serial port opened by path (exclusive, raw, baud) made
//! async with tokio, any file descriptor as a stream (pty masters), and the connector that
//! (re)opens the port — asking a path resolver where the robot is now.
//!
//! Unplug and reconnect: a USB serial adapter comes back at the same `/dev/serial/by-id/…`
//! path, so [`FixedPath`] simply reopens it. A pseudo-terminal cannot be reopened at the same
//! path: the simulator opens a new pty and announces its path (stdout, its control endpoint,
//! and optionally a symlink it keeps pointing at the current pty, like udev's by-id links).
//! The host then resolves the path again: [`SharedPath`] holds the latest announced path for
//! in-process use; a symlink works with [`FixedPath`].

use super::classic_termios::{lacks_termios2, open_classic};
use super::error::LinkError;
use cubed_core::error_chain::error_chain;
use std::io;
use std::os::fd::{AsFd, FromRawFd, IntoRawFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{ready, Context, Poll};
use tokio::io::unix::AsyncFd;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// A full-duplex byte stream the link can own.
pub trait Transport: AsyncRead + AsyncWrite + Send + Unpin {}
impl<T: AsyncRead + AsyncWrite + Send + Unpin> Transport for T {}

/// A non-blocking file descriptor driven by tokio (a serial port or a pty master).
/// A hang-up (EIO after the far side closed, or end of file) reads as `Ok(0)`.
#[derive(Debug)]
pub struct FdStream {
    fd: AsyncFd<OwnedFd>,
    /// A serial port this process claimed alone: released at drop.
    claimed: bool,
}

impl Drop for FdStream {
    fn drop(&mut self) {
        if self.claimed {
            super::classic_termios::release_exclusive(self.fd.get_ref());
        }
    }
}

impl FdStream {
    /// Wraps `fd`, switching it to non-blocking mode.
    pub fn new(fd: OwnedFd) -> io::Result<FdStream> {
        use nix::fcntl::{fcntl, FcntlArg, OFlag};
        let flags = fcntl(&fd, FcntlArg::F_GETFL).map_err(io::Error::from)?;
        let flags = OFlag::from_bits_truncate(flags) | OFlag::O_NONBLOCK;
        fcntl(&fd, FcntlArg::F_SETFL(flags)).map_err(io::Error::from)?;
        // SAFETY: `OwnedFd` keeps its descriptor open and unchanged until it is dropped,
        // which happens only when the `AsyncFd` is.
        let fd = unsafe { AsyncFd::register(fd) }.map_err(io::Error::from)?;
        Ok(FdStream { fd, claimed: false })
    }
}

fn would_block(error: nix::errno::Errno) -> io::Error {
    io::Error::from(error)
}

impl AsyncRead for FdStream {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        loop {
            let mut guard = ready!(self.fd.poll_read_ready(cx))?;
            let unfilled = buf.initialize_unfilled();
            match guard
                .try_io(|fd| nix::unistd::read(fd.get_ref().as_fd(), unfilled).map_err(would_block))
            {
                Ok(Ok(n)) => {
                    buf.advance(n);
                    return Poll::Ready(Ok(()));
                }
                // EIO: the other side of the tty closed — a hang-up, reported as end of file.
                Ok(Err(e)) if e.raw_os_error() == Some(nix::errno::Errno::EIO as i32) => {
                    return Poll::Ready(Ok(()))
                }
                Ok(Err(e)) => return Poll::Ready(Err(e)),
                Err(_would_block) => continue,
            }
        }
    }
}

impl AsyncWrite for FdStream {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        loop {
            let mut guard = ready!(self.fd.poll_write_ready(cx))?;
            match guard.try_io(|fd| nix::unistd::write(fd.get_ref(), data).map_err(would_block)) {
                Ok(result) => return Poll::Ready(result),
                Err(_would_block) => continue,
            }
        }
    }

    fn poll_flush(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

/// Opens a serial port with `serialport`: exclusive (a second opener fails), raw 8N1 at
/// `baud`, no DTR/RTS changes (those calls fail on a pty), then hands its descriptor to tokio.
/// Where the system has no `termios2` (qemu-user), the classic termios calls do the same.
pub fn open_serial(path: &Path, baud: u32) -> Result<FdStream, LinkError> {
    let fail = |reason: String| LinkError::Open {
        path: path.to_path_buf(),
        reason,
    };
    let fd = match serialport::new(path.to_string_lossy(), baud).open_native() {
        Ok(port) => {
            let raw = port.into_raw_fd();
            // SAFETY: `into_raw_fd` released the descriptor, so this `OwnedFd` is its only owner.
            unsafe { OwnedFd::from_raw_fd(raw) }
        }
        Err(e) if lacks_termios2(&error_chain(&e)) => {
            open_classic(path, baud).map_err(|e| fail(not_a_serial_port(path, error_chain(&e))))?
        }
        Err(e) => return Err(fail(not_a_serial_port(path, error_chain(&e)))),
    };
    let mut stream = FdStream::new(fd).map_err(|e| fail(error_chain(&e)))?;
    stream.claimed = true;
    Ok(stream)
}

/// `reason` a port could not be opened, saying so when `path` is no serial port at all (a
/// regular file, a folder, or a device that is not a terminal: `/dev/null`) and when another
/// program holds it.
fn not_a_serial_port(path: &Path, reason: String) -> String {
    if let Some(target) = dangling_link(path) {
        return format!("it is a link to {}, which is gone (the simulator or the board it pointed at has stopped, or was unplugged): start it again, or plug the robot in", target.display());
    }
    if std::fs::symlink_metadata(path).is_err() {
        // A link of the simulator's own under /dev would need root, and mimic a device; a
        // service's /tmp is its own, so it is offered one in its data folder.
        let under_systemd = std::env::var_os("INVOCATION_ID").is_some();
        let simulator = match (path.starts_with("/dev"), under_systemd) {
            (true, false) => "or try the simulator instead: `cubed sim --pty --link /tmp/cubed-robot`, and that link as the port".to_string(),
            (true, true) => "or try the simulator instead: `sudo -u cubed cubed sim --pty --link /var/lib/cubed/sim-link`, and that link as the port".to_string(),
            (false, _) => format!("or start the simulator with `cubed sim --pty --link {}`", path.display()),
        };
        let service = private_tmp_words(path, under_systemd);
        return format!("nothing is there: plug the robot in and power it (its port then appears in `ls -l /dev/serial/by-id/`), {simulator}{service}");
    }
    match no_port_at(path) {
        Some(what) => format!("it is {what}, not a serial port"),
        None if reason.contains(nix::errno::Errno::EACCES.desc()) => {
            match another_users_pty(path) {
                Some(owner) => format!("{reason}: it is a pseudo-terminal of user '{owner}' (a simulator started by that user), which only its owner may open: start the simulator as this user"),
                None => format!("{reason}: this user may not open serial ports; add it to the `dialout` group (`sudo usermod -aG dialout $USER`, then log in again)"),
            }
        }
        None if reason.contains(nix::errno::Errno::ENOTTY.desc()) => {
            format!("{reason}: this device is not a serial port")
        }
        None if reason.contains("exclusive lock")
            || reason.contains(nix::errno::Errno::EBUSY.desc()) =>
        {
            format!("{reason}: another program has it open (the cubed daemon, another `cubed exec`, or a serial terminal); stop it first, or run through the daemon")
        }
        None => reason,
    }
}

/// For a link under /tmp looked for by a systemd service (`INVOCATION_ID` set), whose /tmp is
/// its own (`PrivateTmp`): why a link made from a shell is not seen, and where to make one.
fn private_tmp_words(path: &Path, under_systemd: bool) -> &'static str {
    match under_systemd && path.starts_with("/tmp") {
        true => " (this daemon runs as a systemd service, whose /tmp is its own: a link made in /tmp from a shell is not seen here; make it elsewhere, e.g. `sudo -u cubed cubed sim --pty --link /var/lib/cubed/sim-link`, and give that as the port)",
        false => "",
    }
}

/// The user whose pseudo-terminal `path` leads to, when it is not this process's user.
fn another_users_pty(path: &Path) -> Option<String> {
    let target = std::fs::canonicalize(path).ok()?;
    match target.starts_with("/dev/pts") {
        true => cubed_files::owner::another_owner(&target),
        false => None,
    }
}

/// Where `path` points, when it is a symbolic link to nothing (a by-id link a killed
/// `cubed sim --link` left behind, a board unplugged under a hand-made link).
pub fn dangling_link(path: &Path) -> Option<std::path::PathBuf> {
    let is_link = std::fs::symlink_metadata(path)
        .ok()?
        .file_type()
        .is_symlink();
    (is_link && !path.exists()).then(|| std::fs::read_link(path).ok())?
}

/// What is at `path` when it cannot be a serial port whatever it answers: "a regular file" or
/// "a folder"; `None` for a device, or for nothing there.
pub fn no_port_at(path: &Path) -> Option<&'static str> {
    let kind = std::fs::metadata(path).ok()?.file_type();
    if kind.is_file() {
        Some("a regular file")
    } else if kind.is_dir() {
        Some("a folder")
    } else {
        None
    }
}

/// Where the robot's serial port is now.
pub trait PathResolver: Send + Sync {
    /// The path to open next.
    fn resolve(&self) -> PathBuf;
}

/// Always the same path: real hardware (`/dev/serial/by-id/…`) or a symlink the simulator
/// keeps pointing at its current pty.
#[derive(Debug, Clone)]
pub struct FixedPath(pub PathBuf);

impl PathResolver for FixedPath {
    fn resolve(&self) -> PathBuf {
        self.0.clone()
    }
}

/// The latest path announced by an in-process simulator.
#[derive(Debug, Clone, Default)]
pub struct SharedPath(Arc<Mutex<PathBuf>>);

impl SharedPath {
    /// A resolver starting at `path`.
    pub fn new(path: PathBuf) -> SharedPath {
        SharedPath(Arc::new(Mutex::new(path)))
    }

    /// Announces a new path.
    pub fn set(&self, path: PathBuf) {
        if let Ok(mut current) = self.0.lock() {
            *current = path;
        }
    }
}

impl PathResolver for SharedPath {
    fn resolve(&self) -> PathBuf {
        self.0.lock().map(|p| p.clone()).unwrap_or_default()
    }
}

/// Opens the transport to the robot, again after every loss.
pub trait Connector: Send + Sync {
    /// Opens the port where the robot is now; returns the stream and the path opened.
    fn connect(&self) -> Result<(Box<dyn Transport>, PathBuf), LinkError>;
}

/// Serial ports found through a [`PathResolver`].
pub struct SerialConnector {
    pub resolver: Box<dyn PathResolver>,
    pub baud: u32,
}

impl SerialConnector {
    /// A connector for `resolver` at `baud`.
    pub fn new(resolver: impl PathResolver + 'static, baud: u32) -> SerialConnector {
        SerialConnector {
            resolver: Box::new(resolver),
            baud,
        }
    }
}

impl Connector for SerialConnector {
    fn connect(&self) -> Result<(Box<dyn Transport>, PathBuf), LinkError> {
        let path = self.resolver.resolve();
        if path.as_os_str().is_empty() {
            // Only an in-process simulator announces no path: while it is unplugged.
            return Err(LinkError::Open {
                path: PathBuf::from("(the simulator's pty)"),
                reason: "the simulated robot is unplugged".into(),
            });
        }
        let stream = open_serial(&path, self.baud)?;
        Ok((Box::new(stream), path))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open_error(path: &Path) -> String {
        match open_serial(path, 115_200) {
            Ok(_) => panic!("{} opened as a serial port", path.display()),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn a_file_a_folder_or_a_device_that_is_no_terminal_is_said_to_be_no_serial_port() {
        let dir = tempfile::tempdir().expect("temp dir");
        let file = dir.path().join("robot");
        std::fs::write(&file, b"").expect("write");
        let said = open_error(&file);
        assert!(said.contains("a regular file, not a serial port"), "{said}");
        assert!(said.contains(&file.display().to_string()), "{said}");
        let said = open_error(dir.path());
        assert!(said.contains("a folder, not a serial port"), "{said}");
        let said = open_error(Path::new("/dev/null"));
        assert!(said.contains("this device is not a serial port"), "{said}");
        let missing = open_error(&dir.path().join("gone"));
        assert!(!missing.contains("not a serial port"), "{missing}");
        assert!(
            missing.contains("nothing is there") && missing.contains("/dev/serial/by-id/"),
            "{missing}"
        );
        assert!(
            missing.contains("--link") && missing.contains("gone`"),
            "{missing}"
        );
        // A device path is not offered as the simulator's link (it would need root).
        let device = open_error(Path::new("/dev/ttyACM77"));
        assert!(device.contains("--link /tmp/cubed-robot`"), "{device}");
        let stale = dir.path().join("cubed-pico");
        std::os::unix::fs::symlink(dir.path().join("pts-999"), &stale).expect("a link");
        let said = open_error(&stale);
        assert!(
            said.contains("it is a link to") && said.contains("pts-999"),
            "{said}"
        );
        assert!(said.contains("which is gone"), "{said}");
    }

    #[test]
    fn a_link_under_tmp_looked_for_by_a_service_says_its_tmp_is_its_own() {
        let tmp = Path::new("/tmp/cubed-robot");
        assert!(private_tmp_words(tmp, true).contains("whose /tmp is its own"));
        assert_eq!(private_tmp_words(tmp, false), "");
        assert_eq!(
            private_tmp_words(Path::new("/var/lib/cubed/link"), true),
            ""
        );
    }

    #[test]
    fn a_port_this_user_may_not_open_names_the_dialout_group() {
        // Tests may run as root, which any device lets in: the words are checked alone.
        let denied = nix::errno::Errno::EACCES.desc().to_string();
        let said = not_a_serial_port(Path::new("/dev/null"), denied);
        assert!(said.contains("`dialout` group"), "{said}");
    }

    #[tokio::test]
    async fn a_port_another_program_holds_is_said_to_be_held() {
        let pty = crate::sim::pty::open_pty().expect("a pseudo-terminal");
        let first = open_serial(&pty.path, 115_200).expect("the first opener gets the port");
        let said = open_error(&pty.path);
        assert!(said.contains("another program has it open"), "{said}");
        assert!(said.contains("the cubed daemon"), "{said}");
        drop(first);
        open_serial(&pty.path, 115_200).expect("free again once the first lets go");
    }

    #[tokio::test]
    async fn a_copy_of_the_descriptor_left_in_a_spawning_child_does_not_keep_the_port_held() {
        let pty = crate::sim::pty::open_pty().expect("a pseudo-terminal");
        let first = open_serial(&pty.path, 115_200).expect("the first opener gets the port");
        // What a fork by another thread leaves until its exec: the same open file.
        let inherited = first.fd.get_ref().try_clone().expect("a second descriptor");
        drop(first);
        open_serial(&pty.path, 115_200).expect("free once dropped, whatever copies remain");
        drop(inherited);
    }
}
