//! One daemon per data directory: an exclusive `flock` on `DATA_DIR/cubed.lock`, held for the daemon's life, with the holder's pid written in it so a second daemon can say who has it.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};

/// The lock file in the data directory.
pub(crate) const LOCK_FILE: &str = "cubed.lock";

/// Why the data directory could not be taken.
#[derive(Debug, thiserror::Error)]
pub enum DataLockError {
    #[error("the data directory {dir} is in use by another cubed daemon ({holder}); stop that one first, or give this one another data directory (--data-dir or [data] dir)")]
    Busy { dir: PathBuf, holder: String },
    #[error("the data directory {dir} ([data] dir or --data-dir) cannot be used: {why}")]
    Unusable { dir: PathBuf, why: String },
    /// The data directory, or a folder above it, is a file: the configuration's mistake.
    #[error("the data directory {dir} ([data] dir or --data-dir) cannot be used: {file} is not a folder")]
    NotAFolder { dir: PathBuf, file: PathBuf },
    /// Another user's folder (the service's, `cubed`): fine for that user.
    #[error("{}", not_yours_words(.dir, .owner, .user))]
    NotYours {
        dir: PathBuf,
        owner: String,
        user: String,
    },
    /// Root could write in another user's folder, but what it leaves there that user could
    /// not open again (the package's service would no longer start).
    #[error("the data directory {dir} belongs to user '{owner}': run the daemon as '{owner}' (the package's service: sudo systemctl start cubed; by hand: sudo -u {owner} cubed run …), not as root, whose files there '{owner}' could not open again")]
    RootInAnothersFolder { dir: PathBuf, owner: String },
    /// A file in the data directory this user cannot open (left by a daemon run as root).
    #[error("cannot open {path}: it belongs to user '{owner}', not to this user ('{user}'); if a daemon was run as '{owner}' by mistake, give the folder back: sudo chown -R {user}: {dir}")]
    FileNotYours {
        dir: PathBuf,
        path: PathBuf,
        owner: String,
        user: String,
    },
    #[error("cannot lock the data directory: {doing} {path}")]
    Io {
        doing: &'static str,
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// Whose `dir` is and what to do: run as its owner; for a folder of the package's service
/// (user `cubed`), or else another folder, never handed to this user (the service could no
/// longer open it); any other user's may be given to this one.
fn not_yours_words(dir: &Path, owner: &str, user: &str) -> String {
    let dir = dir.display();
    let begin = format!("the data directory {dir} belongs to user '{owner}' and this user ('{user}') cannot write in it: run the daemon as '{owner}'");
    match owner {
        "cubed" => format!("{begin} (the package's service: sudo systemctl start cubed; by hand: sudo -u cubed cubed run …), or give this one a data directory of its own (--data-dir or [data] dir)"),
        _ => format!("{begin} (sudo -u {owner} cubed …; the package's service runs as 'cubed'), or give the folder to this user (sudo chown -R {user}: {dir})"),
    }
}

impl DataLockError {
    /// Whether only a person can mend it (the configuration names a file, or a folder this
    /// user may not use): a service restarted would be refused again, so it is not restarted.
    pub fn waits_for_a_person(&self) -> bool {
        matches!(
            self,
            DataLockError::NotAFolder { .. }
                | DataLockError::NotYours { .. }
                | DataLockError::RootInAnothersFolder { .. }
                | DataLockError::FileNotYours { .. }
        )
    }
}

/// The data directory, held by this process until dropped (the kernel drops it on a crash too).
#[derive(Debug)]
pub(crate) struct DataDirLock {
    file: File,
}

impl Drop for DataDirLock {
    /// Unlocked, not only closed: a child process being spawned by another thread at that
    /// moment holds a copy of the descriptor until its exec, and closing this copy alone
    /// would leave the directory locked for that while (a daemon restarted in the same
    /// process was refused so). The unlock frees it for every copy.
    fn drop(&mut self) {
        if let Err(e) = self.file.unlock() {
            tracing::warn!("cannot unlock the data directory's lock file: {e}");
        }
    }
}

/// Whether the daemon could take `dir` as its data directory (`cubed config show`): it, or the
/// nearest folder above it that exists, is a folder where a folder can be made (tried, and
/// removed at once: permissions, a read-only or special file system, a full disk).
pub(super) fn check_usable(dir: &Path) -> Result<(), DataLockError> {
    let unusable = |why: String| DataLockError::Unusable {
        dir: dir.to_path_buf(),
        why,
    };
    let existing = dir
        .ancestors()
        .find(|p| p.exists())
        .unwrap_or(Path::new("/"));
    if !existing.is_dir() {
        return Err(DataLockError::NotAFolder {
            dir: dir.to_path_buf(),
            file: existing.to_path_buf(),
        });
    }
    if nix::unistd::geteuid().is_root() && existing == dir {
        if let Some(owner) = another_owner(dir) {
            return Err(DataLockError::RootInAnothersFolder {
                dir: dir.to_path_buf(),
                owner,
            });
        }
    }
    let probe = tempfile::Builder::new()
        .prefix(".cubed-check-")
        .tempdir_in(existing);
    // The error alone, without the probe's own (temporary) name.
    let probe = probe.map_err(|e| match e.raw_os_error() {
        Some(code) => std::io::Error::from_raw_os_error(code),
        None => std::io::Error::from(e.kind()),
    });
    match (probe, existing == dir) {
        (Ok(_removed_on_drop), _) => Ok(()),
        (Err(e), true) => match another_owner(dir) {
            Some(owner) if e.kind() == std::io::ErrorKind::PermissionDenied => {
                Err(DataLockError::NotYours {
                    dir: dir.to_path_buf(),
                    owner,
                    user: this_user(),
                })
            }
            _ => Err(unusable(format!("nothing can be written in it: {e}"))),
        },
        (Err(e), false) => Err(unusable(format!(
            "it does not exist and cannot be made in {}: {e}",
            existing.display()
        ))),
    }
}

use cubed_files::owner::{another_owner, this_user};

/// Whether a daemon holds `dir` now (its lock file is locked); false where there is no lock
/// file, or it cannot be read.
pub(crate) fn held_by_a_daemon(dir: &Path) -> bool {
    let Ok(file) = File::open(dir.join(LOCK_FILE)) else {
        return false;
    };
    matches!(file.try_lock_shared(), Err(TryLockError::WouldBlock))
}

impl DataDirLock {
    /// Creates the directory if needed and takes its lock, or says which process holds it.
    pub(crate) fn acquire(dir: &Path) -> Result<DataDirLock, DataLockError> {
        let path = dir.join(LOCK_FILE);
        let io = |doing| {
            let path = path.clone();
            move |source| DataLockError::Io {
                doing,
                path,
                source,
            }
        };
        // A file where the folder should be, or a folder that cannot be made, said as such.
        check_usable(dir)?;
        std::fs::create_dir_all(dir).map_err(io("cannot create the directory of"))?;
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|source| match another_owner(&path) {
                Some(owner) if source.kind() == std::io::ErrorKind::PermissionDenied => {
                    DataLockError::FileNotYours {
                        dir: dir.to_path_buf(),
                        path: path.clone(),
                        owner,
                        user: this_user(),
                    }
                }
                _ => io("cannot open")(source),
            })?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                return Err(DataLockError::Busy {
                    dir: dir.to_path_buf(),
                    holder: holder(&mut file),
                })
            }
            Err(TryLockError::Error(source)) => return Err(io("cannot lock")(source)),
        }
        // The pid only helps the message of a second daemon: a full disk must not stop this one.
        if let Err(e) = write_pid(&mut file) {
            tracing::warn!(
                "cannot write the pid into {}: {}",
                path.display(),
                cubed_core::error_chain::error_chain(&e)
            );
        }
        Ok(DataDirLock { file })
    }
}

fn write_pid(file: &mut File) -> std::io::Result<()> {
    file.set_len(0)?;
    file.rewind()?;
    writeln!(file, "{}", std::process::id())?;
    file.flush()
}

/// "pid N" from the lock file, as far as it can be read.
fn holder(file: &mut File) -> String {
    let mut text = String::new();
    let read = file.read_to_string(&mut text);
    match text.trim().parse::<u32>() {
        Ok(pid) if read.is_ok() => format!("pid {pid}"),
        _ => "pid not yet written".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The package's service's folder is never offered to another user (the service could no
    /// longer open it); any other user's folder may be.
    #[test]
    fn the_services_folder_is_not_offered_to_another_user() {
        let dir = Path::new("/var/lib/cubed");
        let service = not_yours_words(dir, "cubed", "builder");
        assert!(service.contains("sudo -u cubed cubed run"), "{service}");
        assert!(service.contains("a data directory of its own"), "{service}");
        assert!(!service.contains("chown"), "{service}");
        let other = not_yours_words(Path::new("/srv/robot"), "alice", "builder");
        assert!(
            other.contains("sudo chown -R builder: /srv/robot"),
            "{other}"
        );
    }

    #[test]
    fn a_second_lock_is_refused_naming_the_dir_and_pid_until_the_first_is_dropped() {
        let dir = tempfile::tempdir().expect("temp dir");
        let data = dir.path().join("data");
        let first = DataDirLock::acquire(&data).expect("first lock");
        let written = std::fs::read_to_string(data.join(LOCK_FILE)).expect("lock file");
        assert_eq!(written.trim(), std::process::id().to_string());
        let refused = DataDirLock::acquire(&data).expect_err("second lock");
        let text = refused.to_string();
        assert!(text.contains(&data.display().to_string()), "{text}");
        assert!(
            text.contains(&format!("pid {}", std::process::id())),
            "{text}"
        );
        drop(first);
        DataDirLock::acquire(&data).expect("free again once dropped");
    }

    #[test]
    fn a_copy_of_the_descriptor_left_in_a_spawning_child_does_not_keep_the_dir_locked() {
        let dir = tempfile::tempdir().expect("temp dir");
        let first = DataDirLock::acquire(dir.path()).expect("first lock");
        // What a fork by another thread leaves until its exec: the same open file.
        let inherited = first.file.try_clone().expect("a second descriptor");
        drop(first);
        DataDirLock::acquire(dir.path()).expect("free once dropped, whatever copies remain");
        drop(inherited);
    }
}
