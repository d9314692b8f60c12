//! Config errors in words with exit status 2, refused alike by `config show` and `run`: missing photo folders, endless design files, wrong types, open addresses without a token, jawless motors, broken calibrated palettes, and the exit statuses in `--help`.

use super::{assert_refused_before_tables, cubed_in, shipped, show_and_run, text, write_config};
use std::path::Path;

#[test]
fn config_show_refuses_what_run_would_refuse_naming_the_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let missing = dir.path().join("missing.toml");
    let config = dir.path().join("cubed.toml");
    write_config(&config, missing.to_str().expect("utf-8"));
    let path = config.to_str().expect("utf-8");
    let show = cubed_in(dir.path(), &[], &["config", "show", "--config", path]);
    let said = text(&show);
    assert_eq!(show.status.code(), Some(2), "{said}");
    assert!(said.contains("missing.toml"), "{said}");
    // The shipped design loads: the same command says so.
    write_config(&config, &shipped("robots/six-motor.toml"));
    let show = cubed_in(dir.path(), &[], &["config", "show", "--config", path]);
    let said = text(&show);
    assert!(show.status.success(), "{said}");
    assert!(
        said.contains("ok: the robot design and palette load"),
        "{said}"
    );
    // A data directory that cannot be made (under a file) is refused here, not by `run` later.
    let file = dir.path().join("a-file");
    std::fs::write(&file, "").expect("a file");
    let written = std::fs::read_to_string(&config).expect("config");
    let data = format!(
        "[data]\ndir = {:?}",
        file.join("data").display().to_string()
    );
    std::fs::write(&config, written.replace("[data]", &data)).expect("config");
    let show = cubed_in(dir.path(), &[], &["config", "show", "--config", path]);
    let said = text(&show);
    assert_eq!(show.status.code(), Some(2), "{said}");
    assert!(
        said.contains("[data] dir") && said.contains("a-file"),
        "{said}"
    );
}

/// A `dir:` camera whose folder is missing is the config's fault: `config show` and `run` both
/// refuse it with exit 2, naming the file, the key and the folder.
#[test]
fn a_missing_photo_folder_is_refused_naming_the_camera_key() {
    let dir = tempfile::tempdir().expect("temp dir");
    let config = dir.path().join("cubed.toml");
    write_config(&config, &shipped("robots/six-motor.toml"));
    let text_now = std::fs::read_to_string(&config).expect("read");
    let folder = dir.path().join("no-photos");
    let with_dir = text_now.replacen(
        "source = \"sim\"",
        &format!("source = \"dir:{}\"", folder.display()),
        1,
    );
    assert_ne!(
        with_dir, text_now,
        "the shipped config sets [camera] source"
    );
    std::fs::write(&config, with_dir).expect("write");
    let path = config.to_str().expect("utf-8");
    let data = dir.path().join("data");
    let data = data.to_str().expect("utf-8");
    for args in show_and_run(path, data) {
        let out = cubed_in(dir.path(), &[], &args);
        let said = text(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {said}");
        for words in ["cubed.toml", "[camera] source", "no-photos"] {
            assert!(said.contains(words), "{args:?} {words}: {said}");
        }
    }
    assert_refused_before_tables(dir.path());
    // A webcam in a build without one is refused as run refuses it; the port is described.
    if cfg!(feature = "camera") {
        let why = "a webcam refused in a build without one: this build has the camera feature";
        crate::common::not_checked(why, None);
        return;
    }
    let usb = std::fs::read_to_string(&config)
        .expect("read")
        .replacen(&format!("dir:{}", folder.display()), "usb:0", 1)
        .replacen("port = \"sim\"", "port = \"/dev/null\"", 1);
    std::fs::write(&config, usb).expect("write");
    let out = cubed_in(dir.path(), &[], &["config", "show", "--config", path]);
    let said = text(&out);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(said.contains("--features camera"), "{said}");
    // Not opened (a board's port may reset), yet told from a serial port by its name.
    assert!(
        said.contains("/dev/null  ([robot] port; /dev/null, a device but no serial port"),
        "{said}"
    );
}

#[test]
fn an_endless_design_file_is_refused_at_the_limit_naming_the_key_and_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let config = dir.path().join("zero.toml");
    write_config(&config, "/dev/zero");
    let path = config.to_str().expect("utf-8");
    let out = cubed_in(
        dir.path(),
        &[],
        &["dry-run", "--config", path, "--tables", "small"],
    );
    let said = text(&out);
    assert_eq!(out.status.code(), Some(2), "{said}");
    for needle in [
        "zero.toml",
        "[robot] design",
        "/dev/zero",
        "larger than 1 MiB",
    ] {
        assert!(said.contains(needle), "{needle:?} not in {said}");
    }
    let plan = cubed_in(
        dir.path(),
        &[],
        &["plan", "--robot", "/dev/zero", "--moves", "R"],
    );
    let said = text(&plan);
    assert_eq!(plan.status.code(), Some(2), "{said}");
    assert!(
        said.contains("/dev/zero") && said.contains("larger than"),
        "{said}"
    );
    let endless_config = cubed_in(
        dir.path(),
        &[],
        &["config", "show", "--config", "/dev/zero"],
    );
    assert_eq!(
        endless_config.status.code(),
        Some(2),
        "{}",
        text(&endless_config)
    );
}

#[test]
fn a_wrong_type_is_said_in_words_with_file_section_and_key_and_exit_2() {
    let dir = tempfile::tempdir().expect("temp dir");
    let config = dir.path().join("cubed.toml");
    write_config(&config, &shipped("robots/four-arm.toml"));
    let file = std::fs::read_to_string(&config).expect("read");
    assert!(
        file.contains("keep_runs = 100"),
        "the shipped config sets keep_runs"
    );
    std::fs::write(
        &config,
        file.replace("keep_runs = 100", "keep_runs = \"many\""),
    )
    .expect("write");
    let out = cubed_in(
        dir.path(),
        &[],
        &[
            "config",
            "show",
            "--config",
            config.to_str().expect("utf-8"),
        ],
    );
    let said = text(&out);
    assert_eq!(out.status.code(), Some(2), "{said}");
    for needle in ["cubed.toml", "[history]", "keep_runs", "a whole number"] {
        assert!(said.contains(needle), "{needle:?} not in {said}");
    }
    for rust in ["u32", "Os {", "Error {"] {
        assert!(!said.contains(rust), "{rust:?} in {said}");
    }
    assert_eq!(said.trim().lines().count(), 1, "one line: {said}");
}

#[test]
fn help_documents_the_exit_statuses() {
    let dir = tempfile::tempdir().expect("temp dir");
    let said = text(&cubed_in(dir.path(), &[], &["--help"]));
    for needle in [
        "Exit status:",
        "0  done",
        "1  a runtime failure",
        "2  usage or configuration",
    ] {
        assert!(said.contains(needle), "{needle:?} not in {said}");
    }
    let usage = cubed_in(dir.path(), &[], &["solve", "--no-such-option"]);
    assert_eq!(usage.status.code(), Some(2));
}

/// An address beyond loopback without a token is refused naming the file, by `config show`
/// and by `run` alike.
#[test]
fn an_open_address_without_a_token_is_refused_naming_the_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let config = dir.path().join("cubed.toml");
    write_config(&config, &shipped("robots/six-motor.toml"));
    let text_now = std::fs::read_to_string(&config).expect("read");
    let open = text_now.replacen("bind = \"127.0.0.1:8080\"", "bind = \"0.0.0.0:18230\"", 1);
    assert_ne!(open, text_now, "the shipped config sets [http] bind");
    std::fs::write(&config, open).expect("write");
    let path = config.to_str().expect("utf-8");
    let data = dir.path().join("data");
    let data = data.to_str().expect("utf-8");
    for args in [
        vec!["config", "show", "--config", path],
        vec!["run", "--config", path, "--data-dir", data],
    ] {
        let out = cubed_in(dir.path(), &[], &args);
        let said = text(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {said}");
        for words in [
            "cubed.toml: refusing to listen on 0.0.0.0:18230 ([http] bind, or --http)",
            "[http] token",
        ] {
            assert!(said.contains(words), "{args:?} {words}: {said}");
        }
    }
}

#[test]
fn a_jawless_motor_with_a_limited_range_is_refused_by_config_show() {
    let dir = tempfile::tempdir().expect("temp dir");
    // The up motor has no jaw and turns its face between -1 and 0 only: homing would turn it back.
    let design = std::fs::read_to_string(shipped("robots/six-motor.toml"))
        .expect("shipped")
        .replacen("range = \"continuous\"", "range = [-1, 0]", 1);
    let design_file = dir.path().join("six-servo.toml");
    std::fs::write(&design_file, design).expect("write design");
    let config = dir.path().join("cubed.toml");
    write_config(&config, &design_file.display().to_string());
    let out = cubed_in(
        dir.path(),
        &[],
        &["config", "show", "--config", "cubed.toml"],
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    let said = text(&out);
    for needle in [
        "six-servo.toml",
        "'up-motor'",
        "key 'range'",
        "`jaw = false`",
    ] {
        assert!(said.contains(needle), "{needle:?} not in {said}");
    }
}

/// A palette calibrated into the data directory that no longer loads is named as that, by
/// `config show --data-dir` as by `run --data-dir`, with its file and line.
#[test]
fn a_broken_calibrated_palette_is_named_as_the_data_directorys() {
    let dir = tempfile::tempdir().expect("temp dir");
    let config = dir.path().join("cubed.toml");
    write_config(&config, &shipped("robots/four-arm.toml"));
    let data = dir.path().join("data");
    std::fs::create_dir_all(&data).expect("data dir");
    std::fs::write(data.join("palette.toml"), "garbage [[[\n").expect("palette");
    let (path, data) = (
        config.to_str().expect("utf-8"),
        data.to_str().expect("utf-8"),
    );
    let fine = cubed_in(dir.path(), &[], &["config", "show", "--config", path]);
    assert!(fine.status.success(), "{}", text(&fine));
    for args in show_and_run(path, data) {
        let out = cubed_in(dir.path(), &[], &args);
        let said = text(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {said}");
        assert!(
            said.contains("the calibrated palette in the data directory does not load")
                && said.contains("data/palette.toml")
                && said.contains("line 1"),
            "{args:?}: {said}"
        );
    }
    assert_refused_before_tables(dir.path());
}

/// A `[robot] port` that can never be a serial port (a regular file, a folder) is refused by
/// `config show` and `run` alike, naming the key; a device path with nothing there (a robot
/// unplugged) is not.
#[test]
fn a_port_that_is_a_file_or_a_folder_is_refused_by_show_and_run() {
    let dir = tempfile::tempdir().expect("temp dir");
    let config = dir.path().join("cubed.toml");
    write_config(&config, &shipped("robots/six-motor.toml"));
    let photos = dir.path().join("photos");
    std::fs::create_dir(&photos).expect("photos");
    let file = dir.path().join("not-a-port");
    std::fs::write(&file, "").expect("a file");
    let shipped_text = std::fs::read_to_string(&config).expect("read");
    let with_port = |port: &Path| {
        let text = shipped_text
            .replacen(
                "source = \"sim\"",
                &format!("source = \"dir:{}\"", photos.display()),
                1,
            )
            .replacen(
                "port = \"sim\"",
                &format!("port = {:?}", port.display().to_string()),
                1,
            );
        std::fs::write(&config, text).expect("write");
    };
    let path = config.to_str().expect("utf-8");
    let data = dir.path().join("data");
    let data = data.to_str().expect("utf-8");
    for (port, what) in [(file.as_path(), "a regular file"), (dir.path(), "a folder")] {
        with_port(port);
        for args in show_and_run(path, data) {
            let out = cubed_in(dir.path(), &[], &args);
            let said = text(&out);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {said}");
            // Placed at the line `port` is written on.
            let written = std::fs::read_to_string(&config).expect("read");
            let line = written
                .lines()
                .position(|l| l.starts_with("port ="))
                .expect("port")
                + 1;
            let refusal = format!(
                "[robot] (line {line}) port = \"{}\" is {what}, not a serial port",
                port.display()
            );
            assert!(said.contains(&refusal), "{args:?}: {said}");
        }
    }
    with_port(&dir.path().join("ttyACM-unplugged"));
    let out = cubed_in(dir.path(), &[], &show_and_run(path, data)[0]);
    assert!(out.status.success(), "{}", text(&out));
}

/// A design path to no file (a copy not made yet, a name mistyped) is refused by `config
/// show` and `run` alike, naming the path and the shipped designs that need no file.
#[test]
fn a_design_path_to_no_file_names_the_shipped_designs() {
    let dir = tempfile::tempdir().expect("temp dir");
    let config = dir.path().join("cubed.toml");
    write_config(&config, "robots/my-robot.toml");
    let path = config.to_str().expect("utf-8");
    let data = dir.path().join("data");
    for args in show_and_run(path, data.to_str().expect("utf-8")) {
        let out = cubed_in(dir.path(), &[], &args);
        let said = text(&out);
        // `config show` refuses it as the configuration's mistake; `run` on starting.
        assert!(!out.status.success(), "{args:?}: {said}");
        if args[0] == "config" {
            assert_eq!(out.status.code(), Some(2), "{args:?}: {said}");
        }
        let missing = dir.path().join("robots/my-robot.toml");
        for words in [
            format!("[robot] design: there is no file {}", missing.display()),
            "four-arm, six-motor, turntable-flipper".to_string(),
        ] {
            assert!(said.contains(&words), "{args:?} {words}: {said}");
        }
    }
}
