//! Reading a file a person named (daemon config, robot design, palette, scan, grid, program, photo): never more than a limit, so `/dev/zero` or a runaway file is refused naming the limit instead of read for ever; and the files compiled into the binary (the shipped config, robot designs and palette) under the path `<built-in>/…`.

use std::io::Read;
use std::path::{Component, Path, PathBuf};

/// The directory name under which the built-in files are found.
pub const BUILT_IN: &str = "<built-in>";
/// Most bytes read from a text file a person names (configs, designs, palettes, scans).
pub const TEXT_LIMIT: u64 = 1 << 20;
/// Most bytes read from a photo.
pub const PHOTO_LIMIT: u64 = 64 << 20;

/// The shipped files compiled into the binary, by their path under `config/`.
const BUILT_IN_FILES: [(&str, &str); 5] = [
    ("cubed.toml", include_str!("../../config/cubed.toml")),
    ("palette.toml", include_str!("../../config/palette.toml")),
    (
        "robots/four-arm.toml",
        include_str!("../../config/robots/four-arm.toml"),
    ),
    (
        "robots/turntable-flipper.toml",
        include_str!("../../config/robots/turntable-flipper.toml"),
    ),
    (
        "robots/six-motor.toml",
        include_str!("../../config/robots/six-motor.toml"),
    ),
];

/// A file was larger than the reader allows.
#[derive(Debug, thiserror::Error)]
#[error("larger than {} (read stopped there): not a file of this kind", size_in_words(*limit))]
pub struct TooLarge {
    pub limit: u64,
}

/// Reads at most `limit` bytes of `path` as UTF-8 text; a built-in path gives the built-in file.
///
/// A larger file is an error of kind `FileTooLarge` wrapping `TooLarge`; the caller's error
/// names the file and the key that named it.
pub fn read_text(path: &Path, limit: u64) -> std::io::Result<String> {
    if let Some(text) = built_in(path) {
        return Ok(text.to_string());
    }
    if is_built_in(path) {
        return Err(std::io::Error::new(
            std::io::ErrorKind::NotFound,
            format!("no such built-in file (built in: {})", built_in_names()),
        ));
    }
    let bytes = read_bytes(path, limit)?;
    String::from_utf8(bytes).map_err(|e| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!(
                "not UTF-8 text (bad byte at offset {})",
                e.utf8_error().valid_up_to()
            ),
        )
    })
}

/// Reads at most `limit` bytes of `path`.
pub fn read_bytes(path: &Path, limit: u64) -> std::io::Result<Vec<u8>> {
    let file = std::fs::File::open(path)?;
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(std::io::Error::new(
            std::io::ErrorKind::FileTooLarge,
            TooLarge { limit },
        ));
    }
    Ok(bytes)
}

/// The built-in file at `path` (`<built-in>/robots/four-arm.toml`), if there is one.
pub fn built_in(path: &Path) -> Option<&'static str> {
    let rest = path.strip_prefix(BUILT_IN).ok()?;
    let name: Vec<&str> = rest
        .components()
        .map(|c| match c {
            Component::Normal(part) => part.to_str(),
            _ => None,
        })
        .collect::<Option<_>>()?;
    let name = name.join("/");
    BUILT_IN_FILES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| *text)
}

/// Whether `path` points among the built-in files.
pub fn is_built_in(path: &Path) -> bool {
    path.starts_with(BUILT_IN)
}

/// A shipped design named `name` (`six-motor`, with or without `.toml`): in `robots/` under
/// `dir` (a configuration's folder), else the copy built into the binary.
pub fn shipped_design_under(dir: &Path, name: &str) -> Option<PathBuf> {
    let file = format!("{}.toml", name.trim_end_matches(".toml"));
    let beside = dir.join("robots").join(&file);
    if beside.is_file() {
        return Some(beside);
    }
    let built_in = Path::new(BUILT_IN).join("robots").join(file);
    self::built_in(&built_in).map(|_| built_in)
}

/// How a robot design's value (`--robot`, `[robot] design`) is taken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DesignValue {
    /// A file: a path, or a name that is a file where it was looked for.
    File,
    /// A shipped design, named by its name (`six-motor`), and where it was found.
    Shipped(PathBuf),
    /// A shipped design's file name (`six-motor.toml`) that is not a file where it was looked
    /// for: an edited copy may be elsewhere, so the shipped one is not taken silently.
    ShippedFileNotThere { name: String },
    /// Not a file, nor a shipped design's name, but a file once `.toml` is added (`../hobby`
    /// for `../hobby.toml`): the value to write instead.
    WithoutToml { value: String },
    /// Neither a file there nor a shipped design's name.
    Unknown,
}

/// How `value` is taken as a robot design, `path` being where it names a file and `dir` where
/// shipped designs are looked for before the built-in ones (see [`shipped_design_under`]).
pub fn design_value(value: &str, path: &Path, dir: &Path) -> DesignValue {
    let with_toml = || {
        let mut file = path.as_os_str().to_owned();
        file.push(".toml");
        (!value.ends_with(".toml") && Path::new(&file).is_file()).then(|| {
            DesignValue::WithoutToml {
                value: format!("{value}.toml"),
            }
        })
    };
    if path.exists() {
        return DesignValue::File;
    }
    if value.contains('/') {
        return with_toml().unwrap_or(DesignValue::File);
    }
    match (
        value.strip_suffix(".toml"),
        shipped_design_under(dir, value),
    ) {
        (Some(name), Some(_)) => DesignValue::ShippedFileNotThere {
            name: name.to_string(),
        },
        (_, Some(shipped)) => DesignValue::Shipped(shipped),
        (_, None) => with_toml().unwrap_or(DesignValue::Unknown),
    }
}

/// The shipped robot designs' names in alphabetical order (`four-arm`, …), for messages.
pub fn built_in_design_names() -> String {
    let mut names: Vec<&str> = (BUILT_IN_FILES.iter())
        .filter_map(|(n, _)| n.strip_prefix("robots/")?.strip_suffix(".toml"))
        .collect();
    names.sort_unstable();
    names.join(", ")
}

/// The built-in files' names, for messages.
pub fn built_in_names() -> String {
    let names: Vec<&str> = BUILT_IN_FILES.iter().map(|(n, _)| *n).collect();
    names.join(", ")
}

fn size_in_words(bytes: u64) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{bytes} bytes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dev_zero_is_refused_at_the_limit_and_says_so() {
        let error = read_text(Path::new("/dev/zero"), 4096).expect_err("endless");
        assert_eq!(error.kind(), std::io::ErrorKind::FileTooLarge);
        assert!(error.to_string().contains("4096 bytes"), "{error}");
    }

    #[test]
    fn a_file_at_the_limit_is_read_and_one_byte_more_is_not() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("f.toml");
        std::fs::write(&path, "x".repeat(100)).expect("write");
        assert_eq!(read_text(&path, 100).expect("at the limit").len(), 100);
        assert!(read_text(&path, 99).is_err());
    }

    #[test]
    fn every_shipped_config_file_is_built_in_byte_for_byte() {
        let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("../config");
        let mut found = 0;
        for dir in [shipped.clone(), shipped.join("robots")] {
            for entry in std::fs::read_dir(&dir).expect("config dir") {
                let path = entry.expect("entry").path();
                if !path.is_file() {
                    continue;
                }
                let name = path.strip_prefix(&shipped).expect("under config/");
                let on_disk = std::fs::read_to_string(&path).expect("shipped file");
                let built = read_text(&Path::new(BUILT_IN).join(name), TEXT_LIMIT);
                assert_eq!(built.expect("built in"), on_disk, "{}", name.display());
                found += 1;
            }
        }
        assert_eq!(found, BUILT_IN_FILES.len());
        let missing = read_text(&Path::new(BUILT_IN).join("robots/x.toml"), TEXT_LIMIT);
        let message = missing.expect_err("no such file").to_string();
        assert!(message.contains("four-arm.toml"), "{message}");
    }
}
