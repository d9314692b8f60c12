//! `cubed run` refusing to start, in words: a bad config naming its file, section and key, an address beyond loopback without a token, an address another program holds, a data directory that is a file.

use crate::common::{cubed, stderr};
use std::io::Write;

#[test]
fn a_bad_config_is_refused_with_its_file_section_and_key() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("cubed.toml");
    let shipped =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/config/cubed.toml"))
            .expect("shipped config");
    let mut file = std::fs::File::create(&path).expect("create");
    write!(
        file,
        "{}",
        shipped.replace("budget_ms = 300", "budget_ms = 0")
    )
    .expect("write");
    let out = cubed(
        &[
            "run",
            "--config",
            path.to_str().expect("utf-8"),
            "--tables",
            "small",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let message = stderr(&out);
    for needle in ["cubed.toml", "[solver]", "budget_ms", "1..=60000"] {
        assert!(message.contains(needle), "{message:?} lacks {needle}");
    }
}

#[test]
fn binding_beyond_loopback_without_a_token_is_refused() {
    let out = cubed(&["run", "--http", "0.0.0.0:0", "--tables", "small"], None);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("[http] token"), "{}", stderr(&out));
}

/// An address another program holds is said in words, with what to do, not as an OS error.
#[test]
fn an_address_in_use_is_said_in_words() {
    let dir = tempfile::tempdir().expect("temp dir");
    let taken = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    let http = taken.local_addr().expect("address").to_string();
    let out = cubed(
        &[
            "run",
            "--http",
            &http,
            "--tables",
            "small",
            "--data-dir",
            &dir.path().display().to_string(),
        ],
        None,
    );
    let said = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(
        said.contains(&format!("another program already listens on {http}"))
            && said.contains("--http HOST:PORT")
            && !said.contains("os error"),
        "{said}"
    );
}

/// A data directory that is a file waits for a person to mend the configuration: `cubed run`
/// exits 2, which the packaged service is not restarted after (a daemon whose data directory
/// another daemon holds exits 1, and is tried again). It is refused before any solver table
/// is built (an empty cache stays so), and blamed on `--data-dir` where that named it.
#[test]
fn a_data_directory_that_is_a_file_is_refused_for_good() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("afile");
    std::fs::write(&file, "not a folder").expect("write");
    let cache = dir.path().join("cache");
    let data_dir = file.join("data").display().to_string();
    for command in ["run", "dry-run"] {
        let mut args = vec![command, "--tables", "full", "--data-dir", &data_dir];
        let cache_dir = cache.display().to_string();
        args.extend(["--cache-dir", &cache_dir]);
        if command == "run" {
            args.extend(["--http", "127.0.0.1:0"]);
        }
        let out = cubed(&args, None);
        let said = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{command}: {said}");
        assert!(
            said.contains("invalid: --data-dir: ") && said.contains("afile is not a folder"),
            "{command}: {said}"
        );
        assert!(!cache.exists(), "{command}: no tables built: {said}");
    }
}
