//! Browser tests: a real headless Chromium, driven over WebDriver (`chromedriver` + fantoccini), against the page served by `cubed::web::serve`. Skipped loudly when Chromium is missing, unless `CUBED_REQUIRE_BROWSER=1`.

mod daemon_page;
mod lines_page;
mod phone_page;
mod pocket_page;
mod recovery_page;
mod scripted_page;
mod tabs_page;

use fantoccini::{Client, ClientBuilder, Locator};
use nix::sys::signal::{killpg, Signal};
use nix::unistd::Pid;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;
use tempfile::TempDir;

const SKIPPED: &str = "the browser tests need chromium + chromium-driver \
                       (apt-get install -y chromium chromium-driver); .ci/run installs them";

/// How long the page may take to show what a step expects (a bound, not a timing assertion).
pub const PATIENCE: Duration = Duration::from_secs(30);

/// A phone's window, width and height in CSS pixels.
pub const PHONE: (u32, u32) = (390, 844);

const CHROMEDRIVERS: &[&str] = &["/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"];
const CHROMIUMS: &[&str] = &["/usr/lib/chromium/chromium", "/usr/bin/chromium"];

const CHROMIUM_ARGS: &[&str] = &[
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1280,1000",
];

/// A headless Chromium session; chromedriver (and the browser under it) dies with it.
pub struct Browser {
    client: Option<Client>,
    driver: Child,
    _profile: TempDir,
}

fn first_existing(paths: &[&str]) -> Option<PathBuf> {
    paths
        .iter()
        .map(Path::new)
        .find(|p| p.is_file())
        .map(Path::to_path_buf)
}

/// Starts chromedriver on a port of its choosing and opens a session on it.
async fn start_once(driver_path: &Path, chromium: &Path) -> Result<Browser, String> {
    let mut driver = Command::new(driver_path)
        .arg("--port=0")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        // Its own process group, so the browser under it can be killed with it.
        .process_group(0)
        .spawn()
        .map_err(|e| format!("starting {}: {e}", driver_path.display()))?;
    let session = match announced_port(&mut driver).await {
        Ok(port) => open_session(SocketAddr::from(([127, 0, 0, 1], port)), chromium).await,
        Err(e) => Err(e),
    };
    match session {
        Ok((client, profile)) => Ok(Browser {
            client: Some(client),
            driver,
            _profile: profile,
        }),
        Err(e) => {
            kill_group(&mut driver);
            Err(e)
        }
    }
}

/// The port chromedriver says it listens on; a thread keeps draining its stdout after that.
async fn announced_port(driver: &mut Child) -> Result<u16, String> {
    let stdout = driver
        .stdout
        .take()
        .ok_or("chromedriver's stdout is not piped")?;
    let (tell, told) = tokio::sync::oneshot::channel();
    std::thread::spawn(move || {
        let mut tell = Some(tell);
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if let Some(port) = port_in(&line) {
                if let Some(tell) = tell.take() {
                    let _ = tell.send(port);
                }
            }
        }
    });
    match tokio::time::timeout(PATIENCE, told).await {
        Ok(Ok(port)) => Ok(port),
        Ok(Err(_)) => Err(format!(
            "chromedriver ended before saying its port ({:?})",
            driver.try_wait()
        )),
        Err(_) => Err(format!(
            "chromedriver did not say its port within {PATIENCE:?}"
        )),
    }
}

/// The port in chromedriver's "ChromeDriver was started successfully on port N." line.
fn port_in(line: &str) -> Option<u16> {
    let rest = line.strip_prefix("ChromeDriver was started successfully on port ")?;
    rest.trim().trim_end_matches('.').parse().ok()
}

#[test]
fn chromedriver_port_line_is_read() {
    assert_eq!(
        port_in("ChromeDriver was started successfully on port 46495."),
        Some(46495)
    );
    assert_eq!(port_in("Only local connections are allowed."), None);
    assert_eq!(
        port_in("ChromeDriver was started successfully on port x."),
        None
    );
}

/// Opens a WebDriver session on a Chromium with a fresh profile.
async fn open_session(addr: SocketAddr, chromium: &Path) -> Result<(Client, TempDir), String> {
    let profile = TempDir::new().map_err(|e| format!("a temporary Chromium profile: {e}"))?;
    let mut args: Vec<String> = CHROMIUM_ARGS.iter().map(|a| a.to_string()).collect();
    args.push(format!("--user-data-dir={}", profile.path().display()));
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".to_string(),
        serde_json::json!({ "binary": chromium, "args": args }),
    );
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    let client = ClientBuilder::new(connector)
        .capabilities(caps)
        .connect(&format!("http://{addr}"))
        .await
        .map_err(|e| e.to_string())?;
    Ok((client, profile))
}

impl Browser {
    /// Starts chromedriver and a browser session, or `None` (said loudly on stderr) when
    /// Chromium is not installed; with `CUBED_REQUIRE_BROWSER=1` a missing browser is a failure.
    pub async fn start() -> Option<Browser> {
        let (Some(driver_path), Some(chromium)) =
            (first_existing(CHROMEDRIVERS), first_existing(CHROMIUMS))
        else {
            crate::common::not_checked(SKIPPED, Some("CUBED_REQUIRE_BROWSER"));
            return None;
        };
        // chromedriver picks its own port and says it, so no other test can take the port
        // between choosing and binding it (a test's daemon once answered in its place).
        // One more try, said on stderr, if the driver or the session does not come up.
        let mut failure = String::new();
        for attempt in 1..=2 {
            match start_once(&driver_path, &chromium).await {
                Ok(browser) => return Some(browser),
                Err(e) => {
                    eprintln!("starting the browser, attempt {attempt} of 2: {e}");
                    failure = e;
                }
            }
        }
        panic!(
            "starting chromedriver and a Chromium session ({}): {failure}",
            chromium.display()
        );
    }

    pub fn client(&self) -> &Client {
        self.client
            .as_ref()
            .expect("the session is open until close")
    }

    /// Ends the session (the browser quits), then chromedriver.
    pub async fn close(mut self) {
        if let Some(client) = self.client.take() {
            let _ = client.close().await;
        }
        kill_group(&mut self.driver);
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        kill_group(&mut self.driver);
    }
}

fn kill_group(child: &mut Child) {
    if let Ok(None) = child.try_wait() {
        if let Ok(pid) = i32::try_from(child.id()) {
            // The process group we created for chromedriver (its leader's pid).
            let _ = killpg(Pid::from_raw(pid), Signal::SIGKILL);
        }
        let _ = child.kill();
    }
    let _ = child.wait();
}

/// An XPath string literal for `text` (which must not hold both kinds of quote).
fn xpath_literal(text: &str) -> String {
    if text.contains('\'') {
        format!("\"{text}\"")
    } else {
        format!("'{text}'")
    }
}

/// Waits until the element `#id` shows `text` (a substring of its visible text); a clear failure otherwise.
pub async fn wait_for_text(client: &Client, id: &str, text: &str) {
    let xpath = format!(
        "//*[@id={}][contains(normalize-space(.), {})]",
        xpath_literal(id),
        xpath_literal(text)
    );
    if client
        .wait()
        .at_most(PATIENCE)
        .every(Duration::from_millis(50))
        .for_element(Locator::XPath(&xpath))
        .await
        .is_err()
    {
        let now = text_of(client, &format!("#{id}")).await;
        panic!("#{id} never showed {text:?} within {PATIENCE:?}; it shows {now:?}");
    }
}

/// Waits until an element matches `css`; a clear failure naming `what` otherwise.
pub async fn wait_for(client: &Client, css: &str, what: &str) -> fantoccini::elements::Element {
    match client
        .wait()
        .at_most(PATIENCE)
        .every(Duration::from_millis(50))
        .for_element(Locator::Css(css))
        .await
    {
        Ok(e) => e,
        Err(e) => panic!("{what}: nothing matched {css} within {PATIENCE:?} ({e})"),
    }
}

/// The visible text of the first element matching `css`, or a note that there is none.
pub async fn text_of(client: &Client, css: &str) -> String {
    match client.find(Locator::Css(css)).await {
        Ok(e) => e
            .text()
            .await
            .unwrap_or_else(|e| format!("<unreadable: {e}>")),
        Err(_) => format!("<no element {css}>"),
    }
}

/// Whether the first element matching `css` is shown (false when there is none).
pub async fn shown(client: &Client, css: &str) -> bool {
    match client.find(Locator::Css(css)).await {
        Ok(e) => e
            .is_displayed()
            .await
            .unwrap_or_else(|e| panic!("is {css} shown: {e}")),
        Err(_) => false,
    }
}

/// Runs `script` in the page (its arguments `args`) and reads what it returns as a `T`.
pub async fn in_page<T: serde::de::DeserializeOwned>(
    client: &Client,
    script: &str,
    args: Vec<serde_json::Value>,
) -> T {
    let value = (client.execute(script, args).await)
        .unwrap_or_else(|e| panic!("the page runs the script: {e}"));
    serde_json::from_value(value.clone())
        .unwrap_or_else(|e| panic!("reading the page's answer {value}: {e}"))
}

/// Clicks the element matching `css`. A list the page redraws (the history, when a run ends)
/// may replace the element between finding and clicking it: then the new one is clicked, as a
/// person's next click would.
pub async fn click(client: &Client, css: &str) {
    for _ in 0..5 {
        let element = wait_for(client, css, "clicking").await;
        match element.click().await {
            Ok(()) => return,
            Err(e) if e.to_string().contains("stale element") => continue,
            Err(e) => panic!("clicking {css}: {e}"),
        }
    }
    panic!("clicking {css}: the page replaced the element five times in a row");
}

/// Saves a screenshot as `{CUBED_BROWSER_SCREENSHOTS}/{name}.png` when that variable names a directory (for people debugging a test).
pub async fn screenshot(client: &Client, name: &str) {
    let Some(dir) = std::env::var_os("CUBED_BROWSER_SCREENSHOTS") else {
        return;
    };
    match client.screenshot().await {
        Ok(png) => {
            let path = Path::new(&dir).join(format!("{name}.png"));
            if let Err(e) = std::fs::write(&path, png) {
                eprintln!("screenshot {}: {e}", path.display());
            }
        }
        Err(e) => eprintln!("screenshot {name}: {e}"),
    }
}

/// The web server of a test daemon, as `crate::daemon::serve_web` starts it.
pub type WebServer = tokio::task::JoinHandle<Result<(), cubed::web::WebError>>;

/// Serves `daemon`'s page, opens it in `browser` and waits until it says idle.
pub async fn open_idle_page(browser: &Browser, daemon: &cubed::daemon::RunningDaemon) -> WebServer {
    let (addr, server) = crate::daemon::serve_web(daemon).await;
    browser
        .client()
        .goto(&format!("http://{addr}/"))
        .await
        .expect("the page loads");
    wait_for_text(browser.client(), "state", "idle").await;
    server
}

/// Closes the browser, shuts the daemon down and checks its web server ended cleanly.
pub async fn close_all(browser: Browser, daemon: cubed::daemon::RunningDaemon, server: WebServer) {
    browser.close().await;
    daemon.shutdown().await;
    server
        .await
        .expect("server task")
        .expect("server ends cleanly");
}
