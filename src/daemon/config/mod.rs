//! The daemon's configuration file (`config/cubed.toml`): serde form, then validation into typed settings with errors naming file, section, key and the allowed values.

mod camera;
pub(crate) mod limits;
pub mod palette_choice;
pub mod search;
mod sim_section;
mod toml_form;
pub(crate) mod values;
mod video_devices;

pub use sim_section::SimSettings;

use crate::daemon::config::camera::grid_setting;
pub(crate) use crate::daemon::config::camera::GridSetting;
use crate::daemon::config::values::whole_within;
pub use crate::daemon::cube_size::CubeSize;
use cubed_files::config_file::syntax::{syntax_or_kind_error, FileKind};
use cubed_files::config_file::ConfigError;
use cubed_vision::camera::lock::LockSettings;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;
use toml_form::{CubedToml, DataSection, HistorySection, HttpSection};

/// Where the robot is.
#[derive(Clone, Debug, PartialEq)]
pub enum PortChoice {
    /// The simulated robot, in-process on a pseudo-terminal.
    Sim,
    /// A serial port (best a `/dev/serial/by-id/…` path or the udev symlink `/dev/cubed-robot`).
    Serial(PathBuf),
}

/// Where the photos come from.
#[derive(Clone, Debug, PartialEq)]
pub enum CameraChoice {
    /// The simulated camera looking at the simulated robot's cube.
    Sim,
    /// A USB webcam (index or part of its name), through nokhwa (`--features camera`).
    Usb(String),
    /// Photos in a directory (`U.png` … or numbered frames).
    Dir(PathBuf),
}

/// The validated configuration.
#[derive(Clone, Debug, PartialEq)]
pub struct DaemonConfig {
    /// The file it came from (for messages).
    pub file: PathBuf,
    pub robot_design: PathBuf,
    pub port: PortChoice,
    pub baud: u32,
    pub reconnect: Duration,
    pub camera: CameraChoice,
    /// How a webcam's exposure, white balance, gain and focus are fixed.
    pub(crate) camera_lock: LockSettings,
    pub(crate) grid: GridSetting,
    pub palette: PathBuf,
    /// Whether `[vision] palette` names it (else it is the `palette.toml` beside the file, or
    /// the shipped one).
    pub(crate) palette_named: bool,
    /// The least calibrated probability (0..=1) of being read right a cube
    /// must have; less sure faces are photographed again.
    pub min_confidence: f32,
    /// Rounds of re-capturing unsure faces before refusing.
    pub recaptures: u32,
    /// `[solver] budget_ms` as time; a dry run counts it in search nodes, for the same
    /// solutions on every machine.
    pub solve_budget: cubed_core::solver::Budget,
    /// Solves per run: the first plus re-solves after a failed verification.
    pub max_solves: u32,
    /// `[run] cube_size`: 3, or 2 for the pocket cube.
    pub cube_size: CubeSize,
    pub bind: SocketAddr,
    pub token: Option<String>,
    pub data_dir: PathBuf,
    /// How many runs keep their photos, and how much disk the photos may take.
    pub retention: Retention,
    pub sim: SimSettings,
}

/// Photo retention: the newest `keep_runs` runs keep their photos, within `max_photo_bytes`
/// in all (older runs' photos are pruned; their records stay).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Retention {
    pub keep_runs: u32,
    pub max_photo_bytes: u64,
}

/// Runs whose photos are kept when `[history] keep_runs` is not given.
pub(crate) const DEFAULT_KEEP_RUNS: u32 = 100;
/// Photo budget when `[history] max_photo_mb` is not given, MB.
pub(crate) const DEFAULT_MAX_PHOTO_MB: u64 = 1000;

impl Default for Retention {
    fn default() -> Self {
        Retention {
            keep_runs: DEFAULT_KEEP_RUNS,
            max_photo_bytes: DEFAULT_MAX_PHOTO_MB * 1_000_000,
        }
    }
}

/// The folder a configuration's relative paths start from, as a person finds it: the current
/// folder's path when the configuration was named without one (`--config cubed.toml`).
fn folder_words(base: &Path) -> String {
    match base.as_os_str().is_empty() {
        true => std::env::current_dir().map_or(".".into(), |dir| dir.display().to_string()),
        false => base.display().to_string(),
    }
}

/// Default HTTP address.
pub(crate) const DEFAULT_BIND: &str = "127.0.0.1:8080";
/// The `[http] token` the shipped `cubed.toml` gives as an example (commented out): refused.
pub(crate) const SAMPLE_TOKEN: &str = "a long random string";

/// Reads and validates a configuration file.
pub fn load_config(path: &Path) -> Result<DaemonConfig, ConfigError> {
    let text = cubed_files::config_file::read_config_text(path)?;
    parse_config(&text, path)
}

/// Parses and validates configuration text (`path` names it and anchors relative paths).
pub(crate) fn parse_config(text: &str, path: &Path) -> Result<DaemonConfig, ConfigError> {
    let file = path.display().to_string();
    let raw: CubedToml = toml::from_str(text).map_err(|e| {
        let tables = toml_form::config_tables();
        section_missing(syntax_or_kind_error(
            text,
            &file,
            FileKind::DaemonConfig,
            &tables,
            &e,
        ))
    })?;
    let base = path.parent().unwrap_or(Path::new("."));
    Validator {
        file: &file,
        base,
        text,
    }
    .validate(raw, path)
}

/// A top-level field missing from `cubed.toml` is one of its sections: said so.
fn section_missing(error: ConfigError) -> ConfigError {
    match error {
        ConfigError::Syntax {
            file,
            section,
            line,
            message,
        } => {
            let missing = (section == "top level")
                .then(|| message.strip_prefix("missing field `")?.strip_suffix('`'))
                .flatten();
            let message = match missing {
                Some(name) => format!(
                    "the section [{name}] is missing (the file needs [robot] and [camera]; config/cubed.toml shows every section)"
                ),
                None => message,
            };
            ConfigError::Syntax {
                file,
                section,
                line,
                message,
            }
        }
        other => other,
    }
}

struct Validator<'a> {
    file: &'a str,
    base: &'a Path,
    /// The file's text, to say on which line a refused key is.
    text: &'a str,
}

impl Validator<'_> {
    fn invalid(&self, section: &str, key: &str, problem: impl Into<String>) -> ConfigError {
        let line = cubed_files::config_file::syntax::key_line(self.text, section, key);
        ConfigError::Invalid {
            file: self.file.to_string(),
            section: match line {
                Some(n) => format!("[{section}] (line {n})"),
                None => format!("[{section}]"),
            },
            key: key.to_string(),
            problem: problem.into(),
        }
    }

    /// A path relative to the config file's directory; `~/` is the home directory.
    fn path(&self, section: &str, key: &str, value: &str) -> Result<PathBuf, ConfigError> {
        if value.trim().is_empty() {
            return Err(self.invalid(section, key, "must not be empty"));
        }
        if let Some(rest) = value.strip_prefix("~/") {
            let home = std::env::var_os("HOME")
                .ok_or_else(|| self.invalid(section, key, "'~/' used but HOME is not set"))?;
            return Ok(PathBuf::from(home).join(rest));
        }
        // Relative to the configuration's folder, and said whole: an error naming the file
        // then says where it was looked for, whatever folder the command ran in.
        let path = self.base.join(value);
        match cubed_files::named_file::is_built_in(&path) {
            true => Ok(path),
            false => Ok(std::path::absolute(&path).unwrap_or(path)),
        }
    }

    /// `[robot] design`: a file (relative to the configuration), or a shipped design's name
    /// (`six-motor`) as `--robot` takes it: in `robots/` beside the configuration, else built in.
    fn design_path(&self, value: &str) -> Result<PathBuf, ConfigError> {
        use cubed_files::named_file::{design_value, DesignValue};
        let path = self.path("robot", "design", value)?;
        match design_value(value, &path, self.base) {
            DesignValue::File => Ok(path),
            // Neither a file nor a shipped name: most likely a name mistyped.
            DesignValue::Unknown => Err(self.invalid(
                "robot",
                "design",
                format!(
                    "{value:?} is neither a file beside this configuration ({}) nor a shipped design ({}): give your design's path, or one of those names",
                    folder_words(self.base),
                    cubed_files::named_file::built_in_design_names()
                ),
            )),
            DesignValue::Shipped(shipped) => Ok(shipped),
            DesignValue::WithoutToml { value: file } => Err(self.invalid(
                "robot",
                "design",
                format!("no file {value:?} beside this configuration ({}), but there is {file:?}: write `design = {file:?}`", folder_words(self.base)),
            )),
            DesignValue::ShippedFileNotThere { name } => Err(self.invalid(
                "robot",
                "design",
                format!("no file {value:?} beside this configuration ({}): give your design's path, or for the shipped design of that name write `design = \"{name}\"`", folder_words(self.base)),
            )),
        }
    }

    fn validate(&self, raw: CubedToml, path: &Path) -> Result<DaemonConfig, ConfigError> {
        let port = match raw.robot.port.as_str() {
            "sim" => PortChoice::Sim,
            // Spaces around a port are a typo (no device is named so, and "sim " is no sim).
            other if other.trim() != other => {
                return Err(self.invalid(
                    "robot",
                    "port",
                    format!("{other:?} has spaces around it: write {:?}", other.trim()),
                ));
            }
            // A device is named by its path; "Sim" or "SIM" is the simulator mistyped.
            other if other.eq_ignore_ascii_case("sim") => {
                return Err(self.invalid(
                    "robot",
                    "port",
                    format!("{other:?} is not a serial port: the simulated robot is \"sim\", in lower case; a robot's port is its device path, e.g. \"/dev/ttyUSB0\""),
                ));
            }
            other => PortChoice::Serial(self.path("robot", "port", other)?),
        };
        let baud = self.whole(("robot", "baud"), raw.robot.baud, 115_200, limits::BAUD)?;
        let reconnect_secs = self.whole(
            ("robot", "reconnect_secs"),
            raw.robot.reconnect_secs,
            30,
            (1, 3600),
        )?;
        let camera = self.camera(&raw.camera.source)?;
        let camera_lock =
            (raw.camera.lock()).map_err(|(key, problem)| self.invalid("camera", key, problem))?;
        if camera == CameraChoice::Sim && port != PortChoice::Sim {
            return Err(self.invalid(
                "camera",
                "source",
                "\"sim\" needs the simulated robot ([robot] port = \"sim\"): it photographs the simulated cube",
            ));
        }
        let min_confidence = raw.vision.min_confidence;
        // Checked as kept (a value just under 1 rounds up to it as an `f32`).
        if !(0.0..1.0).contains(&(min_confidence as f32)) {
            return Err(self.invalid(
                "vision",
                "min_confidence",
                format!(
                    "{} is outside 0..1 (the calibrated probability of a right reading; 1 is never reached, as no reading is certain; {} is the default)",
                    crate::words::number(min_confidence),
                    cubed_vision::read::classify::DEFAULT_MIN_CONFIDENCE
                ),
            ));
        }
        let recaptures = cubed_vision::recapture::DEFAULT_RECAPTURES.into();
        let recaptures = self.whole(
            ("vision", "recaptures"),
            raw.vision.recaptures,
            recaptures,
            (0, 5),
        )?;
        let budget_ms = self.whole(
            ("solver", "budget_ms"),
            raw.solver.budget_ms,
            300,
            (1, 60_000),
        )?;
        let max_solves = self.whole(("run", "max_solves"), raw.run.max_solves, 3, (1, 10))?;
        let cube_size = raw.run.cube_size.unwrap_or(3);
        let cube_size = CubeSize::from_value(cube_size).ok_or_else(|| {
            self.invalid(
                "run",
                "cube_size",
                format!("{cube_size}: allowed 3, or 2 (the pocket cube)"),
            )
        })?;
        let (bind, token) = self.http(raw.http)?;
        let sim = self.sim(raw.sim)?;
        Ok(DaemonConfig {
            file: path.to_path_buf(),
            robot_design: self.design_path(&raw.robot.design)?,
            port,
            baud,
            reconnect: Duration::from_secs(reconnect_secs),
            camera,
            camera_lock,
            grid: grid_setting(&raw.camera.grid)
                .map_err(|problem| self.invalid("camera", "grid", problem.to_string()))?,
            palette: match &raw.vision.palette {
                Some(palette) => self.path("vision", "palette", palette)?,
                // As the shipped configuration names it: beside the file, else the shipped one.
                None => Some(self.base.join("palette.toml"))
                    .filter(|beside| beside.is_file())
                    .unwrap_or_else(|| {
                        Path::new(cubed_files::named_file::BUILT_IN).join("palette.toml")
                    }),
            },
            palette_named: raw.vision.palette.is_some(),
            min_confidence: min_confidence as f32,
            recaptures,
            solve_budget: cubed_core::solver::Budget::Time(Duration::from_millis(budget_ms)),
            max_solves,
            cube_size,
            bind,
            token,
            data_dir: self.data_dir(raw.data)?,
            retention: self.retention(raw.history)?,
            sim,
        })
    }

    /// [`whole_within`], the problem said with the file, section and key.
    fn whole<T: TryFrom<i64>>(
        &self,
        (section, key): (&str, &str),
        value: Option<i64>,
        default: i64,
        range: (i64, i64),
    ) -> Result<T, ConfigError> {
        whole_within(value, default, range)
            .map_err(|problem| self.invalid(section, key, problem.to_string()))
    }

    /// A finite number within `min..=max`, or an error naming the range and what the number means.
    fn bounded<T: Copy + PartialOrd + std::fmt::Display + Into<f64>>(
        &self,
        (section, key): (&str, &str),
        value: T,
        (min, max): (T, T),
        meaning: &str,
    ) -> Result<T, ConfigError> {
        if value.into().is_finite() && (min..=max).contains(&value) {
            Ok(value)
        } else {
            Err(self.invalid(
                section,
                key,
                format!(
                    "{} is outside {min}..={max} ({meaning})",
                    crate::words::number(value)
                ),
            ))
        }
    }

    fn camera(&self, source: &str) -> Result<CameraChoice, ConfigError> {
        let allowed =
            "allowed: \"sim\", \"usb\", \"usb:DEVICE\" (index or part of the name), \"dir:PATH\"";
        match source {
            "sim" => Ok(CameraChoice::Sim),
            "usb" => Ok(CameraChoice::Usb("0".into())),
            _ => {
                if let Some(device) = source.strip_prefix("usb:").filter(|d| !d.is_empty()) {
                    Ok(CameraChoice::Usb(device.to_string()))
                } else if let Some(dir) = source.strip_prefix("dir:") {
                    Ok(CameraChoice::Dir(self.path("camera", "source", dir)?))
                } else {
                    Err(self.invalid("camera", "source", format!("\"{source}\": {allowed}")))
                }
            }
        }
    }

    fn http(&self, http: HttpSection) -> Result<(SocketAddr, Option<String>), ConfigError> {
        let text = http.bind.unwrap_or_else(|| DEFAULT_BIND.into());
        // `localhost` is loopback, as `--http localhost:PORT` takes it; other names are not
        // looked up here (an address to listen on is the machine's own).
        let loopback = (text.strip_prefix("localhost:"))
            .and_then(|port| port.parse::<u16>().ok())
            .map(|port| SocketAddr::from(([127, 0, 0, 1], port)));
        let bind: SocketAddr = loopback.or_else(|| text.parse().ok()).ok_or_else(|| {
            self.invalid(
                "http",
                "bind",
                format!("\"{text}\" is not ADDRESS:PORT (e.g. {DEFAULT_BIND}, localhost:8080, or 0.0.0.0:8080 for every address)"),
            )
        })?;
        let token = http.token.filter(|t| !t.is_empty());
        let make_one = "`openssl rand -hex 16` makes one";
        if let Some(t) = &token {
            if t.len() < 16 {
                return Err(self.invalid(
                    "http",
                    "token",
                    format!("{} characters; give at least 16 ({make_one})", t.len()),
                ));
            }
            if t.trim() == SAMPLE_TOKEN {
                return Err(self.invalid(
                    "http",
                    "token",
                    format!("\"{SAMPLE_TOKEN}\" is the shipped file's example, which anyone may read: give a random one of your own ({make_one})"),
                ));
            }
        }
        Ok((bind, token))
    }

    fn data_dir(&self, data: DataSection) -> Result<PathBuf, ConfigError> {
        match data.dir {
            Some(dir) => self.path("data", "dir", &dir),
            None => default_data_dir().ok_or_else(|| {
                self.invalid(
                    "data",
                    "dir",
                    "not given, and neither XDG_DATA_HOME nor HOME is set",
                )
            }),
        }
    }

    fn retention(&self, history: HistorySection) -> Result<Retention, ConfigError> {
        let keep_runs = DEFAULT_KEEP_RUNS.into();
        let keep_runs = self.whole(
            ("history", "keep_runs"),
            history.keep_runs,
            keep_runs,
            limits::KEEP_RUNS,
        )?;
        let max_mb = DEFAULT_MAX_PHOTO_MB as i64;
        let max_photo_mb: u64 = self.whole(
            ("history", "max_photo_mb"),
            history.max_photo_mb,
            max_mb,
            limits::MAX_PHOTO_MB,
        )?;
        Ok(Retention {
            keep_runs,
            max_photo_bytes: max_photo_mb * 1_000_000,
        })
    }
}

/// `$XDG_DATA_HOME/cubed`, else `~/.local/share/cubed`.
pub(crate) fn default_data_dir() -> Option<PathBuf> {
    if let Some(xdg) = std::env::var_os("XDG_DATA_HOME").filter(|v| !v.is_empty()) {
        return Some(PathBuf::from(xdg).join("cubed"));
    }
    std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share/cubed"))
}

#[cfg(test)]
mod tests;
