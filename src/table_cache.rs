//! On-disk cache of the solver tables: a versioned file per mode, checked on load, rebuilt when missing, stale or corrupt, written atomically.

use cubed_core::error_chain::error_chain;
use cubed_core::pocket::PocketTables;
use cubed_core::pocket::POCKET_FORMAT_VERSION;
use cubed_core::solver::axial::{AxialTables, AXIAL_FORMAT_VERSION};
use cubed_core::solver::TABLE_FORMAT_VERSION as FORMAT_VERSION;
use cubed_core::solver::{TableBytesError, TableMode, Tables};
use std::fs::File;
use std::io::{BufReader, Write};
use std::path::{Path, PathBuf};

/// What happened when tables were asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum CacheOutcome {
    /// Read from the cache file.
    Loaded,
    /// Read from the package's tables ([`PACKAGE_TABLES`]), the cache having none; nothing
    /// written.
    Shared { path: PathBuf },
    /// Built (small mode is never cached).
    BuiltSmall,
    /// Built and written to the cache.
    Built,
    /// The cache file was there but unusable; rebuilt and rewritten.
    Rebuilt { reason: String },
    /// Built, but the cache could not be written (tables are still usable).
    NotSaved { reason: String },
}

/// Why a cached tables file cannot be used (it is rebuilt, and the reason said).
#[derive(Debug, thiserror::Error)]
enum CachedTablesError {
    /// Sound tables, of the other mode (a file renamed or copied by hand).
    #[error("holds tables of another mode")]
    OtherMode,
    /// Not tables this cubed reads: truncated, corrupt, or of another format.
    #[error(transparent)]
    Unreadable(#[from] TableBytesError),
}

/// The cache directory: `$CUBED_CACHE_DIR`, else `$XDG_CACHE_HOME/cubed`, else `~/.cache/cubed`, else `./.cubed-cache` (empty variables count as unset).
pub(crate) fn default_cache_dir() -> PathBuf {
    cache_dir_from(|name| std::env::var_os(name))
}

/// The cache directory given a way to read environment variables.
fn cache_dir_from(env: impl Fn(&str) -> Option<std::ffi::OsString>) -> PathBuf {
    // An empty variable counts as unset (it would otherwise mean the current directory).
    let var = |name| env(name).filter(|v| !v.is_empty());
    if let Some(dir) = var("CUBED_CACHE_DIR") {
        return PathBuf::from(dir);
    }
    if let Some(dir) = var("XDG_CACHE_HOME") {
        return PathBuf::from(dir).join("cubed");
    }
    match var("HOME") {
        Some(home) => PathBuf::from(home).join(".cache").join("cubed"),
        None => PathBuf::from(".cubed-cache"),
    }
}

/// File name of the cached tables of `mode` (the format version is part of it).
pub(crate) fn cache_file(dir: &Path, mode: TableMode) -> PathBuf {
    let mode = match mode {
        TableMode::Small => "small",
        TableMode::Full => "full",
    };
    dir.join(format!("cubed-tables-v{FORMAT_VERSION}-{mode}.bin"))
}

/// Tables of `mode`: from the cache when it is sound, else built (and cached for the full mode),
/// calling `building` just before the full tables are built (seconds of
/// work: the caller shows progress).
pub(crate) fn load_or_build_announced(
    dir: &Path,
    mode: TableMode,
    building: impl FnOnce(),
) -> (Tables, CacheOutcome) {
    if mode == TableMode::Small {
        return (Tables::build(mode), CacheOutcome::BuiltSmall);
    }
    let path = cache_file(dir, mode);
    let read = |input| match Tables::read_from(input) {
        Ok(t) if t.mode == mode => Ok(t),
        Ok(_) => Err(CachedTablesError::OtherMode),
        Err(e) => Err(CachedTablesError::Unreadable(e)),
    };
    let loaded = load_or_build_with(
        &path,
        read,
        || {
            building();
            Tables::build(mode)
        },
        |t, out| t.write_to(out),
    );
    if matches!(loaded.1, CacheOutcome::Built | CacheOutcome::Rebuilt { .. }) {
        remove_other_versions(&path);
    }
    loaded
}

/// File name of the cached axial-search tables.
pub fn axial_cache_file(dir: &Path) -> PathBuf {
    dir.join(format!("cubed-axial-v{AXIAL_FORMAT_VERSION}.bin"))
}

/// The axial search's tables: from the cache when it is sound, else built (calling `building`
/// first: seconds of work) and cached.
pub(crate) fn load_or_build_axial(
    dir: &Path,
    building: impl FnOnce(),
) -> (AxialTables, CacheOutcome) {
    load_or_build_with(
        &axial_cache_file(dir),
        AxialTables::read_from,
        || {
            building();
            AxialTables::build()
        },
        |t, out| t.write_to(out),
    )
}

/// File name of the cached pocket-cube (2x2) distance tables.
pub fn pocket_cache_file(dir: &Path) -> PathBuf {
    dir.join(format!("cubed-pocket-v{POCKET_FORMAT_VERSION}.bin"))
}

/// The 2x2 tables: from the cache when it is sound, else built and cached.
pub(crate) fn load_or_build_pocket(dir: &Path) -> (PocketTables, CacheOutcome) {
    let read = PocketTables::read_from;
    load_or_build_with(
        &pocket_cache_file(dir),
        read,
        PocketTables::build,
        |t, out| t.write_to(out),
    )
}

/// Where the Debian package builds the tables at its install (its service's
/// `CUBED_CACHE_DIR`). Read, never written, when the default cache (no `$CUBED_CACHE_DIR`, no
/// `--cache-dir`) has none: the daemon run by hand as the `cubed` user, or a command run as
/// root, then starts as quickly as the service (other users may not read it, and build their
/// own as before).
pub(crate) const PACKAGE_TABLES: &str = "/var/lib/cubed/cache";

/// The folder whose tables stand in for a missing file in `dir`: [`PACKAGE_TABLES`] when
/// `dir` is this user's default cache (a folder asked for by name is the one meant).
fn shared_for(dir: &Path, env: impl Fn(&str) -> Option<std::ffi::OsString>) -> Option<PathBuf> {
    let named = env("CUBED_CACHE_DIR").is_some_and(|v| !v.is_empty());
    let shared = PathBuf::from(PACKAGE_TABLES);
    (!named && dir == cache_dir_from(env) && dir != shared).then_some(shared)
}

/// Reads `path` with `read`; when it is missing, the same file in the shared folder
/// ([`shared_for`]) if that is sound; else builds the tables and writes them to `path`
/// atomically (a failed write leaves the built tables usable and says why).
fn load_or_build_with<T, E: std::error::Error>(
    path: &Path,
    read: impl Fn(BufReader<File>) -> Result<T, E>,
    build: impl FnOnce() -> T,
    write: impl FnOnce(&T, &mut dyn Write) -> std::io::Result<()>,
) -> (T, CacheOutcome) {
    let dir = path.parent().unwrap_or(Path::new("."));
    let shared = shared_for(dir, |name| std::env::var_os(name));
    load_or_build_beside(path, shared.as_deref(), read, build, write)
}

/// As [`load_or_build_with`], with the shared folder given.
fn load_or_build_beside<T, E: std::error::Error>(
    path: &Path,
    shared: Option<&Path>,
    read: impl Fn(BufReader<File>) -> Result<T, E>,
    build: impl FnOnce() -> T,
    write: impl FnOnce(&T, &mut dyn Write) -> std::io::Result<()>,
) -> (T, CacheOutcome) {
    let missing = matches!(File::open(path), Err(e) if e.kind() == std::io::ErrorKind::NotFound);
    let beside = (shared.zip(path.file_name())).map(|(dir, name)| dir.join(name));
    if let Some(beside) = beside.filter(|_| missing) {
        // Not there, not this user's to read, or not sound: built as before.
        let file = File::open(&beside).ok();
        if let Some(t) = file.and_then(|f| read(BufReader::with_capacity(1 << 16, f)).ok()) {
            return (t, CacheOutcome::Shared { path: beside });
        }
    }
    let stale = match File::open(path) {
        Ok(file) => match read(BufReader::with_capacity(1 << 16, file)) {
            Ok(t) => return (t, CacheOutcome::Loaded),
            Err(why) => Some(format!("{}: {}", path.display(), error_chain(&why))),
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => Some(format!("{}: {}", path.display(), error_chain(&e))),
    };
    let tables = build();
    let saved = cubed_files::atomic_file::write_atomically_with(path, |out| write(&tables, out));
    let outcome = match (saved, stale) {
        (Err(e), _) => CacheOutcome::NotSaved {
            reason: format!("{}: {}", path.display(), error_chain(&e)),
        },
        (Ok(()), Some(reason)) => CacheOutcome::Rebuilt { reason },
        (Ok(()), None) => CacheOutcome::Built,
    };
    (tables, outcome)
}

/// Deletes cache files of the same mode written by other format versions (each is over 100 MB).
fn remove_other_versions(current: &Path) {
    let (Some(dir), Some(name)) = (
        current.parent(),
        current.file_name().and_then(|n| n.to_str()),
    ) else {
        return;
    };
    let mode_suffix = name.rsplit('-').next().unwrap_or(name).to_string();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let other = entry.file_name();
        let Some(other) = other.to_str() else {
            continue;
        };
        if other != name
            && other.starts_with("cubed-tables-v")
            && other.ends_with(&format!("-{mode_suffix}"))
        {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsString;

    fn dir_with(vars: &[(&str, &str)]) -> PathBuf {
        cache_dir_from(|name| {
            (vars.iter())
                .find(|(n, _)| *n == name)
                .map(|(_, v)| OsString::from(v))
        })
    }

    /// The package's tables stand in for the default cache's missing ones, read only; a folder
    /// named by `$CUBED_CACHE_DIR` (or `--cache-dir`) is the one meant.
    #[test]
    fn the_packages_tables_stand_in_only_for_the_default_cache() {
        const HOME: (&str, &str) = ("HOME", "/home/r");
        let default = PathBuf::from("/home/r/.cache/cubed");
        let shared = Some(PathBuf::from(PACKAGE_TABLES));
        let env = |vars: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                (vars.iter())
                    .find(|(n, _)| *n == name)
                    .map(|(_, v)| OsString::from(v))
            }
        };
        assert_eq!(shared_for(&default, env(&[HOME])), shared);
        let unset = env(&[HOME, ("CUBED_CACHE_DIR", "")]);
        assert_eq!(shared_for(&default, unset), shared);
        assert_eq!(shared_for(Path::new("/tmp/asked"), env(&[HOME])), None);
        let named = env(&[HOME, ("CUBED_CACHE_DIR", "/home/r/.cache/cubed")]);
        assert_eq!(shared_for(&default, named), None);
    }

    /// A missing file is read from the shared folder and nothing is written to the cache; a
    /// file there that is not sound is passed over and the tables built into the cache.
    #[test]
    fn missing_tables_are_read_from_the_shared_folder_and_not_copied() {
        let (cache, shared) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let path = cache.path().join("t.bin");
        let read = |mut input: BufReader<File>| {
            let mut text = String::new();
            std::io::Read::read_to_string(&mut input, &mut text)?;
            match text.starts_with("tables") {
                true => Ok(text),
                false => Err(std::io::Error::other("not tables")),
            }
        };
        let write = |t: &String, out: &mut dyn Write| out.write_all(t.as_bytes());
        let load = || {
            let build = || "tables: built".to_string();
            load_or_build_beside(&path, Some(shared.path()), read, build, write)
        };
        std::fs::write(shared.path().join("t.bin"), "tables: shared").unwrap();
        let (t, outcome) = load();
        let from = shared.path().join("t.bin");
        assert_eq!(
            (t.as_str(), outcome),
            ("tables: shared", CacheOutcome::Shared { path: from })
        );
        assert!(!path.exists(), "nothing written to the cache");
        std::fs::write(shared.path().join("t.bin"), "garbage").unwrap();
        let (t, outcome) = load();
        assert_eq!(
            (t.as_str(), outcome),
            ("tables: built", CacheOutcome::Built)
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "tables: built");
    }

    #[test]
    fn the_cache_dir_follows_the_environment_and_ignores_empty_variables() {
        let home = ("HOME", "/home/r");
        assert_eq!(
            dir_with(&[("CUBED_CACHE_DIR", "/c"), ("XDG_CACHE_HOME", "/x"), home]),
            PathBuf::from("/c")
        );
        assert_eq!(
            dir_with(&[("CUBED_CACHE_DIR", ""), ("XDG_CACHE_HOME", "/x"), home]),
            PathBuf::from("/x/cubed")
        );
        assert_eq!(
            dir_with(&[("CUBED_CACHE_DIR", ""), ("XDG_CACHE_HOME", ""), home]),
            PathBuf::from("/home/r/.cache/cubed")
        );
        assert_eq!(dir_with(&[("HOME", "")]), PathBuf::from(".cubed-cache"));
    }
}
