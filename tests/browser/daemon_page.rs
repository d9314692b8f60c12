//! The page against the real daemon on the simulated robot: click Start, watch the run reach done move by move (through a pulled cable), and find it in the run history with its interruption; an e-stopped run shown waiting until Resume.

use super::{
    click, close_all, open_idle_page, screenshot, shown, text_of, wait_for, wait_for_text, Browser,
};
use fantoccini::Locator;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_starts_a_real_run_and_lists_it_in_the_history() {
    let Some(browser) = Browser::start().await else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    // A cable pulled mid-run and put back: the run goes on, and its record shows the loss.
    let faults = "unplug-at-move=30,unplug-for=300ms";
    let daemon = crate::daemon::start(dir.path(), faults, 4.0).await;
    daemon
        .sim
        .as_ref()
        .expect("sim")
        .load_cube(crate::daemon::random(41));
    let server = open_idle_page(&browser, &daemon).await;
    let page = browser.client();
    click(page, "#start").await;
    wait_for_text(page, "state", "executing").await;
    wait_for_text(page, "progress-text", "move").await;
    wait_for_text(page, "state", "done").await;
    wait_for(
        page,
        "#runs .run-row[data-outcome=solved]",
        "the run in the history",
    )
    .await;
    click(page, ".tab[data-tab=history]").await;
    click(page, "#runs .run-row[data-outcome=solved]").await;
    wait_for_text(page, "run-detail", "(link): robot link lost").await;
    wait_for_text(page, "run-detail", "resumed").await;
    // Its rounds named as `cubed history` names them (the record's labels).
    wait_for_text(page, "run-detail", "scan 1").await;
    wait_for_text(page, "run-detail", "solve 1 (").await;
    wait_for_text(page, "run-detail", "check 1").await;
    // The outcome is coloured in its own column.
    let outcome = wait_for(page, "#runs .run-row td.outcome", "the outcome cell").await;
    assert_eq!(outcome.text().await.expect("text"), "solved");
    // The run's photos are shown where their stickers were found, as on the live page.
    let cropped = (page.find_all(Locator::Css("#run-detail img.cropped")).await).expect("photos");
    assert!(
        cropped.len() >= 12,
        "scan and verification: {}",
        cropped.len()
    );

    // A run e-stopped part-way: its record says it waits, until Resume takes it to solved.
    // The click must land before the last move, a few seconds at this speed: on a machine
    // too busy for that, the run is done again with another cube.
    let sim = daemon.sim.as_ref().expect("sim");
    let mut stopped_part_way = false;
    for seed in 42..45 {
        sim.load_cube(crate::daemon::random(seed));
        click(page, ".tab[data-tab=robot]").await;
        click(page, "#start").await;
        wait_for_text(page, "progress-text", "move").await;
        click(page, "#estop").await;
        wait_for_text(page, "message", "press Resume").await;
        stopped_part_way = !sim.cube().is_solved();
        click(page, ".tab[data-tab=history]").await;
        let stopped = "#runs .run-row[data-outcome=estopped]";
        wait_for(page, stopped, "the e-stopped run in the history").await;
        click(page, stopped).await;
        wait_for_text(page, "run-detail", "(estop)").await;
        wait_for_text(page, "run-detail", "waiting: press Resume").await;
        click(page, ".tab[data-tab=robot]").await;
        click(page, "#resume").await;
        wait_for_text(page, "state", "done").await;
        assert!(sim.cube().is_solved(), "resumed to solved");
        if stopped_part_way {
            break;
        }
        eprintln!("the page's e-stop came after the last move (a busy machine): again");
    }
    assert!(
        stopped_part_way,
        "the page's e-stop came after the last move three times: the machine is too busy"
    );

    // The Guide's "Use the last scan" after a solved run: the last cube the robot read
    // unsolved (the rescan after the resumption), not the solved check.
    let runs = daemon.handle.runs(1, None).expect("runs");
    let record = (daemon.handle.run(runs[0].id))
        .expect("history")
        .expect("recorded");
    let unsolved: Vec<String> = (record.scans.iter())
        .filter(|s| s.error.is_none())
        .filter_map(|s| s.facelets.clone())
        .filter(|f| {
            let faces: Vec<&[u8]> = f.as_bytes().chunks(9).collect();
            faces.iter().any(|face| face.iter().any(|&c| c != face[0]))
        })
        .collect();
    assert!(unsolved.len() >= 2, "scan 1 and the rescan: {unsolved:?}");
    click(page, ".tab[data-tab=guide]").await;
    click(page, "#guide-last").await;
    let typed = "return document.getElementById('guide-input').value;";
    let mut value = String::new();
    for _ in 0..100 {
        value = (page
            .execute(typed, vec![])
            .await
            .expect("the input's value"))
        .as_str()
        .unwrap_or_default()
        .to_string();
        if !value.is_empty() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(Some(&value), unsolved.last(), "{:?}", record.scans);
    let check = record.scans.last().and_then(|s| s.facelets.clone());
    assert_ne!(Some(value), check, "not the solved check");

    // The first run's photos pruned by the history's limits: its record says so, not "no photos".
    let history = cubed::daemon::History::open(dir.path()).expect("a second handle on the history");
    let runs = daemon.handle.runs(10, None).expect("runs").len();
    history.set_retention(cubed::daemon::config::Retention {
        keep_runs: u32::try_from(runs - 1).expect("a few runs"),
        max_photo_bytes: u64::MAX,
    });
    assert_eq!(history.prune_photos().expect("prunes").runs, 1);
    let first = daemon
        .handle
        .runs(10, None)
        .expect("runs")
        .last()
        .expect("two runs")
        .id;
    click(page, ".tab[data-tab=history]").await;
    click(page, &format!("#runs .run-row[data-run=\"{first}\"]")).await;
    wait_for_text(page, "run-detail", "photos removed").await;
    wait_for_text(page, "run-detail", "keep_runs").await;

    // A calibration pressed on the page (the cube is solved): its record says what its
    // photos were for, in `cubed history`'s words, not that a cube went unread.
    click(page, ".tab[data-tab=colours]").await;
    click(page, "#calibrate").await;
    wait_for_text(page, "calibration", "saved to").await;
    let run = daemon.handle.status().run.expect("the calibration's run");
    // The Robot tab's net says what the photos beside it were for.
    click(page, ".tab[data-tab=robot]").await;
    wait_for_text(page, "net", "photographed for calibration").await;
    click(page, ".tab[data-tab=history]").await;
    click(page, &format!("#runs .run-row[data-run=\"{run}\"]")).await;
    wait_for_text(page, "run-detail", "photographed for calibration").await;
    // ... and what it made, as the Colours tab showed it.
    wait_for_text(page, "run-detail", "ΔE00 before").await;
    let saved = dir.path().join("palette.toml").display().to_string();
    wait_for_text(page, "run-detail", &format!("saved to {saved}")).await;
    // A reload keeps the last calibration on the Colours tab, with its run.
    page.refresh().await.expect("the page reloaded");
    click(page, ".tab[data-tab=colours]").await;
    wait_for_text(
        page,
        "calibration",
        &format!("the last calibration: run {run}"),
    )
    .await;
    wait_for_text(page, "calibration", &format!("saved to {saved}")).await;
    let rows = text_of(page, "#calibration table").await;
    for colour in &daemon.handle.status().palette {
        assert!(rows.contains(&colour.name), "{} in {rows}", colour.name);
    }
    screenshot(page, "last-calibration").await;
    close_all(browser, daemon, server).await;
}

/// Stop says itself until the run reaches its step boundary; the live photos of a check scan
/// are captioned as the record names them; a run abandoned with Reset is said so in one log
/// line, and the record opened from the list is brought into view.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stopping_checks_and_an_abandoned_run_are_said_as_the_daemon_says_them() {
    let Some(browser) = Browser::start().await else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let daemon = crate::daemon::start(dir.path(), "", 1.0).await;
    let sim = daemon.sim.as_ref().expect("sim");
    sim.load_cube(crate::daemon::random(43));
    let server = open_idle_page(&browser, &daemon).await;
    let page = browser.client();
    click(page, "#start").await;
    wait_for_text(page, "progress-text", "move").await;
    // Everything the state line and the Stop button show, kept: "stopping" lasts only until
    // the step boundary, which a busy machine may reach between two looks at the page.
    page.execute(
        "window.shown = []; const s = document.getElementById('state'); \
         const b = document.getElementById('stop'); \
         const o = new MutationObserver(() => \
           window.shown.push([s.textContent, b.textContent, b.disabled])); \
         const all = {childList: true, characterData: true, subtree: true, attributes: true}; \
         o.observe(s, all); o.observe(b, all);",
        Vec::new(),
    )
    .await
    .expect("script");
    click(page, "#stop").await;
    wait_for_text(page, "state", "idle").await;
    let shown: Vec<(String, String, bool)> =
        super::in_page(page, "return window.shown;", vec![]).await;
    assert!(
        shown.iter().any(|(state, ..)| state.contains("(stopping)")),
        "the state line said it was stopping: {shown:?}"
    );
    assert!(
        (shown.iter()).any(|(_, button, disabled)| button == "Stopping…" && *disabled),
        "Stop said it was stopping, disabled meanwhile: {shown:?}"
    );
    assert_eq!(text_of(page, "#stop").await, "Stop", "said no longer");

    // Run to the end: the check scan's photos say they are its.
    click(page, "#start").await;
    wait_for_text(page, "state", "done").await;
    wait_for_text(page, "photos", "(check)").await;
    assert!(sim.cube().is_solved());

    // E-stopped, then Reset: one line says how it ended and that it was abandoned.
    sim.load_cube(crate::daemon::random(44));
    click(page, "#start").await;
    wait_for_text(page, "progress-text", "move").await;
    click(page, "#estop").await;
    wait_for_text(page, "message", "press Resume").await;
    click(page, "#reset").await;
    wait_for_text(page, "log", "finished: e-stopped, abandoned (reset)").await;

    // The record opened from the list is in view, its heading focused.
    click(page, ".tab[data-tab=history]").await;
    let last = daemon.handle.runs(1, None).expect("runs")[0].id;
    click(page, &format!("#runs .run-row[data-run=\"{last}\"]")).await;
    wait_for_text(page, "run-detail", "abandoned (reset)").await;
    let focused = page
        .execute(
            "const h = document.querySelector('#run-detail h2'); const r = h.getBoundingClientRect(); \
             return document.activeElement === h && r.top >= 0 && r.top < window.innerHeight;",
            Vec::new(),
        )
        .await
        .expect("script");
    assert_eq!(
        focused,
        serde_json::json!(true),
        "the record's heading is focused and in view"
    );
    close_all(browser, daemon, server).await;
}

/// A robot that cannot be reached (its port no serial port): the page says so once, not in
/// the message and the link's line both, and a Calibrate pressed is refused with that reason.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unreachable_robot_is_said_once_and_refuses_a_calibration_with_its_reason() {
    use cubed::daemon::config::{CameraChoice, PortChoice};
    let Some(browser) = Browser::start().await else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let mut config = crate::daemon::config(dir.path(), "", 0.0);
    config.port = PortChoice::Serial("/dev/null".into());
    let photos = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/vision/photos/3x3x3-random-01");
    config.camera = CameraChoice::Dir(photos);
    let daemon = crate::daemon::start_with(&config).await;
    let server = open_idle_page(&browser, &daemon).await;
    let page = browser.client();
    wait_for_text(page, "message", "not a serial port").await;
    assert!(
        !shown(page, "#link").await,
        "the link's line repeats the message"
    );
    click(page, ".tab[data-tab=colours]").await;
    click(page, "#calibrate").await;
    wait_for_text(page, "error", "not a serial port").await;
    let error = text_of(page, "#error").await;
    assert!(!error.contains("shutting down"), "{error}");
    close_all(browser, daemon, server).await;
}
