//! On-disk cache of the solver tables: a versioned file per mode, checked on load, rebuilt when missing, stale or corrupt, written atomically.

use crate::solver::table_bytes::FORMAT_VERSION;
use crate::solver::{TableMode, Tables};
use std::path::{Path, PathBuf};

/// What happened when tables were asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CacheOutcome {
    /// Read from the cache file.
    Loaded,
    /// Built (small mode is never cached).
    BuiltSmall,
    /// Built and written to the cache.
    Built,
    /// The cache file was there but unusable; rebuilt and rewritten.
    Rebuilt { reason: String },
    /// Built, but the cache could not be written (tables are still usable).
    NotSaved { reason: String },
}

/// The cache directory: `$CUBED_CACHE_DIR`, else `$XDG_CACHE_HOME/cubed`, else `~/.cache/cubed`, else `./.cubed-cache`.
pub fn default_cache_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("CUBED_CACHE_DIR") {
        return PathBuf::from(dir);
    }
    if let Some(dir) = std::env::var_os("XDG_CACHE_HOME") {
        return PathBuf::from(dir).join("cubed");
    }
    match std::env::var_os("HOME") {
        Some(home) => PathBuf::from(home).join(".cache").join("cubed"),
        None => PathBuf::from(".cubed-cache"),
    }
}

/// File name of the cached tables of `mode` (the format version is part of it).
pub fn cache_file(dir: &Path, mode: TableMode) -> PathBuf {
    let mode = match mode {
        TableMode::Small => "small",
        TableMode::Full => "full",
    };
    dir.join(format!("cubed-tables-v{FORMAT_VERSION}-{mode}.bin"))
}

/// Tables of `mode`: from the cache when it is sound, else built (and cached for the full mode).
pub fn load_or_build(dir: &Path, mode: TableMode) -> (Tables, CacheOutcome) {
    if mode == TableMode::Small {
        return (Tables::build(mode), CacheOutcome::BuiltSmall);
    }
    let path = cache_file(dir, mode);
    let stale = match std::fs::read(&path) {
        Ok(bytes) => match Tables::from_bytes(&bytes) {
            Ok(t) if t.mode == mode => return (t, CacheOutcome::Loaded),
            Ok(_) => Some(format!("{} holds tables of another mode", path.display())),
            Err(e) => Some(format!("{}: {e}", path.display())),
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => Some(format!("{}: {e}", path.display())),
    };
    let tables = Tables::build(mode);
    let outcome = match (save(&path, &tables), stale) {
        (Err(e), _) => CacheOutcome::NotSaved {
            reason: format!("{}: {e}", path.display()),
        },
        (Ok(()), Some(reason)) => CacheOutcome::Rebuilt { reason },
        (Ok(()), None) => CacheOutcome::Built,
    };
    (tables, outcome)
}

fn save(path: &Path, tables: &Tables) -> std::io::Result<()> {
    crate::atomic_file::write_atomically(path, &tables.to_bytes())?;
    remove_other_versions(path);
    Ok(())
}

/// Deletes cache files of the same mode written by other format versions (each is ~75 MB).
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
