
/// The CI-sized soak: the same runner as `cubed bench soak`, on a few cubes.
#[test]
fn link_soak_small() {
    let model = four_arm();
    let cases: Vec<_> = (0..6).map(|seed| scrambled(&model, 100 + seed, 20)).collect();
    let faults = FaultPlan::parse("corrupt=0.01,drop=0.01,unplug-for=80ms").expect("fault spec");
    let summary = runtime().block_on(cubed::sim::soak::run_soak(&model, cases, &faults, 3, 7, |_| {}));
    assert!(summary.passed(), "{summary:#?}");
    assert_eq!(summary.unplugs, 6, "one unplug per solve");
    assert_eq!(summary.moves_lost, 0);
    assert_eq!(summary.moves_run_twice, 0);
}
