//! Where the emulated Pico's parts are: the clone's emulator folder, the firmware ELF,
//! Node and rp2040js, each checked before anything starts.

use super::PicoError;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The emulator's harness, relative to a clone's root.
const HARNESS: &str = "firmware/boards/pico/emulator/pico.mjs";
/// The ELF `firmware/build.sh pico` leaves, relative to the target folder.
const ELF: &str = "thumbv6m-none-eabi/release/cubed-fw-pico";
/// The firmware's sources, relative to a clone's root: a build older than any of them is
/// not the firmware as it stands.
const SOURCES: [&str; 3] = [
    "firmware/core/src",
    "firmware/boards/pico/src",
    "firmware-protocol/src",
];

/// The emulated Pico's parts, found and checked.
#[derive(Debug, Clone)]
pub struct PicoFiles {
    /// `pico.mjs`, the harness Node runs.
    pub harness: PathBuf,
    /// The firmware, as built.
    pub elf: PathBuf,
    /// A firmware source changed after the ELF was built (found in the clone's sources).
    pub newer_source: Option<PathBuf>,
}

impl PicoFiles {
    /// Finds the clone at or above `from` (else above this program, else the one this
    /// program was built from, if it is still there), and its firmware: `elf` if given, else
    /// `$CARGO_TARGET_DIR` or the clone's `target/`.
    pub fn find(from: &Path, elf: Option<&Path>) -> Result<PicoFiles, PicoError> {
        let program = std::env::current_exe().ok();
        let root = clone_root(from, program.as_deref()).ok_or_else(|| PicoError::NoClone {
            emulator: HARNESS,
            searched: from.to_path_buf(),
        })?;
        let elf = match elf {
            Some(elf) => elf.to_path_buf(),
            None => std::env::var_os("CARGO_TARGET_DIR")
                .map(PathBuf::from)
                .unwrap_or_else(|| root.join("target"))
                .join(ELF),
        };
        let mut files = Self::at(root.join(HARNESS), elf)?;
        files.newer_source = newer_source(&root, &files.elf);
        Ok(files)
    }

    /// The harness and the ELF given, each checked, and Node with rp2040js.
    pub fn at(harness: PathBuf, elf: PathBuf) -> Result<PicoFiles, PicoError> {
        if !elf.is_file() {
            return Err(PicoError::NoFirmware { elf });
        }
        if !is_elf(&elf) {
            return Err(PicoError::NotElf { elf });
        }
        check_node()?;
        let dir = harness.parent().unwrap_or(Path::new(".")).to_path_buf();
        if !dir.join("node_modules/rp2040js").is_dir() {
            return Err(PicoError::NoEmulator { dir });
        }
        Ok(PicoFiles {
            harness,
            elf,
            newer_source: None,
        })
    }
}

/// Whether the file starts as an ELF does.
fn is_elf(path: &Path) -> bool {
    let mut magic = [0u8; 4];
    std::fs::File::open(path)
        .and_then(|mut file| std::io::Read::read_exact(&mut file, &mut magic))
        .is_ok_and(|()| magic == *b"\x7fELF")
}

/// The first firmware source under `root` changed after `elf` was built.
fn newer_source(root: &Path, elf: &Path) -> Option<PathBuf> {
    let built = std::fs::metadata(elf).and_then(|m| m.modified()).ok()?;
    let mut folders: Vec<PathBuf> = SOURCES.iter().map(|s| root.join(s)).collect();
    while let Some(folder) = folders.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let Ok(meta) = entry.metadata() else { continue };
            if meta.is_dir() {
                folders.push(path);
            } else if meta.modified().is_ok_and(|changed| changed > built) {
                return Some(path);
            }
        }
    }
    None
}

/// The clone at or above `from`, else above `program`, else the one this program was built
/// from (a binary built with `$CARGO_TARGET_DIR` elsewhere, run outside the clone).
fn clone_root(from: &Path, program: Option<&Path>) -> Option<PathBuf> {
    clone_above(from)
        .or_else(|| clone_above(program?.parent()?))
        .or_else(|| clone_above(Path::new(env!("CARGO_MANIFEST_DIR"))))
}

fn clone_above(from: &Path) -> Option<PathBuf> {
    from.ancestors()
        .find(|dir| dir.join(HARNESS).is_file())
        .map(Path::to_path_buf)
}

fn check_node() -> Result<(), PicoError> {
    let why = match Command::new("node").arg("--version").output() {
        Ok(out) if out.status.success() => {
            let version = String::from_utf8_lossy(&out.stdout).trim().to_string();
            match node_major(&version) {
                Some(major) if major >= 18 => return Ok(()),
                _ => format!("says {version}"),
            }
        }
        Ok(out) => format!("failed ({})", out.status),
        Err(e) => format!("cannot run: {e}"),
    };
    Err(PicoError::NoNode { why })
}

/// `v20.11.1` → 20.
fn node_major(version: &str) -> Option<u32> {
    version.strip_prefix('v')?.split('.').next()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The clone this crate is in (its manifest's folder is one below the workspace's).
    fn this_clone() -> &'static Path {
        let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
        crate_dir.parent().expect("a workspace above the crate")
    }

    #[test]
    fn a_program_run_outside_any_clone_finds_the_one_it_was_built_from() {
        let outside = tempfile::tempdir().expect("temp dir");
        let program = outside.path().join("bin/cubed");
        let root = clone_root(outside.path(), Some(&program)).expect("the clone built from");
        assert!(root.join(HARNESS).is_file(), "{}", root.display());
        assert_eq!(root, this_clone());
    }

    #[test]
    fn node_versions_are_read_by_their_major_number() {
        assert_eq!(node_major("v20.11.1"), Some(20));
        assert_eq!(node_major("v8.0.0"), Some(8));
        assert_eq!(node_major("20.1"), None);
    }

    #[test]
    fn a_folder_outside_any_clone_is_named_in_the_refusal() {
        let dir = tempfile::tempdir().expect("temp dir");
        assert!(clone_above(dir.path()).is_none());
        let here = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/sim");
        assert_eq!(clone_above(&here).as_deref(), Some(this_clone()));
    }

    #[test]
    fn a_file_that_is_no_elf_is_refused_naming_it() {
        let dir = tempfile::tempdir().expect("temp dir");
        let uf2 = dir.path().join("cubed-fw-pico.uf2");
        std::fs::write(&uf2, b"UF2\nWQ]\x9e").expect("written");
        let said = PicoFiles::at(dir.path().join("pico.mjs"), uf2)
            .expect_err("not an ELF")
            .to_string();
        assert!(
            said.contains("cubed-fw-pico.uf2") && said.contains("not an ELF"),
            "{said}"
        );
    }

    #[test]
    fn a_source_changed_after_the_build_is_found() {
        let dir = tempfile::tempdir().expect("temp dir");
        let elf = dir.path().join("cubed-fw-pico");
        std::fs::write(&elf, b"\x7fELF").expect("written");
        let source = dir.path().join("firmware/core/src/run.rs");
        std::fs::create_dir_all(source.parent().expect("a folder")).expect("folders");
        std::fs::write(&source, "//! run").expect("written");
        let old = std::time::SystemTime::now() - std::time::Duration::from_secs(60);
        std::fs::File::options()
            .write(true)
            .open(&elf)
            .and_then(|f| f.set_modified(old))
            .expect("dated");
        assert_eq!(newer_source(dir.path(), &elf), Some(source.clone()));
        std::fs::File::options()
            .write(true)
            .open(&source)
            .and_then(|f| f.set_modified(old - std::time::Duration::from_secs(60)))
            .expect("dated");
        assert_eq!(newer_source(dir.path(), &elf), None);
    }

    #[test]
    fn a_missing_elf_says_how_to_build_it() {
        let dir = tempfile::tempdir().expect("temp dir");
        let missing = dir.path().join("cubed-fw-pico");
        let error =
            PicoFiles::at(dir.path().join("pico.mjs"), missing.clone()).expect_err("no ELF there");
        let said = error.to_string();
        assert!(said.contains(&missing.display().to_string()), "{said}");
        assert!(said.contains("firmware/build.sh pico"), "{said}");
    }
}
