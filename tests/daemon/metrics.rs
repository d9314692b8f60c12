//! `/metrics` of the real daemon on the simulator: a run through byte noise is counted (outcome, duration, phases, moves, retransmits/CRC errors), each figure checked against the run history or the run itself. The registry is process-wide and other tests run beside this one, so figures are checked as at-least differences.

use super::{finished, random, start};
use cubed::daemon::{DaemonState, StartSource};
use std::net::SocketAddr;

async fn scrape(addr: SocketAddr) -> String {
    let url = format!("http://{addr}/metrics");
    tokio::task::spawn_blocking(move || {
        let mut response = ureq::get(&url).call().expect("the daemon answers /metrics");
        let kind = response
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_string();
        assert!(kind.starts_with("text/plain; version=0.0.4"), "{kind}");
        response.body_mut().read_to_string().expect("text")
    })
    .await
    .expect("request task")
}

/// The sum of every sample of `name` whose labels contain `labels` (e.g. `phase="scan"`).
fn value(text: &str, name: &str, labels: &str) -> f64 {
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let (series, v) = l.rsplit_once(' ')?;
            let (metric, rest) = series.split_once('{').unwrap_or((series, ""));
            (metric == name && rest.contains(labels)).then(|| v.parse::<f64>().ok())?
        })
        .sum()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_noisy_run_shows_in_the_metrics() {
    let dir = tempfile::tempdir().expect("temp dir");
    let daemon = start(dir.path(), "corrupt=0.01", 4.0).await;
    daemon.sim.as_ref().expect("sim").load_cube(random(57));
    let (addr, server) = crate::daemon::serve_web(&daemon).await;
    let before = scrape(addr).await;

    let mut events = daemon.handle.subscribe();
    let run = daemon.handle.start(StartSource::Web).await.expect("start");
    let end = finished(&daemon.handle, run).await;
    assert_eq!(end.state, DaemonState::Done, "{}", end.message);
    // The outcome is counted as the daemon announces it (just after recording it).
    super::announced(&mut events, run).await;
    let after = scrape(addr).await;
    let grew =
        |name: &str, labels: &str| value(&after, name, labels) - value(&before, name, labels);

    let detail = daemon.handle.run(run).expect("history").expect("the run");
    let moves = f64::from(detail.summary.moves.expect("moves recorded"));
    assert!(moves > 0.0, "the cube was scrambled");
    assert!(
        grew("cubed_moves_executed_total", "") >= moves,
        "moves: the history says {moves}"
    );
    assert!(grew("cubed_runs_total", "outcome=\"solved\"") >= 1.0);
    assert!(grew("cubed_run_duration_seconds_count", "outcome=\"solved\"") >= 1.0);
    // Each phase the history timed was observed.
    for step in &detail.steps {
        let labels = format!("phase=\"{}\"", step.name);
        assert!(
            grew("cubed_phase_duration_seconds_count", &labels) >= 1.0,
            "phase {}",
            step.name
        );
    }
    for phase in ["scan", "classify", "solve", "execute"] {
        assert!(
            detail.steps.iter().any(|s| s.name == phase),
            "the history timed {phase}"
        );
    }
    // One byte in a hundred corrupted over a whole solve: some frames were resent.
    let trouble =
        grew("cubed_link_retransmits_total", "") + grew("cubed_link_crc_errors_total", "");
    assert!(trouble >= 1.0, "no retransmit or CRC error counted");
    assert!(value(&after, "cubed_uptime_seconds", "") > 0.0);

    daemon.handle.estop().await.expect("e-stop");
    let idle_stop = daemon.handle.status();
    assert_eq!(idle_stop.state, DaemonState::EStopped);
    assert_eq!(idle_stop.run, None, "an e-stop between runs names none");
    assert_eq!(idle_stop.resumable, None, "nothing to resume after it");
    assert!(
        idle_stop.photos.is_empty()
            && idle_stop.solution.is_empty()
            && idle_stop.facelets.is_none(),
        "nor shows the last run's photos, solution or cube: {idle_stop:?}"
    );
    let stopped = scrape(addr).await;
    assert!(
        value(&stopped, "cubed_estops_total", "source=\"request\"")
            - value(&after, "cubed_estops_total", "source=\"request\"")
            >= 1.0
    );
    daemon.shutdown().await;
    server
        .await
        .expect("server task")
        .expect("server ends cleanly");
}

/// A fresh daemon, before any run or fault, exports every series at zero (with HELP), so a
/// dashboard and its alerts work from the start: each run outcome and its duration, each
/// phase, both e-stop sources and CRC directions, and each fault kind (those naming an
/// actuator once per actuator of the configured design).
#[test]
fn a_fresh_daemon_exports_every_series_at_zero() {
    use crate::common::{robot_config, run_daemon, wait_status};
    let dir = tempfile::tempdir().expect("temp dir");
    let file = robot_config(std::path::Path::new("/dev/null"), dir.path());
    let (mut daemon, http) = run_daemon(&file, dir.path());
    wait_status(&http, "robot link");
    let text = ureq::get(&format!("http://{http}/metrics"))
        .call()
        .expect("the daemon answers /metrics")
        .body_mut()
        .read_to_string()
        .expect("text");
    let _ = daemon.kill();
    let _ = daemon.wait();
    let zero = |series: &str| {
        let found = text
            .lines()
            .find_map(|l| l.strip_prefix(series)?.strip_prefix(' '));
        assert_eq!(found, Some("0"), "{series}:\n{text}");
    };
    for outcome in ["solved", "refused", "failed", "stopped", "estopped"] {
        zero(&format!("cubed_runs_total{{outcome=\"{outcome}\"}}"));
        zero(&format!(
            "cubed_run_duration_seconds_count{{outcome=\"{outcome}\"}}"
        ));
    }
    for phase in ["scan", "classify", "solve", "execute"] {
        zero(&format!(
            "cubed_phase_duration_seconds_count{{phase=\"{phase}\"}}"
        ));
    }
    zero("cubed_estops_total{source=\"request\"}");
    zero("cubed_estops_total{source=\"robot\"}");
    zero("cubed_link_crc_errors_total{direction=\"to_robot\"}");
    let design = cubed::robot::shipped_design("four-arm").expect("shipped design");
    let actuators = cubed::robot::ActuatorMap::new(&design)
        .expect("fits")
        .configs
        .len();
    for actuator in 0..actuators {
        zero(&format!(
            "cubed_faults_total{{actuator=\"{actuator}\",kind=\"stall\"}}"
        ));
    }
    zero("cubed_faults_total{actuator=\"none\",kind=\"brown_out\"}");
    let families = text.lines().filter(|l| l.starts_with("# TYPE ")).count();
    let helped = text.lines().filter(|l| l.starts_with("# HELP ")).count();
    assert_eq!((families, helped), (11, 11), "{text}");
}
