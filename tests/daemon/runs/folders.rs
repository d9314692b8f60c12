//! Runs whose camera is a folder of photos: read as they are and never taken again, turned photos read the sure way, a run's own photos reading as the same cube.

use crate::daemon::{finished, random, said_so_far, scans_photographed, start, start_with};
use cubed::daemon::{DaemonState, StartSource};

/// Photos named after faces are read as they are: the daemon does not take them "again, a stop
/// darker" (that would read the same files), and its advice is about the photos, not a
/// webcam's exposure.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn photos_from_a_folder_in_doubt_are_refused_at_once_with_advice_about_the_photos() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut config = crate::daemon::config(dir.path(), "", 0.0);
    let photos = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/vision/photos/3x3x3-random-01");
    config.camera = cubed::daemon::config::CameraChoice::Dir(photos);
    config.min_confidence = 1.0; // every sticker stays in doubt
    config.recaptures = 2;
    let daemon = start_with(&config).await;
    let mut said = daemon.handle.subscribe();
    let run = daemon.handle.start(StartSource::Web).await.expect("start");
    let end = finished(&daemon.handle, run).await;
    assert_eq!(end.state, DaemonState::Faulted, "{}", end.message);
    for words in ["never taken again", "take the photos again"] {
        assert!(end.message.contains(words), "{words}: {}", end.message);
    }
    assert!(
        !end.message.contains("[camera] exposure"),
        "{}",
        end.message
    );
    let messages = said_so_far(&mut said);
    assert!(
        !messages.iter().any(|m| m.contains("photographing again")),
        "{messages:?}"
    );
    assert_eq!(scans_photographed(&daemon.handle, run), 1, "one scan only");
    // The net shows the best guess, said to be one.
    assert!(end.facelets.is_some() && end.facelets_guessed, "{end:?}");
    daemon.shutdown().await;
}

/// Photos that cannot be taken again have their clipped stickers read from their rims: the
/// shipped photos, whose white and yellow clip alike, are read surely by a run (no refusal, no
/// re-capture), as `cubed scan --images` reads them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_shipped_photos_are_read_surely_by_a_run_from_their_folder() {
    let dir = tempfile::tempdir().expect("temp dir");
    let photos = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/vision/photos/3x3x3-random-01");
    let (first, _) = first_scan_of_a_run_from(dir.path(), photos).await;
    assert_eq!(first.attempt, 0);
    assert!(first.error.is_none(), "{:?}", first.error);
    // The shipped palette's symbols for the expected LBBUURDDR… (U red, R yellow, F green,
    // D orange, L white, B blue in this set).
    assert_eq!(
        first.facelets.as_deref(),
        Some("WBBRRYOOYOOWBYGYBOWWGYGYBWRYGGWOWOBWRYGRWGBRRROGOBGBRY")
    );
}

/// Photos turned right to 45 degrees, where which edge is a face's top cannot be told, are read
/// by a run the way that makes the cube sure, as `cubed scan --images` reads them, and the run
/// says so.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn photos_turned_45_degrees_are_read_by_a_run_the_way_the_cube_is_sure() {
    let dir = tempfile::tempdir().expect("temp dir");
    let set = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/vision/photos-held-out/tracker-3x3x3-random-02");
    let photos = dir.path().join("photos");
    std::fs::create_dir(&photos).expect("folder");
    for (face, degrees) in [
        ("U", -44.6),
        ("R", 0.0),
        ("F", -45.0),
        ("D", 0.0),
        ("L", 45.0),
        ("B", 0.0),
    ] {
        let image = image::open(set.join(format!("{face}.png")))
            .expect("photo")
            .to_rgb8();
        let turned = cubed::vision::grid::tilt::rotate(&image, degrees);
        turned
            .save(photos.join(format!("{face}.png")))
            .expect("saved");
    }
    let (first, said) = first_scan_of_a_run_from(dir.path(), photos).await;
    assert!(first.error.is_none(), "{:?}", first.error);
    assert_eq!(
        first.facelets.as_deref(),
        Some("WGRGOBOBRGOGRBOWOOYYWYWWYBBRWOGRGRYYGWBBGRBRBYYOWYRGOW")
    );
    let told = said.iter().find(|m| m.contains("turned about 45 degrees"));
    assert!(told.is_some_and(|m| m.contains("F")), "{said:?}");
}

/// The first scan of a run whose camera is the folder `photos` (data in `dir`), and what the
/// run said.
async fn first_scan_of_a_run_from(
    dir: &std::path::Path,
    photos: std::path::PathBuf,
) -> (cubed::daemon::ScanRecord, Vec<String>) {
    let mut config = crate::daemon::config(dir, "", 0.0);
    config.camera = cubed::daemon::config::CameraChoice::Dir(photos);
    let daemon = start_with(&config).await;
    let mut said = daemon.handle.subscribe();
    let run = daemon.handle.start(StartSource::Web).await.expect("start");
    let _ = finished(&daemon.handle, run).await;
    let detail = daemon.handle.run(run).expect("history").expect("recorded");
    let first = detail.scans.first().expect("a scan").clone();
    daemon.shutdown().await;
    (first, said_so_far(&mut said))
}

/// A folder of photos named after faces is read as the photos are drawn (as in the net), not
/// turned again by the robot's view of the camera: a run's own saved photos, given back as a
/// `dir:` camera, read as the same cube.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_runs_own_photos_in_a_folder_read_as_the_same_cube() {
    let dir = tempfile::tempdir().expect("temp dir");
    let daemon = start(dir.path(), "", 0.0).await;
    daemon.sim.as_ref().expect("sim").load_cube(random(21));
    let run = daemon.handle.start(StartSource::Web).await.expect("start");
    let end = finished(&daemon.handle, run).await;
    assert_eq!(end.state, DaemonState::Done, "{}", end.message);
    assert!(end.facelets.is_some() && !end.facelets_guessed, "{end:?}");
    let photos = dir.path().join("photos");
    let photos_dir = photos.clone();
    std::fs::create_dir(&photos).expect("folder");
    for face in "URFDLB".chars() {
        let file = (daemon.handle.image(run, 0, face).expect("history")).expect("saved");
        std::fs::copy(file, photos.join(format!("{face}.png"))).expect("copy");
    }
    let seen = daemon.handle.run(run).expect("history").expect("run");
    daemon.shutdown().await;

    let other = tempfile::tempdir().expect("temp dir");
    let mut config = crate::daemon::config(other.path(), "", 0.0);
    config.camera = cubed::daemon::config::CameraChoice::Dir(photos);
    let daemon = start_with(&config).await;
    let again = daemon.handle.start(StartSource::Web).await.expect("start");
    let end = finished(&daemon.handle, again).await;
    // The folder shows the same cube after the solution as before it: the run stops there
    // instead of turning the real cube again.
    assert!(
        end.message
            .contains("the cube reads the same after the solution's"),
        "{}",
        end.message
    );
    let read = daemon.handle.run(again).expect("history").expect("run");
    assert_eq!(read.solutions.len(), 1, "solved once: {:?}", read.solutions);
    assert!(seen.scans[0].facelets.is_some(), "{:?}", seen.scans[0]);
    assert_eq!(
        read.scans[0].facelets, seen.scans[0].facelets,
        "{:?}",
        read.scans[0].error
    );
    // One photo saved turned (a design's camera view of a face set wrong does the same): the
    // run is refused, saying which photo reads sure turned back.
    let front = photos_dir.join("F.png");
    let photo = image::open(&front).expect("a photo").to_rgb8();
    image::imageops::rotate180(&photo)
        .save(&front)
        .expect("saved turned");
    let turned = daemon.handle.start(StartSource::Web).await.expect("start");
    let end = finished(&daemon.handle, turned).await;
    assert_eq!(end.state, DaemonState::Faulted, "{}", end.message);
    assert!(
        end.message
            .contains("the photo of face F was likely taken turned a half turn: turned back (a half turn) it reads as a sure cube (confidence"),
        "{}",
        end.message
    );
    daemon.shutdown().await;
}
