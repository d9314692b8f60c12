//! `cubed plan` and `cubed exec` on a 2x2: programs replayed solved on every shipped design and never worse than naive, centre-cap designs refused, a 2x2 left solved in the simulator, and the configuration's `[run] cube_size`.

use super::{random_cubes, with_cache, URFDLB};
use crate::common::{cubed, stderr, stdout};
use cubed::cube::{ColourScheme, FaceOrder};
use cubed::pocket::{parse_pocket, Metric, PocketFacelets, PocketSolver, PocketTables};
use cubed::robot::{load_robot, replay, ProgramDoc};
use std::path::Path;

/// `cubed plan --size 2 … --format json`, robot-aware or naive.
fn plan_json(dir: &tempfile::TempDir, robot: &str, facelets: &str, naive: bool) -> ProgramDoc {
    let mut args = with_cache(
        dir,
        &[
            "plan",
            "--size",
            "2",
            "--robot",
            robot,
            "--facelets",
            facelets,
            "--format",
            "json",
        ],
    );
    if naive {
        args.push("--naive");
    }
    let out = cubed(&args, None);
    assert!(out.status.success(), "{}", stderr(&out));
    serde_json::from_str(&stdout(&out)).expect("the output is a program document")
}

#[test]
fn plan_size_2_replays_solved_on_every_design_and_never_loses_to_naive() {
    let dir = tempfile::tempdir().expect("temp dir");
    let tables = PocketTables::build();
    let solver = PocketSolver::new(std::sync::Arc::new(tables));
    for cube in random_cubes(6, 4) {
        let (facelets, _, pieces) = parse_pocket(&cube, URFDLB, None).expect("valid");
        let optimal = solver.distance(&pieces, Metric::Htm) as usize;
        for name in ["four-arm.toml", "turntable-flipper.toml"] {
            let path = crate::common::shipped_design_file(name.trim_end_matches(".toml"));
            let model = load_robot(&path).expect("shipped design loads");
            let robot = path.to_str().expect("utf-8 path");
            let aware = plan_json(&dir, robot, &cube, false);
            let naive = plan_json(&dir, robot, &cube, true);
            for doc in [&aware, &naive] {
                let program = doc.to_program(&model).expect("names resolve");
                // The 2x2 rides in a 3x3's corners: a gripper turns a 2x2 half as a 3x3 layer.
                let result = replay(&model, model.home(), &facelets.to_3x3(), &program)
                    .expect("every step is legal");
                let end = PocketFacelets::from_3x3(&result.end.cube_frame());
                assert!(end.is_solved(), "{name}: {cube} not solved");
                assert_eq!(result.turns.len(), optimal, "{name}: {cube}");
                assert_eq!(result.total_ms, doc.total_ms);
            }
            assert!(aware.total_ms <= naive.total_ms, "{name}: {cube}");
        }
    }
}

#[test]
fn plan_size_2_is_refused_on_a_design_that_grips_centre_caps() {
    let dir = tempfile::tempdir().expect("temp dir");
    let cube = &random_cubes(3, 1)[0];
    for naive in ["", "--naive"] {
        let mut args = with_cache(
            &dir,
            &[
                "plan",
                "--size",
                "2",
                "--robot",
                "six-motor",
                "--facelets",
                cube,
            ],
        );
        args.extend([naive].iter().filter(|a| !a.is_empty()));
        let out = cubed(&args, None);
        let said = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{naive}: {said}");
        assert!(said.contains("a 2x2 has none"), "{naive}: {said}");
    }
    // Its scan too; a design that holds a 2x2 plans one.
    let scan = |design| cubed(&["plan", "--size", "2", "--robot", design, "--scan"], None);
    let refused = scan("six-motor");
    assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
    assert!(
        stderr(&refused).contains("a 2x2 has none"),
        "{}",
        stderr(&refused)
    );
    let planned = scan("four-arm");
    assert!(planned.status.success(), "{}", stderr(&planned));
}

/// `cubed exec --size 2`: a 2x2 (in the simulator, riding in a 3x3's corners) solved
/// robot-aware, streamed and left solved by the simulator's own mechanics; refused on a design
/// that turns faces by centre caps before anything is sent.
#[test]
fn exec_size_2_leaves_the_2x2_solved_and_is_refused_on_centre_caps() {
    let dir = tempfile::tempdir().expect("temp dir");
    let cube = &random_cubes(11, 1)[0];
    let (facelets, _, _) = parse_pocket(cube, URFDLB, None).expect("valid");
    let as_3x3 = facelets.to_3x3().to_symbols(&ColourScheme::default());
    let (report, link) = (dir.path().join("report.json"), dir.path().join("robot"));
    let mut sim = crate::common::start_sim(&["--speed", "0", "--cube", &as_3x3], &report, &link);
    let port = link.to_string_lossy().into_owned();
    let exec = |robot: &str| {
        let args = [
            "exec",
            "--port",
            &port,
            "--size",
            "2",
            "--robot",
            robot,
            "--facelets",
            cube,
        ];
        cubed(&with_cache(&dir, &args), None)
    };
    let refused = exec("six-motor");
    let solved = exec("four-arm");
    drop(sim.stdin.take());
    sim.wait().expect("the simulator exits");
    assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
    assert!(
        stderr(&refused).contains("a 2x2 has none"),
        "{}",
        stderr(&refused)
    );
    assert!(solved.status.success(), "{}", stderr(&solved));
    let text = std::fs::read_to_string(&report).expect("the simulator wrote its report");
    let report: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    let end = report["cube"].as_str().expect("the simulator's cube");
    let (end, _, _) = cubed::cube::parse_cube(end, FaceOrder::Urfdlb, None).expect("a cube");
    assert!(PocketFacelets::from_3x3(&end).is_solved(), "{text}");
    assert_eq!(report["faults"], serde_json::json!([]), "{text}");
}

/// `plan` on the configuration's design takes its `[run] cube_size` too: a configuration for a
/// 2x2 plans a 2x2's 24 stickers without `--size 2` (the program replays solved on the design),
/// and `--size 3` given still means a 3x3.
#[test]
fn plan_on_the_configurations_design_takes_its_cube_size() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = crate::common::robot_config(Path::new("/dev/null"), dir.path());
    let text = std::fs::read_to_string(&file).expect("written");
    let pocket = text.replace("cube_size = 3", "cube_size = 2");
    assert_ne!(pocket, text, "the shipped config names its cube_size");
    std::fs::write(&file, pocket).expect("rewritten");
    let config = file.to_str().expect("utf-8 path");
    let cube = &random_cubes(8, 1)[0];
    let plan = |size: &[&str]| {
        let mut args = with_cache(
            &dir,
            &[
                "plan",
                "--config",
                config,
                "--facelets",
                cube,
                "--format",
                "json",
            ],
        );
        args.extend(size);
        cubed(&args, None)
    };
    let out = plan(&[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let doc: ProgramDoc = serde_json::from_str(&stdout(&out)).expect("a program document");
    let model = load_robot(&crate::common::shipped_design_file("four-arm")).expect("loads");
    let program = doc.to_program(&model).expect("names resolve");
    let (facelets, _, _) = parse_pocket(cube, URFDLB, None).expect("valid");
    let result = replay(&model, model.home(), &facelets.to_3x3(), &program).expect("legal");
    assert!(PocketFacelets::from_3x3(&result.end.cube_frame()).is_solved());
    let three = plan(&["--size", "3"]);
    assert_eq!(three.status.code(), Some(2), "{}", stderr(&three));
    // A 3x3's stickers with that configuration: refused, saying where the size came from.
    let solved_3x3 = "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB";
    let args = with_cache(
        &dir,
        &["plan", "--config", config, "--facelets", solved_3x3],
    );
    let out = cubed(&args, None);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("`[run] cube_size = 2`: give --size 3"),
        "{}",
        stderr(&out)
    );
}
