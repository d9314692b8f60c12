//! The 2x2 from the command line, run as a user runs it: solve (arguments, stdin, JSON, the legacy letters, both metrics, the 1988 notation), test-program --size 2, the table cache, and plan --size 2 on every shipped design.

use crate::common::{cubed, stderr, stdout};
use cubed::cube::{parse_moves, ColourScheme, FaceOrder, Move, Notation};
use cubed::pocket::{
    parse_pocket, random_pocket, Metric, PocketFacelets, PocketFormat, PocketSolver, PocketTables,
};
use cubed::robot::{load_robot, replay, ProgramDoc};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::path::Path;

const URFDLB: PocketFormat = PocketFormat::Facelets(FaceOrder::Urfdlb);

fn random_cubes(seed: u64, n: usize) -> Vec<String> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let scheme = ColourScheme {
        symbols: ['w', 'r', 'g', 'y', 'o', 'b'],
    };
    (0..n)
        .map(|_| random_pocket(&mut rng).to_facelets().to_symbols(&scheme))
        .collect()
}

/// The number of face turns, after checking the solution solves the cube.
fn solves(facelets: &str, format: PocketFormat, solution: &str, notation: Notation) -> usize {
    let (cube, _, _) = parse_pocket(facelets, format, None).expect("valid cube");
    let moves: Vec<Move> = parse_moves(solution, notation).expect("solution parses");
    assert!(
        cube.apply_all(&moves).is_solved(),
        "{solution} does not solve {facelets}"
    );
    moves.len()
}

fn with_cache<'a>(dir: &'a tempfile::TempDir, args: &[&'a str]) -> Vec<&'a str> {
    let mut all = args.to_vec();
    all.extend(["--cache-dir", dir.path().to_str().expect("utf-8 temp path")]);
    all
}

#[test]
fn solve_size_2_prints_solutions_of_at_most_11_turns() {
    let dir = tempfile::tempdir().expect("temp dir");
    let cubes = random_cubes(1, 20);
    let mut args = with_cache(&dir, &["solve", "--size", "2"]);
    args.extend(cubes.iter().map(String::as_str));
    let out = cubed(&args, None);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("built 2x2 tables"),
        "{}",
        stderr(&out)
    );
    let lines: Vec<String> = stdout(&out).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 20);
    for (cube, line) in cubes.iter().zip(&lines) {
        assert!(solves(cube, URFDLB, line, Notation::Singmaster) <= 11);
    }
    // Second run: the tables come from the cache, silently.
    let again = cubed(&args, None);
    assert_eq!(stdout(&again), stdout(&out));
    assert!(!stderr(&again).contains("2x2 tables"), "{}", stderr(&again));
}

#[test]
fn a_corrupt_2x2_cache_is_rebuilt_and_said() {
    let dir = tempfile::tempdir().expect("temp dir");
    let cube = &random_cubes(2, 1)[0];
    let first = cubed(&with_cache(&dir, &["solve", "--size", "2", cube]), None);
    assert!(first.status.success());
    let path = cubed::table_cache::pocket_cache_file(dir.path());
    let mut bytes = std::fs::read(&path).expect("cache written");
    bytes[100] ^= 0xff;
    std::fs::write(&path, bytes).expect("corrupting the cache");
    let second = cubed(&with_cache(&dir, &["solve", "--size", "2", cube]), None);
    assert_eq!(stdout(&second), stdout(&first));
    assert!(stderr(&second).contains("unusable"), "{}", stderr(&second));
    assert!(stderr(&second).contains("checksum"), "{}", stderr(&second));
}

#[test]
fn stdin_json_qtm_and_1988_notation() {
    let dir = tempfile::tempdir().expect("temp dir");
    let cubes = random_cubes(3, 3);
    let input = format!("{}\nwwwwrrrr\n{}\n{}\n", cubes[0], cubes[1], cubes[2]);
    let args = [
        "solve",
        "--size",
        "2",
        "--stdin",
        "--metric",
        "qtm",
        "--format",
        "json",
        "--notation",
        "woolley",
    ];
    let out = cubed(&with_cache(&dir, &args), Some(&input));
    assert_eq!(out.status.code(), Some(2), "a bad line gives exit 2");
    let rows: Vec<serde_json::Value> = (stdout(&out).lines())
        .map(|l| serde_json::from_str(l).expect("one JSON object a line"))
        .collect();
    assert_eq!(rows.len(), 4);
    assert_eq!(rows[1]["line"], 2);
    assert_eq!(rows[1]["error"]["kind"], "wrong_length");
    for (row, line) in [(&rows[0], 1), (&rows[2], 3), (&rows[3], 4)] {
        assert_eq!(row["line"], line);
        assert_eq!(row["metric"], "qtm");
        let solution = row["solution"].as_str().expect("a solution");
        let facelets = row["facelets"].as_str().expect("its cube");
        solves(facelets, URFDLB, solution, Notation::Woolley);
        let quarters: u64 = (solution.split_whitespace())
            .map(|m| if m.ends_with('2') { 2 } else { 1 })
            .sum();
        assert_eq!(row["moves"].as_u64(), Some(quarters));
        assert!(quarters <= 14);
    }
}

#[test]
fn the_legacy_letters_and_the_errors_name_stickers() {
    let dir = tempfile::tempdir().expect("temp dir");
    // T F R P L B, front turned a quarter: the 1988 order, letters y g w b r o.
    let solved = "yyyy gggg rrrr bbbb oooo wwww";
    let out = cubed(
        &with_cache(&dir, &["solve", "--size", "2", "--legacy", solved]),
        None,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), "already solved (0 moves)");
    let turned = "yyoo gggg yryr bbbb owow rrww";
    let out = cubed(
        &with_cache(
            &dir,
            &[
                "solve",
                "--size",
                "2",
                "--legacy",
                "--notation",
                "woolley",
                turned,
            ],
        ),
        None,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let solution = stdout(&out).trim().to_string();
    assert_eq!(solution, "F-");
    solves(turned, PocketFormat::Legacy, &solution, Notation::Woolley);
    let bad = cubed(
        &with_cache(
            &dir,
            &[
                "solve",
                "--size",
                "2",
                "--legacy",
                "yyyyggggrrrrbbbbooookwww",
            ],
        ),
        None,
    );
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stderr(&bad).contains("unknown colour 'k' at sticker B1 (letter 21)"),
        "{}",
        stderr(&bad)
    );
}

#[test]
fn two_by_two_options_are_refused_on_a_3x3() {
    let out = cubed(&["solve", "--metric", "qtm", "x"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--size 2 only"), "{}", stderr(&out));
    let out = cubed(&["solve", "--size", "4", "x"], None);
    assert_eq!(
        out.status.code(),
        Some(2),
        "clap refuses a size outside 2..=3"
    );
}

#[test]
fn three_by_three_options_that_do_nothing_on_a_2x2_are_refused() {
    let refused = [
        (
            &["solve", "--size", "2", "--budget-ms", "5", "x"][..],
            "--budget-ms",
        ),
        (
            &["test-program", "--size", "2", "--target", "9"][..],
            "--target",
        ),
        (&["test-program", "--size", "2", "--legacy"][..], "--legacy"),
    ];
    for (args, option) in refused {
        let out = cubed(args, None);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(option), "{}", stderr(&out));
    }
}

#[test]
fn test_program_size_2_solves_every_cube() {
    let dir = tempfile::tempdir().expect("temp dir");
    let args = [
        "test-program",
        "--size",
        "2",
        "--cubes",
        "500",
        "--seed",
        "4",
        "--rotations",
    ];
    let out = cubed(&with_cache(&dir, &args), None);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("500 solved, 0 failed"), "{text}");
    let counts: Vec<usize> = (text.lines())
        .filter_map(|l| l.strip_prefix("cube "))
        .filter_map(|l| crate::cli_cube::move_count(l.split(": ").nth(1)?))
        .collect();
    assert_eq!(counts.len(), 500);
    let most = counts.iter().max().copied().unwrap_or(99);
    let least = counts.iter().min().copied().unwrap_or(99);
    assert!(most <= 11, "{most}");
    assert!(
        text.contains(&format!("most {most}, least {least}")),
        "{text}"
    );
    // Counted in quarter turns, the lines say so: a lone half turn is 2 of them.
    let args = [
        "test-program",
        "--size",
        "2",
        "--metric",
        "qtm",
        "--cubes",
        "20",
        "--seed",
        "4",
        "--turns",
        "1",
    ];
    let out = cubed(&with_cache(&dir, &args), None);
    let text = stdout(&out);
    assert!(out.status.success(), "{}", stderr(&out));
    let lines: Vec<&str> = text.lines().filter(|l| l.starts_with("cube ")).collect();
    assert_eq!(lines.len(), 20, "{text}");
    assert!(
        (lines.iter()).all(|l| l.ends_with(": 1 quarter turn") || l.ends_with(": 2 quarter turns")),
        "{text}"
    );
    assert!(text.contains("quarter turns, most"), "{text}");
}

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

#[test]
fn scramble_and_check_size_2() {
    let out = cubed(
        &["scramble", "--size", "2", "--seed", "8", "--count", "20"],
        None,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let cubes: Vec<String> = stdout(&out).lines().map(str::to_string).collect();
    assert_eq!(cubes.len(), 20);
    let again = cubed(
        &["scramble", "--size", "2", "--seed", "8", "--count", "20"],
        None,
    );
    assert_eq!(stdout(&again), stdout(&out));
    for cube in &cubes {
        assert!(parse_pocket(cube, URFDLB, None).is_ok(), "{cube}");
        let ok = cubed(&["check", "--size", "2", cube], None);
        assert_eq!((ok.status.code(), stdout(&ok).trim()), (Some(0), "ok"));
    }
    let bad = cubed(&["check", "--size", "2", "UUUURRRRFFFFDDDDLLLLBBBR"], None);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stdout(&bad).contains("'R' appears 5 times") && stdout(&bad).contains("B4 (index 23)"),
        "{}",
        stdout(&bad)
    );
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

#[test]
fn check_reads_a_2x2_in_the_old_letters_as_solve_does() {
    let ok = cubed(
        &[
            "check",
            "--size",
            "2",
            "--legacy",
            "yyoo gggg yryr bbbb owow rrww",
        ],
        None,
    );
    assert!(ok.status.success(), "{}", stderr(&ok));
    assert_eq!(stdout(&ok).trim(), "ok");
    let bad = cubed(
        &[
            "check",
            "--size",
            "2",
            "--legacy",
            "gyyy gggg wwww bbbb rrrr oooo",
        ],
        None,
    );
    assert_eq!(bad.status.code(), Some(2), "{}", stdout(&bad));
    assert!(stdout(&bad).starts_with("invalid: "), "{}", stdout(&bad));
    let three = cubed(&["check", "--legacy", &"U".repeat(54)], None);
    assert_eq!(three.status.code(), Some(2));
    assert!(
        stderr(&three).contains("--size 2 only"),
        "{}",
        stderr(&three)
    );
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
