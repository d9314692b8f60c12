//! Key-level refusals of a design file: unknown, mistyped or out-of-range keys, missing names and tables, wrong brackets and empty files, each naming file, section and key.

use cubed::robot::{load_robot, ConfigError};
use std::path::Path;

use super::{error_of, four_arm_text, line_of, shipped_dir};

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
    // Degrees, as a builder may first write it: the unit is said.
    let text = four_arm_text().replacen("range = [-1, 1]", "range = [-90, 90]", 1);
    let message = error_of(&text);
    assert!(
        message.contains(
            "[-90, 90] is not allowed; expected [min, max] in quarter turns from home (not degrees"
        ),
        "{message}"
    );
}

/// A camera named as a gripper is: the other one is named, not only the rule.
#[test]
fn a_name_used_twice_names_both_places() {
    let text = four_arm_text().replacen("name = \"top\"", "name = \"left\"", 1);
    let message = error_of(&text);
    assert!(
        message.contains("[[camera]] #1 'left'")
            && message.contains("key 'name': [[gripper]] #1 is named 'left' too"),
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
fn an_empty_design_file_is_called_empty() {
    for text in ["", "\n  \n", "# my robot, to do\n"] {
        let message = error_of(text);
        assert!(message.contains("the file is empty"), "{message}");
    }
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
