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
