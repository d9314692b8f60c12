//! A `--robot` value made a design file: a path, or a shipped design's name found in `config/robots/` here, else the copy built into the binary.

use std::path::PathBuf;

/// The default robot design: `config/robots/four-arm.toml` here, else the copy built into the binary.
pub fn default_robot() -> PathBuf {
    shipped_design_file("four-arm.toml").unwrap_or_else(|| {
        std::path::Path::new(cubed_files::named_file::BUILT_IN).join("robots/four-arm.toml")
    })
}

/// A shipped design's `file`: in `config/robots/` here, else the copy built into the binary.
fn shipped_design_file(file: &str) -> Option<PathBuf> {
    cubed_files::named_file::shipped_design_under(std::path::Path::new("config"), file)
}

/// Why a `--robot` value names no design file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RobotDesignError {
    /// Neither a file here nor a shipped design's name.
    #[error("no file '{given}' here, and no shipped design of that name (shipped: {shipped})")]
    NotFound {
        given: String,
        /// The shipped designs' names, comma-separated.
        shipped: String,
    },
}

/// A `--robot` value: a path, or the name of a shipped design (`six-motor`, with or without
/// `.toml`), found in `config/robots/` here, else built into the binary.
pub fn robot_design(given: &str) -> Result<PathBuf, RobotDesignError> {
    let path = PathBuf::from(given);
    if path.exists() || given.contains('/') {
        return Ok(path);
    }
    shipped_design_file(given).ok_or_else(|| RobotDesignError::NotFound {
        given: given.to_string(),
        shipped: cubed_files::named_file::built_in_design_names(),
    })
}
