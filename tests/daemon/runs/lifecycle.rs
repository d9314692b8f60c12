//! A run's life: started by the button or the handle and recorded, a second start refused, a solved cube left alone, calibration, guide mode, homing after idle, and the Log with its first ETA.

use crate::daemon::{finished, random, start, start_with, wait_until};
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
    // Its photos are of a solved cube for its colours: said so, not as a cube unread.
    let status = daemon.handle.status();
    assert!(
        status.calibrating_run && status.facelets.is_none(),
        "{status:?}"
    );
    // The run's record keeps what it made, and the page finds it as the last calibration.
    let detail = daemon.handle.run(run).expect("history").expect("recorded");
    assert_eq!(detail.calibration.as_ref(), Some(&done));
    let last = daemon.handle.last_calibration().expect("history");
    assert_eq!(
        last.map(|l| (l.run, l.calibration)),
        Some((run, done.clone()))
    );
    daemon.sim.as_ref().expect("sim").load_cube(random(9));
    let refused = daemon
        .handle
        .calibrate()
        .await
        .expect_err("not a solved cube");
    assert!(refused.reason.contains("solved cube"), "{}", refused.reason);
    // A refused calibration keeps nothing: the last is still the one that succeeded.
    let refused_run = daemon.handle.status().run.expect("a recorded run");
    assert_ne!(refused_run, run);
    finished(&daemon.handle, refused_run).await;
    let detail = daemon.handle.run(refused_run).expect("history");
    assert_eq!(detail.expect("recorded").calibration, None);
    let last = daemon.handle.last_calibration().expect("history");
    assert_eq!(last.map(|l| l.run), Some(run));
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
        let (mut lines, mut first_eta, mut checking) = (Vec::new(), None, Vec::new());
        loop {
            match events.recv().await {
                Ok(DaemonEvent::Log { message, .. }) => lines.push(message),
                Ok(DaemonEvent::Status(s)) => {
                    let start = s.progress.filter(|p| p.moves_done == 0);
                    first_eta = first_eta.or(start.map(|p| p.eta_ms));
                    if s.state == DaemonState::Verifying {
                        checking.push((s.facelets.is_some(), s.facelets_unread));
                    }
                }
                Ok(DaemonEvent::RunFinished { .. }) => return (lines, first_eta, checking),
                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {}
                Err(_) => return (lines, first_eta, checking),
            }
        }
    });
    let run = daemon.handle.start(StartSource::Web).await.expect("start");
    let end = finished(&daemon.handle, run).await;
    assert_eq!(end.state, DaemonState::Done, "{}", end.message);
    let (lines, first_eta, checking) = told.await.expect("events read");
    // While the check scan photographs it, the cube shown is the one the turns should have
    // left, said unread; once read, it is the cube the camera saw.
    assert!(checking.iter().all(|&(shown, _)| shown), "{checking:?}");
    let read_at = checking.iter().position(|&(_, unread)| !unread);
    let (photographing, read) = checking.split_at(read_at.unwrap_or(checking.len()));
    assert!(!photographing.is_empty(), "never said unread: {checking:?}");
    assert!(read.iter().all(|&(_, unread)| !unread), "{checking:?}");
    assert!(!end.facelets_unread && end.facelets.is_some(), "{end:?}");
    assert!(!end.calibrating_run);
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
    // The wall time of a simulator at 4x is not the robot's: said so.
    assert!(
        (lines.iter())
            .any(|l| l.contains("executed ")
                && l.ends_with("s (the simulator at 4x the robot's speed)")),
        "{lines:#?}"
    );
    let detail = daemon.handle.run(run).expect("history").expect("recorded");
    let planned = f64::from(detail.solutions[0].planned_ms);
    let eta = first_eta.expect("a first ETA") as f64;
    assert!(
        (eta - planned / 4.0).abs() <= 1.0,
        "ETA {eta} ms, planned {planned} ms"
    );
}
