//! Opening a serial port with the classic termios calls only, for kernels and emulators without `termios2`
//! (`TCGETS2`, which the `serialport` crate needs to set a baud rate): qemu-user runs an arm64
//! build of cubed on an x86 machine this way. Exclusive, raw 8N1, one of the standard rates.

use nix::fcntl::{open, OFlag};
use nix::sys::stat::Mode;
use nix::sys::termios::SetArg;
use nix::sys::termios::{cfmakeraw, cfsetspeed, tcgetattr, tcsetattr, BaudRate, ControlFlags};
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::Path;

nix::ioctl_none_bad!(claim_exclusive, nix::libc::TIOCEXCL);
nix::ioctl_none_bad!(end_exclusive, nix::libc::TIOCNXCL);

/// Why the classic way could not open the port either.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ClassicOpenError {
    #[error("{baud} baud is not a standard rate, and this system has no termios2 to set any other (use 115200)")]
    NonStandardBaud { baud: u32 },
    #[error("another program holds an exclusive lock on it")]
    Held,
    #[error("{0}")]
    System(#[from] nix::errno::Errno),
}

/// Whether a `serialport` failure means the system lacks `termios2` (its `ioctl` answered ENOSYS).
pub(crate) fn lacks_termios2(reason: &str) -> bool {
    reason.contains(nix::errno::Errno::ENOSYS.desc())
}

/// Opens `path` as `serialport` would (exclusive by `TIOCEXCL` and `flock`, raw 8N1, receiver on, modem lines ignored)
/// with `TCGETS`/`TCSETS` only.
pub(crate) fn open_classic(path: &Path, baud: u32) -> Result<OwnedFd, ClassicOpenError> {
    let rate = standard_rate(baud).ok_or(ClassicOpenError::NonStandardBaud { baud })?;
    let flags = OFlag::O_RDWR | OFlag::O_NOCTTY | OFlag::O_NONBLOCK | OFlag::O_CLOEXEC;
    let fd = open(path, flags, Mode::empty())?;
    // SAFETY: TIOCEXCL takes no argument and `fd` is open for the whole call.
    unsafe { claim_exclusive(fd.as_raw_fd()) }?;
    // SAFETY: flock takes the open descriptor and two flags; the lock goes with the descriptor.
    let locked =
        unsafe { nix::libc::flock(fd.as_raw_fd(), nix::libc::LOCK_EX | nix::libc::LOCK_NB) };
    match nix::errno::Errno::result(locked) {
        Err(nix::errno::Errno::EWOULDBLOCK) => return Err(ClassicOpenError::Held),
        other => other.map(drop)?,
    }
    let mut termios = tcgetattr(&fd)?;
    // Raw, and a read waits for one byte (VMIN 1): with VMIN 0 an empty read would say "hang-up".
    cfmakeraw(&mut termios);
    termios.control_flags |= ControlFlags::CLOCAL | ControlFlags::CREAD;
    cfsetspeed(&mut termios, rate)?;
    tcsetattr(&fd, SetArg::TCSANOW, &termios)?;
    Ok(fd)
}

/// Gives up the port's exclusive claim (`TIOCEXCL` and the `flock`) before it is closed: a
/// child process being spawned by another thread holds a copy of the descriptor until its
/// exec, and a close alone would leave the port claimed for that while (a reconnect in the
/// same process was refused as "another program has it open").
pub(crate) fn release_exclusive(fd: &OwnedFd) {
    // SAFETY: both calls take the open descriptor and plain flags; failures leave nothing
    // to undo (the close that follows ends the claim anyway).
    unsafe {
        let _ = end_exclusive(fd.as_raw_fd());
        nix::libc::flock(fd.as_raw_fd(), nix::libc::LOCK_UN);
    }
}

/// The termios constant for `baud`, if it is one of the standard rates.
fn standard_rate(baud: u32) -> Option<BaudRate> {
    use BaudRate::*;
    let rates = [
        (300, B300),
        (600, B600),
        (1_200, B1200),
        (2_400, B2400),
        (4_800, B4800),
        (9_600, B9600),
        (19_200, B19200),
        (38_400, B38400),
        (57_600, B57600),
        (115_200, B115200),
        (230_400, B230400),
        (460_800, B460800),
        (500_000, B500000),
        (921_600, B921600),
        (1_000_000, B1000000),
        (1_500_000, B1500000),
        (2_000_000, B2000000),
        (3_000_000, B3000000),
        (4_000_000, B4000000),
    ];
    rates
        .into_iter()
        .find(|(number, _)| *number == baud)
        .map(|(_, rate)| rate)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_pty_opened_the_classic_way_is_raw_at_the_rate_and_held_exclusively() {
        let pty = crate::sim::pty::open_pty().expect("a pseudo-terminal");
        let fd = open_classic(&pty.path, 57_600).expect("the classic open");
        let termios = tcgetattr(&fd).expect("its settings");
        assert_eq!(nix::sys::termios::cfgetospeed(&termios), BaudRate::B57600);
        assert!(!termios
            .local_flags
            .contains(nix::sys::termios::LocalFlags::ICANON));
        assert!(termios.control_flags.contains(ControlFlags::CLOCAL));
        let vmin = nix::sys::termios::SpecialCharacterIndices::VMIN as usize;
        assert_eq!(
            termios.control_chars[vmin], 1,
            "an empty read must not look like a hang-up"
        );
        let mut buffer = [0u8; 8];
        assert_eq!(
            nix::unistd::read(&fd, &mut buffer),
            Err(nix::errno::Errno::EAGAIN),
            "nothing sent yet: the read must wait, not end the file"
        );
        let second = open_classic(&pty.path, 57_600);
        assert!(
            matches!(second, Err(ClassicOpenError::Held)),
            "a second opener must be refused: {second:?}"
        );
    }

    #[test]
    fn a_rate_termios_cannot_name_is_refused_with_the_rate_to_use() {
        let said = open_classic(Path::new("/dev/null"), 250_000)
            .expect_err("250000 is no standard rate")
            .to_string();
        assert!(
            said.contains("250000 baud") && said.contains("115200"),
            "{said}"
        );
    }

    #[test]
    fn only_enosys_means_no_termios2() {
        assert!(lacks_termios2("Function not implemented"));
        assert!(!lacks_termios2("Inappropriate ioctl for device"));
    }
}
