//! Errors the history reports: unknown runs and photos, a bad face, outcome or duration, and a column broken on disk named with its run.

use super::{new_run, open, photo};
use crate::daemon::history::{HistoryError, DATABASE_FILE};
use tempfile::TempDir;

#[test]
fn unknown_photos_and_runs_are_reported() {
    let dir = TempDir::new().unwrap();
    let history = open(&dir);
    let run = new_run(&history);
    history.save_image(run, 0, 'U', &photo(1)).unwrap();
    assert_eq!(history.image_path(run, 0, 'R').unwrap(), None);
    assert_eq!(history.image_path(run, 1, 'U').unwrap(), None);
    assert_eq!(history.image_path(run + 1, 0, 'U').unwrap(), None);
    assert_eq!(history.image_path(u64::MAX, 0, 'U').unwrap(), None);
    let missing = run + 1;
    assert!(
        matches!(history.journal_ack(missing, 1, 0), Err(HistoryError::UnknownRun(r)) if r == missing)
    );
    assert!(matches!(
        history.save_image(missing, 0, 'U', &photo(1)),
        Err(HistoryError::UnknownRun(_))
    ));
    assert!(matches!(
        history.record_scan(missing, 0, None, None, &[], None),
        Err(HistoryError::UnknownRun(_))
    ));
    assert!(matches!(
        history.save_image(run, 0, 'X', &photo(1)),
        Err(HistoryError::BadFace('X'))
    ));
    assert!(matches!(
        history.finish_run(run, "won", None),
        Err(HistoryError::BadOutcome(_))
    ));
    assert!(matches!(
        history.record_step(run, "scan", 0, 0, f64::NAN),
        Err(HistoryError::BadDuration { .. })
    ));
}

#[test]
fn a_bad_column_is_an_error_naming_run_and_column() {
    let dir = TempDir::new().unwrap();
    let history = open(&dir);
    let run = new_run(&history);
    history
        .record_scan(run, 0, None, None, &[1.0], None)
        .unwrap();
    let conn = rusqlite::Connection::open(dir.path().join(DATABASE_FILE)).unwrap();
    conn.execute(
        "UPDATE scans SET confidence = '[1.0,' WHERE run = ?1",
        [run as i64],
    )
    .unwrap();
    let error = history.run(run).expect_err("bad JSON is an error");
    assert!(
        matches!(&error, HistoryError::BadRow { column, .. } if column == "scans.confidence"),
        "{error:?}"
    );
    assert!(error.to_string().contains(&format!("run {run}")), "{error}");
}
