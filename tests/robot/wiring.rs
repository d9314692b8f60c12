//! A design's wiring: pins, home sensors and offsets, motors and their motion tables, jaw pulses, the firmware's actuator limit, and the wiring table that shows them.

use cubed::robot::parse_robot;

use super::{error_of, four_arm_text, line_of, nth_line_of, shipped_dir, unwired, with_line};

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
fn a_homing_speed_without_a_home_sensor_is_refused_at_its_key() {
    let text = four_arm_text().replacen("home = 11\n", "home_seek_deg_s = 90\n", 1);
    let message = error_of(&text);
    assert!(
        message.contains("key 'home_seek_deg_s'") && message.contains("no home sensor"),
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

/// A flipper without a home sensor homes to where it stood at connect: its row says to leave
/// it at rest at power-up, where a sensed one names its sensor.
#[test]
fn the_wiring_table_says_a_flipper_without_a_home_sensor_must_be_left_at_rest() {
    let text = std::fs::read_to_string(shipped_dir().join("turntable-flipper.toml")).unwrap();
    let dir = tempfile::tempdir().expect("temp dir");
    let design = dir.path().join("unsensed.toml");
    std::fs::write(&design, with_line(&text, "flipper", "home = ", "")).expect("written");
    let row_of = |design: &str| {
        let out = crate::common::cubed(&["config", "wiring", "--design", design], None);
        assert!(out.status.success(), "{}", crate::common::stderr(&out));
        let table = crate::common::stdout(&out);
        let row = table
            .lines()
            .find(|l| l.contains(" flipper "))
            .map(str::to_string);
        row.unwrap_or_else(|| panic!("a flipper row: {table}"))
    };
    let unsensed = row_of(&design.display().to_string());
    assert!(
        unsensed.contains("no home sensor")
            && unsensed.contains("leave the flipper at rest at every power-up"),
        "{unsensed}"
    );
    let sensed = row_of("turntable-flipper");
    assert!(
        sensed.contains("home GP12") && !sensed.contains("at rest"),
        "{sensed}"
    );
}

/// A motor slowed in `[motion]` leaves both turn times beside it wrong: one refusal names
/// both, with the ramp's own times, so one edit mends the file (the turntable at 300°/s:
/// 367 and 667 ms).
#[test]
fn a_slowed_motor_is_refused_once_naming_both_turn_times() {
    let text = std::fs::read_to_string(shipped_dir().join("turntable-flipper.toml")).unwrap();
    let slowed = with_line(&text, "turntable", "max_deg_s = ", "max_deg_s = 300\n");
    let message = error_of(&slowed);
    // A trapezoid: a move of d degrees at v°/s, reached at a°/s², takes d/v + v/a seconds.
    let ramp_ms = |degrees: f64| (1000.0 * (degrees / 300.0 + 300.0 / 4500.0)).ceil();
    let (quarter, half) = (ramp_ms(90.0), ramp_ms(180.0));
    assert!(
        message.contains("key 'quarter_ms'")
            && message.contains(&format!("give quarter_ms = {quarter} and half_ms = {half}")),
        "{message}"
    );
    let mended = (slowed.replacen(
        "quarter_ms = 300\n",
        &format!("quarter_ms = {quarter}\n"),
        1,
    ))
    .replacen("half_ms = 500\n", &format!("half_ms = {half}\n"), 1);
    parse_robot(&mended, "test.toml").expect("one edit mends it");
}

/// A turn time the ramp gives (no `quarter_ms` written) that is out of range is placed at
/// the ramp's `max_deg_s`, which is what to change, not at a key the file does not have,
/// and names the units.
#[test]
fn a_turn_too_slow_from_its_ramp_is_placed_at_the_ramps_speed() {
    let text = four_arm_text()
        .replacen("quarter_ms = 150\nhalf_ms = 250\n", "", 1)
        .replacen("max_deg_s = 900", "max_deg_s = 1", 1);
    let message = error_of(&text);
    let line = line_of(&text, "max_deg_s = 1");
    assert!(
        message.contains(&format!(
            "[[gripper]] #1 'left' [gripper.motion] (line {line}): key 'max_deg_s': the quarter_ms this ramp gives, "
        )) && message.contains("too slow; raise max_deg_s"),
        "{message}"
    );
    // A speed written in turns a second (1, 2) is the likely mistake: the units are named.
    assert!(
        message.contains("Check the units: max_deg_s is degrees a second"),
        "{message}"
    );
}
