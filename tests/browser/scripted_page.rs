//! The page against the scripted daemon (no robot): start a run and watch it finish, see a refusal, the e-stop from another panel, and guide mode.

use super::{click, in_page, screenshot, shown, text_of, wait_for, wait_for_text, Browser};
use cubed::daemon::{DaemonHandle, History};
use cubed::web::scripted::{self, SECOND_START};
use cubed::web::{serve, WebSettings};
use fantoccini::Locator;
use std::sync::Arc;
use std::time::Duration;

/// Waits for the run to be part way through its moves, then checks the progress bar shows
/// the share of moves its text gives, and that the net is said not read yet (read together,
/// in one script).
async fn bar_counts_moves_mid_run(page: &fantoccini::Client, moves: usize) {
    let script = "const bar = document.getElementById('progress-bar'); \
        return [document.getElementById('progress-text').textContent, bar.value, \
                document.getElementById('net-unread').hidden];";
    for _ in 0..2000 {
        let (text, value, unread_hidden): (String, f64, bool) = in_page(page, script, vec![]).await;
        let done = text
            .strip_prefix("move ")
            .and_then(|rest| rest.split(' ').next())
            .and_then(|n| n.parse::<usize>().ok());
        if let Some(done) = done.filter(|&d| d > 0 && d < moves) {
            let share = done as f64 / moves as f64;
            assert!(
                (value - share).abs() < 1e-6,
                "{text}: the bar shows {value}"
            );
            assert!(!unread_hidden, "{text}: the net is not said to be unread");
            return;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    panic!("the run was never seen part way through its moves");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_runs_the_scripted_daemon() {
    let Some(browser) = Browser::start().await else {
        return;
    };
    let history_dir = tempfile::tempdir().expect("temp dir");
    let history = Arc::new(History::open(history_dir.path()).expect("history opens"));
    let (handle, inbox) = DaemonHandle::new(scripted::idle_status(), history);
    // Slow enough that a person could watch, and that a page polled over WebDriver on a
    // loaded 2-core machine still sees each move (at 60 ms a move, one CI run saw none part
    // way); the test waits for states, not for time.
    tokio::spawn(scripted::respond(inbox, Duration::from_millis(250)));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a free port");
    let addr = listener.local_addr().expect("address");
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let settings = WebSettings {
        bind: addr,
        token: None,
    };
    let server = tokio::spawn(serve(listener, handle, settings, async move {
        let _ = stopped.await;
    }));
    let page = browser.client();
    page.goto(&format!("http://{addr}/"))
        .await
        .expect("the page loads");

    // Live status over the WebSocket.
    wait_for_text(page, "state", "idle").await;
    wait_for_text(page, "conn", "live").await;

    // A run, to the end.
    click(page, "#start").await;
    let moves = scripted::SOLUTION.split(' ').count();
    bar_counts_moves_mid_run(page, moves).await;
    wait_for_text(page, "state", "done").await;
    wait_for_text(page, "progress-text", &format!("move {moves} of {moves}")).await;
    let cells = page
        .find_all(Locator::Css("#net .cell"))
        .await
        .expect("net cells");
    assert_eq!(cells.len(), 54, "the net shows the cube");
    // The check scan read it: no longer said to be unread.
    assert!(!shown(page, "#net-unread").await, "read by the check scan");
    let marks = page
        .find_all(Locator::Css("#photos .mark"))
        .await
        .expect("photo overlays");
    assert_eq!(marks.len(), 54, "six photos with nine colours each");
    let unsure = page
        .find_all(Locator::Css("#photos .mark.unsure"))
        .await
        .expect("unsure marks");
    assert_eq!(
        unsure.len(),
        6,
        "the low-confidence sticker of each photo is marked"
    );
    // Each photo is shown where its stickers were found, so the marks sit on them.
    let cropped = page
        .find_all(Locator::Css("#photos img.cropped"))
        .await
        .expect("photos");
    assert_eq!(cropped.len(), 6, "every photo shown by its grid");
    screenshot(page, "done").await;
    // A page opened later shows what was said before it opened.
    page.goto(&format!("http://{addr}/"))
        .await
        .expect("the page loads again");
    wait_for_text(page, "state", "done").await;
    wait_for_text(page, "log", &format!("solution: {}", scripted::SOLUTION)).await;

    // A refused start is shown, not swallowed.
    click(page, "#start").await;
    wait_for_text(page, "error", SECOND_START).await;
    wait_for_text(page, "error", "409").await;
    screenshot(page, "refused").await;

    // Guide mode: the scripted scramble, step by step.
    click(page, ".tab[data-tab=guide]").await;
    let input = wait_for(page, "#guide-input", "guide input").await;
    input
        .send_keys(&scripted::states()[0])
        .await
        .expect("typing the cube");
    click(page, "#guide-solve").await;
    let first = scripted::SOLUTION.split(' ').next().unwrap_or_default();
    wait_for_text(page, "guide-step", &format!("step 1 of {moves}: {first} (")).await;
    // Said in words too, the face named as a person holding the cube names it.
    let named = match &first[..1] {
        "U" => "top",
        "D" => "bottom",
        "F" => "front",
        "B" => "back",
        "L" => "left",
        _ => "right",
    };
    wait_for_text(page, "guide-step", &format!("turn the {named} face")).await;
    let face = &first[..1];
    wait_for(
        page,
        &format!("#guide-net .face.turning[data-face={face}]"),
        "the face about to turn is outlined",
    )
    .await;
    click(page, "#guide-next").await;
    wait_for_text(page, "guide-step", &format!("step 2 of {moves}")).await;
    click(page, "#guide-prev").await;
    wait_for_text(page, "guide-step", &format!("step 1 of {moves}")).await;
    // View from the top: the U side is drawn where the front is.
    let view = wait_for(page, "#guide-view", "view selector").await;
    view.select_by_value("U")
        .await
        .expect("choosing the top view");
    wait_for(
        page,
        "#guide-net .pos-F[data-face=U]",
        "the top viewed as the front",
    )
    .await;
    screenshot(page, "guide").await;
    for _ in 0..moves {
        click(page, "#guide-next").await;
    }
    wait_for_text(page, "guide-step", &format!("solved after {moves} steps")).await;

    // The emergency stop works while another panel is open.
    click(page, "#estop").await;
    click(page, ".tab[data-tab=robot]").await;
    wait_for_text(page, "state", "e-stopped").await;
    // Where the robot link stands is shown while it is not simply open.
    wait_for_text(
        page,
        "link",
        "robot link: the robot's e-stop button was still held at the last Reset or Resume",
    )
    .await;
    wait_for_text(page, "link", scripted::BUTTON_HELD).await;
    // And whether its button is still down, on a line of its own.
    wait_for_text(page, "estop-button", "e-stop button: held down").await;
    screenshot(page, "e-stopped").await;
    click(page, "#reset").await;
    wait_for_text(page, "state", "idle").await;
    let link_shown = page
        .find(Locator::Css("#link"))
        .await
        .expect("the link line")
        .is_displayed()
        .await
        .expect("displayed or not");
    assert!(!link_shown, "an open link needs no line");
    let button_shown = page
        .find(Locator::Css("#estop-button"))
        .await
        .expect("the e-stop button's line")
        .is_displayed()
        .await
        .expect("displayed or not");
    assert!(!button_shown, "nothing to say of the button after a reset");
    let error = text_of(page, "#error").await;
    assert!(
        error.trim().is_empty(),
        "a successful action clears the error: {error:?}"
    );

    // Calibration: the ΔE table with its scale, and what to mend on the panel itself, set
    // apart, not only in the Robot tab's log.
    click(page, ".tab[data-tab=colours]").await;
    click(page, "#calibrate").await;
    wait_for_text(page, "calibration", "saved to /tmp/scripted-palette.toml").await;
    wait_for_text(page, "calibration", "about 1 is just noticeable").await;
    let notice = text_of(page, "#calibration .notice").await;
    assert_eq!(notice.trim(), scripted::CALIBRATION_WARNING);
    screenshot(page, "calibrated").await;

    browser.close().await;
    let _ = stop.send(());
    server
        .await
        .expect("server task")
        .expect("the server stops cleanly");
}
