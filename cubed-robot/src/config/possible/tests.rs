//! Tests of the checks of a design as a whole: the one-key changes offered are exactly those after which the whole state graph turns (or shows) every face, and the advice names them where the builder reads.

use super::*;
use crate::reach::by_the_whole_graph;
use crate::tests::shipped;

/// Every change tried for every gripper is offered exactly when the whole state graph of
/// the changed design does what `can` asks (a `range` already offered makes a wider one
/// redundant, so that one is not offered again).
fn offered_exactly_when_the_whole_graph_can(
    model: &RobotModel,
    can: impl Fn(&Abilities) -> bool + Copy,
) -> Vec<Change> {
    assert!(
        !can(&by_the_whole_graph(model)),
        "{}: the design must fail",
        model.name
    );
    let offered = changes_that(model, can);
    for (g, gripper) in model.grippers.iter().enumerate() {
        let mut range_offered = false;
        for (key, written, changed) in one_key_changes(gripper) {
            let mut design = model.clone();
            apply(&mut design, g, changed);
            let helps = can(&by_the_whole_graph(&design));
            let change = Change {
                gripper: g,
                key,
                written,
            };
            let expected = helps && !(key == "range" && range_offered);
            assert_eq!(
                offered.contains(&change),
                expected,
                "{}: {change:?}",
                model.name
            );
            range_offered |= expected && key == "range";
        }
    }
    offered
}

fn offered_turning(model: &RobotModel) -> Vec<Change> {
    let whole = by_the_whole_graph(model);
    let unturnable: Vec<Face> = Face::ALL
        .into_iter()
        .filter(|&f| !whole.can_turn(f))
        .collect();
    offered_exactly_when_the_whole_graph_can(model, |can| {
        unturnable.iter().all(|&f| can.can_turn(f))
    })
}

/// A `[[gripper]]` with a jaw, named after where it stands, gripping its layer, with the
/// shipped four-arm's times and `more` keys.
fn arm(at: &str, more: &str) -> String {
    format!("[[gripper]]\nname = \"{at}\"\nat = \"{at}\"\ngrips = \"layer\"\nquarter_ms = 150\nhalf_ms = 250\nopen_ms = 100\nclose_ms = 100\n{more}\n")
}

#[test]
fn a_design_no_one_change_mends_is_placed_at_its_first_grippers_line() {
    // Two arms facing each other: U, F, D and B have no gripper, and nothing turns the cube.
    let text = format!(
        "name = \"two\"\n{}{}[support]\nsets = [[\"left\", \"right\"]]\n",
        arm("left", "range = [-1, 1]"),
        arm("right", "range = [-1, 1]")
    );
    let err = crate::parse_robot(&text, "two.toml").expect_err("U cannot turn");
    let said = err.to_string();
    assert!(
        said.contains("[[gripper]] #1 'left' (line 4): key 'at'"),
        "{said}"
    );
    assert!(said.contains("no one change"), "{said}");
}

fn toml_without_carrying(text: &str) -> String {
    text.replace("carries_cube = true", "")
}

#[test]
fn a_carrier_that_does_not_carry_is_told_to_and_no_change_that_hides_a_face_is_offered() {
    // Left and right arms with jaws, a down gripper that should carry the cube round, a
    // camera in front: without `carries_cube`, nothing brings U, F, D or B to a gripper.
    let text = format!(
        "name = \"tri\"\n{}{}{}{}",
        arm("left", "range = [-1, 1]"),
        arm("right", "range = [-1, 1]"),
        arm("down", "range = [-2, 2]\ncarries_cube = true"),
        "[support]\nsets = [[\"left\", \"right\"], [\"down\"]]\n[[camera]]\nname = \"front\"\nat = \"front\"\nimage_top = \"up\"\nneeds_open = [\"down\"]\n"
    );
    let carrying = crate::parse_robot(&text, "tri.toml").expect("the tri design loads");
    let mut tri = carrying.clone();
    tri.grippers[2].carries_cube = false;
    let offered = offered_turning(&tri);
    let down_carries = Change {
        gripper: 2,
        key: "carries_cube",
        written: "carries_cube = true".into(),
    };
    assert!(offered.contains(&down_carries), "{offered:?}");
    // Centre grips at the sides turn the faces too, but leave some no camera sees: the
    // change that leaves nothing to refuse leads, and the message points at its line.
    let sees_all = |m: &RobotModel| Face::ALL.iter().all(|&f| by_the_whole_graph(m).can_see(f));
    for change in &offered {
        assert_eq!(
            sees_all(&change.applied(&tri)),
            *change == down_carries,
            "{change:?}"
        );
    }
    let (ordered, complete) = complete_first(&tri, offered);
    assert_eq!(complete, 1, "{ordered:?}");
    assert_eq!(ordered.first(), Some(&down_carries), "{ordered:?}");
    let text = toml_without_carrying(&text);
    let err = crate::parse_robot(&text, "tri.toml").expect_err("cannot turn U");
    let said = err.to_string();
    let at = said.find("carries_cube = true").expect(&said);
    let centre = said.find("`grips = \"centre\"`").unwrap_or(usize::MAX);
    assert!(said.contains("'down' (line") && at < centre, "{said}");
    assert!(
        said.contains("(only the first also leaves every face in a camera's view"),
        "the offers that leave more to change are said so: {said}"
    );
}

#[test]
fn two_layer_grips_that_block_every_turn_are_offered_a_layer_grip_first() {
    // Every four-arm gripper clamping two layers: each side grip crosses the layer the
    // others would turn. A layer grip mends it on any cube; a centre grip not on a 2x2.
    let mut four = shipped("four-arm");
    for gripper in &mut four.grippers {
        gripper.grip = Grip::TwoLayers;
    }
    let offered = offered_turning(&four);
    let for_left: Vec<_> = (offered.iter())
        .filter(|c| c.gripper == 0)
        .map(|c| c.written.as_str())
        .collect();
    assert_eq!(
        for_left,
        ["grips = \"layer\"", "grips = \"centre\""],
        "{offered:?}"
    );
    let mended = offered[0].applied(&four);
    assert!(
        Face::ALL
            .iter()
            .all(|&f| by_the_whole_graph(&mended).can_turn(f)),
        "a layer grip on the left lets every face turn"
    );
}

#[test]
fn a_motor_that_never_turns_is_told_to_turn_all_the_way_round() {
    let mut six = shipped("six-motor");
    six.grippers[2].reach = Reach::Limited { min: 0, max: 0 };
    let offered = offered_turning(&six);
    assert_eq!(
        offered,
        [Change {
            gripper: 2,
            key: "range",
            written: "range = \"continuous\"".into()
        }]
    );
}

#[test]
fn two_arms_that_never_turn_are_each_offered_a_range() {
    let mut four = shipped("four-arm");
    for gripper in four.grippers.iter_mut().take(2) {
        gripper.reach = Reach::Limited { min: 0, max: 0 };
    }
    let offered = offered_turning(&four);
    let ranges: Vec<_> = offered
        .iter()
        .filter(|c| c.key == "range")
        .map(|c| c.gripper)
        .collect();
    assert_eq!(ranges, [0, 1], "{offered:?}");
}

#[test]
fn an_arm_that_never_turns_is_offered_a_range_to_show_the_face_it_hides() {
    let mut four = shipped("four-arm");
    four.grippers[0].reach = Reach::Limited { min: 0, max: 0 };
    let unseen = |can: &Abilities| can.can_see(Face::F);
    let offered = offered_exactly_when_the_whole_graph_can(&four, unseen);
    assert_eq!(offered, changes_that_show(&four, &[Face::F]));
    assert_eq!(
        offered.first().map(|c| (c.gripper, c.key)),
        Some((0, "range"))
    );
}

#[test]
fn centre_grips_offered_are_said_to_be_for_a_3x3_with_what_a_2x2_needs() {
    // Two grippers on crossing axes, both on layers: only centre grips would let faces turn,
    // and a 2x2 has no centre caps.
    let gripper = |name: &str, at: &str, range: &str| {
        format!(
            "[[gripper]]\nname = \"{name}\"\nat = \"{at}\"\ngrips = \"layer\"\nrange = {range}\n\
             carries_cube = true\nquarter_ms = 300\nhalf_ms = 500\nopen_ms = 150\nclose_ms = 150\n"
        )
    };
    let text = format!(
        "name = \"pocket-two\"\n{}{}[support]\nsets = [[\"bottom\"], [\"side\"]]\n",
        gripper("bottom", "down", "\"continuous\""),
        gripper("side", "right", "[-1, 1]")
    );
    let said = crate::parse_robot(&text, "two.toml")
        .expect_err("no face turns")
        .to_string();
    assert!(
        said.contains("gripper 'bottom' `grips = \"centre\"` (a 3x3 only), gripper 'side' `grips = \"centre\"` (a 3x3 only); a 2x2 has no centre caps to grip: for a 2x2, each face to turn needs a gripper there"),
        "{said}"
    );
    // The witness: the design as advised loads, and a 2x2 planner refuses it.
    let advised = text.replacen("grips = \"layer\"", "grips = \"centre\"", 1);
    let model = crate::parse_robot(&advised, "two.toml").expect("a 3x3 design");
    assert!(crate::pocket_plan::check_holds_a_2x2(&model).is_err());
}

#[test]
fn a_flipper_that_needs_every_holder_open_is_named_with_what_would_hold_the_cube() {
    // A turntable with a jaw, a clamp above and a flipper: every gripper with a jaw must let
    // go for a flip, and then nothing holds the cube.
    let text = "name = \"pocket-bot\"\n\
        [[gripper]]\nname = \"base\"\nat = \"down\"\ngrips = \"layer\"\nrange = [-1, 1]\n\
        carries_cube = true\nopen_ms = 120\nclose_ms = 120\nquarter_ms = 350\nhalf_ms = 600\n\
        [[gripper]]\nname = \"clamp\"\nat = \"up\"\ngrips = \"layer\"\nrange = [0, 0]\n\
        open_ms = 150\nclose_ms = 150\n\
        [[flipper]]\nname = \"tipper\"\nfrom = \"right\"\nto = \"up\"\nflip_ms = 700\n\
        [support]\nsets = [[\"base\"], [\"clamp\"]]\n";
    let said = crate::parse_robot(text, "pocket.toml")
        .expect_err("it never flips")
        .to_string();
    assert!(
        said.contains("[[flipper]] #1 'tipper' (line 19): key 'needs_open'")
            && said.contains("flipper 'tipper' can never flip: it needs 'base', 'clamp' open"),
        "{said}"
    );
    // The witness: as advised, a base without a jaw turning freely, the design loads.
    let advised = text
        .replace("range = [-1, 1]\n", "range = \"continuous\"\njaw = false\n")
        .replace("open_ms = 120\nclose_ms = 120\n", "");
    let model = crate::parse_robot(&advised, "pocket.toml").expect("as advised");
    assert_eq!(flipper_never_flips(&model), None);
}
