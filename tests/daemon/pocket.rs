//! The daemon with `[run] cube_size = 2`: a 2x2 scanned (four stickers a face), read without centres, solved optimally and verified, judged by the simulator's own cube; `cubed dry-run --size 2` on every shipped design.

use super::{config, finished, solver};
use crate::common::{cubed, stderr, stdout};
use cubed::daemon::config::CubeSize;
use cubed::daemon::{DaemonState, RunningDaemon, StartSource};
use cubed::pocket::{random_pocket, PocketFacelets, PocketSolver, PocketTables};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::path::Path;
use std::sync::Arc;

/// The daemon on the simulator, configured for a 2x2.
pub async fn start_pocket(dir: &Path, speed: f64) -> RunningDaemon {
    let mut config = config(dir, "", speed);
    config.cube_size = CubeSize::Two;
    RunningDaemon::start(&config, solver())
        .await
        .expect("the daemon starts on the simulator")
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

#[test]
fn dry_run_size_2_solves_2x2s_on_every_shipped_design() {
    for design in ["four-arm", "turntable-flipper", "six-motor"] {
        let robot = format!("{}/config/robots/{design}.toml", env!("CARGO_MANIFEST_DIR"));
        let out = cubed(
            &[
                "dry-run", "--size", "2", "--cubes", "3", "--seed", "2", "--robot", &robot,
                "--tables", "small",
            ],
            None,
        );
        let text = stdout(&out);
        assert!(out.status.success(), "{design}: {text}\n{}", stderr(&out));
        assert!(text.contains("3 2x2 cubes"), "{design}: {text}");
        assert!(
            text.contains("solved 3/3 (verified by the simulator)"),
            "{design}: {text}"
        );
    }
}

#[test]
fn dry_run_refuses_a_size_it_does_not_know() {
    let out = cubed(&["dry-run", "--size", "4", "--tables", "small"], None);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("--size"), "{}", stderr(&out));
}
