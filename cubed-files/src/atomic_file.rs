//! Writing a file so that readers see the old contents or the new, never half of it: a synced temporary file beside it, renamed over it, and the directory synced (the table cache, the run history's photos, the calibrated palette).

use std::io::Write;
use std::path::Path;

/// Creates the directory if needed, writes `bytes` to a temporary file in it, syncs it, and
/// renames it over `path`, then syncs the directory so the rename survives a power cut (the
/// temporary file is removed if anything fails).
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_atomically_with(path, |out| out.write_all(bytes))
}

/// Like `write_atomically`, with the contents streamed by `write` (buffered).
pub fn write_atomically_with(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir)?;
    let mut file = tempfile::NamedTempFile::new_in(dir)?;
    file.as_file().set_permissions(permissions_for(path)?)?;
    let mut out = std::io::BufWriter::with_capacity(1 << 16, file.as_file_mut());
    write(&mut out)?;
    out.flush()?;
    drop(out);
    file.as_file().sync_all()?;
    file.persist(path).map_err(|e| e.error)?;
    // The rename lives in the directory: sync it too, or a power cut can bring back the old file.
    std::fs::File::open(dir)?.sync_all()
}

/// Why a file a person named for output should not be written: its directory is missing (a
/// typo, more likely than a wish for a new directory), or a file is there that `is_ours` does
/// not take for one of the kind written (its reason given), which would be lost.
pub fn refuse_to_replace(
    path: &Path,
    is_ours: impl FnOnce(&Path) -> Result<(), String>,
) -> Option<String> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    if let Some(dir) = dir.filter(|d| !d.is_dir()) {
        return Some(format!("its directory {} does not exist", dir.display()));
    }
    if path.exists() {
        return is_ours(path).err();
    }
    None
}

/// The permissions the file gets: those of the file it replaces, or readable by all and
/// writable by its owner (0644) when it is new (a temporary file alone would leave it 0600,
/// unreadable to a service running as another user).
fn permissions_for(path: &Path) -> std::io::Result<std::fs::Permissions> {
    match std::fs::metadata(path) {
        Ok(old) => Ok(old.permissions()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(new_file_permissions()),
        Err(e) => Err(e),
    }
}

fn new_file_permissions() -> std::fs::Permissions {
    use std::os::unix::fs::PermissionsExt;
    std::fs::Permissions::from_mode(0o644)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_named_output_is_refused_over_another_kind_of_file_or_into_a_missing_directory() {
        let dir = tempfile::tempdir().expect("temp dir");
        let notes = dir.path().join("notes.txt");
        std::fs::write(&notes, "notes").expect("write");
        let not_ours = |_: &Path| Err("it is notes".to_string());
        assert_eq!(
            refuse_to_replace(&notes, not_ours).as_deref(),
            Some("it is notes")
        );
        assert_eq!(refuse_to_replace(&notes, |_| Ok(())), None);
        assert_eq!(
            refuse_to_replace(&dir.path().join("new.toml"), not_ours),
            None
        );
        let missing = dir.path().join("typo/new.toml");
        let why = refuse_to_replace(&missing, |_| Ok(())).expect("refused");
        assert!(
            why.contains("typo") && why.contains("does not exist"),
            "{why}"
        );
        assert_eq!(refuse_to_replace(Path::new("new.toml"), not_ours), None);
    }

    #[test]
    fn a_file_is_replaced_whole_and_no_temporary_is_left() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("sub/file.toml");
        write_atomically(&path, b"first").expect("write");
        write_atomically(&path, b"second").expect("replace");
        assert_eq!(std::fs::read(&path).expect("read"), b"second");
        let entries = std::fs::read_dir(path.parent().expect("dir"))
            .expect("list")
            .count();
        assert_eq!(entries, 1, "only the file itself");
    }

    #[test]
    fn a_new_file_is_readable_by_all_and_a_replaced_one_keeps_its_mode() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("palette.toml");
        let mode = |p: &Path| std::fs::metadata(p).expect("stat").permissions().mode() & 0o777;
        write_atomically(&path, b"first").expect("write");
        assert_eq!(mode(&path), 0o644);
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).expect("chmod");
        write_atomically(&path, b"second").expect("replace");
        assert_eq!(mode(&path), 0o600);
    }
}
