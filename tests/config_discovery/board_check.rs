//! The board check on a design: a design cubed cannot plan for, a design needing more states than the memory allows, and the board's verdict as a JSON boolean beside its words.

use super::{cubed_in, shipped, text, write_config};
use std::path::Path;

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

/// `config show` with a real robot port says what a Pico there would refuse at connect (its
/// step rate, a pin it keeps), naming the file and key, but only notes it: the robot's board
/// may be another. With the simulated robot, or a design the Pico takes, it says nothing.
#[test]
fn config_show_notes_what_a_pico_on_the_robots_port_would_refuse() {
    let dir = tempfile::tempdir().expect("temp dir");
    let four_arm = std::fs::read_to_string(shipped("robots/four-arm.toml")).expect("shipped");
    let write = |name: &str, text: String| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).expect("written");
        path.display().to_string()
    };
    let reserved = write(
        "pin-25.toml",
        four_arm.replacen("step = 2\n", "step = 25\n", 1),
    );
    // Faster than the Pico steps, its turn times left to follow from the ramp.
    let fast: String = (four_arm.lines())
        .filter(|line| !line.starts_with("quarter_ms") && !line.starts_with("half_ms"))
        .map(|line| line.replace("max_deg_s = 900", "max_deg_s = 5000") + "\n")
        .collect();
    let fast = write("fast.toml", fast);
    let photos =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/vision/photos/3x3x3-random-01");
    let show = |design: &str, real_port: bool| {
        let config = dir.path().join("cubed.toml");
        write_config(&config, design);
        if real_port {
            let text = std::fs::read_to_string(&config).expect("written");
            let text = text
                .replacen("port = \"sim\"", "port = \"/dev/ttyACM0\"", 1)
                .replacen(
                    "source = \"sim\"",
                    &format!("source = \"dir:{}\"", photos.display()),
                    1,
                );
            std::fs::write(&config, text).expect("written");
        }
        let out = cubed_in(
            dir.path(),
            &[],
            &["config", "show", "--config", &config.display().to_string()],
        );
        assert!(out.status.success(), "{}", text(&out));
        text(&out)
    };
    let note = "a Raspberry Pi Pico on /dev/ttyACM0 would refuse the design at connect";
    let said = show(&reserved, true);
    assert!(
        said.contains(note) && said.contains("pin-25.toml") && said.contains("pin 25"),
        "{said}"
    );
    let said = show(&fast, true);
    assert!(
        said.contains(note) && said.contains("key 'max_deg_s'"),
        "{said}"
    );
    for (design, real_port) in [(&reserved, false), (&shipped("robots/four-arm.toml"), true)] {
        let said = show(design, real_port);
        assert!(!said.contains("Raspberry Pi Pico"), "{design}: {said}");
    }
}
