//! The page for a 2x2: the real daemon configured with `cube_size = 2` on the simulated robot, run to done from the page; the net has four stickers a face laid out as the 2x2 net is documented, and each photo four marks; the page names the size, and guide mode solves a typed 2x2 on a 2x2 net.

use super::{click, close_all, in_page, open_idle_page, shown, wait_for, wait_for_text, Browser};
use crate::daemon::pocket::{random_2x2, start_pocket};
use fantoccini::Locator;

/// Draws `facelets` with the page's own net and returns, per face box in page order, its
/// position class, its face, its column count and its cells' titles in order.
const DRAW: &str = "
  const box = document.body.appendChild(document.createElement('div'));
  drawNet(box, arguments[0]);
  return [...box.querySelectorAll('.face')].map((f) => [
    f.className, f.dataset.face,
    getComputedStyle(f).gridTemplateColumns.split(' ').length,
    [...f.querySelectorAll('.cell')].map((c) => c.title)]);";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_shows_a_2x2_net_and_four_marks_a_photo() {
    let Some(browser) = Browser::start().await else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let daemon = start_pocket(dir.path(), 4.0).await;
    let sim = daemon.sim.as_ref().expect("sim");
    sim.load_cube(random_2x2(42).to_3x3());
    let server = open_idle_page(&browser, &daemon).await;
    let page = browser.client();
    click(page, "#start").await;
    wait_for_text(page, "state", "done").await;
    wait_for(page, "#net .net.pocket", "the 2x2 net").await;
    let cells = (page.find_all(Locator::Css("#net .cell")).await).expect("net cells");
    assert_eq!(cells.len(), 24, "four stickers on each of six faces");
    let marks = (page.find_all(Locator::Css("#photos .mark")).await).expect("photo marks");
    assert_eq!(marks.len(), 24, "six photos with four colours each");

    // A scrambled 2x2 drawn by the page: each face in its place of the net, two stickers a
    // row, sticker k of face f (the net in `pocket::stickers`) in cell k of that face.
    let facelets = "WGRYBOYWGRWBOYGRRBOWYGOB";
    let drawn = page
        .execute(DRAW, vec![serde_json::json!(facelets)])
        .await
        .expect("drawNet runs");
    let faces = drawn.as_array().expect("a list of faces");
    assert_eq!(faces.len(), 6);
    for (k, face) in ["U", "R", "F", "D", "L", "B"].into_iter().enumerate() {
        let row = (faces.iter())
            .find(|f| f[1] == face)
            .unwrap_or_else(|| panic!("no face {face} in {drawn}"));
        assert!(
            row[0]
                .as_str()
                .is_some_and(|c| c.contains(&format!("pos-{face}"))),
            "{row}"
        );
        assert_eq!(row[2], 2, "face {face}: two columns");
        let symbols: Vec<char> = facelets.chars().skip(4 * k).take(4).collect();
        let want: Vec<String> = (symbols.iter().enumerate())
            .map(|(i, s)| format!("{face} {}: {s}", i + 1))
            .collect();
        assert_eq!(row[3], serde_json::json!(want), "face {face}");
    }

    // The page says the size, and guide mode walks a typed 2x2 through its solution on a 2x2 net.
    wait_for_text(page, "devices", "cube: 2x2").await;
    click(page, ".tab[data-tab=guide]").await;
    let input = wait_for(page, "#guide-input", "guide input").await;
    let typed = random_2x2(44).to_symbols(&cubed::cube::ColourScheme::default());
    input.send_keys(&typed).await.expect("typing the 2x2");
    click(page, "#guide-solve").await;
    wait_for_text(page, "guide-step", "step 1 of").await;
    // Held by the corner that never moves, said before the first turn.
    wait_for_text(
        page,
        "guide-step",
        "at the back (it stays there); then step 1",
    )
    .await;
    wait_for(page, "#guide-net .net.pocket", "the guide's 2x2 net").await;
    let cells = (page.find_all(Locator::Css("#guide-net .cell")).await).expect("guide net cells");
    assert_eq!(cells.len(), 24, "the guide draws the 2x2's 24 stickers");
    // Typed in symbols of no palette (digits), every sticker still gets its face's colour:
    // six colours, none the grey of a symbol not known.
    let digits = cubed::cube::ColourScheme {
        symbols: ['1', '2', '3', '4', '5', '6'],
    };
    let input = wait_for(page, "#guide-input", "guide input").await;
    input.clear().await.expect("cleared");
    (input.send_keys(&random_2x2(45).to_symbols(&digits)).await).expect("typing the 2x2");
    click(page, "#guide-solve").await;
    wait_for_text(page, "guide-step", "step 1 of").await;
    let colours: Vec<String> = in_page(
        page,
        "return [...document.querySelectorAll('#guide-net .cell')].map(c => getComputedStyle(c).backgroundColor);",
        vec![],
    )
    .await;
    let distinct: std::collections::BTreeSet<&String> = colours.iter().collect();
    assert_eq!(distinct.len(), 6, "{colours:?}");
    assert!(
        !colours.iter().any(|c| c == "rgb(136, 136, 136)"),
        "{colours:?}"
    );
    // A cube refused next: its error, and no earlier cube's steps under it.
    input.clear().await.expect("cleared");
    (input.send_keys("1234").await).expect("typing");
    click(page, "#guide-solve").await;
    wait_for(page, "#error:not([hidden])", "the refusal").await;
    assert!(
        !shown(page, "#guide-steps").await,
        "the 2x2's steps are gone"
    );
    close_all(browser, daemon, server).await;
}
