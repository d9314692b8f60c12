//! Interrupted runs: a run the daemon dropped is taken as interrupted once, and a run that waits for a person is shown waiting (across a reopen) until resumed.

use super::{new_run, open};
use tempfile::TempDir;

/// A run that ended waiting for a person still waits at the next open; one the daemon
/// crashed during does not, even with an interruption recorded as the crash came.
#[test]
fn only_a_run_that_ended_waiting_for_a_person_waits_after_a_reopen() {
    let dir = TempDir::new().unwrap();
    let run = {
        let history = open(&dir);
        let run = new_run(&history);
        let advice = "square the cube, press Resume";
        history
            .record_interruption(run, "estop", advice, true)
            .unwrap();
        history.finish_run(run, "estopped", Some("e-stop")).unwrap();
        run
    };
    let history = open(&dir);
    assert!(history.take_interrupted().unwrap().is_empty());
    let waiting = history.waiting_for_person().unwrap().expect("still waits");
    assert_eq!((waiting.run, waiting.cause.as_str()), (run, "estop"));
    drop(history);

    let crashed = {
        let history = open(&dir);
        history.record_resumption(run, "person").unwrap();
        let crashed = new_run(&history);
        history
            .record_interruption(crashed, "reboot", "square it", true)
            .unwrap();
        crashed
    };
    let history = open(&dir);
    let interrupted = history.take_interrupted().unwrap();
    assert_eq!(interrupted.first().map(|r| r.id), Some(crashed));
    assert!(history.waiting_for_person().unwrap().is_none());
}

/// The record shows the interruption a run waits on as waiting, until Resume (or a Reset), and
/// no earlier one; a run started since is another run, and an automatic one never waits.
#[test]
fn the_interruption_a_run_waits_on_is_shown_waiting_until_resumed() {
    let dir = TempDir::new().unwrap();
    let history = open(&dir);
    let waiting = |run: u64| -> Vec<bool> {
        let detail = history.run(run).unwrap().expect("recorded");
        detail.interruptions.iter().map(|i| i.waiting).collect()
    };
    let run = new_run(&history);
    history
        .record_interruption(run, "reboot", "goes on by itself", false)
        .unwrap();
    history.record_resumption(run, "automatic").unwrap();
    history
        .record_interruption(run, "estop", "square the cube, press Resume", true)
        .unwrap();
    assert_eq!(waiting(run), [false, false], "the run's task has not ended");
    history.finish_run(run, "estopped", Some("e-stop")).unwrap();
    assert_eq!(waiting(run), [false, true]);
    history.reopen_run(run).unwrap();
    history.record_resumption(run, "person").unwrap();
    assert_eq!(waiting(run), [false, false]);

    history
        .record_interruption(run, "fault", "clear it, press Resume", true)
        .unwrap();
    history.finish_run(run, "failed", Some("stall")).unwrap();
    assert_eq!(waiting(run), [false, false, true]);
    let next = new_run(&history);
    assert_eq!(
        waiting(run),
        [false, false, false],
        "run {next} began since"
    );
}

#[test]
fn dropped_history_leaves_the_run_interrupted_once() {
    let dir = TempDir::new().unwrap();
    let (acked, unacked) = {
        let history = open(&dir);
        let acked = new_run(&history);
        history.journal_ack(acked, 7, 1).unwrap();
        let unacked = new_run(&history);
        (acked, unacked)
    };
    let history = open(&dir);
    let live = new_run(&history);
    let interrupted = history.take_interrupted().unwrap();
    let found: Vec<(u64, Option<u32>)> = interrupted
        .iter()
        .map(|r| (r.id, r.last_acked_move))
        .collect();
    assert_eq!(found, [(acked, Some(7)), (unacked, None)]);
    // A run that turned nothing made 0 moves, as an ended one says (not an unknown count),
    // here and as read back.
    let moves: Vec<Option<u32>> = interrupted.iter().map(|r| r.moves).collect();
    assert_eq!(moves, [Some(1), Some(0)]);
    let read_back = history.run(unacked).unwrap().unwrap().summary.moves;
    assert_eq!(read_back, Some(0));
    let error = interrupted[1].error.as_deref().unwrap();
    assert_eq!(
        error,
        "the daemon stopped during this run (crash or power loss) before the robot \
         acknowledged any command; the cube state is unknown, so the next run rescans it"
    );
    assert!(history.take_interrupted().unwrap().is_empty());
    let live = history.run(live).unwrap().unwrap();
    assert_eq!(
        live.summary.outcome, None,
        "a run of this process is not taken"
    );
}
