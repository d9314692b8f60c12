//! Recovery from a phone (390 px), pressing the page's buttons as a person would, against the real daemon on the simulated robot: an e-stop between runs offers Reset and no Resume (the daemon would refuse it); a run e-stopped part-way offers Resume, which goes on with it to solved; another is e-stopped and Reset, and Start begins a new run that ends solved.

use super::{
    click, close_all, open_idle_page, shown, text_of, wait_for, wait_for_text, Browser, PHONE,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_phone_resumes_one_estopped_run_and_resets_another() {
    let Some(browser) = Browser::start().await else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let daemon = crate::daemon::start(dir.path(), "", 4.0).await;
    let sim = daemon.sim.as_ref().expect("sim");
    let page = browser.client();
    page.set_window_size(PHONE.0, PHONE.1)
        .await
        .expect("a phone-sized window");
    let server = open_idle_page(&browser, &daemon).await;

    // An e-stop between runs: no run waits, so Reset is offered and Resume is not.
    click(page, "#estop").await;
    wait_for_text(page, "state", "e-stopped").await;
    wait_for(page, "#reset:not([hidden])", "Reset after the e-stop").await;
    let refused = (daemon.handle.resume().await).expect_err("nothing to resume");
    assert!(
        !shown(page, "#resume").await,
        "Resume is offered, but the daemon refuses it: {}",
        refused.reason
    );
    click(page, "#reset").await;
    wait_for_text(page, "state", "idle").await;
    assert!(!shown(page, "#resume").await, "Resume offered when idle");

    // A run e-stopped part-way waits for a person: Resume goes on with it to solved.
    sim.load_cube(crate::daemon::random(61));
    click(page, "#start").await;
    wait_for_text(page, "progress-text", "move").await;
    let run = daemon.handle.status().run.expect("a run");
    click(page, "#estop").await;
    wait_for_text(page, "message", "press Resume").await;
    wait_for(page, "#resume:not([hidden])", "Resume for the waiting run").await;
    let message = text_of(page, "#message").await;
    assert!(!message.contains('`'), "backticks shown: {message}");
    assert_eq!(text_of(page, "#message code").await, "cubed resume");
    assert!(
        shown(page, "#reset").await,
        "Reset (abandon the run) is offered too"
    );
    click(page, "#resume").await;
    wait_for_text(page, "state", "done").await;
    assert_eq!(
        daemon.handle.status().run,
        Some(run),
        "the same run went on"
    );
    assert!(sim.cube().is_solved(), "resumed to solved");
    assert!(!shown(page, "#resume").await, "Resume offered after done");

    // Another e-stopped part-way and Reset: abandoned; Start begins a new run.
    sim.load_cube(crate::daemon::random(62));
    click(page, "#start").await;
    wait_for_text(page, "progress-text", "move").await;
    let abandoned = daemon.handle.status().run.expect("a run");
    assert_eq!(abandoned, run + 1);
    click(page, "#estop").await;
    wait_for_text(page, "message", "press Resume").await;
    wait_for(page, "#reset:not([hidden])", "Reset for the waiting run").await;
    click(page, "#reset").await;
    wait_for_text(page, "state", "idle").await;
    wait_for_text(page, "message", "abandoned").await;
    let refused = (daemon.handle.resume().await).expect_err("nothing to resume");
    assert!(
        !shown(page, "#resume").await,
        "Resume is offered after a Reset, but the daemon refuses it: {}",
        refused.reason
    );
    click(page, "#start").await;
    wait_for_text(page, "devices", &format!("run {}", abandoned + 1)).await;
    wait_for_text(page, "state", "done").await;
    assert!(sim.cube().is_solved(), "the new run solved the cube");
    let record = (daemon.handle.run(abandoned).expect("history")).expect("the abandoned run");
    assert_eq!(
        record
            .interruptions
            .last()
            .and_then(|i| i.resumed_by.as_deref()),
        Some("abandoned"),
        "{:?}",
        record.interruptions
    );
    close_all(browser, daemon, server).await;
}
