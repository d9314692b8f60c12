//! Which configuration is used and what `cubed config show` says of it: built-in defaults outside the repository, `$XDG_CONFIG_HOME` then `$CUBED_CONFIG` then `--config`, shipped designs found by name, and webcam keys noted as unused.

use super::{cubed_in, shipped, show_and_run, system_config_present, text, write_config};
use std::path::Path;

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

    // A file $CUBED_CONFIG names that is not there: the refusal says who named it.
    let missing = dir.path().join("missing.toml");
    let gone = ("CUBED_CONFIG", missing.to_str().expect("utf-8"));
    let out = cubed_in(dir.path(), &[gone], &["config", "show"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("missing.toml (named by $CUBED_CONFIG): cannot read the file"),
        "{}",
        text(&out)
    );
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
