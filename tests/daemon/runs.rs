//! Whole runs: started by the robot's button and through the handle, the record they leave, a second start refused, an already solved cube left alone, a lamp far too bright refused saying what to do.

use super::{
    finished, is, named_the_hand, random, said_so_far, scans_photographed, start, start_with,
    wait_until,
};
use cubed::cube::FaceletCube;
use cubed::daemon::{DaemonState, RefusalKind, StartSource};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_button_starts_a_run_that_ends_verified_solved_and_recorded() {
    let dir = tempfile::tempdir().expect("temp dir");
    let daemon = start(dir.path(), "", 0.0).await;
    let sim = daemon.sim.clone().expect("simulated robot");
    sim.load_cube(random(7));
    sim.press_button();
    let running = wait_until(&daemon.handle, "a run starts", |s| s.run.is_some()).await;
    let run = running.run.expect("run id");
    let end = finished(&daemon.handle, run).await;
    assert_eq!(end.state, DaemonState::Done, "{}", end.message);
    assert!(sim.cube().is_solved(), "the simulator's cube is solved");
    let detail = daemon
        .handle
        .run(run)
        .expect("history")
        .expect("the run is recorded");
    assert_eq!(detail.summary.source, "button");
    assert_eq!(detail.summary.outcome.as_deref(), Some("solved"));
    assert_eq!(detail.scans.len(), 2, "the first scan and the verification");
    assert_eq!(detail.solutions.len(), 1);
    assert!(detail.summary.moves.unwrap_or(0) > 0);
    assert!(detail
        .scans
        .iter()
        .all(|s| s.images.len() == 6 && s.readings.len() == 54));
    for photo in &detail.scans[0].images {
        let file = daemon
            .handle
            .image(run, 0, photo.face)
            .expect("history")
            .expect("image recorded");
        assert!(file.exists(), "{}", file.display());
    }
    // The status shows each scan's photos in URFDLB order, whatever order the robot took them.
    let shown: Vec<(u32, char)> = end.photos.iter().map(|p| (p.attempt, p.face)).collect();
    let expected: Vec<(u32, char)> = [0, 1]
        .into_iter()
        .flat_map(|a| "URFDLB".chars().map(move |f| (a, f)))
        .collect();
    assert_eq!(shown, expected);
    // Where the page draws each colour read: the photo as served has that colour there.
    for photo in &end.photos {
        let file = (daemon.handle.image(run, photo.attempt, photo.face))
            .expect("history")
            .expect("image recorded");
        let image = image::open(&file).expect("a PNG").to_rgb8();
        let grid = photo.grid.expect("the grid is shown");
        let matching = (0..9)
            .filter(|&i| {
                let at = cell_centre(grid, i, image.dimensions());
                let seen = image.get_pixel(at.0, at.1).0;
                let read = hex_rgb(&photo.stickers[i].rgb);
                (0..3).all(|k| seen[k].abs_diff(read[k]) < 48)
            })
            .count();
        assert!(
            matching >= 8,
            "{}{}: {matching} of 9 marks on their sticker",
            photo.face,
            photo.attempt
        );
    }
    let journal = detail.summary.last_acked_move.expect("acks journaled");
    assert!(
        journal as usize >= detail.solutions[0].moves as usize,
        "journal {journal}"
    );
    for name in ["scan", "classify", "solve", "execute"] {
        assert!(
            detail.steps.iter().any(|s| s.name == name),
            "no {name} timing in {:?}",
            detail.steps
        );
    }
    daemon.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_start_is_refused_while_a_run_is_in_progress() {
    let dir = tempfile::tempdir().expect("temp dir");
    let daemon = start(dir.path(), "", 0.0).await;
    daemon.sim.as_ref().expect("sim").load_cube(random(8));
    let run = daemon
        .handle
        .start(StartSource::Web)
        .await
        .expect("first start");
    let second = daemon
        .handle
        .start(StartSource::Cli)
        .await
        .expect_err("second start");
    assert_eq!(second.kind, RefusalKind::Conflict);
    assert!(
        second.reason.contains(&format!("run {run}")),
        "{}",
        second.reason
    );
    let end = finished(&daemon.handle, run).await;
    assert_eq!(end.state, DaemonState::Done, "{}", end.message);
    let again = daemon.handle.start(StartSource::Web).await;
    assert!(
        again.is_ok(),
        "a new run may start after the first: {again:?}"
    );
    daemon.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_already_solved_cube_is_recognised_and_not_touched() {
    let dir = tempfile::tempdir().expect("temp dir");
    let daemon = start(dir.path(), "", 0.0).await;
    let sim = daemon.sim.clone().expect("sim");
    sim.load_cube(FaceletCube::default());
    let run = daemon.handle.start(StartSource::Web).await.expect("start");
    let end = finished(&daemon.handle, run).await;
    assert_eq!(end.state, DaemonState::Done, "{}", end.message);
    assert!(end.message.contains("already solved"), "{}", end.message);
    assert_eq!(sim.bench().turns, 0, "no face was turned");
    let detail = daemon.handle.run(run).expect("history").expect("recorded");
    assert_eq!(detail.summary.outcome.as_deref(), Some("already_solved"));
    assert!(detail.solutions.is_empty());
    daemon.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calibration_scans_a_solved_cube_and_keeps_the_palette_in_the_data_directory() {
    let dir = tempfile::tempdir().expect("temp dir");
    let daemon = start(dir.path(), "", 0.0).await;
    daemon
        .sim
        .as_ref()
        .expect("sim")
        .load_cube(FaceletCube::default());
    let done = daemon.handle.calibrate().await.expect("calibrated");
    assert_eq!(done.palette.len(), 6);
    assert!(
        done.after.iter().zip(&done.before).all(|(a, b)| a <= b),
        "{done:?}"
    );
    let saved = dir.path().join("palette.toml");
    assert_eq!(done.saved_to, saved.display().to_string());
    cubed::vision::light::palette::load_palette(&saved).expect("the saved palette loads");
    let run = daemon
        .handle
        .status()
        .run
        .expect("calibration is a recorded run");
    finished(&daemon.handle, run).await;
    assert_eq!(daemon.handle.status().palette, done.palette);
    daemon.sim.as_ref().expect("sim").load_cube(random(9));
    let refused = daemon
        .handle
        .calibrate()
        .await
        .expect_err("not a solved cube");
    assert!(refused.reason.contains("solved cube"), "{}", refused.reason);
    daemon.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn guide_mode_gives_each_state_and_refuses_an_impossible_cube() {
    let dir = tempfile::tempdir().expect("temp dir");
    let daemon = start(dir.path(), "", 0.0).await;
    let scheme = cubed::cube::ColourScheme::default();
    let cube = random(10).to_symbols(&scheme);
    let guide = daemon.handle.guide(cube.clone()).await.expect("solved");
    assert_eq!(guide.states.len(), guide.solution.len() + 1);
    assert_eq!(guide.states[0], cube);
    assert_eq!(
        guide.states.last().map(String::as_str),
        Some(FaceletCube::default().to_symbols(&scheme).as_str())
    );
    assert_eq!(guide.woolley.len(), guide.solution.len());
    let mut twisted: Vec<char> = cube.chars().collect();
    twisted.swap(0, 9);
    let bad = daemon
        .handle
        .guide(twisted.into_iter().collect())
        .await
        .expect_err("impossible");
    assert_eq!(bad.kind, RefusalKind::BadRequest, "{}", bad.reason);
    daemon.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unsure_stickers_are_photographed_again_then_the_run_is_refused_naming_them() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut config = super::config(dir.path(), "", 0.0);
    config.min_confidence = 1.0; // no reading is certain
    config.recaptures = 1;
    let daemon = start_with(&config).await;
    let sim = daemon.sim.clone().expect("sim");
    sim.load_cube(random(15));
    let run = daemon.handle.start(StartSource::Web).await.expect("start");
    let end = finished(&daemon.handle, run).await;
    assert_eq!(end.state, DaemonState::Faulted, "{}", end.message);
    assert!(
        end.message.contains("unsure of sticker(s)") && end.message.contains("after 1 re-capture"),
        "{}",
        end.message
    );
    assert_eq!(
        sim.bench().turns,
        0,
        "a cube that cannot be read is not turned"
    );
    let detail = daemon.handle.run(run).expect("history").expect("recorded");
    assert_eq!(detail.summary.outcome.as_deref(), Some("refused"));
    assert!(detail.scans[0].error.is_some(), "{:?}", detail.scans[0]);
    // The best guess is kept beside the reason it was not given.
    assert!(detail.scans[0].facelets.is_some(), "{:?}", detail.scans[0]);
    assert_eq!(detail.scans[0].confidence.len(), 54);
    assert_eq!(
        scans_photographed(&daemon.handle, run),
        2,
        "the first scan and one re-capture: {:?}",
        detail.steps
    );
    daemon.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clipped_faces_in_doubt_are_photographed_a_stop_darker_each_round() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut config = super::config(dir.path(), "", 0.0);
    config.min_confidence = 1.0; // every sticker stays in doubt
    config.recaptures = 2;
    config.sim.exposure = light_for_gain(4.0); // a lamp far too bright: the stickers clip
    let daemon = start_with(&config).await;
    let sim = daemon.sim.clone().expect("sim");
    sim.load_cube(random(17));
    let mut said = daemon.handle.subscribe();
    let run = daemon.handle.start(StartSource::Web).await.expect("start");
    let end = finished(&daemon.handle, run).await;
    assert_eq!(end.state, DaemonState::Faulted, "{}", end.message);
    assert!(
        end.message.contains("after 2 re-capture"),
        "{}",
        end.message
    );
    let messages = said_so_far(&mut said);
    let mut retakes: Vec<&String> = (messages.iter())
        .filter(|m| m.contains("photographing again"))
        .collect();
    retakes.dedup();
    assert_eq!(retakes.len(), 2, "{retakes:?}");
    assert!(
        retakes[0].ends_with("U, R, F, D, L, B 1 stop darker"),
        "{}",
        retakes[0]
    );
    assert!(
        retakes[1].ends_with("U, R, F, D, L, B 2 stops darker"),
        "{}",
        retakes[1]
    );
    assert_eq!(
        scans_photographed(&daemon.handle, run),
        3,
        "the scan and two re-captures"
    );
    daemon.shutdown().await;
}

/// The `[sim] exposure` (light, as a camera's stops count it) of a lamp that multiplies the
/// simulated camera's sRGB codes by `gain`: what `[sim] exposure` said before it was light.
fn light_for_gain(gain: f32) -> f32 {
    gain.powf(2.2)
}

/// Runs `cube` on the simulator under a lamp of `exposure` (`light_for_gain`) that fades
/// highlights as a webcam does (the configuration then changed by `adjust`) and asserts the run ends verified solved:
/// the daemon, the run and what it said.
async fn solved_under_a_webcam_lamp(
    exposure: f32,
    cube: FaceletCube,
    adjust: impl FnOnce(&mut cubed::daemon::config::DaemonConfig),
) -> (cubed::daemon::RunningDaemon, u64, Vec<String>) {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut config = super::config(dir.path(), "", 0.0);
    config.sim.exposure = light_for_gain(exposure);
    config.sim.highlight_rolloff = 1.0;
    adjust(&mut config);
    let daemon = start_with(&config).await;
    let sim = daemon.sim.clone().expect("sim");
    sim.load_cube(cube);
    let mut said = daemon.handle.subscribe();
    let run = daemon.handle.start(StartSource::Web).await.expect("start");
    let end = finished(&daemon.handle, run).await;
    assert_eq!(end.state, DaemonState::Done, "{}", end.message);
    assert!(sim.cube().is_solved(), "solved on the simulator's own cube");
    (daemon, run, said_so_far(&mut said))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn under_a_lamp_too_bright_for_a_webcam_the_darker_photos_are_read_and_the_cube_solved() {
    // Yellow fades to white as it clips, as on a webcam: the first photos cannot be read.
    let (daemon, run, messages) = solved_under_a_webcam_lamp(1.6, random(18), |_| ()).await;
    assert!(
        (messages.iter()).any(|m| m.contains("photographing again") && m.contains("1 stop darker")),
        "{messages:?}"
    );
    assert!(
        scans_photographed(&daemon.handle, run) >= 3,
        "the scan, a darker re-capture and the verification"
    );
    daemon.shutdown().await;
}

/// A lamp a little too bright: the first photos read as a sure cube, but a face shows two
/// colours both near full scale in what tells them apart, so it is taken again darker before
/// the cube is solved.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_face_read_surely_but_too_bright_to_be_sure_of_is_taken_again_darker() {
    let (daemon, _, messages) =
        solved_under_a_webcam_lamp(1.3, random(3), |c| c.sim.seed = 3).await;
    let overexposed = too_bright_said(&messages);
    assert!(
        overexposed.starts_with("scanning: F")
            && overexposed.ends_with("photographing again: F 1 stop darker"),
        "{overexposed}"
    );
    assert!(
        !messages.iter().any(|m| m.contains("unsure of")),
        "the first take was read surely: {messages:?}"
    );
    daemon.shutdown().await;
}

/// What the daemon said of a face read surely but too bright to be sure of.
fn too_bright_said(messages: &[String]) -> &str {
    (messages.iter())
        .find(|m| m.contains("too bright to be sure of"))
        .unwrap_or_else(|| panic!("no face named as overexposed: {messages:?}"))
}

/// The same lamp with no re-capture allowed: the sure reading stands, and the daemon says the
/// face was too bright to be sure of and what to do about it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_no_round_left_a_sure_but_overexposed_reading_stands_and_the_lamp_is_named() {
    let (daemon, _, messages) = solved_under_a_webcam_lamp(1.3, random(3), |c| {
        c.sim.seed = 3;
        c.recaptures = 0;
    })
    .await;
    let said = too_bright_said(&messages);
    assert!(
        said.contains("still after 0 re-captures (dim the lamp or lower `[camera] exposure`)")
            && said.ends_with("going on with the sure reading, which the verify scan checks"),
        "{said}"
    );
    assert!(
        !messages.iter().any(|m| m.contains("photographing again")),
        "{messages:?}"
    );
    daemon.shutdown().await;
}

/// A lamp too bright even two stops darker: the run is refused before any turn, and the
/// refusal says what to do (dim the lamp), for both sizes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lamp_far_too_bright_is_refused_saying_to_dim_it_for_both_sizes() {
    use cubed::daemon::config::CubeSize;
    for (size, cube) in [
        (CubeSize::Three, random(19)),
        (CubeSize::Two, super::pocket::random_2x2(19).to_3x3()),
    ] {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut config = super::config(dir.path(), "", 0.0);
        config.cube_size = size;
        config.sim.exposure = light_for_gain(3.0);
        config.sim.highlight_rolloff = 1.0;
        let daemon = start_with(&config).await;
        let sim = daemon.sim.clone().expect("sim");
        sim.load_cube(cube);
        let run = daemon.handle.start(StartSource::Web).await.expect("start");
        let end = finished(&daemon.handle, run).await;
        assert_eq!(end.state, DaemonState::Faulted, "{size:?}: {}", end.message);
        assert!(
            end.message.contains("after 2 re-captures")
                && end.message.contains("too bright for the camera")
                && end.message.contains("dim the lamp"),
            "{size:?}: {}",
            end.message
        );
        assert_eq!(
            sim.bench().turns,
            0,
            "{size:?}: a cube not read is not turned"
        );
        daemon.shutdown().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hand_in_a_photo_is_named_and_the_faces_photographed_again() {
    let dir = tempfile::tempdir().expect("temp dir");
    let daemon = start(dir.path(), "", 0.0).await;
    let sim = daemon.sim.clone().expect("sim");
    sim.load_cube(random(16));
    sim.hand_in_next_photos(1);
    let mut said = daemon.handle.subscribe();
    let run = daemon.handle.start(StartSource::Web).await.expect("start");
    let end = finished(&daemon.handle, run).await;
    assert_eq!(end.state, DaemonState::Done, "{}", end.message);
    assert!(sim.cube().is_solved());
    let messages = said_so_far(&mut said);
    assert!(named_the_hand(&messages), "{messages:?}");
    assert_eq!(
        scans_photographed(&daemon.handle, run),
        3,
        "scan, the re-capture, verify"
    );
    daemon.shutdown().await;
}

/// A hand in the check scan's photo with no round left to take it again: the solution's turns
/// were made, so the run is not "refused" but "unverified", and says to look at the cube (which
/// the simulator's own mechanics show solved).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_check_scan_that_cannot_be_read_after_the_turns_leaves_the_run_unverified() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut config = super::config(dir.path(), "", 2.0);
    config.recaptures = 0;
    let daemon = start_with(&config).await;
    let sim = daemon.sim.clone().expect("sim");
    sim.load_cube(random(16));
    let run = daemon.handle.start(StartSource::Web).await.expect("start");
    wait_until(&daemon.handle, "executing", is(DaemonState::Executing)).await;
    sim.hand_in_next_photos(1);
    let end = finished(&daemon.handle, run).await;
    assert_eq!(end.state, DaemonState::Faulted, "{}", end.message);
    for words in ["unverified", "face turns were made", "look at the cube"] {
        assert!(end.message.contains(words), "{words}: {}", end.message);
    }
    assert!(sim.bench().turns > 0, "the solution was turned");
    assert!(sim.cube().is_solved(), "the robot did solve it");
    let detail = daemon.handle.run(run).expect("history").expect("recorded");
    assert_eq!(detail.summary.outcome.as_deref(), Some("unverified"));
    let why = detail.summary.error.as_deref().unwrap_or_default();
    assert!(
        why.contains("unsure of sticker") || why.contains("cannot be read"),
        "{why}"
    );
    let check = detail.scans.last().expect("the check scan");
    assert!(check.error.is_some(), "{check:?}");
    daemon.shutdown().await;
}

/// Photos named after faces are read as they are: the daemon does not take them "again, a stop
/// darker" (that would read the same files), and its advice is about the photos, not a
/// webcam's exposure.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn photos_from_a_folder_in_doubt_are_refused_at_once_with_advice_about_the_photos() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut config = super::config(dir.path(), "", 0.0);
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
    let mut config = super::config(dir, "", 0.0);
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
    let mut config = super::config(other.path(), "", 0.0);
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

/// The pixel at the centre of cell `i` (row by row) of `grid` (fractions of the photo).
fn cell_centre([left, top, right, bottom]: [f32; 4], i: usize, (w, h): (u32, u32)) -> (u32, u32) {
    let x = left + (right - left) * ((i % 3) as f32 + 0.5) / 3.0;
    let y = top + (bottom - top) * ((i / 3) as f32 + 0.5) / 3.0;
    ((x * w as f32) as u32, (y * h as f32) as u32)
}

fn hex_rgb(hex: &str) -> [u8; 3] {
    let byte = |k: usize| u8::from_str_radix(&hex[1 + 2 * k..3 + 2 * k], 16).expect("#rrggbb");
    [byte(0), byte(1), byte(2)]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_after_the_drivers_went_off_while_idle_homes_the_robot_first() {
    let dir = tempfile::tempdir().expect("temp dir");
    let shipped = crate::common::shipped_design_file("four-arm");
    let text = std::fs::read_to_string(shipped).expect("the four-arm design");
    assert!(
        text.contains("idle_disable_ms = 300000"),
        "the shipped idle time"
    );
    let design = dir.path().join("four-arm-idle.toml");
    std::fs::write(
        &design,
        text.replace("idle_disable_ms = 300000", "idle_disable_ms = 10000"),
    )
    .expect("design written");
    // The simulator's clock runs 20 times the wall clock: 10 s idle in half a second.
    let mut config = crate::daemon::config(dir.path(), "", 20.0);
    config.robot_design = design;
    let daemon = start_with(&config).await;
    let sim = daemon.sim.clone().expect("sim");
    sim.load_cube(FaceletCube::default());
    let first = daemon.handle.start(StartSource::Web).await.expect("start");
    let end = finished(&daemon.handle, first).await;
    assert_eq!(end.state, DaemonState::Done, "{}", end.message);
    // Idle for more than the design's 10 s of robot time: the firmware switches its
    // drivers off, and its positions count as lost.
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    let second = daemon.handle.start(StartSource::Web).await.expect("start");
    let end = finished(&daemon.handle, second).await;
    assert_eq!(
        end.state,
        DaemonState::Done,
        "the second run homes first, then scans: {}",
        end.message
    );
    daemon.shutdown().await;
}

/// The page's Log tells the run as it goes (read, solution, executing, executed, verifying,
/// solved), and the first ETA is the planned robot time at the simulator's speed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_log_tells_the_run_and_the_first_eta_follows_the_simulators_speed() {
    use cubed::daemon::DaemonEvent;
    let dir = tempfile::tempdir().expect("temp dir");
    let daemon = start(dir.path(), "", 4.0).await;
    daemon.sim.as_ref().expect("sim").load_cube(random(23));
    let mut events = daemon.handle.subscribe();
    // Read as the run goes (the channel keeps only the latest events for a slow reader).
    let told = tokio::spawn(async move {
        let (mut lines, mut first_eta) = (Vec::new(), None);
        loop {
            match events.recv().await {
                Ok(DaemonEvent::Log { message, .. }) => lines.push(message),
                Ok(DaemonEvent::Status(s)) => {
                    let start = s.progress.filter(|p| p.moves_done == 0);
                    first_eta = first_eta.or(start.map(|p| p.eta_ms));
                }
                Ok(DaemonEvent::RunFinished { .. }) => return (lines, first_eta),
                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
                Err(_) => return (lines, first_eta),
            }
        }
    });
    let run = daemon.handle.start(StartSource::Web).await.expect("start");
    let end = finished(&daemon.handle, run).await;
    assert_eq!(end.state, DaemonState::Done, "{}", end.message);
    let (lines, first_eta) = told.await.expect("events read");
    let told = [
        "read the 3x3: ",
        "solution: ",
        "executed ",
        "verifying: ",
        "the camera sees the 3x3 solved",
    ];
    let mut at = 0;
    for words in told {
        let found = lines[at..].iter().position(|l| l.contains(words));
        assert!(found.is_some(), "{words:?} after line {at}: {lines:#?}");
        at += found.unwrap_or(0) + 1;
    }
    let detail = daemon.handle.run(run).expect("history").expect("recorded");
    let planned = f64::from(detail.solutions[0].planned_ms);
    let eta = first_eta.expect("a first ETA") as f64;
    assert!(
        (eta - planned / 4.0).abs() <= 1.0,
        "ETA {eta} ms, planned {planned} ms"
    );
}
