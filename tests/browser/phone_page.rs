//! The page on a phone-wide window (390 px: nothing overflows, the e-stop is big and in reach on every panel) and on a daemon with a token (beyond loopback, or on it: the page asks for the token as it opens, then works, the e-stop at its first press).

use super::{click, screenshot, shown, wait_for, wait_for_text, Browser};
use cubed::daemon::{DaemonHandle, History};
use cubed::web::scripted;
use cubed::web::{serve, WebSettings};
use fantoccini::Client;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::oneshot;

const PHONE_WIDTH: u32 = 390;
const PHONE_HEIGHT: u32 = 844;
const TOKEN: &str = "0123456789abcdef-phone";

/// A scripted daemon served on `bind`; dropping the sender stops the server.
async fn scripted_server(
    bind: &str,
    token: Option<&str>,
) -> (SocketAddr, oneshot::Sender<()>, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("temp dir");
    let history = Arc::new(History::open(dir.path()).expect("history opens"));
    let idle = cubed::daemon::StatusDoc {
        actions_need_token: token.is_some(),
        ..scripted::idle_status()
    };
    let (handle, inbox) = DaemonHandle::new(idle, history);
    tokio::spawn(scripted::respond(inbox, Duration::from_millis(20)));
    let listener = tokio::net::TcpListener::bind(bind)
        .await
        .expect("a free port");
    let local = listener.local_addr().expect("address");
    let settings = WebSettings {
        bind: local,
        token: token.map(str::to_string),
    };
    let (stop, stopped) = oneshot::channel::<()>();
    tokio::spawn(serve(listener, handle, settings, async move {
        let _ = stopped.await;
    }));
    (SocketAddr::from(([127, 0, 0, 1], local.port())), stop, dir)
}

/// What the page measures of itself: overflow and where the e-stop is.
#[derive(serde::Deserialize, Debug)]
struct Layout {
    inner_width: f64,
    inner_height: f64,
    scroll_width: f64,
    estop: [f64; 4],
    estop_on_top: bool,
}

const MEASURE: &str = "
    const b = document.getElementById('estop').getBoundingClientRect();
    const x = b.left + b.width / 2, y = b.top + b.height / 2;
    const top = document.elementFromPoint(x, y);
    return JSON.stringify({
        inner_width: window.innerWidth,
        inner_height: window.innerHeight,
        scroll_width: Math.max(document.documentElement.scrollWidth, document.body.scrollWidth),
        estop: [b.left, b.top, b.right, b.bottom],
        estop_on_top: !!top && (top.id === 'estop' || top.closest('#estop') !== null),
    });";

async fn layout(page: &Client) -> Layout {
    let value = page
        .execute(MEASURE, Vec::new())
        .await
        .expect("the page measures itself");
    let text = value.as_str().expect("a JSON string");
    serde_json::from_str(text).expect("the layout")
}

/// Nothing wider than the window, and the e-stop whole, big and on top, in the window.
async fn assert_fits(page: &Client, what: &str) {
    let l = layout(page).await;
    assert!(
        l.scroll_width <= l.inner_width,
        "{what}: the page is {} px wide in a {} px window",
        l.scroll_width,
        l.inner_width
    );
    let [left, top, right, bottom] = l.estop;
    assert!(
        left >= 0.0 && top >= 0.0 && right <= l.inner_width && bottom <= l.inner_height,
        "{what}: the e-stop {:?} is not all in the {}x{} window",
        l.estop,
        l.inner_width,
        l.inner_height
    );
    assert!(
        right - left >= 200.0 && bottom - top >= 56.0,
        "{what}: the e-stop is small: {:?}",
        l.estop
    );
    assert!(l.estop_on_top, "{what}: something covers the e-stop");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_fits_a_phone_with_the_estop_in_reach() {
    let Some(browser) = Browser::start().await else {
        return;
    };
    let (addr, stop, _dir) = scripted_server("127.0.0.1:0", None).await;
    let page = browser.client();
    page.set_window_size(PHONE_WIDTH, PHONE_HEIGHT)
        .await
        .expect("a phone-sized window");
    page.goto(&format!("http://{addr}/"))
        .await
        .expect("the page loads");
    let width = layout(page).await.inner_width;
    assert!(
        width <= f64::from(PHONE_WIDTH),
        "the window is {width} px wide, not a phone's"
    );
    wait_for_text(page, "conn", "live").await;
    // A finished run fills the panel: the net, six photos, the solution.
    click(page, "#start").await;
    wait_for_text(page, "state", "done").await;
    wait_for(page, "#photos .photo", "the photos").await;
    assert_fits(page, "robot panel after a run").await;
    screenshot(page, "phone-robot").await;
    page.execute(
        "window.scrollTo(0, document.body.scrollHeight);",
        Vec::new(),
    )
    .await
    .expect("scrolling");
    assert_fits(page, "robot panel scrolled to the end").await;
    screenshot(page, "phone-robot-scrolled").await;
    for tab in ["history", "guide", "colours"] {
        click(page, &format!(".tab[data-tab={tab}]")).await;
        if tab == "guide" {
            let input = wait_for(page, "#guide-input", "guide input").await;
            input
                .send_keys(&scripted::states()[0])
                .await
                .expect("typing the cube");
            click(page, "#guide-solve").await;
            wait_for_text(page, "guide-step", "step 1 of").await;
        }
        if tab == "history" {
            // The scripted daemon keeps no history: the list says so.
            wait_for_text(page, "history-status", "no runs yet").await;
        }
        assert_fits(page, tab).await;
        screenshot(page, &format!("phone-{tab}")).await;
    }
    // The e-stop works from there.
    click(page, "#estop").await;
    click(page, ".tab[data-tab=robot]").await;
    wait_for_text(page, "state", "e-stopped").await;
    browser.close().await;
    let _ = stop.send(());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_beyond_loopback_asks_for_the_token_then_works() {
    let Some(browser) = Browser::start().await else {
        return;
    };
    let (addr, stop, _dir) = scripted_server("0.0.0.0:0", Some(TOKEN)).await;
    let page = browser.client();
    page.goto(&format!("http://{addr}/"))
        .await
        .expect("the page loads");
    wait_for(page, "#token-form:not([hidden])", "the token form").await;
    wait_for_text(page, "conn", "needs its access token").await;
    screenshot(page, "token-asked").await;
    let input = wait_for(page, "#token-input", "the token field").await;
    input.send_keys(TOKEN).await.expect("typing the token");
    click(page, "#token-submit").await;
    wait_for_text(page, "conn", "live").await;
    wait_for_text(page, "state", "idle").await;
    wait_for(page, "#token-form[hidden]", "the form goes away").await;
    click(page, "#start").await;
    wait_for_text(page, "state", "done").await;
    // Photos come with the token too (they are reads).
    wait_for(
        page,
        "#photos .photo img[src*='token=']",
        "photos asked for with the token",
    )
    .await;
    click(page, "#estop").await;
    wait_for_text(page, "state", "e-stopped").await;
    browser.close().await;
    let _ = stop.send(());
}

/// On loopback with a token (reached through an ssh tunnel), reads need none but every button
/// does: the page asks for the token as it opens, so the first e-stop press stops the robot.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_on_loopback_with_a_token_asks_for_it_before_any_button_is_pressed() {
    let Some(browser) = Browser::start().await else {
        return;
    };
    let (addr, stop, _dir) = scripted_server("127.0.0.1:0", Some(TOKEN)).await;
    let page = browser.client();
    page.goto(&format!("http://{addr}/"))
        .await
        .expect("the page loads");
    wait_for_text(page, "state", "idle").await;
    wait_for(page, "#token-form:not([hidden])", "the token form, at once").await;
    wait_for_text(page, "token-why", "the emergency stop too").await;
    wait_for_text(page, "conn", "live").await;
    // A token mistyped first is refused and said so; the right one puts the page back live.
    let input = wait_for(page, "#token-input", "the token field").await;
    input
        .send_keys("not-the-token")
        .await
        .expect("typing a wrong token");
    click(page, "#token-submit").await;
    wait_for_text(page, "token-why", "that token was refused").await;
    wait_for_text(page, "conn", "needs its access token").await;
    let input = wait_for(page, "#token-input", "the token field").await;
    input.send_keys(TOKEN).await.expect("typing the token");
    click(page, "#token-submit").await;
    wait_for(page, "#token-form[hidden]", "the form goes away").await;
    wait_for_text(page, "conn", "live").await;
    click(page, "#estop").await;
    wait_for_text(page, "state", "e-stopped").await;
    assert!(!shown(page, "#error").await, "the first press was taken");
    browser.close().await;
    let _ = stop.send(());
}

/// The daemon gone while the page is open: the page says it cannot reach it and offers no
/// button but the e-stop, which, pressed, says to use the robot's own; back, it is live again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_whose_daemon_goes_away_says_so_and_sends_to_the_robots_own_e_stop() {
    let Some(browser) = Browser::start().await else {
        return;
    };
    let (addr, stop, _dir) = scripted_server("127.0.0.1:0", None).await;
    let page = browser.client();
    page.goto(&format!("http://{addr}/"))
        .await
        .expect("the page loads");
    wait_for_text(page, "conn", "live").await;
    wait_for_text(page, "state", "idle").await;
    let _ = stop.send(());
    wait_for_text(page, "state", "no connection").await;
    wait_for_text(page, "message", "press its own emergency stop button").await;
    let start_disabled: bool = super::in_page(
        page,
        "return document.getElementById('start').disabled;",
        vec![],
    )
    .await;
    assert!(
        start_disabled,
        "Start is not offered to a daemon that is gone"
    );
    click(page, "#estop").await;
    wait_for_text(page, "error-text", "the robot did not stop").await;
    browser.close().await;
}
