//! The journal of acknowledged commands: it survives a real crash (a child process that aborts), a write the disk refused still counts at the run's ending, and what a durable write costs.

use super::{new_run, open};
use crate::daemon::cube_size::CubeSize;
use crate::daemon::docs::StartSource;
use crate::daemon::history::History;
use std::path::Path;
use std::time::Instant;
use tempfile::TempDir;

/// Set for the child process of [`journal_survives_a_crash`]: the data directory to crash in.
const CRASH_DIR_VAR: &str = "CUBED_HISTORY_TEST_CRASH_DIR";

/// Runs only as the child process of [`journal_survives_a_crash`], which sets the variable.
#[test]
#[ignore = "the crashing child of journal_survives_a_crash"]
fn crash_child() {
    let Some(dir) = std::env::var_os(CRASH_DIR_VAR) else {
        return;
    };
    let history = History::open(Path::new(&dir)).unwrap();
    let run = history
        .begin_run(StartSource::Button, "r", CubeSize::Three)
        .unwrap();
    for move_id in 1..=41 {
        history.journal_ack(run, move_id, 1).unwrap();
    }
    std::process::abort();
}

#[test]
fn journal_survives_a_crash() {
    let dir = TempDir::new().unwrap();
    // The child's test name, wherever this module stands (the path without the crate's name).
    let (_, module) = module_path!().split_once("::").expect("a module path");
    let child = format!("{module}::crash_child");
    let status = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", &child, "--ignored"])
        .env(CRASH_DIR_VAR, dir.path())
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(!status.success(), "the child must have aborted: {status}");

    // Read as `cubed history --data-dir` reads it, before any daemon opens it again: the
    // crashed run is there (it is only in the write-ahead log).
    let read_only = History::open_read_only(dir.path()).unwrap();
    let seen = read_only.list_runs(10).unwrap();
    assert_eq!(seen.len(), 1, "the crashed run, read without a writer");
    drop(read_only);

    let history = open(&dir);
    let interrupted = history.take_interrupted().unwrap();
    assert_eq!(interrupted.len(), 1);
    assert_eq!(interrupted[0].last_acked_move, Some(41));
    assert_eq!(
        interrupted[0].moves,
        Some(41),
        "the turns journaled with each ack"
    );
    assert_eq!(interrupted[0].outcome.as_deref(), Some("interrupted"));
    let error = interrupted[0].error.as_deref().unwrap();
    assert!(error.contains("after 41 face turns"), "{error}");
    assert_eq!(history.list_runs(1).unwrap(), interrupted);
    assert!(history.take_interrupted().unwrap().is_empty());
}

/// Prints the cost of one durable journal write (no timing assertion: machines differ).
#[test]
fn journal_ack_cost() {
    let dir = TempDir::new().unwrap();
    let history = open(&dir);
    let run = new_run(&history);
    let durable = percentiles((1..=1000).map(|move_id| {
        let start = Instant::now();
        history.journal_ack(run, move_id, 1).unwrap();
        start.elapsed()
    }));
    // The same one-row update at synchronous = NORMAL: what the fsync costs.
    let unsynced = percentiles((1..=1000).map(|_| {
        let start = Instant::now();
        history.add_moves(run, 1).unwrap();
        start.elapsed()
    }));
    println!("journal_ack over 1000 calls (µs): {durable}; add_moves, not fsynced: {unsynced}");
    let summary = &history.list_runs(1).unwrap()[0];
    assert_eq!(summary.last_acked_move, Some(1000));
    assert_eq!(
        summary.moves,
        Some(2000),
        "one turn journaled with each ack, one added after"
    );
}

fn percentiles(times: impl Iterator<Item = std::time::Duration>) -> String {
    let mut micros: Vec<f64> = times.map(|t| t.as_secs_f64() * 1e6).collect();
    micros.sort_by(f64::total_cmp);
    let at = |q: f64| micros[((micros.len() - 1) as f64 * q) as usize];
    format!(
        "median {:.0}, p90 {:.0}, max {:.0}",
        at(0.5),
        at(0.9),
        at(1.0)
    )
}

/// An acknowledged command the disk refused to journal (here the database made read-only for
/// that write) still counts: its turns and id are written with the run's ending.
#[test]
fn turns_the_disk_refused_to_journal_are_written_with_the_ending() {
    let dir = TempDir::new().unwrap();
    let history = open(&dir);
    let run = (history.begin_run(StartSource::Web, "two-gripper", CubeSize::Three)).unwrap();
    history.journal_ack(run, 1, 1).unwrap();
    let refuse_writes = |on: bool| {
        let conn = history.lock().unwrap();
        conn.pragma_update(None, "query_only", on).unwrap();
    };
    refuse_writes(true);
    assert!(
        history.journal_ack(run, 2, 1).is_err(),
        "the write is refused"
    );
    assert!(history.journal_ack(run, 3, 0).is_err());
    refuse_writes(false);
    history.finish_run(run, "failed", Some("history")).unwrap();
    let summary = history.run(run).unwrap().expect("recorded").summary;
    assert_eq!((summary.moves, summary.last_acked_move), (Some(2), Some(3)));
    // One refused, then a later one journaled: that one is the last acknowledged.
    let run = (history.begin_run(StartSource::Web, "two-gripper", CubeSize::Three)).unwrap();
    refuse_writes(true);
    assert!(history.journal_ack(run, 4, 1).is_err());
    refuse_writes(false);
    history.journal_ack(run, 5, 1).unwrap();
    history.finish_run(run, "failed", Some("history")).unwrap();
    let summary = history.run(run).unwrap().expect("recorded").summary;
    assert_eq!((summary.moves, summary.last_acked_move), (Some(2), Some(5)));
}
