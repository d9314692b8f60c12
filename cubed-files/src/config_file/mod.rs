//! The TOML files a person writes (robot designs, `cubed.toml`, palettes): what can be wrong with one (`ConfigError`), and syntax errors said in words with the line, key and section.

mod error;
pub mod field_names;
pub mod locate;
mod misplaced;
pub mod syntax;

pub use misplaced::Tables;

pub use error::ConfigError;

use crate::named_file::{read_text, TEXT_LIMIT};
use std::path::Path;

/// The text of the TOML file at `path` (a built-in path gives the built-in copy), read up to
/// the text limit; an error names the file.
pub fn read_config_text(path: &Path) -> Result<String, ConfigError> {
    read_text(path, TEXT_LIMIT).map_err(|source| ConfigError::Read {
        file: path.display().to_string(),
        source,
    })
}
