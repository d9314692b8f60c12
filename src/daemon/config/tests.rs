//! Tests of `cubed.toml`: defaults, paths relative to the file, and errors naming file, section, key and range.

use super::*;

const MINIMAL: &str = "[robot]\ndesign = \"robots/four-arm.toml\"\nport = \"sim\"\n[camera]\nsource = \"sim\"\n[vision]\npalette = \"palette.toml\"\n";

fn parse(text: &str) -> Result<DaemonConfig, ConfigError> {
    parse_config(text, Path::new("/etc/cubed/cubed.toml"))
}

#[test]
fn a_minimal_file_gets_defaults_and_paths_relative_to_it() {
    let c = parse(MINIMAL).expect("valid");
    assert_eq!(
        c.robot_design,
        PathBuf::from("/etc/cubed/robots/four-arm.toml")
    );
    assert_eq!(c.port, PortChoice::Sim);
    assert_eq!(c.bind, DEFAULT_BIND.parse().expect("addr"));
    assert_eq!(c.grid, GridSetting::Auto);
    assert_eq!(c.max_solves, 3);
}

#[test]
fn a_shipped_designs_name_is_taken_as_robot_takes_it() {
    let named = |name: &str| MINIMAL.replace("robots/four-arm.toml", name);
    // A folder of its own, empty: never /etc/cubed, which an installed package fills.
    let empty = tempfile::tempdir().expect("temp dir");
    let parse_beside_nothing = |text: &str| parse_config(text, &empty.path().join("cubed.toml"));
    // Nothing of that name beside the configuration: the copy built into the binary.
    let c = parse_beside_nothing(&named("six-motor")).expect("valid");
    assert_eq!(
        c.robot_design,
        Path::new(cubed_files::named_file::BUILT_IN).join("robots/six-motor.toml")
    );
    // Its file name, not there, is refused: an edited copy may be elsewhere.
    let refused = parse_beside_nothing(&named("six-motor.toml")).expect_err("no such file there");
    let said = refused.to_string();
    assert!(said.contains("key 'design'"), "{said}");
    assert!(said.contains("write `design = \"six-motor\"`"), "{said}");
    // A design file beside the configuration comes first.
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir(dir.path().join("robots")).expect("dir");
    let mine = dir.path().join("robots/six-motor.toml");
    std::fs::write(&mine, "name = \"mine\"").expect("written");
    let c = parse_config(&named("six-motor"), &dir.path().join("cubed.toml")).expect("valid");
    assert_eq!(c.robot_design, mine);
    // Neither a file there nor a shipped name (mistyped): refused, naming the shipped ones.
    let said = parse_beside_nothing(&named("sixmotor"))
        .expect_err("no such design")
        .to_string();
    assert!(
        said.contains("key 'design'") && said.contains("four-arm, six-motor, turntable-flipper"),
        "{said}"
    );
    // A configuration named without a folder: the folder looked in is the current one.
    let said = parse_config(&named("sixmotor"), Path::new("cubed.toml"))
        .expect_err("no such design")
        .to_string();
    let here = std::env::current_dir().expect("current dir");
    assert!(
        said.contains(&format!("beside this configuration ({})", here.display())),
        "{said}"
    );
    // A design file named without its `.toml`, in a folder or not: the value to write.
    std::fs::create_dir(dir.path().join("mine")).expect("dir");
    std::fs::write(dir.path().join("mine/hobby.toml"), "name = \"mine\"").expect("written");
    std::fs::write(dir.path().join("hobby.toml"), "name = \"mine\"").expect("written");
    let config = dir.path().join("cubed.toml");
    for (value, write) in [("mine/hobby", "mine/hobby.toml"), ("hobby", "hobby.toml")] {
        let said = (parse_config(&named(value), &config).expect_err("no such file")).to_string();
        assert!(
            said.contains(&format!(
                "but there is \"{write}\": write `design = \"{write}\"`"
            )),
            "{said}"
        );
    }
}

/// The four corners `scan --show-grids` says are taken as they are, as `--corners` takes them.
#[test]
fn a_grid_given_as_four_corners_is_taken_as_given() {
    let corners = "[[120.5, 40], [380, 52], [371, 300], [115, 290]]";
    let text = MINIMAL.replace(
        "source = \"sim\"\n",
        &format!("source = \"sim\"\ngrid = {corners}\n"),
    );
    let c = parse(&text).expect("valid");
    let expected = [[120.5, 40.0], [380.0, 52.0], [371.0, 300.0], [115.0, 290.0]];
    assert_eq!(
        c.grid,
        GridSetting::Corners(cubed_vision::grid::face_grid::FaceGrid { corners: expected })
    );
}

#[test]
fn without_vision_the_palette_beside_else_the_shipped_one_and_the_defaults_are_read() {
    let without = MINIMAL.replace("[vision]\npalette = \"palette.toml\"\n", "");
    assert_ne!(without, MINIMAL);
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("cubed.toml");
    let c = parse_config(&without, &file).expect("valid without [vision]");
    assert_eq!(c.palette, Path::new("<built-in>/palette.toml"));
    let given = parse(MINIMAL).expect("valid");
    assert_eq!(c.min_confidence, given.min_confidence);
    assert_eq!(c.recaptures, given.recaptures);
    cubed_vision::light::palette::load_palette(&c.palette).expect("the shipped palette loads");
    // A palette.toml beside the file is the one read, as the shipped configuration names it.
    std::fs::write(dir.path().join("palette.toml"), "").expect("written");
    let c = parse_config(&without, &file).expect("valid");
    assert_eq!(c.palette, dir.path().join("palette.toml"));
}

#[test]
fn localhost_binds_loopback_and_a_missing_section_is_named() {
    let c = parse(&format!("{MINIMAL}[http]\nbind = \"localhost:18089\"\n")).expect("valid");
    assert_eq!(c.bind, "127.0.0.1:18089".parse().expect("addr"));
    let e = parse("[http]\nbind = \"robot.local:80\"\n").expect_err("refused");
    assert!(e.to_string().contains("missing"), "{e}");
    let without_camera = MINIMAL.replace("[camera]\nsource = \"sim\"\n", "");
    let e = parse(&without_camera).expect_err("refused").to_string();
    assert!(e.contains("the section [camera] is missing"), "{e}");
    let e = parse(&format!("{MINIMAL}[http]\nbind = \"robot.local:80\"\n"))
        .expect_err("a name other than localhost is not looked up")
        .to_string();
    assert!(e.contains("[http]") && e.contains("bind"), "{e}");
}

#[test]
fn errors_name_the_section_key_and_range() {
    let cases = [
        ("[robot]\nbaud = 7\n", "[robot]", "baud", "300..=4000000"),
        (
            "[robot]\nport = \"sim \"\n",
            "[robot]",
            "port",
            "\"sim \" has spaces around it: write \"sim\"",
        ),
        (
            "[camera]\nsource = \"webcam\"\n",
            "[camera]",
            "source",
            "allowed",
        ),
        (
            "[camera]\ngrid = [1, 2]\n",
            "[camera]",
            "grid",
            "[x, y, side]",
        ),
        (
            "[camera]\ngrid = [[0, 0], [0, 10], [10, 10], [10, 0]]\n",
            "[camera]",
            "grid",
            "anticlockwise",
        ),
        (
            "[camera]\ngrid = [[0, 0], [10, 0], [10, 10], [0]]\n",
            "[camera]",
            "grid",
            "four corners",
        ),
        (
            "[http]\nbind = \"localhost\"\n",
            "[http]",
            "bind",
            "ADDRESS:PORT",
        ),
        (
            "[http]\ntoken = \"short\"\n",
            "[http]",
            "token",
            "5 characters; give at least 16",
        ),
        (
            "[http]\ntoken = \"a long random string\"\n",
            "[http]",
            "token",
            "the shipped file's example",
        ),
        (
            "[sim]\nfaults = \"explode=1\"\n",
            "[sim]",
            "faults",
            "unknown key",
        ),
        ("[run]\nmax_solves = 0\n", "[run]", "max_solves", "1..=10"),
        // Negative or huge: the key's own range, not the range of a number type.
        (
            "[robot]\nbaud = -9600\n",
            "[robot]",
            "baud",
            "-9600 is outside 300..=4000000",
        ),
        (
            "[vision]\nrecaptures = -1\n",
            "[vision]",
            "recaptures",
            "-1 is outside 0..=5",
        ),
        (
            "[history]\nkeep_runs = 99999999999\n",
            "[history]",
            "keep_runs",
            "1..=1000000",
        ),
        (
            "[camera]\ngrid = [nan, 3, 50]\n",
            "[camera]",
            "grid",
            "0..=100000",
        ),
        (
            "[run]\ncube_size = 4\n",
            "[run]",
            "cube_size",
            "allowed 3, or 2",
        ),
        (
            "[history]\nkeep_runs = 0\n",
            "[history]",
            "keep_runs",
            "1..=1000000",
        ),
        (
            "[history]\nmax_photo_mb = 5\n",
            "[history]",
            "max_photo_mb",
            "10..=10000000",
        ),
        (
            "[sim]\nspeed = 2000.0\n",
            "[sim]",
            "speed",
            "0..=1000 (0 = instant",
        ),
        ("[sim]\nspeed = nan\n", "[sim]", "speed", "0..=1000"),
        (
            "[sim]\nspeed = 1e-300\n",
            "[sim]",
            "speed",
            "1e-300 is too slow to move at all",
        ),
        (
            "[sim]\nspeed = -1e200\n",
            "[sim]",
            "speed",
            "-1e200 is outside",
        ),
        (
            "[sim]\nexposure = 5e-324\n",
            "[sim]",
            "exposure",
            "5e-324 is outside",
        ),
        (
            "[vision]\nmin_confidence = -1e300\n",
            "[vision]",
            "min_confidence",
            "-1e300 is outside 0..1",
        ),
        (
            "[sim]\nexposure = 40.0\n",
            "[sim]",
            "exposure",
            "0.01..=32 (light: 1 = normal",
        ),
        (
            "[sim]\nhighlight_rolloff = -0.5\n",
            "[sim]",
            "highlight_rolloff",
            "0..=1 (0 = channels clip alone",
        ),
        (
            "[vision]\nmin_confidence = 1.5\n",
            "[vision]",
            "min_confidence",
            "0..1 (the calibrated probability",
        ),
        (
            "[vision]\nmin_confidence = 1.0\n",
            "[vision]",
            "min_confidence",
            "1 is never reached",
        ),
        (
            "[vision]\nmin_confidence = nan\n",
            "[vision]",
            "min_confidence",
            "0..1",
        ),
        (
            "[robot]\nport = \"Sim\"\n",
            "[robot]",
            "port",
            "the simulated robot is \"sim\", in lower case",
        ),
    ];
    for (extra, section, key, hint) in cases {
        let text = merge(MINIMAL, extra);
        let message = parse(&text).expect_err(extra).to_string();
        for needle in ["/etc/cubed/cubed.toml", section, key, hint] {
            assert!(
                message.contains(needle),
                "{extra:?}: {message:?} lacks {needle:?}"
            );
        }
        // The line of the key as written, counted here on its own.
        let written = format!("{key} =");
        let lines: Vec<usize> = (text.lines().enumerate())
            .filter(|(_, l)| l.trim_start().starts_with(&written))
            .map(|(n, _)| n + 1)
            .collect();
        if let [line] = lines[..] {
            let at = format!("{section} (line {line})");
            assert!(message.contains(&at), "{message:?} lacks {at:?}");
        }
    }
}

#[test]
fn unknown_keys_and_a_sim_camera_on_real_hardware_are_refused() {
    let unknown = parse(&format!("{MINIMAL}[data]\ndirectory = \"x\"\n")).expect_err("unknown key");
    assert!(unknown.to_string().contains("directory"), "{unknown}");
    let real = parse(&MINIMAL.replace("port = \"sim\"", "port = \"/dev/ttyUSB0\""))
        .expect_err("sim camera");
    assert!(real.to_string().contains("[camera]"), "{real}");
}

/// `extra`'s keys added to (or replacing) the same section of `base`.
fn merge(base: &str, extra: &str) -> String {
    let (header, body) = extra.split_once('\n').expect("header line");
    let key = body.split('=').next().unwrap_or_default().trim();
    if let Some(at) = base.find(header) {
        let after = &base[at + header.len()..];
        let kept: String = after
            .lines()
            .take_while(|l| !l.starts_with('['))
            .filter(|l| !l.trim_start().starts_with(&format!("{key} ")))
            .map(|l| format!("{l}\n"))
            .collect();
        let rest: String = after
            .lines()
            .skip_while(|l| !l.starts_with('['))
            .map(|l| format!("{l}\n"))
            .collect();
        format!("{}{header}\n{body}{kept}{rest}", &base[..at])
    } else {
        format!("{base}{extra}")
    }
}

/// The example token the shipped file gives (commented out) is the one refused, so a person who
/// uncomments it is told, not left with a token anyone may read.
#[test]
fn the_shipped_files_example_token_is_the_one_refused() {
    let shipped = include_str!("../../../config/cubed.toml");
    let example = (shipped.lines())
        .find(|line| line.starts_with("# token = "))
        .expect("the example token");
    assert!(
        example.contains(&format!("\"{}\"", super::SAMPLE_TOKEN)),
        "{example}"
    );
}
