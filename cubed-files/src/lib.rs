//! `cubed-files`: the files cubed reads and writes, as leaves every other crate may use: text read with its name in every error (`named_file`, and the built-in copies of the shipped files), atomic writes (`atomic_file`), who owns a file (`owner`), TOML syntax errors that name the file, section and key (`config_file`).

#![warn(unreachable_pub)]

pub mod atomic_file;
pub mod config_file;
pub mod named_file;
pub mod owner;
