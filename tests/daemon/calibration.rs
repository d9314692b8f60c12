//! Calibration the daemon's way (the page's Calibrate, from the camera) and the command line's (`cubed calibrate --images`) read the same photos alike, so they give the same palette.

use super::{config, solver};
use cubed::daemon::config::CameraChoice;
use cubed::daemon::RunningDaemon;
use std::path::Path;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pages_calibration_and_the_command_lines_give_the_same_palette_from_the_same_photos() {
    let photos = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/photos/solved-3x3");
    let dir = tempfile::tempdir().expect("temp dir");
    let mut config = config(&dir.path().join("data"), "", 0.0);
    config.camera = CameraChoice::Dir(photos.clone());
    let daemon = RunningDaemon::start(&config, solver())
        .await
        .expect("starts");
    let by_page = daemon.handle.calibrate().await.expect("calibrates");
    assert_eq!(
        by_page.warnings,
        Vec::<String>::new(),
        "even light: nothing to mend"
    );
    daemon.shutdown().await;
    let written = dir.path().join("cli.toml");
    let out = crate::common::cubed(
        &[
            "calibrate",
            "--images",
            photos.to_str().expect("utf-8"),
            "--output",
            written.to_str().expect("utf-8"),
        ],
        None,
    );
    assert!(out.status.success(), "{}", crate::common::stderr(&out));
    let by_cli = cubed_vision::light::palette::load_palette(&written).expect("palette");
    let by_daemon =
        cubed_vision::light::palette::load_palette(&dir.path().join("data/palette.toml"))
            .expect("the daemon's palette");
    assert_eq!(by_daemon, by_cli);
    // And as the page shows it (the file keeps a tenth of a unit of L*a*b*).
    for (shown, written) in by_page.palette.iter().zip(&by_cli.colours) {
        let shown = u32::from_str_radix(&shown.rgb[1..], 16).expect("#rrggbb");
        let shown = [shown >> 16, (shown >> 8) & 0xff, shown & 0xff];
        for (a, b) in shown.into_iter().zip(written.reference.to_rgb()) {
            assert!(a.abs_diff(u32::from(b)) <= 2, "{}: {shown:?}", written.name);
        }
    }
}

/// A solved cube on white plastic, from a folder as a robot's camera takes them: no grid shows
/// on its white face, which is read on the grid the other five photos agree on (the log says
/// so), and the palette is written, as `cubed calibrate --images` does on the same photos.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_white_bodied_cube_calibrates_on_the_grid_its_other_faces_agree_on() {
    let dir = tempfile::tempdir().expect("temp dir");
    let photos = dir.path().join("photos");
    std::fs::create_dir(&photos).expect("folder");
    crate::common::simulated_photos(
        cubed::cube::FaceletCube::default(),
        &photos,
        cubed::vision::camera::sim::SimLighting::default(),
        cubed::vision::camera::sim::WHITE_BODY,
    );
    let white = image::open(photos.join("U.png")).expect("photo").to_rgb8();
    assert!(
        cubed::vision::grid::finder::find_grid(&white).is_err(),
        "the case: none found"
    );
    let mut config = config(&dir.path().join("data"), "", 0.0);
    config.camera = CameraChoice::Dir(photos);
    let daemon = RunningDaemon::start(&config, solver())
        .await
        .expect("starts");
    daemon.handle.calibrate().await.expect("calibrates");
    let said = logged(&daemon);
    assert!(
        said.iter().any(|l| l.contains(
            "no grid found in the photo of face U: read on the grid the other 5 photos agree on"
        )),
        "{said:#?}"
    );
    assert!(dir.path().join("data/palette.toml").exists());
    daemon.shutdown().await;
}

/// The recent log lines' words.
fn logged(daemon: &RunningDaemon) -> Vec<String> {
    (daemon.handle.recent_log().into_iter())
        .filter_map(|event| match event {
            cubed::daemon::DaemonEvent::Log { message, .. } => Some(message),
            _ => None,
        })
        .collect()
}

/// Under a lamp two stops too bright for a webcam (the simulated camera's physics: it clips,
/// and its roll-off presses an orange and a yellow together), calibration photographs all six
/// faces again a stop darker each round until none is washed out, keeps the first photos as
/// earlier takes, and the palette it writes reads cubes under that lamp; with no rounds
/// allowed it is refused naming the light, not the cube.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calibration_under_a_lamp_too_bright_is_taken_darker_and_refused_naming_the_light() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut config = config(&dir.path().join("data"), "", 0.0);
    (config.sim.exposure, config.sim.highlight_rolloff) = (4.0, 1.0);
    let daemon = RunningDaemon::start(&config, solver())
        .await
        .expect("starts");
    let doc = daemon.handle.calibrate().await.expect("calibrated, darker");
    let said = logged(&daemon);
    assert!(
        said.iter()
            .any(|l| l.contains("stops darker than the camera's exposure")),
        "{said:#?}"
    );
    // The page is told too, beside the ΔE table.
    assert!(
        (doc.warnings.iter()).any(|w| w.contains("stops darker than the camera's exposure")),
        "{:#?}",
        doc.warnings
    );
    let run = daemon.handle.status().run.expect("the calibration's run");
    let record = daemon.handle.run(run).expect("history").expect("recorded");
    assert!(
        record.scans.iter().any(|scan| !scan.earlier.is_empty()),
        "the first photos are kept as earlier takes"
    );
    // The palette reads under that lamp: a cube is scanned, solved and verified.
    daemon
        .sim
        .as_ref()
        .expect("sim")
        .load_cube(super::random(5));
    let started = (daemon.handle.start(cubed::daemon::StartSource::Web).await).expect("start");
    let end = super::finished(&daemon.handle, started).await;
    assert_eq!(
        end.state,
        cubed::daemon::DaemonState::Done,
        "{}",
        end.message
    );
    daemon.shutdown().await;

    // No rounds allowed: refused under a lamp one or two stops too bright, nothing written.
    config.recaptures = 0;
    for exposure in [2.0, 4.0] {
        config.sim.exposure = exposure;
        config.data_dir = dir.path().join(format!("data-no-rounds-{exposure}"));
        let daemon = RunningDaemon::start(&config, solver())
            .await
            .expect("starts");
        let refused = daemon.handle.calibrate().await.expect_err("washed out");
        let words = format!("{refused:?}");
        assert!(
            words.contains("the light washed out"),
            "{exposure}: {words}"
        );
        assert!(words.contains("dim the lamp"), "{words}");
        assert!(!words.contains("calibrate from a solved cube"), "{words}");
        assert!(
            !config.data_dir.join("palette.toml").exists(),
            "nothing written"
        );
        daemon.shutdown().await;
    }
}
