//! Integration tests of robot designs: every shipped config loads and plans, and each class of config error names file, section and key.

use cubed::robot::{load_robot, parse_robot, ConfigError, Planner};
use std::path::Path;

use crate::common::shipped_designs_dir as shipped_dir;

fn four_arm_text() -> String {
    std::fs::read_to_string(shipped_dir().join("four-arm.toml")).unwrap()
}

fn error_of(text: &str) -> String {
    let err = parse_robot(text, "test.toml").expect_err("the design should be refused");
    let message = err.to_string();
    assert!(message.starts_with("test.toml: "), "{message}");
    message
}

#[test]
fn every_shipped_design_loads_plans_and_scans() {
    let mut names = Vec::new();
    for entry in std::fs::read_dir(shipped_dir()).unwrap() {
        let path = entry.unwrap().path();
        let model = load_robot(&path).unwrap_or_else(|e| panic!("{e}"));
        let planner = Planner::new(model);
        planner.plan(&planner.home(), &[]).unwrap();
        planner.plan_scan(&planner.home()).unwrap();
        names.push(planner.model().name.clone());
    }
    names.sort();
    assert_eq!(names, ["four-arm", "six-motor", "turntable-flipper"]);
}

#[test]
fn an_unknown_key_names_the_section_and_the_key() {
    let text = four_arm_text().replacen("open_ms = 100", "open_ms = 100\nopen_speed = 3", 1);
    let message = error_of(&text);
    assert!(
        message.contains("[[gripper]] #1") && message.contains("open_speed"),
        "{message}"
    );
}

#[test]
fn a_range_with_a_non_number_and_a_half_turn_quicker_than_a_quarter_are_refused() {
    let text = four_arm_text().replacen("range = [-1, 1]", "range = [0, \"x\", 1]", 1);
    let message = error_of(&text);
    assert!(
        message.contains("'range'") && message.contains("min <= 0 <= max"),
        "{message}"
    );
    // Without the motion tables the times are as given (with one they follow from the ramp).
    let mut in_motion = false;
    let untimed: String = (four_arm_text().lines())
        .filter(|line| {
            in_motion = line.starts_with("[gripper.motion]") || (in_motion && !line.is_empty());
            !in_motion
        })
        .map(|line| format!("{line}\n"))
        .collect();
    let text = untimed.replacen("quarter_ms = 150", "quarter_ms = 400", 1);
    let message = error_of(&text);
    assert!(
        message.contains("'half_ms'") && message.contains("less than quarter_ms (400 ms)"),
        "{message}"
    );
}

#[test]
fn a_bad_range_names_the_gripper_key_and_allowed_range() {
    let text = four_arm_text().replacen("range = [-1, 1]", "range = [1, 2]", 1);
    let message = error_of(&text);
    let line = line_of(&text, "range = [1, 2]");
    assert!(
        message.contains(&format!("[[gripper]] #1 'left' (line {line}): key 'range'"))
            && message.contains("min <= 0 <= max"),
        "{message}"
    );
}

#[test]
fn a_bad_timing_names_its_key() {
    let text = four_arm_text().replacen("quarter_ms = 150", "quarter_ms = 0", 1);
    let message = error_of(&text);
    assert!(
        message.contains("'quarter_ms'") && message.contains("1..="),
        "{message}"
    );
}

#[test]
fn a_negative_or_huge_time_is_told_the_key_s_range_not_the_number_type_s() {
    for (from, to, said) in [
        (
            "quarter_ms = 150",
            "quarter_ms = -150",
            "-150 ms is out of range; allowed 1..=60000",
        ),
        (
            "capture_ms = 50",
            "capture_ms = 99999999999",
            "allowed 0..=60000",
        ),
    ] {
        let message = error_of(&four_arm_text().replacen(from, to, 1));
        assert!(message.contains(said), "{message}");
        assert!(!message.contains("4294967295"), "{message}");
    }
}

#[test]
fn an_unknown_direction_or_gripper_name_is_refused() {
    let text = four_arm_text().replacen("at = \"up\"", "at = \"top\"", 1);
    let message = error_of(&text);
    let line = line_of(&text, "at = \"top\"");
    assert!(
        message.contains(&format!("[[camera]] #1 'top' (line {line})"))
            && message.contains("'at'")
            && message.contains("up down front back left right"),
        "{message}"
    );
    let message =
        error_of(&four_arm_text().replacen("[\"left\", \"right\"]", "[\"left\", \"rihgt\"]", 1));
    assert!(
        message.contains("[support]") && message.contains("'sets'") && message.contains("rihgt"),
        "{message}"
    );
}

#[test]
fn a_design_without_support_is_impossible() {
    let text = four_arm_text().replace(
        "sets = [[\"left\", \"right\"], [\"front\", \"back\"]]",
        "sets = []",
    );
    let message = error_of(&text);
    assert!(
        message.contains("[support]") && message.contains("impossible design"),
        "{message}"
    );
}

/// A passive rest holds the cube only from beneath: a set of cradles alone needs one at
/// down (a cradle over the cube held nothing, and was planned as if it did).
#[test]
fn a_support_of_cradles_alone_must_rest_the_cube_from_beneath() {
    let rest = |at: &str| {
        let text = four_arm_text().replace(
            "sets = [[\"left\", \"right\"], [\"front\", \"back\"]]",
            "sets = [[\"rest\"]]",
        );
        format!("{text}\n[[cradle]]\nname = \"rest\"\nat = \"{at}\"\n")
    };
    let message = error_of(&rest("up"));
    assert!(
        message.contains("[support]")
            && message.contains("impossible design")
            && message.contains("only from beneath"),
        "{message}"
    );
    let beneath = parse_robot(&rest("down"), "test.toml");
    assert!(
        !beneath
            .as_ref()
            .is_err_and(|e| e.to_string().contains("only from beneath")),
        "{beneath:?}"
    );
}

/// Two grippers at right angles that both close on layers block each other (their layers
/// share pieces), and no one key change fixes that: the refusal names the pair.
#[test]
fn two_layer_grippers_at_right_angles_are_named_as_blocking_each_other() {
    let gripper = |name: &str, at: &str| {
        format!(
            "[[gripper]]\nname = \"{name}\"\nat = \"{at}\"\ngrips = \"layer\"\nrange = [-1, 2]\n\
             quarter_ms = 150\nhalf_ms = 250\nopen_ms = 100\nclose_ms = 100\n"
        )
    };
    let text = format!(
        "name = \"two-arm\"\n{}{}[support]\nsets = [[\"bottom\"], [\"side\"]]\n\
         [[camera]]\nname = \"cam\"\nat = \"front\"\nimage_top = \"up\"\ncapture_ms = 50\n",
        gripper("bottom", "down"),
        gripper("side", "right")
    );
    let message = error_of(&text);
    assert!(
        message.contains("no face can ever be turned")
            && message.contains(
                "grippers 'bottom' (at down) and 'side' (at right) both close on layers, and those layers cross"
            ),
        "{message}"
    );
}

#[test]
fn a_face_that_can_never_be_turned_is_impossible() {
    // Grippers that cannot rotate (and so have no motor): no face can ever turn.
    let motorless = without_tables(&unwired(&four_arm_text()), |h| h.ends_with(".motion]"));
    let text = motorless.replace(
        "range = [-1, 1]\nquarter_ms = 150\nhalf_ms = 250\n",
        "range = [0, 0]\n",
    );
    let message = error_of(&text);
    assert!(
        message.contains("impossible design") && message.contains("no face can ever be turned"),
        "{message}"
    );
}

/// Two grippers at right angles, each gripping its layer: a closed one crosses every layer
/// of the other's axis, and with it open nothing holds the cube (or it is carried whole).
/// The message says what a turn needs and which keys decide it, not only `at`.
#[test]
fn grippers_at_right_angles_gripping_layers_can_turn_nothing_and_the_message_says_why() {
    let gripper = |name: &str, at: &str| {
        format!(
            "[[gripper]]\nname = \"{name}\"\nat = \"{at}\"\ngrips = \"layer\"\n\
             range = [-1, 1]\ncarries_cube = true\nquarter_ms = 200\nhalf_ms = 300\n\
             open_ms = 100\nclose_ms = 100\n\n"
        )
    };
    let text = format!(
        "name = \"two-arm\"\n\n{}{}[support]\nsets = [[\"bottom\"], [\"side\"]]\n",
        gripper("bottom", "down"),
        gripper("side", "left")
    );
    let message = error_of(&text);
    for words in [
        "key 'grips'",
        "no face can ever be turned",
        "crosses the turning layer",
        "`carries_cube`",
    ] {
        assert!(message.contains(words), "{words:?} in {message}");
    }
    // A `centre` grip from the side holds the cube without crossing: the bottom turns D.
    let side_centre = text.replacen(
        "at = \"left\"\ngrips = \"layer\"",
        "at = \"left\"\ngrips = \"centre\"",
        1,
    );
    let refused = parse_robot(&side_centre, "test.toml")
        .err()
        .map(|e| e.to_string());
    assert!(
        refused.as_ref().is_none_or(|m| !m.contains("face D")),
        "{refused:?}"
    );
}

#[test]
fn a_camera_that_never_sees_some_face_is_impossible() {
    let text = unwired(&std::fs::read_to_string(shipped_dir().join("six-motor.toml")).unwrap());
    let only_up = text
        .split("\n[[camera]]")
        .take(2)
        .collect::<Vec<_>>()
        .join("\n[[camera]]");
    let message = error_of(&only_up);
    assert!(
        message.contains("[[camera]]") && message.contains("never be shown"),
        "{message}"
    );
}

#[test]
fn a_camera_waiting_for_grippers_the_cube_needs_closed_is_blamed_at_its_needs_open() {
    let text = four_arm_text();
    let all = "needs_open = [\"left\", \"right\", \"front\", \"back\"]";
    let waiting = text.replacen("needs_open = []", all, 1);
    assert_ne!(waiting, text, "the camera's needs_open is in the design");
    let message = error_of(&waiting);
    let line = line_of(&waiting, all);
    assert!(
        message.contains(&format!(
            "[[camera]] #1 'top' (line {line}): key 'needs_open'"
        )) && message.contains("never be shown"),
        "{message}"
    );
}

#[test]
fn a_missing_file_is_a_read_error() {
    let err = load_robot(Path::new("/nonexistent/robot.toml")).unwrap_err();
    assert!(matches!(err, ConfigError::Read { .. }));
    assert!(err.to_string().contains("/nonexistent/robot.toml"));
}

#[test]
fn an_actuator_without_a_name_is_refused() {
    let text = four_arm_text().replacen("name = \"left\"", "name = \"\"", 1);
    let message = error_of(&text);
    assert!(
        message.contains("[[gripper]]")
            && message.contains("'name'")
            && message.contains("a name is needed"),
        "{message}"
    );
}

#[test]
fn an_empty_or_repeating_support_set_is_refused() {
    let empty = four_arm_text().replacen(
        "sets = [[\"left\", \"right\"], [\"front\", \"back\"]]",
        "sets = [[]]",
        1,
    );
    let message = error_of(&empty);
    assert!(
        message.contains("[support]") && message.contains("set 1 is empty"),
        "{message}"
    );
    let twice = four_arm_text().replacen("[\"front\", \"back\"]", "[\"front\", \"front\"]", 1);
    let message = error_of(&twice);
    assert!(message.contains("set 2 names 'front' twice"), "{message}");
}

#[test]
fn more_actuators_than_the_firmware_takes_are_refused_when_the_file_loads() {
    let six = unwired(&std::fs::read_to_string(shipped_dir().join("six-motor.toml")).unwrap());
    let jawed = six.replace("jaw = false", "jaw = true\nopen_ms = 100\nclose_ms = 100");
    let thirteen = format!(
        "{jawed}\n[[flipper]]\nname = \"flipper\"\nfrom = \"back\"\nto = \"up\"\nflip_ms = 450\n"
    );
    let message = error_of(&thirteen);
    assert!(
        message.contains("needs 13 firmware actuators; the protocol allows 12"),
        "{message}"
    );
    // `parse_robot` only reads the file: no planning graph is built (that takes minutes).
}

#[test]
fn support_sets_that_block_every_turn_of_a_face_are_named_not_the_grippers() {
    let text = four_arm_text().replacen(
        "sets = [[\"left\", \"right\"], [\"front\", \"back\"]]",
        "sets = [[\"left\"]]",
        1,
    );
    let message = error_of(&text);
    assert!(
        message.contains(&format!(
            "[support] (line {}): key 'sets'",
            line_of(&text, "sets = [[\"left\"]]")
        )) && message.contains("can never be turned"),
        "{message}"
    );
}

/// A design's text without its wiring (`[board]` and every `wiring` table): what is left
/// is a design only the simulator runs, and edits of its grippers need no pins.
pub fn unwired(text: &str) -> String {
    without_tables(text, |header| {
        header == "[board]" || header.ends_with(".wiring]")
    })
}

/// `text` without the tables whose header `drop` picks.
fn without_tables(text: &str, drop: impl Fn(&str) -> bool) -> String {
    let mut skipping = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.starts_with('[') {
            skipping = drop(line);
        }
        if !skipping {
            out.push(line);
        }
    }
    out.join("\n") + "\n"
}

/// `text` with the first line starting `key` after the actuator `name` replaced by `line`
/// (which ends in a newline, or is empty to drop it).
fn with_line(text: &str, name: &str, key: &str, line: &str) -> String {
    let named = text
        .find(&format!("name = \"{name}\""))
        .expect("the actuator");
    let start = named + 1 + text[named..].find(&format!("\n{key}")).expect("its key");
    let end = start + 1 + text[start..].find('\n').expect("a line end");
    format!("{}{line}{}", &text[..start], &text[end..])
}

#[test]
fn a_pin_named_twice_in_a_design_is_refused_naming_both_keys() {
    let text = four_arm_text().replacen("home = 12", "home = 11", 1);
    let message = error_of(&text);
    let line = nth_line_of(&text, "home = 11", 2);
    assert!(
        message.contains(&format!(
            "[[gripper]] #2 'right' [gripper.wiring] (line {line}): key 'home'"
        )) && message.contains(&format!(
                "pin 11 is already used by key 'home' of [[gripper]] #1 'left' [gripper.wiring] (line {})",
                nth_line_of(&text, "home = 11", 1)
            )),
        "{message}"
    );
}

#[test]
fn a_continuous_gripper_without_a_home_sensor_is_refused_when_the_file_loads() {
    let text = std::fs::read_to_string(shipped_dir().join("turntable-flipper.toml")).unwrap();
    let message = error_of(&with_line(&text, "turntable", "home = ", ""));
    assert!(
        message.contains("[[gripper]] #1 'turntable' [gripper.wiring] (line ")
            && message.contains("key 'home'")
            && message.contains("continuous"),
        "{message}"
    );
}

#[test]
fn waiting_for_a_jawless_gripper_to_open_is_refused_at_needs_open() {
    let text = std::fs::read_to_string(shipped_dir().join("turntable-flipper.toml")).unwrap();
    let text = text.replacen(
        "needs_open = [\"holder\"]",
        "needs_open = [\"turntable\"]",
        1,
    );
    let message = error_of(&text);
    let line = line_of(&text, "needs_open = [\"turntable\"]");
    assert!(
        message.contains(&format!(
            "[[flipper]] #1 'flipper' (line {line}): key 'needs_open'"
        )) && message.contains("gripper 'turntable' has no jaw"),
        "{message}"
    );
}

#[test]
fn a_flip_waits_for_every_closed_jaw_by_default_and_a_list_that_leaves_one_out_is_refused() {
    let text = std::fs::read_to_string(shipped_dir().join("turntable-flipper.toml")).unwrap();
    let given = "needs_open = [\"holder\"]";
    assert_eq!(
        text.matches(given).count(),
        2,
        "the flipper's and the camera's"
    );
    // Left out, the flipper waits for the holder, the one gripper with a jaw.
    let flipper_at = text.find("[[flipper]]").expect("a flipper");
    let (head, tail) = text.split_at(flipper_at);
    let left_out = format!("{head}{}", tail.replacen(given, "", 1));
    let model = parse_robot(&left_out, "test.toml").expect("loads");
    let holder = model.grippers.iter().position(|g| g.name == "holder");
    assert_eq!(
        model.flippers[0].needs_open,
        vec![holder.expect("a holder")]
    );
    // Given without it, the flip would jam against the closed jaw: refused at the key.
    let empty = format!("{head}{}", tail.replacen(given, "needs_open = []", 1));
    let message = error_of(&empty);
    let line = line_of(&empty, "needs_open = []");
    assert!(
        message.contains(&format!(
            "[[flipper]] #1 'flipper' (line {line}): key 'needs_open'"
        )) && message.contains("gripper 'holder' has a jaw"),
        "{message}"
    );
}

#[test]
fn a_gripper_written_with_one_pair_of_brackets_is_told_to_take_two() {
    let text = four_arm_text();
    let second = text.match_indices("[[gripper]]").nth(1).expect("two").0;
    let one_pair = format!("{}[gripper]{}", &text[..second], &text[second + 11..]);
    let message = error_of(&one_pair);
    let line = one_pair[..second].matches('\n').count() + 1;
    assert!(
        message.contains(&format!("`[gripper]` (line {line}) makes one table"))
            && message.contains("write `[[gripper]]`"),
        "{message}"
    );
}

#[test]
fn a_motor_wired_or_described_on_a_gripper_that_never_turns_is_refused_at_its_key() {
    let text = std::fs::read_to_string(shipped_dir().join("turntable-flipper.toml")).unwrap();
    let jaw = "jaw = 16\n";
    assert_eq!(text.matches(jaw).count(), 1, "the holder's jaw");
    let wired = text.replacen(jaw, "jaw = 16\nstep = 6\ndir = 7\n", 1);
    let message = error_of(&wired);
    let line = line_of(&wired, "step = 6");
    assert!(
        message.contains(&format!(
            "[[gripper]] #2 'holder' [gripper.wiring] (line {line}): key 'step'"
        )) && message.contains("never turns"),
        "{message}"
    );
    let motion = "[gripper.motion]\nfull_steps_per_rev = 200\nmicrosteps = 8\nmax_deg_s = 900\naccel_deg_s2 = 18000\n\n";
    let holder_wiring = text
        .find(jaw)
        .and_then(|at| text[..at].rfind("[gripper.wiring]"));
    let at = holder_wiring.expect("the holder's wiring");
    let described = format!("{}{motion}{}", &text[..at], &text[at..]);
    let message = error_of(&described);
    assert!(
        message.contains("[[gripper]] #2 'holder'")
            && message.contains("key 'motion'")
            && message.contains("never turns"),
        "{message}"
    );
}

#[test]
fn a_missing_support_table_and_microsteps_beyond_256_are_said_in_the_designs_terms() {
    let text = four_arm_text();
    let (start, end) = (text.find("[support]"), text.find("[[camera]]"));
    let (start, end) = (start.expect("[support]"), end.expect("[[camera]]"));
    let message = error_of(&format!("{}{}", &text[..start], &text[end..]));
    assert!(
        message.contains("key 'support'") && message.contains("needs a [support] table"),
        "{message}"
    );
    let message = error_of(&text.replacen("microsteps = 8", "microsteps = 512", 1));
    assert!(
        message.contains("512 is out of range; allowed 1, 2, 4, 8"),
        "{message}"
    );
}

#[test]
fn a_homing_speed_without_a_home_sensor_is_refused_at_its_key() {
    let text = four_arm_text().replacen("home = 11\n", "home_seek_deg_s = 90\n", 1);
    let message = error_of(&text);
    assert!(
        message.contains("key 'home_seek_deg_s'") && message.contains("no home sensor"),
        "{message}"
    );
}

#[test]
fn an_empty_design_file_is_called_empty() {
    for text in ["", "\n  \n", "# my robot, to do\n"] {
        let message = error_of(text);
        assert!(message.contains("the file is empty"), "{message}");
    }
}

/// `text` unwired, with the gripper `name` given no motor: `range = [0, 0]`, and no turn
/// times or motion table.
fn without_motor(text: &str, name: &str) -> String {
    let text = unwired(text);
    let named = text
        .find(&format!("name = \"{name}\""))
        .expect("the gripper");
    let motion = named + text[named..].find("[gripper.motion]").expect("its motion");
    let next = motion + 1 + text[motion + 1..].find("\n[").expect("a table after it");
    let text = format!("{}{}", &text[..motion], &text[next + 1..]);
    let text = with_line(&text, name, "quarter_ms = ", "");
    let text = with_line(&text, name, "half_ms = ", "");
    with_line(&text, name, "range = ", "range = [0, 0]\n")
}

#[test]
fn an_impossible_design_names_the_gripper_that_never_turns() {
    let text = without_motor(&four_arm_text(), "left");
    let message = error_of(&text);
    let line = line_of(&text, "range = [0, 0]");
    // Every face still turns (the other arms turn the cube), but F and B never reach the
    // camera.
    assert!(
        message.contains(&format!("[[gripper]] #1 'left' (line {line}): key 'range'"))
            && message.contains("faces F, B can never be shown to a camera")
            && message.contains("gripper 'left' never turns (`range = [0, 0]`)")
            && message.contains("would let them be seen: gripper 'left' `range = [-1, 1]`"),
        "{message}"
    );
}

#[test]
fn a_face_no_motor_turns_is_blamed_on_that_motor_with_the_change_that_would_turn_it() {
    let six = std::fs::read_to_string(shipped_dir().join("six-motor.toml")).unwrap();
    let text = without_motor(&six, "front-motor");
    let message = error_of(&text);
    let line = line_of(&text, "range = [0, 0]");
    assert!(
        message.contains(&format!(
            "[[gripper]] #3 'front-motor' (line {line}): key 'range'"
        )) && message.contains("face F can never be turned")
            && message.contains(
                "this change would let it turn: gripper 'front-motor' `range = \"continuous\"`"
            ),
        "{message}"
    );
}

#[test]
fn a_design_wired_in_part_is_refused() {
    let text = four_arm_text();
    let start = text.find("[board]").expect("a [board]");
    let end = text[start + 1..]
        .find("\n[")
        .map_or(text.len(), |i| start + 1 + i);
    let no_board = format!("{}{}", &text[..start], &text[end..]);
    let message = error_of(&no_board);
    assert!(
        message.contains("[board]") && message.contains("the design wires its actuators"),
        "{message}"
    );
    let message = error_of(&unwired(&text).replacen(
        "[[gripper]]\nname = \"left\"",
        "[board]\nestop = 15\n\n[[gripper]]\nname = \"left\"",
        1,
    ));
    assert!(
        message.contains("every gripper and flipper needs its wiring"),
        "{message}"
    );
}

/// Nonsense that once passed: a blank robot name, a cradle where a gripper sits, times for
/// a move the gripper never makes. Each is refused naming its section and key.
#[test]
fn a_blank_name_a_cradle_on_a_gripper_and_times_for_moves_never_made_are_refused() {
    let four_arm = four_arm_text();
    let turntable =
        std::fs::read_to_string(shipped_dir().join("turntable-flipper.toml")).expect("shipped");
    let holder = turntable.replacen("range = [0, 0]", "range = [0, 0]\nquarter_ms = 100", 1);
    let jawless = turntable.replacen("jaw = false", "jaw = false\nopen_ms = 100", 1);
    let blank = four_arm.replacen("name = \"four-arm\"", "name = \" \"", 1);
    let cradle = format!("{four_arm}\n[[cradle]]\nname = \"rest\"\nat = \"left\"\n");
    let cases = [
        (
            line_of(&blank, "name = \" \""),
            &blank,
            "top level",
            "key 'name'",
        ),
        (
            cradle.lines().count(),
            &cradle,
            "[[cradle]] #1 'rest'",
            "key 'at': gripper",
        ),
        (
            line_of(&holder, "quarter_ms = 100"),
            &holder,
            "[[gripper]] #2 'holder'",
            "key 'quarter_ms': given, but this gripper never turns",
        ),
        (
            line_of(&jawless, "open_ms = 100"),
            &jawless,
            "[[gripper]] #1 'turntable'",
            "key 'open_ms': given, but this gripper has no jaw",
        ),
    ];
    for (line, text, section, problem) in cases {
        let message = error_of(text);
        let expected = format!("{section} (line {line}): {problem}");
        assert!(message.contains(&expected), "{expected:?} in {message}");
    }
}

/// The line (from 1) of the first line of `text` holding `needle`: where a person sees it,
/// found apart from the design loader's parse.
fn line_of(text: &str, needle: &str) -> usize {
    nth_line_of(text, needle, 1)
}

/// The line (from 1) of the `n`-th line of `text` holding `needle`.
fn nth_line_of(text: &str, needle: &str, n: usize) -> usize {
    let found = text.lines().enumerate().filter(|(_, l)| l.contains(needle));
    found
        .map(|(i, _)| i + 1)
        .nth(n - 1)
        .expect("the needle is in the text")
}

#[test]
fn a_jaw_whose_open_and_closed_pulses_are_the_same_is_refused_at_its_key() {
    let text = four_arm_text().replacen(
        "jaw = 16 ",
        "jaw_open_us = 1500\njaw_closed_us = 1500\njaw = 16 ",
        1,
    );
    let message = error_of(&text);
    assert!(
        message.contains(&format!(
            "(line {}): key 'jaw_closed_us'",
            line_of(&text, "jaw_closed_us = 1500")
        )) && message.contains("the jaw would never move"),
        "{message}"
    );
}

#[test]
fn a_wired_motor_without_its_motion_table_is_placed_at_motion_and_a_pin_name_gets_its_number() {
    let text = four_arm_text();
    let motion = text.find("[gripper.motion]").expect("a motion table");
    let wiring = motion + text[motion..].find("[gripper.wiring]").expect("its wiring");
    let message = error_of(&format!("{}{}", &text[..motion], &text[wiring..]));
    let line = nth_line_of(&text, "name = \"left\"", 1) - 1;
    assert!(
        message.contains(&format!(
            "[[gripper]] #1 'left' (line {line}): key 'motion'"
        )) && message.contains("`motion` table beside its `wiring`"),
        "{message}"
    );
    let named = text.replacen("\nstep = 2\n", "\nstep = \"GP2\"\n", 1);
    assert_ne!(named, text, "the left rotation's STEP pin is GP2");
    let message = error_of(&named);
    assert!(
        message.contains("key 'step'") && message.ends_with("write 2)"),
        "{message}"
    );
}

#[test]
fn a_home_offset_of_a_turn_or_more_is_refused_and_less_is_taken() {
    let text = four_arm_text();
    // 200 full steps × 8 microsteps, direct drive: 1600 microsteps a turn.
    let offset = |steps: i64| {
        text.replacen(
            "home = 11\n",
            &format!("home = 11\nhome_offset_steps = {steps}\n"),
            1,
        )
    };
    for steps in [1599, -1599, 0] {
        parse_robot(&offset(steps), "test.toml").expect("within a turn");
    }
    for steps in [1600, -1600, 100_000] {
        let message = error_of(&offset(steps));
        assert!(
            message.contains("key 'home_offset_steps'") && message.contains("-1599 ..= 1599"),
            "{steps}: {message}"
        );
    }
}

#[test]
fn the_wiring_table_shows_a_home_offset_where_one_is_given() {
    let dir = tempfile::tempdir().expect("temp dir");
    let design = dir.path().join("offset.toml");
    let text = four_arm_text().replacen("home = 11\n", "home = 11\nhome_offset_steps = -37\n", 1);
    std::fs::write(&design, text).expect("written");
    let design = design.display().to_string();
    let out = crate::common::cubed(&["config", "wiring", "--design", &design], None);
    let table = crate::common::stdout(&out);
    assert!(out.status.success(), "{}", crate::common::stderr(&out));
    let left = table
        .lines()
        .find(|l| l.contains("left rotation"))
        .expect("a row");
    assert!(left.contains("home -37 microsteps past it"), "{left}");
    let right = table
        .lines()
        .find(|l| l.contains("right rotation"))
        .expect("a row");
    assert!(!right.contains("past it"), "no offset, no words: {right}");
}
