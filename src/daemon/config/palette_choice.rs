//! Which palette reads the colours, chosen one way for the daemon and every command: a palette given on the command line, else the one calibrated into the data directory, else `[vision] palette` (the built-in one unless a config names another).

use crate::daemon::config::DaemonConfig;
use cubed_files::named_file::is_built_in;
use std::path::{Path, PathBuf};

/// The palette chosen, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PaletteChoice {
    pub path: PathBuf,
    pub origin: PaletteOrigin,
    /// Whether this user may not look in the data directory (another user's, the service's):
    /// a palette calibrated there, which the daemon would read with, cannot be seen.
    pub calibrated_hidden: bool,
}

/// Where the chosen palette comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PaletteOrigin {
    /// `--palette FILE`.
    Given,
    /// Calibrated (the page's Calibrate, or `cubed calibrate --output` there) into the data
    /// directory: it wins over the config's.
    Calibrated,
    /// The config's `[vision] palette`.
    Configured,
    /// The palette built into the binary (no config names another).
    BuiltIn,
}

/// The palette calibrated by the daemon, kept in the data directory (the config stays untouched).
pub(crate) fn calibrated_palette_file(config: &DaemonConfig) -> PathBuf {
    config.data_dir.join("palette.toml")
}

/// The palette that reads colours for `config`, `given` on the command line first.
pub(crate) fn choose_palette(given: Option<&Path>, config: &DaemonConfig) -> PaletteChoice {
    let calibrated = calibrated_palette_file(config);
    let calibrated_hidden = given.is_none()
        && std::fs::metadata(&calibrated)
            .is_err_and(|e| e.kind() == std::io::ErrorKind::PermissionDenied);
    let (path, origin) = match given {
        Some(path) => (path.to_path_buf(), PaletteOrigin::Given),
        None if calibrated.is_file() => (calibrated, PaletteOrigin::Calibrated),
        None if is_built_in(&config.palette) => (config.palette.clone(), PaletteOrigin::BuiltIn),
        None => (config.palette.clone(), PaletteOrigin::Configured),
    };
    PaletteChoice {
        path,
        origin,
        calibrated_hidden,
    }
}

impl PaletteChoice {
    /// "PATH (calibrated, in the data directory: wins over [vision] palette)", as
    /// `cubed config show` and the commands that read colours say it.
    pub(crate) fn describe(&self, config: &DaemonConfig) -> String {
        let why = match self.origin {
            PaletteOrigin::Given => "--palette".to_string(),
            PaletteOrigin::Calibrated => format!(
                "calibrated, in the data directory: wins over [vision] palette = {}",
                config.palette.display()
            ),
            PaletteOrigin::Configured if config.palette_named => {
                format!("[vision] palette in {}", config.file.display())
            }
            PaletteOrigin::Configured => format!(
                "beside {}, which names no [vision] palette",
                config.file.display()
            ),
            PaletteOrigin::BuiltIn => {
                "the shipped palette, built into the binary: no file of yours names another, and none is calibrated in the data directory yet"
                    .to_string()
            }
        };
        let hidden = if self.calibrated_hidden {
            format!(
                "; this user cannot look in the data directory {}, where a calibrated palette would win: the daemon may read with another (run as the daemon's user, e.g. sudo -u cubed)",
                config.data_dir.display()
            )
        } else {
            String::new()
        };
        format!("{}  ({why}{hidden})", self.path.display())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_given_palette_wins_then_the_calibrated_one_then_the_configs() {
        let dir = tempfile::tempdir().expect("temp dir");
        let (mut config, _) =
            crate::daemon::config::search::discover_config(None).expect("the built-in config");
        config.data_dir = dir.path().to_path_buf();
        let chosen = choose_palette(None, &config);
        assert_eq!(chosen.path, config.palette);
        let calibrated = dir.path().join("palette.toml");
        std::fs::write(&calibrated, "calibrated").expect("written");
        let chosen = choose_palette(None, &config);
        assert_eq!(
            (chosen.path, chosen.origin),
            (calibrated, PaletteOrigin::Calibrated)
        );
        let given = Path::new("/somewhere/mine.toml");
        let chosen = choose_palette(Some(given), &config);
        assert_eq!(
            (chosen.path.as_path(), chosen.origin),
            (given, PaletteOrigin::Given)
        );
        config.palette = dir.path().join("theirs.toml");
        std::fs::remove_file(dir.path().join("palette.toml")).expect("removed");
        assert_eq!(
            choose_palette(None, &config).origin,
            PaletteOrigin::Configured
        );
    }

    /// A `palette.toml` beside a file that names none is said to be found there, not named by
    /// a `[vision] palette` the file does not have; one the file names is said to be named.
    #[test]
    fn a_palette_beside_the_file_is_said_to_be_found_there() {
        let dir = tempfile::tempdir().expect("temp dir");
        let file = dir.path().join("cubed.toml");
        std::fs::write(dir.path().join("palette.toml"), "beside").expect("written");
        let shipped = include_str!("../../../config/cubed.toml");
        let describe = |palette: &str| {
            let text = shipped.replace(
                "palette = \"palette.toml\"",
                &palette.replace("NAME", "palette ="),
            );
            let mut config = super::super::parse_config(&text, &file).expect("config");
            config.data_dir = dir.path().join("data");
            choose_palette(None, &config).describe(&config)
        };
        let said = describe("");
        assert!(said.contains("beside"), "{said}");
        assert!(!said.contains("[vision] palette in"), "{said}");
        std::fs::write(dir.path().join("mine.toml"), "named").expect("written");
        let said = describe("NAME \"mine.toml\"");
        assert!(said.contains("mine.toml  ([vision] palette in"), "{said}");
    }
}
