//! Every file under config/ loads with the loader of its kind; a file of no known kind fails the test.

use cubed::daemon::config::load_config;
use cubed::robot::load_robot;
use cubed::vision::light::palette::load_palette;
use std::path::{Path, PathBuf};

fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            out.extend(files_under(&path));
        } else {
            out.push(path);
        }
    }
    out
}

#[test]
fn every_config_file_loads() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("config");
    let files = files_under(&root);
    assert!(
        files.len() >= 5,
        "expected cubed.toml, the palette and three robots, found {files:?}"
    );
    for path in &files {
        let relative = path.strip_prefix(&root).expect("under config/");
        let parent = relative.parent().and_then(|p| p.to_str()).unwrap_or("");
        let name = relative.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let result = match (parent, name) {
            ("robots", n) if n.ends_with(".toml") => {
                load_robot(path).map(|_| ()).map_err(|e| e.to_string())
            }
            ("", "cubed.toml") => load_config(path).map_err(|e| e.to_string()).and_then(|c| {
                // The files it names must load too.
                load_robot(&c.robot_design).map_err(|e| e.to_string())?;
                load_palette(&c.palette)
                    .map(|_| ())
                    .map_err(|e| e.to_string())
            }),
            ("", n) if n.starts_with("palette") && n.ends_with(".toml") => {
                load_palette(path).map(|_| ()).map_err(|e| e.to_string())
            }
            _ => Err(format!(
                "no loader knows config/{}: add it to this test",
                relative.display()
            )),
        };
        if let Err(e) = result {
            panic!("config/{}: {e}", relative.display());
        }
    }
}

/// A shipped file given where another kind is wanted (`--robot config/cubed.toml`, a palette
/// given as the configuration) is named as what it is, not reported as a parse error.
#[test]
fn a_file_given_in_the_wrong_place_is_named_as_what_it_is() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("config");
    let (config, palette) = (root.join("cubed.toml"), root.join("palette.toml"));
    let robot = root.join("robots/four-arm.toml");
    let as_robot = |p: &Path| load_robot(p).map(|_| ()).map_err(|e| e.to_string());
    let as_config = |p: &Path| load_config(p).map(|_| ()).map_err(|e| e.to_string());
    let as_palette = |p: &Path| load_palette(p).map(|_| ()).map_err(|e| e.to_string());
    let cases = [
        (
            as_robot(&config),
            "the daemon's configuration",
            "not a robot design",
        ),
        (
            as_robot(&palette),
            "a palette of colours",
            "not a robot design",
        ),
        (
            as_config(&robot),
            "a robot design",
            "not the daemon's configuration",
        ),
        (
            as_config(&palette),
            "a palette of colours",
            "not the daemon's configuration",
        ),
        (
            as_palette(&robot),
            "a robot design",
            "not a palette of colours",
        ),
        (
            as_palette(&config),
            "the daemon's configuration",
            "not a palette of colours",
        ),
    ];
    for (result, is, not) in cases {
        let error = result.expect_err("refused");
        assert!(error.contains(&format!("this is {is}")), "{error}");
        assert!(error.contains(not), "{error}");
    }
}
