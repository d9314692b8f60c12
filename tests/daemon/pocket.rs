//! The daemon with `[run] cube_size = 2`: a 2x2 scanned (four stickers a face), read without centres, solved optimally and verified, judged by the simulator's own cube; the size in the status; a run begun on one size is not resumed on the other; guide mode for a 2x2 (on a 3x3 daemon too); `cubed dry-run --size 2` on every shipped design.

use super::{config, finished, named_the_hand, said_so_far, scans_photographed};
use crate::common::{cubed, stderr, stdout};
use cubed::cube::ColourScheme;
use cubed::cube::{parse_moves, Notation};
use cubed::daemon::config::CubeSize;
use cubed::daemon::{DaemonState, RefusalKind, RunningDaemon, StartSource};
use cubed::pocket::{random_pocket, PocketFacelets, PocketSolver, PocketTables};
use cubed::solver::Solver;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::path::Path;
use std::sync::Arc;

/// The daemon on the simulator, configured for a 2x2.
pub async fn start_pocket(dir: &Path, speed: f64) -> RunningDaemon {
    let mut config = config(dir, "", speed);
    config.cube_size = CubeSize::Two;
    super::start_with(&config).await
}

/// A random 2x2 (from `seed`).
pub fn random_2x2(seed: u64) -> PocketFacelets {
    random_pocket(&mut ChaCha8Rng::seed_from_u64(seed)).to_facelets()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_2x2_run_ends_verified_solved_in_an_optimal_number_of_turns() {
    let dir = tempfile::tempdir().expect("temp dir");
    let daemon = start_pocket(dir.path(), 0.0).await;
    let sim = daemon.sim.clone().expect("simulated robot");
    let loaded = random_2x2(23);
    sim.load_cube(loaded.to_3x3());
    let run = daemon
        .handle
        .start(StartSource::Web)
        .await
        .expect("the run starts");
    let end = finished(&daemon.handle, run).await;
    assert_eq!(end.state, DaemonState::Done, "{}", end.message);
    // The simulator's own cube, not the daemon's word: its corners are a solved 2x2.
    assert!(PocketFacelets::from_3x3(&sim.cube()).is_solved());
    let detail = (daemon.handle.run(run))
        .expect("history")
        .expect("the run is recorded");
    assert_eq!(detail.summary.outcome.as_deref(), Some("solved"));
    assert_eq!(detail.summary.cube.as_deref(), Some("2x2"));
    assert!(detail
        .scans
        .iter()
        .all(|s| s.images.len() == 6 && s.readings.len() == 24));
    assert!(detail
        .scans
        .iter()
        .all(|s| s.images.iter().all(|i| i.stickers.len() == 4)));
    let first = detail.scans[0]
        .facelets
        .clone()
        .expect("the first scan was read");
    assert_eq!(first.len(), 24);
    // The turns made are an optimal solution's (HTM), from separately built tables.
    let pocket = PocketSolver::new(Arc::new(PocketTables::build()));
    let cube = cubed::pocket::PocketCube::read(&loaded.relabel_by_fixed_corner()).expect("a cube");
    let optimal = u32::from(pocket.distance(&cube, cubed::pocket::Metric::Htm));
    assert_eq!(detail.solutions.len(), 1);
    assert_eq!(
        detail.solutions[0].moves, optimal,
        "{:?}",
        detail.solutions[0]
    );
    assert_eq!(end.facelets.as_deref().map(str::len), Some(24));
    daemon.shutdown().await;
}

/// A 3x3 run e-stopped and waiting, the daemon restarted for a 2x2: Resume is refused, naming
/// both sizes; back on a 3x3, it resumes to solved.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_begun_on_a_3x3_is_not_resumed_by_a_daemon_now_running_a_2x2() {
    let dir = tempfile::tempdir().expect("temp dir");
    let daemon = super::start(dir.path(), "", 10.0).await;
    let sim = daemon.sim.clone().expect("sim");
    sim.load_cube(super::random(31));
    let run = daemon.handle.start(StartSource::Web).await.expect("start");
    super::executing_with_done(&daemon.handle, 2).await;
    daemon.handle.estop().await.expect("e-stop");
    super::wait_until(&daemon.handle, "the run's advice", |s| {
        s.message.contains("press Resume")
    })
    .await;
    let cube = sim.cube();
    daemon.shutdown().await;

    let daemon = start_pocket(dir.path(), 10.0).await;
    let status = daemon.handle.status();
    assert_eq!(status.run, Some(run), "the run still waits");
    // Said before Resume is pressed: not "press Resume" here.
    assert!(
        status
            .message
            .contains("it began on a 3x3 and this daemon now runs a 2x2")
            && !status.message.contains("press Resume"),
        "{}",
        status.message
    );
    let refused = daemon.handle.resume().await.expect_err("another size");
    assert_eq!(refused.kind, RefusalKind::Conflict, "{}", refused.reason);
    assert!(
        refused
            .reason
            .contains(&format!("run {run} began on a 3x3"))
            && refused.reason.contains("now runs a 2x2"),
        "{}",
        refused.reason
    );
    let detail = daemon.handle.run(run).expect("history").expect("recorded");
    assert_eq!(detail.summary.cube.as_deref(), Some("3x3"));
    assert_eq!(
        detail.scans.len(),
        1,
        "nothing rescanned: {:?}",
        detail.scans
    );
    daemon.shutdown().await;

    let daemon = super::start(dir.path(), "", 10.0).await;
    let status = daemon.handle.status();
    assert!(
        status.message.contains("press Resume"),
        "{}",
        status.message
    );
    daemon.sim.as_ref().expect("sim").load_cube(cube);
    assert_eq!(daemon.handle.resume().await, Ok(run));
    let end = finished(&daemon.handle, run).await;
    assert_eq!(end.state, DaemonState::Done, "{}", end.message);
    daemon.shutdown().await;
}

/// `cubed dry-run --size 2` solves 2x2s on every shipped design that can hold one, and builds
/// no 3x3 tables for it (the cache it is given stays empty), not even the
/// full ones it was asked for: a 2x2 is solved by its own.
#[test]
fn dry_run_size_2_solves_2x2s_on_every_shipped_design_that_can_hold_one() {
    let cache = tempfile::tempdir().expect("temp dir");
    let cache_dir = cache.path().display().to_string();
    for design in ["four-arm", "turntable-flipper"] {
        let robot = crate::common::shipped_design_arg(design);
        let out = cubed(
            &[
                "dry-run",
                "--size",
                "2",
                "--cubes",
                "3",
                "--seed",
                "2",
                "--robot",
                &robot,
                "--tables",
                "full",
                "--cache-dir",
                &cache_dir,
            ],
            None,
        );
        let cached = std::fs::read_dir(cache.path()).expect("cache dir").count();
        assert_eq!(cached, 0, "{design}: no tables cached: {}", stderr(&out));
        let text = stdout(&out);
        assert!(out.status.success(), "{design}: {text}\n{}", stderr(&out));
        assert!(text.contains("3 2x2 cubes"), "{design}: {text}");
        // A 2x2 is solved by table: no search budget to speak of.
        assert!(!text.contains("search nodes"), "{design}: {text}");
        assert!(
            text.contains("solved 3/3 (verified by the simulator)"),
            "{design}: {text}"
        );
    }
}

/// Six motors on centre caps have nothing to grip on a 2x2: refused before anything runs,
/// as a configuration error naming the motors, and before any solver table is built (the
/// cache stays empty: no 3x3 tables, no axial search's for six motors).
#[test]
fn a_2x2_is_refused_on_a_design_that_grips_centre_caps() {
    let cache = tempfile::tempdir().expect("temp dir");
    let out = cubed(
        &[
            "dry-run",
            "--size",
            "2",
            "--robot",
            "six-motor",
            "--cache-dir",
            cache.path().to_str().expect("utf-8"),
        ],
        None,
    );
    let said = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(said.contains("centre caps (up-motor, down-motor"), "{said}");
    let built: Vec<_> = std::fs::read_dir(cache.path()).expect("cache").collect();
    assert!(built.is_empty(), "{built:?}: {said}");
    assert!(
        !stdout(&out).contains("cube 1"),
        "nothing ran: {}",
        stdout(&out)
    );
}

#[test]
fn dry_run_refuses_a_size_it_does_not_know() {
    let out = cubed(&["dry-run", "--size", "4", "--tables", "small"], None);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("--size"), "{}", stderr(&out));
}

/// The 2x2 `facelets` with the three stickers of its up-front-right corner (U4, R1, F2) turned
/// in place: a twist no 2x2 can have.
fn twisted(facelets: &str) -> String {
    let mut s: Vec<char> = facelets.chars().collect();
    let (u, r, f) = (s[3], s[4], s[9]);
    (s[3], s[4], s[9]) = (f, u, r);
    s.into_iter().collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_2x2_daemon_says_its_size_and_guides_a_2x2_optimally() {
    let dir = tempfile::tempdir().expect("temp dir");
    let daemon = start_pocket(dir.path(), 0.0).await;
    assert_eq!(daemon.handle.status().cube_size, "2x2");
    let scheme = ColourScheme::default();
    let loaded = random_2x2(41);
    let cube = loaded.to_symbols(&scheme);
    let guide = daemon.handle.guide(cube.clone()).await.expect("guided");
    assert_eq!(guide.states[0], cube);
    assert!(
        guide.hold.contains("corner") && guide.hold.contains("stays there"),
        "{}",
        guide.hold
    );
    assert_eq!(guide.states.len(), guide.solution.len() + 1);
    assert!(guide.states.iter().all(|s| s.len() == 24));
    solves_optimally(&loaded, &guide.solution);
    let short = (daemon.handle.guide(cube[1..].to_string()).await).expect_err("23 stickers");
    assert!(short.reason.contains("a 2x2 has 24"), "{}", short.reason);
    let bad = (daemon.handle.guide(twisted(&cube)).await).expect_err("a twisted corner");
    assert_eq!(bad.kind, RefusalKind::BadRequest, "{}", bad.reason);
    assert!(
        bad.reason.contains("not a 2x2") && bad.reason.contains("twist"),
        "{}",
        bad.reason
    );
    daemon.shutdown().await;
}

/// A 2x2 daemon never reads the 3x3 solver's tables (~122 MB) to run 2x2s or guide them: it
/// loads them at the first 3x3 a person asks the guide for, once, and guides it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_2x2_daemon_loads_the_3x3_solver_only_for_a_3x3_guide() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let dir = tempfile::tempdir().expect("temp dir");
    let mut config = config(dir.path(), "", 0.0);
    config.cube_size = CubeSize::Two;
    let loads = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&loads);
    let three = cubed::daemon::ThreeSolver::on_first_use(move || {
        counter.fetch_add(1, Ordering::SeqCst);
        Solver::clone(&super::solver())
    });
    let daemon = RunningDaemon::start(&config, three).await.expect("starts");
    let scheme = ColourScheme::default();
    let pocket = random_2x2(44).to_symbols(&scheme);
    (daemon.handle.guide(pocket).await).expect("a 2x2 is guided");
    let sim = daemon.sim.clone().expect("simulated robot");
    sim.load_cube(random_2x2(46).to_3x3());
    let run = daemon.handle.start(StartSource::Web).await.expect("starts");
    let end = finished(&daemon.handle, run).await;
    assert_eq!(end.state, DaemonState::Done, "{}", end.message);
    assert_eq!(
        loads.load(Ordering::SeqCst),
        0,
        "not loaded to start, run or guide 2x2s"
    );
    let cube = super::random(45).to_symbols(&scheme);
    for _ in 0..2 {
        let guide = (daemon.handle.guide(cube.clone()))
            .await
            .expect("a 3x3 is guided");
        let turns = parse_moves(&guide.solution.join(" "), Notation::Singmaster).expect("moves");
        let end = super::random(45).apply_all(&turns);
        assert_eq!(
            end,
            cubed::cube::FaceletCube::default(),
            "{:?}",
            guide.solution
        );
    }
    assert_eq!(
        loads.load(Ordering::SeqCst),
        1,
        "loaded once, at the first 3x3"
    );
    daemon.shutdown().await;
}

/// The guide's `solution` for `loaded`, replayed on the 3x3 model (which knows nothing of
/// 2x2s), solves its corners, in as few turns as can be (HTM, from separately built tables).
fn solves_optimally(loaded: &PocketFacelets, solution: &[String]) {
    let turns = parse_moves(&solution.join(" "), Notation::Singmaster).expect("Singmaster");
    let end = loaded.relabel_by_fixed_corner().to_3x3().apply_all(&turns);
    assert!(PocketFacelets::from_3x3(&end).is_solved(), "{solution:?}");
    let pocket = PocketSolver::new(Arc::new(PocketTables::build()));
    let read = cubed::pocket::PocketCube::read(&loaded.relabel_by_fixed_corner()).expect("a cube");
    let optimal = usize::from(pocket.distance(&read, cubed::pocket::Metric::Htm));
    assert_eq!(solution.len(), optimal);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_3x3_daemon_says_its_size_and_guides_a_2x2_too() {
    let dir = tempfile::tempdir().expect("temp dir");
    let daemon = super::start(dir.path(), "", 0.0).await;
    assert_eq!(daemon.handle.status().cube_size, "3x3");
    let loaded = random_2x2(43);
    let cube = loaded.to_symbols(&ColourScheme::default());
    let guide = (daemon.handle.guide(cube.clone()).await).expect("a 2x2 is guided");
    assert_eq!(guide.states[0], cube);
    assert!(guide.states.iter().all(|s| s.len() == 24));
    solves_optimally(&loaded, &guide.solution);
    let bad = (daemon.handle.guide(twisted(&cube)).await).expect_err("a twisted corner");
    assert_eq!(bad.kind, RefusalKind::BadRequest, "{}", bad.reason);
    assert!(bad.reason.contains("not a 2x2"), "{}", bad.reason);
    daemon.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hand_in_a_2x2_photo_is_named_and_the_faces_photographed_again() {
    let dir = tempfile::tempdir().expect("temp dir");
    let daemon = start_pocket(dir.path(), 0.0).await;
    let sim = daemon.sim.clone().expect("simulated robot");
    sim.load_cube(random_2x2(31).to_3x3());
    sim.hand_in_next_photos(1);
    let mut said = daemon.handle.subscribe();
    let run = daemon.handle.start(StartSource::Web).await.expect("start");
    let end = finished(&daemon.handle, run).await;
    assert_eq!(end.state, DaemonState::Done, "{}", end.message);
    assert!(PocketFacelets::from_3x3(&sim.cube()).is_solved());
    let messages = said_so_far(&mut said);
    assert!(named_the_hand(&messages), "{messages:?}");
    assert_eq!(
        scans_photographed(&daemon.handle, run),
        3,
        "scan, the re-capture, verify"
    );
    daemon.shutdown().await;
}
