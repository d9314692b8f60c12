//! Recovery without a daemon restart, on the simulated robot over a real pty with a real SQLite
//! history: an emergency stop at a random step (×20), while homing, photographing or verifying
//! (×2 each, where the run homes) and while solving (×2), a motor blocked at a random motion (×20)
//! and a firmware reboot at a random moment (×10), each on one daemon. Every run ends verified
//! solved, by itself or after a person (the test) does what the message says and resumes it;
//! the history records each interruption and resumption. Calibration works on the simulator, and
//! a start after a refused one re-homes safely. An e-stop reset at once does not come back, and a
//! stop or e-stop while solving does not wait for the solver.

use super::{finished, random, serve_web, start_with, wait_until};
use cubed::daemon::config::DaemonConfig;
use cubed::daemon::{
    DaemonHandle, DaemonState, LinkState, RunDetail, RunningDaemon, StartSource, StatusDoc,
};
use cubed::web::{control, ControlCommand, ControlReply};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::net::SocketAddr;

/// Simulator speed: fast enough for CI, slow enough that a run has steps to interrupt.
const SPEED: f64 = 25.0;

/// A daemon on the simulator at `SPEED` in a fresh data folder, serving its page and API
/// (the folder and the server live as long as this).
struct OnTheWeb {
    daemon: RunningDaemon,
    web: SocketAddr,
    _server: tokio::task::JoinHandle<Result<(), cubed::web::WebError>>,
    _dir: tempfile::TempDir,
}

async fn on_the_web() -> OnTheWeb {
    on_the_web_with(|_| {}).await
}

/// `on_the_web` with the test configuration changed by `change`.
async fn on_the_web_with(change: impl FnOnce(&mut DaemonConfig)) -> OnTheWeb {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut config = super::config(dir.path(), "", SPEED);
    change(&mut config);
    let daemon = start_with(&config).await;
    let (web, server) = serve_web(&daemon).await;
    OnTheWeb {
        daemon,
        web,
        _server: server,
        _dir: dir,
    }
}

fn waits_for_person(state: DaemonState) -> bool {
    matches!(state, DaemonState::EStopped | DaemonState::NeedsAttention)
}

/// What `cubed status` and then `cubed resume` say, through the daemon's HTTP API.
async fn status_then_resume(web: SocketAddr) -> (String, ControlReply) {
    tokio::task::spawn_blocking(move || {
        let status = control(web, None, ControlCommand::Status).expect("status");
        let resumed = control(web, None, ControlCommand::Resume).expect("resumes");
        (status.render(), resumed)
    })
    .await
    .expect("the client task")
}

/// Drives `run` to its end; each time it waits for a person, checks that the message says what
/// to do (as `cubed status` prints it) and resumes it (as `cubed resume` does). Returns the
/// last status and how many resumes a person made.
async fn resume_until_done(handle: &DaemonHandle, web: SocketAddr, run: u64) -> (StatusDoc, u32) {
    let mut resumes = 0;
    loop {
        finished(handle, run).await;
        // The run task has ended: the state it leaves follows the recorded outcome.
        let end = wait_until(handle, "the run's end", |s| !s.state.is_busy()).await;
        if !waits_for_person(end.state) {
            return (end, resumes);
        }
        // The e-stop latches at once; the run's own advice follows when its task has ended.
        let end = wait_until(handle, "the run's advice", |s| {
            s.message.contains("press Resume") || solved_in_history(handle, run)
        })
        .await;
        if !end.message.contains("press Resume") {
            // The e-stop came as the run ended solved: only the latch is left.
            handle.reset().await.expect("reset the latch");
            return (handle.status(), resumes);
        }
        assert!(
            end.message.contains("press Resume")
                && (end.message.contains("square the cube")
                    || end.message.contains("nothing was moving")),
            "run {run} waits without saying what to do: {}",
            end.message
        );
        assert!(resumes < 3, "run {run} keeps stopping: {}", end.message);
        assert_eq!(
            end.resumable,
            Some(run),
            "the status names the run Resume takes"
        );
        let detail = handle.run(run).expect("history").expect("recorded");
        let shown: Vec<bool> = detail.interruptions.iter().map(|i| i.waiting).collect();
        assert_eq!(
            shown.last(),
            Some(&true),
            "the history does not show run {run} waiting: {:?}",
            detail.interruptions
        );
        assert_eq!(shown.iter().filter(|&&w| w).count(), 1, "{shown:?}");
        // A run that waits is not over: recorded as waiting after its e-stop or its fault.
        let waiting_as = match end.state {
            DaemonState::EStopped => "estopped",
            _ => "waiting",
        };
        assert_eq!(
            detail.summary.outcome.as_deref(),
            Some(waiting_as),
            "{detail:?}"
        );
        resumes += 1;
        let (status, resumed) = status_then_resume(web).await;
        assert!(
            status.contains(end.state.name()) && status.contains("press Resume"),
            "{status}"
        );
        assert_eq!(
            resumed,
            ControlReply::Resumed { run },
            "the same run goes on"
        );
    }
}

fn solved_in_history(handle: &DaemonHandle, run: u64) -> bool {
    let detail = handle.run(run).ok().flatten();
    detail.and_then(|d| d.summary.outcome).as_deref() == Some("solved")
}

/// The history of `run`, with `resumes` resumptions by a person among its interruptions.
fn check_history(handle: &DaemonHandle, run: u64, resumes: u32) -> RunDetail {
    let detail = handle.run(run).expect("history").expect("recorded");
    assert_eq!(
        detail.summary.outcome.as_deref(),
        Some("solved"),
        "{detail:?}"
    );
    let by_person = (detail.interruptions.iter())
        .filter(|i| i.resumed_by.as_deref() == Some("person"))
        .count();
    assert_eq!(by_person as u32, resumes, "{:?}", detail.interruptions);
    for i in &detail.interruptions {
        assert!(i.resumed_ms.is_some(), "an interruption not resumed: {i:?}");
        assert!(!i.waiting, "a solved run shown waiting: {i:?}");
        assert_eq!(i.needs_person, i.resumed_by.as_deref() == Some("person"));
    }
    detail
}

/// The last round's "executed N face turns" line of a run resumed to solved says the run's
/// count as its record has it, when earlier rounds made turns too (then true).
fn executed_says_the_runs_turns(handle: &DaemonHandle, detail: &RunDetail) -> bool {
    let run = detail.summary.id;
    let lines: Vec<String> = (handle.recent_log().into_iter())
        .filter_map(|e| match e {
            cubed::daemon::DaemonEvent::Log { message, .. } => Some(message),
            _ => None,
        })
        .collect();
    let prefix = format!("run {run}: executed ");
    let line = (lines.iter().rev().find(|l| l.starts_with(&prefix)))
        .unwrap_or_else(|| panic!("no {prefix:?} line: {lines:#?}"));
    let this_round: u32 = (line[prefix.len()..].split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no count in {line:?}"));
    let all = detail.summary.moves.unwrap_or(0);
    let said = format!(
        ", {all} in the run, {} of them in its earlier rounds",
        all.saturating_sub(this_round)
    );
    match all > this_round {
        true => assert!(line.contains(&said), "{line:?}: the run made {all}"),
        false => assert!(!line.contains("earlier rounds"), "{line:?}: made {all}"),
    }
    all > this_round
}

/// Waits until run `run` is executing with at least `fraction` of its commands done (or over).
async fn executing_past(handle: &DaemonHandle, run: u64, fraction: f64) -> StatusDoc {
    wait_until(handle, "executing", |s| {
        let past = s.progress.as_ref().is_some_and(|p| {
            p.commands_done as f64 >= fraction * p.commands as f64 && p.commands_done < p.commands
        });
        s.run == Some(run) && ((s.state == DaemonState::Executing && past) || !s.state.is_busy())
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_emergency_stop_at_a_random_step_is_resumed_to_solved_twenty_times() {
    let rig = on_the_web().await;
    let (daemon, web) = (&rig.daemon, rig.web);
    let sim = daemon.sim.clone().expect("sim");
    let mut rng = ChaCha8Rng::seed_from_u64(20);
    let (mut stopped_mid_run, mut told_earlier_rounds) = (0, 0);
    for i in 0..20u64 {
        sim.load_cube(random(200 + i));
        let run = daemon.handle.start(StartSource::Web).await.expect("start");
        let now = executing_past(&daemon.handle, run, rng.random_range(0.0..0.9)).await;
        daemon.handle.estop().await.expect("e-stop");
        if now.state.is_busy() {
            stopped_mid_run += 1;
        }
        if i % 5 == 4 {
            // Reset abandons the run; a new start re-homes in a safe order and solves.
            finished(&daemon.handle, run).await;
            daemon.handle.reset().await.expect("reset after an e-stop");
            assert_eq!(daemon.handle.status().resumable, None, "abandoned");
            let again = daemon.handle.start(StartSource::Web).await.expect("start");
            let end = finished(&daemon.handle, again).await;
            assert!(
                matches!(end.state, DaemonState::Done),
                "after reset: {}",
                end.message
            );
        } else {
            let (end, resumes) = resume_until_done(&daemon.handle, web, run).await;
            assert!(
                matches!(end.state, DaemonState::Done | DaemonState::Idle),
                "run {run}: {}",
                end.message
            );
            let detail = check_history(&daemon.handle, run, resumes);
            if executed_says_the_runs_turns(&daemon.handle, &detail) {
                told_earlier_rounds += 1;
            }
            if now.state.is_busy() {
                assert!(
                    detail.interruptions.iter().any(|i| i.cause == "estop"),
                    "{:?}",
                    detail.interruptions
                );
            }
        }
        assert!(
            sim.cube().is_solved(),
            "iteration {i}: the cube is not solved"
        );
    }
    assert!(
        stopped_mid_run >= 15,
        "only {stopped_mid_run} e-stops hit a run"
    );
    assert!(
        told_earlier_rounds >= 5,
        "only {told_earlier_rounds} runs resumed after turns were made"
    );
    rig.daemon.shutdown().await;
}

/// A person who e-stops the idle robot and resets at once: the firmware's news of that e-stop,
/// still on its way, must neither latch the daemon again nor stop the next run.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_emergency_stop_reset_at_once_neither_refuses_nor_stops_the_next_run() {
    let rig = on_the_web().await;
    let daemon = &rig.daemon;
    let sim = daemon.sim.clone().expect("sim");
    for i in 0..4u64 {
        sim.load_cube(random(600 + i));
        if i > 0 {
            // The first run opened the link: this e-stop reaches the firmware.
            daemon.handle.estop().await.expect("e-stop");
            daemon.handle.reset().await.expect("reset at once");
        }
        let run = (daemon.handle.start(StartSource::Web).await)
            .unwrap_or_else(|refusal| panic!("start {i} after a reset: {refusal:?}"));
        let end = finished(&daemon.handle, run).await;
        assert_eq!(end.state, DaemonState::Done, "run {i}: {}", end.message);
        let detail = daemon.handle.run(run).expect("history").expect("recorded");
        assert!(
            detail.interruptions.is_empty(),
            "{:?}",
            detail.interruptions
        );
        assert!(sim.cube().is_solved(), "run {i}: the cube is not solved");
    }
    rig.daemon.shutdown().await;
}

/// Whether the daemon's status shows a run in a given phase.
type InPhase = fn(&StatusDoc) -> bool;

/// Where in a run the e-stop comes: the status it waits for, in words, and whether the cube
/// has been turned by then.
const PHASES: [(&str, InPhase, bool); 4] = [
    ("homing", |s| s.message.contains("homing"), false),
    (
        "photographing the cube",
        |s| s.state == DaemonState::Scanning && !s.message.contains("homing"),
        false,
    ),
    ("solving", |s| s.state == DaemonState::Solving, false),
    ("verifying", |s| s.state == DaemonState::Verifying, true),
];

/// Solving takes as long as its budget allows (the search keeps looking for a quicker
/// solution for the robot): with a budget of a second an e-stop lands inside it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_emergency_stop_while_homing_photographing_solving_or_verifying_is_resumed_to_solved() {
    let rig = on_the_web_with(|c| {
        c.solve_budget = cubed::solver::Budget::Time(std::time::Duration::from_secs(1))
    })
    .await;
    let (daemon, web) = (&rig.daemon, rig.web);
    let sim = daemon.sim.clone().expect("sim");
    // The first run homes the robot; an e-stopped run re-homes when it is resumed.
    let mut stopped_homing = 0;
    for (i, (phase, now_in, turned)) in PHASES.into_iter().chain(PHASES).enumerate() {
        sim.load_cube(random(400 + i as u64));
        let run = daemon.handle.start(StartSource::Web).await.expect("start");
        let turns_before = sim.bench().turns;
        let now = wait_until(&daemon.handle, phase, |s| {
            s.run == Some(run) && (now_in(s) || !s.state.is_busy())
        })
        .await;
        if !now_in(&now) {
            // A robot whose pose is known starts a run without homing.
            assert_eq!(phase, "homing", "run {run} ended before {phase}: {now:?}");
            finished(&daemon.handle, run).await;
            continue;
        }
        daemon.handle.estop().await.expect("e-stop");
        // The witness of where it came: the robot's own count of turns.
        let turned_by_then = sim.bench().turns > turns_before;
        assert_eq!(turned_by_then, turned, "run {run}, e-stop while {phase}");
        stopped_homing += usize::from(phase == "homing");
        // The robot still answers: the status says the stop, not a link that cannot be opened.
        finished(&daemon.handle, run).await;
        let stopped = wait_until(&daemon.handle, "the run's advice", |s| {
            s.message.contains("press Resume") || solved_in_history(&daemon.handle, run)
        })
        .await;
        assert_eq!(
            stopped.link.state,
            LinkState::Open,
            "run {run}, e-stop while {phase}: {}",
            stopped.link.line
        );
        let (end, resumes) = resume_until_done(&daemon.handle, web, run).await;
        assert_eq!(end.state, DaemonState::Done, "run {run}: {}", end.message);
        let detail = check_history(&daemon.handle, run, resumes);
        assert!(
            detail.interruptions.iter().any(|i| i.cause == "estop"),
            "an e-stop while {phase} is recorded: {:?}",
            detail.interruptions
        );
        assert!(sim.cube().is_solved(), "run {run}: the cube is not solved");
    }
    assert!(stopped_homing >= 1, "no e-stop came while homing");
    rig.daemon.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_motor_blocked_at_a_random_motion_is_resumed_to_solved_twenty_times() {
    let rig = on_the_web().await;
    let (daemon, web) = (&rig.daemon, rig.web);
    let sim = daemon.sim.clone().expect("sim");
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    let mut faults = 0;
    for i in 0..20u64 {
        sim.load_cube(random(300 + i));
        sim.stall_motion_in(rng.random_range(1..=30));
        let run = daemon.handle.start(StartSource::Web).await.expect("start");
        let (end, resumes) = resume_until_done(&daemon.handle, web, run).await;
        assert_eq!(end.state, DaemonState::Done, "run {run}: {}", end.message);
        let detail = check_history(&daemon.handle, run, resumes);
        let faulted = detail.interruptions.iter().filter(|i| i.cause == "fault");
        let faulted = faulted.count();
        assert!(faulted <= 1, "{:?}", detail.interruptions);
        faults += faulted;
        if let Ok(mut bench) = sim.bench.lock() {
            bench.stall_at_motions.clear(); // a stall due after the run ended
        }
        assert!(
            sim.cube().is_solved(),
            "iteration {i}: the cube is not solved"
        );
    }
    assert!(faults >= 15, "only {faults} of 20 blocked motors hit a run");
    rig.daemon.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_firmware_reboot_mid_run_is_recovered_ten_times() {
    let rig = on_the_web().await;
    let (daemon, web) = (&rig.daemon, rig.web);
    let sim = daemon.sim.clone().expect("sim");
    let mut rng = ChaCha8Rng::seed_from_u64(22);
    let (mut reboots, mut automatic, mut by_person) = (0, 0, 0);
    let phases = [DaemonState::Solving, DaemonState::Executing];
    for i in 0..10u64 {
        sim.load_cube(random(400 + i));
        let phase = phases[rng.random_range(0..phases.len())];
        let run = daemon.handle.start(StartSource::Web).await.expect("start");
        wait_until(&daemon.handle, "the phase to reboot in", |s| {
            s.run == Some(run) && (s.state == phase || !s.state.is_busy())
        })
        .await;
        sim.reboot();
        let (end, resumes) = resume_until_done(&daemon.handle, web, run).await;
        assert_eq!(end.state, DaemonState::Done, "run {run}: {}", end.message);
        let detail = check_history(&daemon.handle, run, resumes);
        let rebooted = detail.interruptions.iter().filter(|i| i.cause == "reboot");
        reboots += rebooted.clone().count();
        automatic += rebooted.clone().filter(|i| !i.needs_person).count();
        by_person += rebooted.filter(|i| i.needs_person).count();
        assert!(
            sim.cube().is_solved(),
            "iteration {i}: the cube is not solved"
        );
    }
    assert!(reboots >= 8, "only {reboots} of 10 reboots hit a run");
    assert!(
        automatic >= 1 && by_person >= 1,
        "{automatic} resumed by themselves, {by_person} by a person"
    );
    rig.daemon.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calibration_works_on_the_simulator_and_a_start_after_a_refused_one_solves() {
    let rig = on_the_web().await;
    let (daemon, web) = (&rig.daemon, rig.web);
    let sim = daemon.sim.clone().expect("sim");
    sim.load_cube(random(500));
    let refused = daemon
        .handle
        .calibrate()
        .await
        .expect_err("not a solved cube");
    assert!(refused.reason.contains("solved cube"), "{}", refused.reason);
    // The scan left the grippers wherever it ended; the next start re-homes safely.
    let mut events = daemon.handle.subscribe();
    let run = daemon.handle.start(StartSource::Web).await.expect("start");
    let (end, resumes) = resume_until_done(&daemon.handle, web, run).await;
    assert_eq!(end.state, DaemonState::Done, "{}", end.message);
    assert_eq!(resumes, 0, "nothing interrupted the run");
    super::announced(&mut events, run).await;
    // `cubed run` on the simulator: its simulated person keeps a scrambled cube in, and puts a
    // solved one in when calibration is asked for.
    daemon.keep_scrambling(5);
    assert!(!sim.cube().is_solved(), "a scrambled cube is in");
    let done = daemon.handle.calibrate().await.expect("calibrates");
    assert_eq!(done.palette.len(), 6);
    let calibration = daemon.handle.status().run.expect("calibration is a run");
    finished(&daemon.handle, calibration).await;
    let run = daemon.handle.start(StartSource::Web).await.expect("start");
    let end = finished(&daemon.handle, run).await;
    assert!(
        matches!(end.state, DaemonState::Done),
        "after calibration: {}",
        end.message
    );
    rig.daemon.shutdown().await;
}

/// A stop or an e-stop while solving ends the run at once, without waiting for the solver's
/// budget (here long): no solution is recorded, nothing turns, and the e-stop can be reset
/// straight away.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stop_or_an_emergency_stop_while_solving_ends_the_run_without_waiting_for_the_solver() {
    let budget = std::time::Duration::from_secs(60);
    let rig = on_the_web_with(|c| c.solve_budget = cubed::solver::Budget::Time(budget)).await;
    let daemon = &rig.daemon;
    let sim = daemon.sim.clone().expect("sim");
    for (i, emergency) in [true, false].into_iter().enumerate() {
        sim.load_cube(random(500 + i as u64));
        let run = daemon.handle.start(StartSource::Web).await.expect("start");
        wait_until(&daemon.handle, "solving", |s| {
            s.run == Some(run) && s.state == DaemonState::Solving
        })
        .await;
        let turns_before = sim.bench().turns;
        match emergency {
            true => daemon.handle.estop().await.expect("e-stop"),
            false => daemon.handle.stop().await.expect("stop"),
        }
        // Far less than the budget: the run's end does not wait for the solver.
        let ended = tokio::time::timeout(budget / 4, finished(&daemon.handle, run)).await;
        let end = ended.expect("the run ended long before the solver's budget");
        assert_eq!(
            sim.bench().turns,
            turns_before,
            "run {run}: the cube turned"
        );
        let detail = daemon.handle.run(run).expect("history").expect("run");
        assert!(detail.solutions.is_empty(), "{:?}", detail.solutions);
        if emergency {
            assert_eq!(end.state, DaemonState::EStopped, "{}", end.message);
            let advice = super::run_advice(&daemon.handle).await;
            assert!(
                advice.message.contains("nothing was moving"),
                "{}",
                advice.message
            );
            daemon.handle.reset().await.expect("reset at once");
            let detail = daemon.handle.run(run).expect("history").expect("run");
            assert!(
                detail.interruptions.iter().any(|i| i.cause == "estop"),
                "{:?}",
                detail.interruptions
            );
        } else {
            assert_eq!(end.state, DaemonState::Idle, "{}", end.message);
            assert_eq!(detail.summary.outcome.as_deref(), Some("stopped"));
            // The record says what the stop cut short, and keeps the time it took.
            let why = detail.summary.error.clone().unwrap_or_default();
            assert!(why.contains("while solving"), "{why}");
        }
        let phases: Vec<&str> = detail.steps.iter().map(|s| s.name.as_str()).collect();
        assert!(phases.contains(&"solve"), "run {run}: {phases:?}");
    }
    rig.daemon.shutdown().await;
}
