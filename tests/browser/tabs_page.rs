//! The page's tabs have addresses a person can bookmark or share (`#robot`, `#history`, `#guide`, `#colours`, and `#run-N` for run N's record): a page opened at one shows it, switching tabs changes the address, and back and forward go through them.

use super::{click, close_all, in_page, wait_for, wait_for_text, Browser};
use fantoccini::Client;

/// The address's fragment, without its `#`.
async fn fragment(page: &Client) -> String {
    let url = page.current_url().await.expect("the page's address");
    url.fragment().unwrap_or_default().to_string()
}

/// The panels shown, and the tab marked as the one open.
async fn open_tab(page: &Client) -> (Vec<String>, Vec<String>) {
    in_page(
        page,
        "return [[...document.querySelectorAll('.panel')].filter((p) => !p.hidden).map((p) => p.id),
                 [...document.querySelectorAll('.tab.active')].map((t) => t.dataset.tab)];",
        Vec::new(),
    )
    .await
}

/// Waits until the tab `tab` is open (its panel shown, and only it), then checks that the
/// address says `address`.
async fn shows(page: &Client, tab: &str, address: &str) {
    wait_for(
        page,
        &format!("#{tab}-panel:not([hidden])"),
        &format!("the {tab} tab at #{address}"),
    )
    .await;
    let (panels, tabs) = open_tab(page).await;
    assert_eq!(panels, [format!("{tab}-panel")], "at #{address}");
    assert_eq!(tabs, [tab], "the tab marked open at #{address}");
    assert_eq!(fragment(page).await, address);
}

/// Waits until run `run`'s record is shown.
async fn shows_run(page: &Client, run: u64) {
    shows(page, "history", &format!("run-{run}")).await;
    wait_for(page, "#run-detail:not([hidden])", "the run's record").await;
    wait_for_text(page, "run-detail", &format!("Run {run}: solved")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tabs_and_runs_have_addresses_that_back_and_forward_follow() {
    let Some(browser) = Browser::start().await else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let daemon = crate::daemon::start(dir.path(), "", 4.0).await;
    let sim = daemon.sim.as_ref().expect("sim");
    sim.load_cube(crate::daemon::random(71));
    let (addr, server) = crate::daemon::serve_web(&daemon).await;
    let page = browser.client();
    page.goto(&format!("http://{addr}/"))
        .await
        .expect("the page loads");
    wait_for_text(page, "state", "idle").await;
    click(page, "#start").await;
    wait_for_text(page, "state", "done").await;
    let run = daemon.handle.status().run.expect("the run");

    // A page opened at an address shows that tab, or that run's record.
    for (tab, address) in [("colours", "colours"), ("guide", "guide")] {
        page.goto("about:blank").await.expect("away");
        (page.goto(&format!("http://{addr}/#{address}")).await).expect("the page loads");
        shows(page, tab, address).await;
    }
    page.goto("about:blank").await.expect("away");
    (page.goto(&format!("http://{addr}/#run-{run}")).await).expect("the page loads");
    shows_run(page, run).await;

    // Switching tabs changes the address; a run's record has its own.
    click(page, ".tab[data-tab=robot]").await;
    shows(page, "robot", "robot").await;
    click(page, ".tab[data-tab=history]").await;
    shows(page, "history", "history").await;
    wait_for(page, "#run-detail[hidden]", "no record at #history").await;
    click(page, &format!("#runs .run-row[data-run=\"{run}\"]")).await;
    shows_run(page, run).await;
    click(page, ".tab[data-tab=guide]").await;
    shows(page, "guide", "guide").await;

    // Back and forward go through them.
    page.back().await.expect("back");
    shows_run(page, run).await;
    page.back().await.expect("back");
    shows(page, "history", "history").await;
    wait_for(page, "#run-detail[hidden]", "no record at #history").await;
    page.back().await.expect("back");
    shows(page, "robot", "robot").await;
    page.forward().await.expect("forward");
    shows(page, "history", "history").await;
    page.forward().await.expect("forward");
    shows_run(page, run).await;
    // Closing the record goes back to the list's address.
    click(page, "#run-detail .close").await;
    shows(page, "history", "history").await;
    wait_for(page, "#run-detail[hidden]", "the record closed").await;

    // The address typed by hand: another tab at once, and the robot's panel for one unknown.
    (page.goto(&format!("http://{addr}/#colours")).await).expect("the address changes");
    shows(page, "colours", "colours").await;
    (page.goto(&format!("http://{addr}/#nothing")).await).expect("the address changes");
    wait_for(page, "#robot-panel:not([hidden])", "the robot's panel").await;
    close_all(browser, daemon, server).await;
}
