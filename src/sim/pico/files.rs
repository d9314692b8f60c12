//! Where the emulated Pico's parts are: the clone's emulator folder, the firmware ELF,
//! Node and rp2040js, each checked before anything starts.

use super::PicoError;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The emulator's harness, relative to a clone's root.
const HARNESS: &str = "firmware/boards/pico/emulator/pico.mjs";
/// The ELF `firmware/build.sh pico` leaves, relative to the target folder.
const ELF: &str = "thumbv6m-none-eabi/release/cubed-fw-pico";

/// The emulated Pico's parts, found and checked.
#[derive(Debug, Clone)]
pub struct PicoFiles {
    /// `pico.mjs`, the harness Node runs.
    pub harness: PathBuf,
    /// The firmware, as built.
    pub elf: PathBuf,
}

impl PicoFiles {
    /// Finds the clone at or above `from` (else above this program), and its firmware:
    /// `elf` if given, else `$CARGO_TARGET_DIR` or the clone's `target/`.
    pub fn find(from: &Path, elf: Option<&Path>) -> Result<PicoFiles, PicoError> {
        let root = clone_above(from)
            .or_else(|| {
                let program = std::env::current_exe().ok()?;
                clone_above(program.parent()?)
            })
            .ok_or_else(|| PicoError::NoClone {
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
        Self::at(root.join(HARNESS), elf)
    }

    /// The harness and the ELF given, each checked, and Node with rp2040js.
    pub fn at(harness: PathBuf, elf: PathBuf) -> Result<PicoFiles, PicoError> {
        if !elf.is_file() {
            return Err(PicoError::NoFirmware { elf });
        }
        check_node()?;
        let dir = harness.parent().unwrap_or(Path::new(".")).to_path_buf();
        if !dir.join("node_modules/rp2040js").is_dir() {
            return Err(PicoError::NoEmulator { dir });
        }
        Ok(PicoFiles { harness, elf })
    }
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
        assert_eq!(
            clone_above(&here).as_deref(),
            Some(Path::new(env!("CARGO_MANIFEST_DIR")))
        );
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
