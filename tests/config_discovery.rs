//! Where the configuration comes from, run from a directory outside the repository as a new user would: built-in defaults, `$XDG_CONFIG_HOME`, `$CUBED_CONFIG`, `--config`, `cubed config show`; bounded reads of named files; config errors in words with exit status 2.

use std::path::Path;
use std::process::{Command, Output};

/// Runs `cubed` in `cwd` with only HOME and the given variables set.
fn cubed_in(cwd: &Path, env: &[(&str, &str)], args: &[&str]) -> Output {
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

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn shipped(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("config")
        .join(name)
        .display()
        .to_string()
}

/// A config file like the shipped one, with the design and palette at absolute paths.
fn write_config(path: &Path, design: &str) {
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
fn show_and_run<'a>(path: &'a str, data: &'a str) -> [Vec<&'a str>; 2] {
    let show = vec!["config", "show", "--config", path, "--data-dir", data];
    let mut run = vec!["run", "--config", path, "--data-dir", data];
    run.extend(["--http", "127.0.0.1:0"]);
    [show, run]
}

fn system_config_present() -> bool {
    let present = Path::new("/etc/cubed/cubed.toml").exists();
    if present {
        eprintln!("NOT CHECKED: /etc/cubed/cubed.toml exists on this machine, so the built-in defaults are not reached");
    }
    present
}

#[test]
fn outside_the_repository_the_built_in_defaults_are_used_and_shown() {
    let dir = tempfile::tempdir().expect("temp dir");
    if system_config_present() {
        return;
    }
    let show = cubed_in(dir.path(), &[], &["config", "show"]);
    let said = text(&show);
    assert!(show.status.success(), "{said}");
    for needle in [
        "config        <built-in>/cubed.toml",
        "built in: no configuration file was found",
        "robot design  <built-in>/robots/four-arm.toml",
        "cube          3x3  ([run] cube_size)",
        "built into the binary",
        "home/.config/cubed/cubed.toml  (none)",
        "/etc/cubed/cubed.toml  (none)",
        "page and API  http://127.0.0.1:8080/  ([http] bind; this machine only, no token)",
    ] {
        assert!(said.contains(needle), "{needle:?} not in:\n{said}");
    }
    // Given on the command line as `cubed run` is, each is said to come from there.
    let data = dir.path().join("data").display().to_string();
    let args = [
        "config",
        "show",
        "--data-dir",
        &data,
        "--http",
        "127.0.0.1:18555",
    ];
    let said = text(&cubed_in(dir.path(), &[], &args));
    for needle in [
        format!("data dir      {data}  (--data-dir; run history"),
        "page and API  http://127.0.0.1:18555/  (--http; this machine only".to_string(),
    ] {
        assert!(said.contains(&needle), "{needle:?} not in:\n{said}");
    }
    let run = cubed_in(
        dir.path(),
        &[],
        &["dry-run", "--cubes", "1", "--tables", "small"],
    );
    let said = text(&run);
    assert!(run.status.success(), "{said}");
    assert!(said.contains("solved 1/1"), "{said}");
    // A palette calibrated elsewhere: the advice is where the daemon would read it, not the
    // built-in configuration, which no one can edit.
    let photos = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/photos/solved-3x3");
    let args = ["calibrate", "--images", photos.to_str().expect("utf-8")];
    let calibrated = cubed_in(
        dir.path(),
        &[],
        &[&args[..], &["--output", "mine.toml"]].concat(),
    );
    let said = text(&calibrated);
    let data_dir = dir.path().join("home/.local/share/cubed/palette.toml");
    assert!(calibrated.status.success(), "{said}");
    assert!(
        said.contains(&format!(
            "write it into the daemon's data directory (--output {})",
            data_dir.display()
        )) && !said.contains("set [vision] palette in <built-in>"),
        "{said}"
    );
}

#[test]
fn xdg_then_env_then_flag_each_win_and_config_show_names_them() {
    let dir = tempfile::tempdir().expect("temp dir");
    let xdg = dir.path().join("xdg");
    write_config(
        &xdg.join("cubed/cubed.toml"),
        &shipped("robots/six-motor.toml"),
    );
    let xdg_env = ("XDG_CONFIG_HOME", xdg.to_str().expect("utf-8"));
    let show = cubed_in(dir.path(), &[xdg_env], &["config", "show"]);
    let said = text(&show);
    assert!(
        said.contains("xdg/cubed/cubed.toml  (the first configuration found)"),
        "{said}"
    );
    assert!(said.contains("six-motor.toml"), "{said}");

    let env_file = dir.path().join("env.toml");
    write_config(&env_file, &shipped("robots/turntable-flipper.toml"));
    let env = ("CUBED_CONFIG", env_file.to_str().expect("utf-8"));
    let said = text(&cubed_in(dir.path(), &[xdg_env, env], &["config", "show"]));
    assert!(said.contains("given by $CUBED_CONFIG"), "{said}");
    assert!(said.contains("turntable-flipper.toml"), "{said}");

    let flag_file = dir.path().join("flag.toml");
    write_config(&flag_file, &shipped("robots/four-arm.toml"));
    let flag = flag_file.to_str().expect("utf-8");
    let said = text(&cubed_in(
        dir.path(),
        &[xdg_env, env],
        &["config", "show", "--config", flag],
    ));
    assert!(said.contains("given by --config"), "{said}");
    assert!(said.contains(&shipped("robots/four-arm.toml")), "{said}");
}

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
    // A webcam in a build without one is refused as run refuses it; the port is described.
    if cfg!(feature = "camera") {
        eprintln!("NOT CHECKED: this build has the camera feature, so usb:0 is accepted");
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
    assert!(
        said.contains("/dev/null  ([robot] port; a device)"),
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
            "cubed.toml: refusing to listen on 0.0.0.0:18230",
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

/// Outside the repository a shipped design is named by its name; a name that is neither a
/// file nor a shipped design is refused listing those shipped.
#[test]
fn a_shipped_design_is_found_by_its_name_outside_the_repository() {
    let dir = tempfile::tempdir().expect("temp dir");
    for name in ["six-motor", "turntable-flipper"] {
        let out = cubed_in(dir.path(), &[], &["plan", "--robot", name, "--moves", "R"]);
        assert!(out.status.success(), "{name}: {}", text(&out));
        assert!(
            text(&out).contains(&format!("robot {name}:")),
            "{}",
            text(&out)
        );
    }
    // A file name that is not here is not taken for the shipped design silently (an edited
    // copy may be elsewhere): the refusal names the shipped design's name.
    let file = "turntable-flipper.toml";
    let out = cubed_in(dir.path(), &[], &["plan", "--robot", file, "--moves", "R"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("no file 'turntable-flipper.toml' here")
            && text(&out).contains("`--robot turntable-flipper`"),
        "{}",
        text(&out)
    );
    let out = cubed_in(
        dir.path(),
        &[],
        &["plan", "--robot", "nine-arm", "--moves", "R"],
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("shipped: four-arm, six-motor"),
        "{}",
        text(&out)
    );
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
}

/// Webcam keys set for a camera that is not a webcam are accepted (a config moved between
/// machines) but `config show` says they are not used.
#[test]
fn config_show_says_webcam_keys_are_unused_by_the_simulated_camera() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("cubed.toml");
    write_config(&path, &shipped("robots/four-arm.toml"));
    let data = dir.path().join("data");
    let (path, data) = (path.to_str().expect("utf8"), data.to_str().expect("utf8"));
    let show = |extra: &str| {
        let file = std::fs::read_to_string(path).expect("read");
        let edited = file.replace("# exposure = \"locked\"", extra);
        std::fs::write(path, edited).expect("write");
        text(&cubed_in(dir.path(), &[], &show_and_run(path, data)[0]))
    };
    let said = show("# exposure = \"locked\"");
    assert!(!said.contains("does not use them"), "{said}");
    let said = show("exposure = 200");
    assert!(said.contains("this camera does not use them"), "{said}");
}

#[test]
fn the_board_check_refuses_a_design_cubed_cannot_plan_for_though_the_pico_takes_its_wiring() {
    let dir = tempfile::tempdir().expect("temp dir");
    let four_arm = std::fs::read_to_string(shipped("robots/four-arm.toml")).expect("design");
    // Each gripper two quarter turns either way: more states than 20 MB hold.
    let wide = four_arm.replace("range = [-1, 1]", "range = [-2, 2]");
    let design = dir.path().join("wide.toml");
    std::fs::write(&design, wide).expect("written");
    let design = design.to_str().expect("utf-8");
    let tight = [("CUBED_PLANNER_MEMORY_MB", "20")];
    let table = cubed_in(
        dir.path(),
        &tight,
        &["config", "wiring", "--design", design],
    );
    assert!(table.status.success(), "{}", text(&table));
    let board = ["config", "wiring", "--design", design, "--board", "pico"];
    let checked = cubed_in(dir.path(), &tight, &board);
    let said = text(&checked);
    assert_eq!(checked.status.code(), Some(2), "{said}");
    assert!(said.contains("too many states"), "{said}");
    assert!(!said.contains("takes this design"), "{said}");
    // With room to plan for it, the board takes it.
    let roomy = cubed_in(dir.path(), &[("CUBED_PLANNER_MEMORY_MB", "400")], &board);
    assert!(roomy.status.success(), "{}", text(&roomy));
    assert!(
        text(&roomy).contains("takes this design"),
        "{}",
        text(&roomy)
    );
}

#[test]
fn a_design_with_more_states_than_the_memory_allowed_is_refused_naming_what_to_change() {
    let dir = tempfile::tempdir().expect("temp dir");
    let wide = dir.path().join("wide.toml");
    let four_arm = std::fs::read_to_string(shipped("robots/four-arm.toml")).expect("shipped");
    // Each gripper two quarter turns either way: about 100 MB of states and steps.
    std::fs::write(
        &wide,
        four_arm.replace("range = [-1, 1]", "range = [-2, 2]"),
    )
    .expect("write");
    let config = dir.path().join("cubed.toml");
    write_config(&config, wide.to_str().expect("utf-8"));
    let config = config.to_str().expect("utf-8");
    let wide = wide.to_str().expect("utf-8");
    let tight = [("CUBED_PLANNER_MEMORY_MB", "20")];
    let plan = ["plan", "--robot", wide, "--moves", "R", "--tables", "small"];
    let dry_run = ["dry-run", "--config", config, "--tables", "small"];
    for (args, place) in [(&plan[..], "wide.toml: "), (&dry_run[..], "[robot] design")] {
        let out = cubed_in(dir.path(), &tight, args);
        let said = text(&out);
        assert_eq!(out.status.code(), Some(2), "{said}");
        for needle in [
            place,
            "robot 'four-arm' has too many states",
            "the 20 MB CUBED_PLANNER_MEMORY_MB allows",
            "`range`",
            "`jaw`",
        ] {
            assert!(said.contains(needle), "{needle:?} not in {said}");
        }
    }
    // With room for it, the same design plans.
    let out = cubed_in(dir.path(), &[("CUBED_PLANNER_MEMORY_MB", "400")], &plan);
    assert!(out.status.success(), "{}", text(&out));
    let out = cubed_in(dir.path(), &[("CUBED_PLANNER_MEMORY_MB", "2GB")], &plan);
    let said = text(&out);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(said.contains("CUBED_PLANNER_MEMORY_MB='2GB'"), "{said}");
}

/// `config wiring --board pico --format json` says whether the board takes the design as a
/// true or false a tool can test, beside the sentence and the refusal.
#[test]
fn the_boards_verdict_in_json_is_a_boolean_beside_its_words() {
    let dir = tempfile::tempdir().expect("temp dir");
    let four_arm = std::fs::read_to_string(shipped("robots/four-arm.toml")).expect("shipped");
    let reserved = dir.path().join("pin-25.toml");
    std::fs::write(&reserved, four_arm.replacen("step = 2\n", "step = 25\n", 1)).expect("written");
    for (design, accepted) in [
        (shipped("robots/four-arm.toml"), true),
        (reserved.display().to_string(), false),
    ] {
        let args = [
            "config", "wiring", "--design", &design, "--board", "pico", "--format", "json",
        ];
        let out = cubed_in(dir.path(), &[], &args);
        let doc: serde_json::Value =
            serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(&out)));
        let board = &doc["board"];
        assert_eq!(board["accepted"], accepted, "{design}: {board}");
        assert_eq!(board["refusal"].is_null(), accepted, "{design}: {board}");
    }
}
