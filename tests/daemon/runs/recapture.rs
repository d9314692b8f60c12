//! Photos in doubt taken again: unsure stickers, a lamp too bright (a stop darker each round, or refused saying to dim it), a hand in a photo, an unreadable check scan.

use crate::daemon::{
    finished, is, named_the_hand, random, said_so_far, scans_photographed, start, start_with,
    wait_until,
};
use cubed::cube::FaceletCube;
use cubed::daemon::{DaemonState, StartSource};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unsure_stickers_are_photographed_again_then_the_run_is_refused_naming_them() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut config = crate::daemon::config(dir.path(), "", 0.0);
    config.min_confidence = 1.0; // no reading is certain
    config.recaptures = 1;
    let daemon = start_with(&config).await;
    let sim = daemon.sim.clone().expect("sim");
    sim.load_cube(random(15));
    let run = daemon.handle.start(StartSource::Web).await.expect("start");
    let end = finished(&daemon.handle, run).await;
    assert_eq!(end.state, DaemonState::Faulted, "{}", end.message);
    assert!(
        end.message.contains("unsure of ") && end.message.contains("after 1 re-capture"),
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
    let mut config = crate::daemon::config(dir.path(), "", 0.0);
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
    let mut config = crate::daemon::config(dir.path(), "", 0.0);
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
        (
            CubeSize::Two,
            crate::daemon::pocket::random_2x2(19).to_3x3(),
        ),
    ] {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut config = crate::daemon::config(dir.path(), "", 0.0);
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
    let mut config = crate::daemon::config(dir.path(), "", 2.0);
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
