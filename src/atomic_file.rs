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
pub(crate) fn write_atomically_with(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir)?;
    let mut file = tempfile::NamedTempFile::new_in(dir)?;
    let mut out = std::io::BufWriter::with_capacity(1 << 16, file.as_file_mut());
    write(&mut out)?;
    out.flush()?;
    drop(out);
    file.as_file().sync_all()?;
    file.persist(path).map_err(|e| e.error)?;
    // The rename lives in the directory: sync it too, or a power cut can bring back the old file.
    std::fs::File::open(dir)?.sync_all()
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
