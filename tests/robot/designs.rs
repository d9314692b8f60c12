//! Impossible designs: every shipped design plans, and a design whose support, turns, cameras or waits for open jaws cannot work is refused naming the cause.

use cubed::robot::{load_robot, parse_robot, Planner};

use super::{error_of, four_arm_text, line_of, shipped_dir, unwired, with_line, without_tables};

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
