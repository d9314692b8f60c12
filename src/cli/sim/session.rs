//! What both ways of serving a robot on a pty share (`cubed sim --pty`, `--pico`): what a
//! person types to it (one letter a line on stdin, read only while it is in the terminal's
//! foreground) and the signals that stop it, as commands on a channel; and the check of the
//! `--link` path.

use std::io::{BufRead, IsTerminal, Write};
use std::os::fd::AsFd;
use std::path::Path;
use tokio::sync::mpsc;

/// How often a backgrounded simulator checks whether its terminal is back in the foreground.
const FOREGROUND_POLL: std::time::Duration = std::time::Duration::from_millis(200);

/// What stdin is, for the simulator's commands.
#[derive(Debug, PartialEq, Eq)]
enum Input {
    /// `/dev/null` (a backgrounded job in a script): nothing to read, never a reason to quit.
    Nothing,
    /// A terminal: read while in its foreground; Ctrl-D quits.
    Terminal,
    /// A pipe or a file: read; its end quits.
    Stream,
}

fn stdin_kind() -> Input {
    use std::os::unix::fs::MetadataExt;
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        return Input::Terminal;
    }
    let null = std::fs::metadata("/dev/null").map(|m| m.rdev()).ok();
    let ours = nix::sys::stat::fstat(stdin.as_fd()).ok();
    match (null, ours) {
        (Some(null), Some(st)) if st.st_rdev == null && is_char_device(st.st_mode) => {
            Input::Nothing
        }
        _ => Input::Stream,
    }
}

fn is_char_device(mode: nix::sys::stat::mode_t) -> bool {
    mode & nix::sys::stat::SFlag::S_IFMT.bits() == nix::sys::stat::SFlag::S_IFCHR.bits()
}

/// Whether this process is in the foreground of the terminal on stdin.
fn in_foreground() -> bool {
    nix::unistd::tcgetpgrp(std::io::stdin()).is_ok_and(|group| group == nix::unistd::getpgrp())
}

/// The next line of stdin; `None` at its end (or, for a pipe, a read error).
fn next_line(kind: &Input) -> Option<String> {
    loop {
        if *kind == Input::Terminal && !in_foreground() {
            std::thread::sleep(FOREGROUND_POLL);
            continue;
        }
        let mut line = String::new();
        match std::io::stdin().lock().read_line(&mut line) {
            Ok(0) => return None,
            Ok(_) => return Some(line),
            // Put in the background between the check and the read: EIO, try again later.
            Err(_) if *kind == Input::Terminal => std::thread::sleep(FOREGROUND_POLL),
            Err(_) => return None,
        }
    }
}

/// Reads stdin's lines as commands (`parse`, or `q` to quit; `help` lists them) and sends
/// them, then `shutdown` at `q` or the input's end.
pub(super) fn read_commands<C: Send + 'static>(
    controls: mpsc::UnboundedSender<C>,
    parse: fn(&str) -> Option<C>,
    help: &'static str,
    shutdown: C,
) {
    let kind = stdin_kind();
    if kind == Input::Nothing {
        return;
    }
    std::thread::spawn(move || {
        while let Some(line) = next_line(&kind) {
            let control = match line.trim() {
                "q" => break,
                "" => continue,
                typed => match parse(typed) {
                    Some(control) => control,
                    None => {
                        eprintln!("cubed sim: unknown command '{typed}' ({help})");
                        continue;
                    }
                },
            };
            if controls.send(control).is_err() {
                return;
            }
        }
        let _ = controls.send(shutdown);
    });
}

/// Sends `shutdown` at SIGINT or SIGTERM (within a tokio runtime).
pub(super) fn forward_signals<C: Send + 'static>(controls: mpsc::UnboundedSender<C>, shutdown: C) {
    tokio::spawn(async move {
        use tokio::signal::unix::{signal, SignalKind};
        let (Ok(mut interrupt), Ok(mut terminate)) = (
            signal(SignalKind::interrupt()),
            signal(SignalKind::terminate()),
        ) else {
            return;
        };
        tokio::select! {
            _ = interrupt.recv() => {}
            _ = terminate.recv() => {}
        }
        let _ = controls.send(shutdown);
    });
}

/// Why `--link` cannot be kept pointing at the pty: its folder is missing, or a file (not a
/// link) is already there.
pub(super) fn link_refusal(link: &Path) -> Option<String> {
    let folder = match link.parent() {
        Some(p) if p.as_os_str().is_empty() => Path::new("."),
        Some(p) => p,
        None => {
            return Some(format!(
                "--link {}: give a file path for the link",
                link.display()
            ))
        }
    };
    if !folder.is_dir() {
        return Some(format!(
            "--link {}: the folder {} does not exist",
            link.display(),
            folder.display()
        ));
    }
    match link.symlink_metadata() {
        Ok(m) if !m.file_type().is_symlink() => Some(format!(
            "--link {}: a file that is not a link is there; give another path",
            link.display()
        )),
        _ => None,
    }
}

/// A warning when `--link` points at a device still there (another simulator, or a board, may
/// be on this path, and loses it).
pub(super) fn link_taken_over(link: &Path) -> Option<String> {
    let is_link = link
        .symlink_metadata()
        .is_ok_and(|m| m.file_type().is_symlink());
    (is_link && link.exists()).then(|| {
        format!(
            "cubed sim: warning: --link {} pointed at {}, which is still there (another simulator, or a board, may be on this path); it now points at this simulator",
            link.display(),
            std::fs::read_link(link).unwrap_or_default().display()
        )
    })
}

/// Why the file `option` names could not be written (at exit, or as the session goes), said
/// before the session starts rather than after it.
pub(super) fn output_refusal(option: &str, path: &Path) -> Option<String> {
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if path.is_dir() {
        Some(format!(
            "{option} {}: is a folder; give a file name",
            path.display()
        ))
    } else if !folder.is_dir() {
        Some(format!(
            "{option} {}: the folder {} does not exist",
            path.display(),
            folder.display()
        ))
    } else {
        None
    }
}

/// The pty's path on stdout, for whoever reads it; a reader gone (`| head -1`) must not
/// stop the simulator.
pub(super) fn announce(path: &Path) {
    let mut out = std::io::stdout();
    let _ = writeln!(out, "{}", path.display()).and_then(|()| out.flush());
}
