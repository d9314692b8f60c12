//! Words the page never breaks inside: on a phone (390 px) each move of a solution, live and in the run's record, is its own element on one line (lines break only between moves, at every width of the list); on a wide screen the state badge keeps `e-stopped` on one line beside a long message, and that message shows the daemon's command as code, not in backticks.

use super::{
    click, close_all, in_page, open_idle_page, screenshot, text_of, wait_for, wait_for_text,
    Browser, PHONE,
};

/// The elements matching `arguments[0]`, each as its text and the line boxes its text makes.
const LINES: &str = "
  return [...document.querySelectorAll(arguments[0])].map((m) => {
    const range = document.createRange();
    range.selectNodeContents(m);
    const lines = [...range.getClientRects()].filter((r) => r.width > 0);
    return [m.textContent, lines.length, lines.length ? Math.round(lines[0].top) : -1];
  });";

/// The list `arguments[0]` made each width from `arguments[1]` to `arguments[2]` px in turn:
/// every move (an element of it) whose text then makes other than one line box, as words.
const SWEEP: &str = "
  const list = document.querySelector(arguments[0]);
  const broken = [];
  for (let width = arguments[1]; width <= arguments[2]; width += 1) {
    list.style.width = width + 'px';
    for (const m of list.querySelectorAll(arguments[3])) {
      const range = document.createRange();
      range.selectNodeContents(m);
      const lines = [...range.getClientRects()].filter((r) => r.width > 0).length;
      if (lines !== 1) broken.push(width + ' px: ' + JSON.stringify(m.textContent) + ' on ' + lines + ' lines');
    }
  }
  list.style.width = '';
  return broken;";

/// A face turn as the page names it: a face letter, then nothing, `2` or `'`.
fn is_move(text: &str) -> bool {
    let mut chars = text.chars();
    let face = chars.next().is_some_and(|f| "URFDLB".contains(f));
    let rest: String = chars.collect();
    face && ["", "2", "'"].contains(&rest.as_str())
}

/// Each move of `css` whole and on one line, as shown, and at every width of `list` from 80 px
/// to the phone's; the moves in order.
async fn moves_whole(page: &fantoccini::Client, list: &str, moves: &str) -> Vec<String> {
    let css = format!("{list} {moves}");
    let shown: Vec<(String, usize, i64)> = in_page(page, LINES, vec![serde_json::json!(css)]).await;
    assert!(!shown.is_empty(), "{css}: no moves shown");
    for (text, lines, _) in &shown {
        assert!(
            is_move(text),
            "{css}: {text:?} is not one move (shown {:?})",
            shown.iter().map(|m| &m.0).collect::<Vec<_>>()
        );
        assert_eq!(*lines, 1, "{css}: the move {text:?} is broken across lines");
    }
    let mut tops: Vec<i64> = shown.iter().map(|m| m.2).collect();
    tops.dedup();
    assert!(
        tops.len() >= 2,
        "{css}: the moves take one line ({} moves), so no break between lines is tested",
        shown.len()
    );
    let broken: Vec<String> = in_page(
        page,
        SWEEP,
        vec![
            serde_json::json!(list),
            serde_json::json!(80),
            serde_json::json!(PHONE.0),
            serde_json::json!(moves),
        ],
    )
    .await;
    assert!(
        broken.is_empty(),
        "{css}: moves broken inside at some widths of the list: {broken:?}"
    );
    shown.into_iter().map(|m| m.0).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_move_is_whole_on_one_line_on_a_phone() {
    let Some(browser) = Browser::start().await else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let daemon = crate::daemon::start(dir.path(), "", 4.0).await;
    let sim = daemon.sim.as_ref().expect("sim");
    sim.load_cube(crate::daemon::random(51));
    let page = browser.client();
    page.set_window_size(PHONE.0, PHONE.1)
        .await
        .expect("a phone-sized window");
    let server = open_idle_page(&browser, &daemon).await;
    click(page, "#start").await;
    wait_for_text(page, "state", "done").await;
    let status = daemon.handle.status();
    assert!(
        status.solution.len() >= 10,
        "a long solution to lay out: {:?}",
        status.solution
    );
    screenshot(page, "phone-solution").await;
    let shown = moves_whole(page, "#solution", "*").await;
    assert_eq!(
        shown, status.solution,
        "each move its own element, in order"
    );

    // The run's record shows its solution the same way.
    let run = status.run.expect("the run");
    click(page, ".tab[data-tab=history]").await;
    click(page, &format!("#runs .run-row[data-run=\"{run}\"]")).await;
    wait_for(page, "#run-detail .moves .move", "the record's solution").await;
    screenshot(page, "phone-run-record").await;
    let recorded = moves_whole(page, "#run-detail .moves", ".move").await;
    assert_eq!(recorded, status.solution, "the record's solution");
    close_all(browser, daemon, server).await;
}

/// `#state`: its text, its line boxes, and whether the text fits inside the badge.
const BADGE: &str = "
  const badge = document.getElementById('state');
  const range = document.createRange();
  range.selectNodeContents(badge);
  const lines = [...range.getClientRects()].filter((r) => r.width > 0).length;
  return [badge.textContent, lines, badge.scrollWidth <= badge.clientWidth];";

/// The badge with the status line `arguments[0]` px wide, for each width from `arguments[1]`
/// to `arguments[2]` by 10: where its text breaks or spills out of it.
const BADGE_SWEEP: &str = "
  const status = document.querySelector('.status');
  const badge = document.getElementById('state');
  const wrong = [];
  for (let width = arguments[0]; width <= arguments[1]; width += 10) {
    status.style.width = width + 'px';
    const range = document.createRange();
    range.selectNodeContents(badge);
    const lines = [...range.getClientRects()].filter((r) => r.width > 0).length;
    if (lines !== 1 || badge.scrollWidth > badge.clientWidth) {
      wrong.push(width + ' px: ' + lines + ' lines, ' + badge.scrollWidth + ' px of text in ' + badge.clientWidth);
    }
  }
  status.style.width = '';
  return wrong;";

/// Daemon text as the page shows it: `arguments[0]` put in a box; what the box holds.
const WORDS: &str = "
  const box = document.createElement('div');
  putWords(box, arguments[0]);
  return [box.textContent, [...box.querySelectorAll('*')].map((e) => e.tagName.toLowerCase()),
    [...box.querySelectorAll('code')].map((e) => e.textContent)];";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_state_badge_stays_one_line_beside_a_long_message() {
    let Some(browser) = Browser::start().await else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let daemon = crate::daemon::start(dir.path(), "", 4.0).await;
    let sim = daemon.sim.as_ref().expect("sim");
    sim.load_cube(crate::daemon::random(52));
    let server = open_idle_page(&browser, &daemon).await;
    let page = browser.client();
    click(page, "#start").await;
    wait_for_text(page, "progress-text", "move").await;
    click(page, "#estop").await;
    // The run's advice: a long message beside the badge.
    wait_for_text(page, "message", "press Resume").await;
    screenshot(page, "estopped-advice").await;
    let (text, lines, fits): (String, usize, bool) = in_page(page, BADGE, Vec::new()).await;
    assert_eq!(text, "e-stopped");
    assert_eq!(lines, 1, "the badge breaks {text:?} across lines");
    assert!(fits, "the badge's text spills out of it");
    let wrong: Vec<String> = in_page(
        page,
        BADGE_SWEEP,
        vec![serde_json::json!(300), serde_json::json!(1100)],
    )
    .await;
    assert!(wrong.is_empty(), "the badge at some widths: {wrong:?}");

    // The advice names its command as code, without Markdown's backticks.
    let message = text_of(page, "#message").await;
    assert!(!message.contains('`'), "backticks shown: {message}");
    assert_eq!(text_of(page, "#message code").await, "cubed resume");
    // Daemon text is only ever text: markup in it is shown, never made elements.
    let (shown, tags, code): (String, Vec<String>, Vec<String>) = in_page(
        page,
        WORDS,
        vec![serde_json::json!(
            "press <b>Resume</b> (`cubed <img src=x onerror=alert(1)>`) or `x"
        )],
    )
    .await;
    assert_eq!(
        shown,
        "press <b>Resume</b> (cubed <img src=x onerror=alert(1)>) or `x"
    );
    assert_eq!(tags, ["code"], "only the code span is an element");
    assert_eq!(code, ["cubed <img src=x onerror=alert(1)>"]);
    click(page, "#resume").await;
    wait_for_text(page, "state", "done").await;
    close_all(browser, daemon, server).await;
}
