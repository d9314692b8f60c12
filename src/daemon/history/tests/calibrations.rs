//! Calibrations kept with their runs: read back with the record, the newest for the page, a bad row named, and a history from before they were kept read without them.

use super::{new_run, open};
use crate::daemon::docs::{CalibrationDoc, PaletteColourDoc};
use crate::daemon::history::{History, HistoryError, DATABASE_FILE};
use tempfile::TempDir;

/// A calibration's result whose figures tell one from another.
fn calibration(before: f32) -> CalibrationDoc {
    let colour = |name: &str, symbol, face| PaletteColourDoc {
        name: name.into(),
        symbol,
        face,
        rgb: "#102030".into(),
    };
    CalibrationDoc {
        palette: vec![colour("white", 'W', 'U'), colour("red", 'R', 'R')],
        before: vec![before, before + 1.0],
        after: vec![0.5, 0.75],
        saved_to: "/var/lib/cubed/palette.toml".into(),
        warnings: vec!["calibration: light the cube evenly".into()],
    }
}

#[test]
fn a_calibration_is_kept_with_its_run_and_the_newest_is_the_last() {
    let dir = TempDir::new().unwrap();
    let history = open(&dir);
    assert_eq!(history.last_calibration().unwrap(), None, "none made yet");
    let first = new_run(&history);
    history
        .record_calibration(first, &calibration(4.0))
        .unwrap();
    history.finish_run(first, "calibrated", None).unwrap();
    let second = new_run(&history);
    history
        .record_calibration(second, &calibration(9.0))
        .unwrap();
    history.finish_run(second, "calibrated", None).unwrap();
    // A solve after them is no calibration: the last stays the second.
    let solve = new_run(&history);
    history.finish_run(solve, "solved", None).unwrap();

    let detail = history.run(first).unwrap().unwrap();
    assert_eq!(detail.calibration, Some(calibration(4.0)));
    assert_eq!(history.run(solve).unwrap().unwrap().calibration, None);
    let last = history.last_calibration().unwrap().expect("the second");
    assert_eq!((last.run, last.calibration), (second, calibration(9.0)));
    let finished = history.summary(second).unwrap().unwrap().finished_ms;
    assert_eq!(last.finished_ms, finished);
    assert!(finished.is_some());
}

#[test]
fn a_calibration_row_that_is_not_its_json_is_named() {
    let dir = TempDir::new().unwrap();
    let history = open(&dir);
    let run = new_run(&history);
    let conn = rusqlite::Connection::open(dir.path().join(DATABASE_FILE)).unwrap();
    conn.execute(
        "INSERT INTO calibrations (run, doc) VALUES (?1, '{\"palette\": 3}')",
        [i64::try_from(run).unwrap()],
    )
    .unwrap();
    let error = history.run(run).expect_err("a bad row");
    assert!(matches!(error, HistoryError::BadRow { .. }), "{error:?}");
    let message = error.to_string();
    assert!(message.contains("calibrations.doc"), "{message}");
    assert!(message.contains(&format!("run {run}")), "{message}");
}

#[test]
fn a_version_6_history_read_as_it_is_has_no_calibrations_and_gains_them_when_opened() {
    let dir = TempDir::new().unwrap();
    let run = {
        let history = open(&dir);
        let run = new_run(&history);
        history.finish_run(run, "calibrated", None).unwrap();
        run
    };
    // Taken back to version 6 as an older daemon left it: no calibrations table.
    let conn = rusqlite::Connection::open(dir.path().join(DATABASE_FILE)).unwrap();
    conn.execute_batch("DROP TABLE calibrations; PRAGMA user_version = 6;")
        .unwrap();
    drop(conn);
    // `cubed history --data-dir` reads without migrating.
    let read_only = History::open_read_only(dir.path()).unwrap();
    assert_eq!(read_only.run(run).unwrap().unwrap().calibration, None);
    assert_eq!(read_only.last_calibration().unwrap(), None);
    drop(read_only);
    // A daemon opening it migrates, and keeps calibrations from then on.
    let history = open(&dir);
    let next = new_run(&history);
    history.record_calibration(next, &calibration(2.0)).unwrap();
    assert_eq!(history.last_calibration().unwrap().unwrap().run, next);
    assert_eq!(history.run(run).unwrap().unwrap().calibration, None);
}
