//! Where the configuration comes from, run from a directory outside the repository as a new user would: the shared helpers (`cubed` with a bare environment, shipped file paths, a written config) and one submodule per concern: the sources and `config show`, config errors in words with exit status 2, and the board's verdict on a design.

use std::path::Path;
use std::process::{Command, Output};

mod board_check;
mod refusals;
mod sources_and_show;

/// Runs `cubed` in `cwd` with only HOME and the given variables set.
pub(super) fn cubed_in(cwd: &Path, env: &[(&str, &str)], args: &[&str]) -> Output {
    let home = cwd.join("home");
    std::fs::create_dir_all(&home).expect("home");
    Command::new(env!("CARGO_BIN_EXE_cubed"))
        .args(args)
        .current_dir(cwd)
        .env_clear()
        .env("HOME", &home)
        .envs(env.iter().copied())
        .output()
        .expect("cubed runs")
}

/// No solver tables were built in `cwd`'s home (where [`cubed_in`] runs): a refusal said
/// before them, not after a minute of building on a Pi.
pub(super) fn assert_refused_before_tables(cwd: &Path) {
    let cache = cwd.join("home/.cache/cubed");
    let built: Vec<_> = std::fs::read_dir(&cache)
        .map(|entries| entries.flatten().map(|e| e.file_name()).collect())
        .unwrap_or_default();
    assert!(
        built.is_empty(),
        "tables built first, in {}: {built:?}",
        cache.display()
    );
}

pub(super) fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

pub(super) fn shipped(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("config")
        .join(name)
        .display()
        .to_string()
}

/// A config file like the shipped one, with the design and palette at absolute paths.
pub(super) fn write_config(path: &Path, design: &str) {
    std::fs::create_dir_all(path.parent().expect("dir")).expect("dir");
    let text = std::fs::read_to_string(shipped("cubed.toml"))
        .expect("shipped")
        .replace("\"robots/four-arm.toml\"", &format!("{design:?}"))
        .replace(
            "\"palette.toml\"",
            &format!("{:?}", shipped("palette.toml")),
        );
    std::fs::write(path, text).expect("write config");
}

/// `config show` and `run` on config `path` with data directory `data`: what one refuses,
/// the other must too.
pub(super) fn show_and_run<'a>(path: &'a str, data: &'a str) -> [Vec<&'a str>; 2] {
    let show = vec!["config", "show", "--config", path, "--data-dir", data];
    let mut run = vec!["run", "--config", path, "--data-dir", data];
    run.extend(["--http", "127.0.0.1:0"]);
    [show, run]
}

pub(super) fn system_config_present() -> bool {
    let present = Path::new("/etc/cubed/cubed.toml").exists();
    if present {
        let why = "the built-in defaults: /etc/cubed/cubed.toml exists on this machine \
                   (an installed cubed package), and the search would find it first";
        crate::common::not_checked(why, Some("CUBED_REQUIRE_NO_SYSTEM_CONFIG"));
    }
    present
}
