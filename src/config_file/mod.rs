//! The TOML files a person writes (robot designs, `cubed.toml`, palettes): what can be wrong with one (`ConfigError`), and syntax errors said in words with the line, key and section.

mod error;
pub(crate) mod syntax;

pub use error::ConfigError;
