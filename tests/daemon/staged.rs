//! What a builder can stage on the simulator from the command line: a person's hand in the check scan's photos (`--faults hand-at-turn=N`), read again with a round of re-capture left, and the run left unverified without one, as the real binary does it.

use super::lamp::dry_run_with_faults;

/// A hand in the six photos after the solution's third turn: the check scan's. With a round of
/// re-capture the faces it covered are photographed again and the cube is verified solved;
/// with none the run ends "unverified", saying the turns were made and to look at the cube,
/// and the dry run says the simulator's own cube is solved.
#[test]
fn a_hand_in_the_check_scan_is_photographed_again_or_leaves_the_run_unverified() {
    let again = dry_run_with_faults(1.0, 1, 1, "hand-at-turn=3");
    assert_eq!(again.code, Some(0), "{}\n{}", again.out, again.log);
    assert!(again.out.contains("solved 1/1"), "{}", again.out);
    assert!(
        again.out.contains("re-captures 1"),
        "one round of re-capture: {}",
        again.out
    );
    assert!(!again.out.contains("faults never reached"), "{}", again.out);

    let unverified = dry_run_with_faults(1.0, 0, 1, "hand-at-turn=3");
    assert_eq!(
        unverified.code,
        Some(1),
        "{}\n{}",
        unverified.out,
        unverified.log
    );
    let cube = (unverified.out.lines())
        .find(|l| l.starts_with("cube 1"))
        .unwrap_or_default();
    assert!(cube.contains("unverified"), "{}", unverified.out);
    for words in ["face turns were made", "look at the cube"] {
        assert!(
            unverified.out.contains(words),
            "{words}: {}",
            unverified.out
        );
    }
    // The simulator's own cube says what the daemon could not: the robot did solve it; and
    // its programs ran whole, so their times are compared.
    assert!(
        unverified.out.contains("the simulator's own cube: solved"),
        "{}",
        unverified.out
    );
    assert!(unverified.out.contains("(ratio "), "{}", unverified.out);
}

/// A hand after more turns than the run makes is named as never reached, as other faults are.
#[test]
fn a_hand_after_the_last_turn_is_named_as_never_reached() {
    let run = dry_run_with_faults(1.0, 2, 1, "hand-at-turn=500");
    assert_eq!(run.code, Some(0), "{}\n{}", run.out, run.log);
    assert!(
        run.out.contains("faults never reached") && run.out.contains("hand-at-turn=500"),
        "{}",
        run.out
    );
}
