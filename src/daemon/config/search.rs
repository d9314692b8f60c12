//! Where the daemon's configuration comes from: `--config`, `$CUBED_CONFIG`, `./config/cubed.toml`, `$XDG_CONFIG_HOME/cubed/cubed.toml` (else `~/.config/cubed/`), `/etc/cubed/cubed.toml`, then the defaults built into the binary; and the report of where each file came from (`cubed config show`).

use crate::daemon::config::{load_config, DaemonConfig};
use cubed_files::config_file::ConfigError;
use cubed_files::named_file::{is_built_in, BUILT_IN};
use std::path::{Path, PathBuf};

/// How the configuration file was chosen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ConfigOrigin {
    /// `--config FILE`.
    Flag,
    /// `$CUBED_CONFIG`.
    Env,
    /// The first file found among the places searched.
    Found,
    /// None found: the shipped configuration compiled into the binary.
    BuiltIn,
}

/// The places searched, as read from the environment (injected for tests).
#[derive(Clone, Debug, Default)]
pub(crate) struct SearchPlaces {
    pub flag: Option<PathBuf>,
    pub env: Option<PathBuf>,
    pub cwd: Option<PathBuf>,
    pub xdg_config_home: Option<PathBuf>,
    pub home: Option<PathBuf>,
    pub system: PathBuf,
}

/// The configuration file chosen and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct FoundConfig {
    pub path: PathBuf,
    pub origin: ConfigOrigin,
    /// Every place looked at, in order, with whether a file was there.
    pub searched: Vec<(PathBuf, bool)>,
}

impl SearchPlaces {
    /// The places of this process: `--config` as given, the environment, the current directory.
    pub(crate) fn of_process(flag: Option<&Path>) -> SearchPlaces {
        let var = |name| std::env::var_os(name).filter(|v| !v.is_empty());
        SearchPlaces {
            flag: flag.map(Path::to_path_buf),
            env: var("CUBED_CONFIG").map(PathBuf::from),
            cwd: std::env::current_dir().ok(),
            xdg_config_home: var("XDG_CONFIG_HOME").map(PathBuf::from),
            home: var("HOME").map(PathBuf::from),
            system: PathBuf::from("/etc/cubed"),
        }
    }

    /// The files looked for when neither `--config` nor `$CUBED_CONFIG` names one.
    pub(crate) fn candidates(&self) -> Vec<PathBuf> {
        let user = match (&self.xdg_config_home, &self.home) {
            (Some(xdg), _) => Some(xdg.join("cubed")),
            (None, Some(home)) => Some(home.join(".config/cubed")),
            (None, None) => None,
        };
        let dirs = [
            self.cwd.as_ref().map(|d| d.join("config")),
            user,
            Some(self.system.clone()),
        ];
        dirs.into_iter()
            .flatten()
            .map(|d| d.join("cubed.toml"))
            .collect()
    }

    /// The file to load: the first named or found, else the built-in one.
    pub(crate) fn choose(&self) -> FoundConfig {
        if let Some(path) = &self.flag {
            return explicit(path, ConfigOrigin::Flag);
        }
        if let Some(path) = &self.env {
            return explicit(path, ConfigOrigin::Env);
        }
        let searched: Vec<(PathBuf, bool)> = self
            .candidates()
            .into_iter()
            .map(|p| {
                let there = p.is_file();
                (p, there)
            })
            .collect();
        match searched.iter().find(|(_, there)| *there) {
            Some((path, _)) => FoundConfig {
                path: path.clone(),
                origin: ConfigOrigin::Found,
                searched: searched.clone(),
            },
            None => FoundConfig {
                path: Path::new(BUILT_IN).join("cubed.toml"),
                origin: ConfigOrigin::BuiltIn,
                searched,
            },
        }
    }
}

fn explicit(path: &Path, origin: ConfigOrigin) -> FoundConfig {
    FoundConfig {
        path: path.to_path_buf(),
        origin,
        searched: Vec::new(),
    }
}

/// Finds and loads the configuration (`--config` if given).
pub(crate) fn discover_config(
    flag: Option<&Path>,
) -> Result<(DaemonConfig, FoundConfig), ConfigError> {
    let found = SearchPlaces::of_process(flag).choose();
    let config = load_config(&found.path).map_err(|e| match (e, &found.origin) {
        // A file the environment names is said to be named there: no flag named it.
        (ConfigError::Read { file, source }, ConfigOrigin::Env) => ConfigError::Read {
            file: format!("{file} (named by $CUBED_CONFIG)"),
            source,
        },
        (e, _) => e,
    })?;
    Ok((config, found))
}

impl FoundConfig {
    /// Why this file, in words.
    pub(crate) fn why(&self) -> String {
        match self.origin {
            ConfigOrigin::Flag => "given by --config".into(),
            ConfigOrigin::Env => "given by $CUBED_CONFIG".into(),
            ConfigOrigin::Found => "the first configuration found".into(),
            ConfigOrigin::BuiltIn => "built in: no configuration file was found".into(),
        }
    }
}

/// Which settings the command line gave instead of the file (`--data-dir`, `--http`).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct GivenOnCommandLine {
    pub data_dir: bool,
    pub http: bool,
}

/// Where each file of a configuration comes from, one line each (`cubed config show`).
pub(crate) fn describe_sources(
    found: &FoundConfig,
    config: &DaemonConfig,
    given: GivenOnCommandLine,
) -> Vec<String> {
    let mut lines = vec![format!(
        "config        {}  ({})",
        found.path.display(),
        found.why()
    )];
    for (path, there) in &found.searched {
        let mark = if *there { "found" } else { "none" };
        lines.push(format!("  searched    {}  ({mark})", path.display()));
    }
    lines.push(format!(
        "robot design  {}  ([robot] design{})",
        config.robot_design.display(),
        built_in_note(&config.robot_design)
    ));
    lines.push(format!(
        "cube          {}  ([run] cube_size)",
        config.cube_size.name()
    ));
    let palette = crate::daemon::config::palette_choice::choose_palette(None, config);
    lines.push(format!("palette       {}", palette.describe(config)));
    lines.push(format!(
        "data dir      {}  ({}run history, photos, calibrated palette)",
        config.data_dir.display(),
        if given.data_dir { "--data-dir; " } else { "" }
    ));
    lines.push(format!("robot port    {}", port_words(&config.port)));
    lines.push(format!("camera        {}", camera_words(&config.camera)));
    let usb = matches!(config.camera, crate::daemon::config::CameraChoice::Usb(_));
    if !usb && config.camera_lock != cubed_vision::camera::lock::LockSettings::default() {
        lines.push(
            "              (the [camera] exposure, gain, white_balance, focus and frame keys set \
             here are for a USB webcam; this camera does not use them)"
                .into(),
        );
    }
    lines.push(format!(
        "page and API  http://{}/  ({}; {})",
        config.bind,
        if given.http { "--http" } else { "[http] bind" },
        match (&config.token, config.bind.ip().is_loopback()) {
            (Some(_), true) => "actions need [http] token",
            (Some(_), false) => "beyond this machine: actions and reads need [http] token",
            (None, true) => "this machine only, no token",
            (None, false) => "beyond this machine: [http] token is needed",
        }
    ));
    lines
}

/// `[robot] port` and what is there now (not opened: the robot may be in use).
fn port_words(port: &crate::daemon::config::PortChoice) -> String {
    let path = match port {
        crate::daemon::config::PortChoice::Sim => {
            return "sim  ([robot] port: the simulated robot, in the daemon's own process, on a pseudo-terminal)".into()
        }
        crate::daemon::config::PortChoice::Serial(path) => path,
    };
    let now = match crate::link::no_port_at(path) {
        Some(what) => format!("{what}, not a serial port"),
        None if path.exists() => device_words(path),
        None => "not there now: the daemon waits for it".into(),
    };
    format!("{}  ([robot] port; {now})", path.display())
}

/// What the device at `path` is, by the name it leads to (not opened: opening a board's port
/// may reset it): serial ports and pseudo-terminals are `tty…` and `pts/…`.
fn device_words(path: &std::path::Path) -> String {
    let real = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let name = real.file_name().map(|n| n.to_string_lossy().into_owned());
    let terminal = real.starts_with("/dev/pts") || name.is_some_and(|n| n.starts_with("tty"));
    match terminal {
        true => format!("a serial device ({})", real.display()),
        false => format!(
            "{}, a device but no serial port (those are /dev/tty…, or /dev/pts/… for the simulator): the daemon refuses it",
            real.display()
        ),
    }
}

fn camera_words(camera: &crate::daemon::config::CameraChoice) -> String {
    match camera {
        crate::daemon::config::CameraChoice::Sim => {
            "sim  ([camera] source: the simulated camera)".into()
        }
        crate::daemon::config::CameraChoice::Usb(device) => {
            // A build without the camera backend refuses the source below: said here too.
            let opened = match cfg!(feature = "camera") {
                true => "not opened here",
                false => "which this build cannot open (built without --features camera)",
            };
            format!(
                "usb:{device}  ([camera] source: a USB webcam, {opened}; {})",
                video_devices_now(device)
            )
        }
        crate::daemon::config::CameraChoice::Dir(dir) => {
            format!(
                "dir:{}  ([camera] source: photos in a folder; {})",
                dir.display(),
                photos_now(dir)
            )
        }
    }
}

/// The video devices there now: which are USB webcams, and whether `source` names one.
fn video_devices_now(source: &str) -> String {
    use super::video_devices::{not_a_webcam, video_devices_under, video_devices_words};
    let devices = video_devices_under(Path::new("/sys/class/video4linux"));
    let in_dev = std::fs::read_dir("/dev").map_or(0, |entries| {
        entries
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().starts_with("video"))
            .count()
    });
    let words = video_devices_words(&devices, in_dev);
    match not_a_webcam(&devices, source) {
        Some(wrong) => format!("{words}; but {wrong}"),
        None => words,
    }
}

/// What the photo folder holds now (not a failure: photos may be put there later).
fn photos_now(dir: &Path) -> String {
    match cubed_vision::camera::image_dir::ImageDirCamera::open(dir) {
        Ok(camera) if camera.photo_count() == 0 => "no photos in it now: a run finds none".into(),
        Ok(camera) => format!(
            "{} in it now",
            crate::words::count(camera.photo_count(), "photo", "photos")
        ),
        Err(e) => format!("not readable now: {e}"),
    }
}

fn built_in_note(path: &Path) -> &'static str {
    if is_built_in(path) {
        ", built into the binary"
    } else {
        ""
    }
}

#[cfg(test)]
mod tests {

    /// Devices are told apart by the name they lead to, without opening them.
    #[test]
    fn a_terminal_is_a_serial_device_and_null_is_not() {
        let tty = super::device_words(std::path::Path::new("/dev/tty"));
        assert!(tty.starts_with("a serial device"), "{tty}");
        let null = super::device_words(std::path::Path::new("/dev/null"));
        assert!(null.contains("no serial port"), "{null}");
    }
    use super::*;

    fn places(dir: &Path) -> SearchPlaces {
        SearchPlaces {
            flag: None,
            env: None,
            cwd: Some(dir.join("work")),
            xdg_config_home: None,
            home: Some(dir.join("home")),
            system: dir.join("etc/cubed"),
        }
    }

    fn put(path: &Path) {
        std::fs::create_dir_all(path.parent().expect("parent")).expect("dir");
        std::fs::write(path, "").expect("write");
    }

    #[test]
    fn the_search_goes_flag_env_cwd_user_system_then_built_in() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut p = places(dir.path());
        assert_eq!(p.choose().origin, ConfigOrigin::BuiltIn);
        assert_eq!(p.choose().path, Path::new("<built-in>/cubed.toml"));
        let order = [
            dir.path().join("etc/cubed/cubed.toml"),
            dir.path().join("home/.config/cubed/cubed.toml"),
            dir.path().join("work/config/cubed.toml"),
        ];
        for file in &order {
            put(file);
            let found = p.choose();
            assert_eq!((&found.path, &found.origin), (file, &ConfigOrigin::Found));
        }
        p.xdg_config_home = Some(dir.path().join("xdg"));
        std::fs::remove_file(&order[2]).expect("remove");
        put(&dir.path().join("xdg/cubed/cubed.toml"));
        assert_eq!(p.choose().path, dir.path().join("xdg/cubed/cubed.toml"));
        p.env = Some(dir.path().join("missing-env.toml"));
        assert_eq!(p.choose().origin, ConfigOrigin::Env);
        p.flag = Some(dir.path().join("missing-flag.toml"));
        let flagged = p.choose();
        assert_eq!(flagged.origin, ConfigOrigin::Flag);
        assert_eq!(flagged.path, dir.path().join("missing-flag.toml"));
    }

    #[test]
    fn the_built_in_config_loads_with_built_in_design_and_palette() {
        let config = load_config(&Path::new(BUILT_IN).join("cubed.toml")).expect("loads");
        assert_eq!(
            config.robot_design,
            Path::new("<built-in>/robots/four-arm.toml")
        );
        crate::robot::load_robot(&config.robot_design).expect("design loads");
        cubed_vision::light::palette::load_palette(&config.palette).expect("palette loads");
    }
}
