//! A run's photos: the sticker grid recorded for a photo (and one broken on disk named), and a photo taken again replacing it atomically with its earlier takes kept until pruned, listed in URFDLB order.

use super::{new_run, open, photo};
use crate::daemon::cube_size::CubeSize;
use crate::daemon::docs::StartSource;
use crate::daemon::history::{HistoryError, DATABASE_FILE};
use tempfile::TempDir;

#[test]
fn a_grid_for_a_photo_never_recorded_is_no_error_and_a_broken_one_is_named() {
    let dir = TempDir::new().unwrap();
    let history = open(&dir);
    let run = history
        .begin_run(StartSource::Web, "four-arm", CubeSize::Three)
        .unwrap();
    history
        .record_grid(run, 0, 'U', [0.1, 0.1, 0.9, 0.9])
        .unwrap();
    let unknown = history.record_grid(run + 1, 0, 'U', [0.1, 0.1, 0.9, 0.9]);
    assert!(
        matches!(unknown, Err(HistoryError::UnknownRun(_))),
        "{unknown:?}"
    );
    history.save_image(run, 0, 'U', &photo(3)).unwrap();
    history
        .record_grid(run, 0, 'U', [0.1, 0.2, 0.9, 0.8])
        .unwrap();
    let kept = history.run(run).unwrap().expect("recorded");
    assert_eq!(kept.scans[0].images[0].grid, Some([0.1, 0.2, 0.9, 0.8]));
    let conn = rusqlite::Connection::open(dir.path().join(DATABASE_FILE)).unwrap();
    conn.execute("UPDATE images SET grid = '[0.9, 0.1, 0.1, 0.9]'", [])
        .unwrap();
    let error = history.run(run).expect_err("a box inside out");
    assert!(error.to_string().contains("images.grid"), "{error}");
}

#[test]
fn a_photo_taken_again_replaces_it_atomically_and_keeps_the_earlier_takes() {
    let dir = TempDir::new().unwrap();
    let history = open(&dir);
    let run = new_run(&history);
    history.save_image(run, 0, 'U', &photo(1)).unwrap();
    history.save_image(run, 0, 'U', &photo(100)).unwrap();
    history.save_image(run, 0, 'U', &photo(200)).unwrap();
    let path = history.image_path(run, 0, 'U').unwrap().expect("recorded");
    assert_eq!(path, dir.path().join(format!("images/{run}/0-U.png")));
    let saved = image::open(&path).unwrap().to_rgb8();
    assert_eq!(saved, photo(200));
    let files = std::fs::read_dir(path.parent().unwrap()).unwrap().count();
    assert_eq!(
        files, 3,
        "the photo and its two earlier takes, no temporary file"
    );
    for (take, value) in [(1, 1), (2, 100)] {
        let earlier = history
            .retaken_path(run, 0, 'U', take)
            .unwrap()
            .expect("kept");
        assert_eq!(image::open(&earlier).unwrap().to_rgb8(), photo(value));
    }
    let detail = history.run(run).unwrap().unwrap();
    assert_eq!(detail.scans[0].images.len(), 1);
    let takes: Vec<(char, u32, &str)> = (detail.scans[0].earlier.iter())
        .map(|p| (p.face, p.take, p.url.as_str()))
        .collect();
    let url = |take| format!("/api/runs/{run}/images/0/U/{take}");
    assert_eq!(
        takes,
        [('U', 1, url(1).as_str()), ('U', 2, url(2).as_str())]
    );
    // Pruned with the run's photos.
    history.set_retention(crate::daemon::config::Retention {
        keep_runs: 1,
        max_photo_bytes: 1,
    });
    let next = new_run(&history);
    history.save_image(next, 0, 'U', &photo(5)).unwrap();
    let pruned = history.prune_photos().unwrap();
    assert_eq!((pruned.runs, pruned.files), (1, 3), "{pruned:?}");
    assert_eq!(history.retaken_path(run, 0, 'U', 1).unwrap(), None);
}

#[test]
fn earlier_takes_are_listed_face_by_face_in_urfdlb_order() {
    let dir = TempDir::new().unwrap();
    let history = open(&dir);
    let run = new_run(&history);
    for face in ['B', 'R', 'U', 'L'] {
        history.save_image(run, 0, face, &photo(1)).unwrap();
        history.save_image(run, 0, face, &photo(2)).unwrap();
    }
    let detail = history.run(run).unwrap().unwrap();
    let faces: String = detail.scans[0].earlier.iter().map(|p| p.face).collect();
    assert_eq!(faces, "URLB", "not by the letters' order (BLRU)");
}

/// A history removed (or emptied) beside the photos of its runs: the new history numbers its
/// runs above them, and the old photos stay as they were.
#[test]
fn a_new_history_beside_kept_photos_numbers_its_runs_above_them() {
    let dir = TempDir::new().unwrap();
    let history = open(&dir);
    let first = new_run(&history);
    history.save_image(first, 0, 'U', &photo(3)).unwrap();
    let second = new_run(&history);
    history.save_image(second, 0, 'U', &photo(4)).unwrap();
    drop(history);
    let kept = dir.path().join(format!("images/{second}/0-U.png"));
    let before = std::fs::read(&kept).unwrap();
    std::fs::remove_file(dir.path().join(DATABASE_FILE)).unwrap();
    let history = open(&dir);
    let run = new_run(&history);
    assert_eq!(run, second + 1, "numbered above the photos kept");
    history.save_image(run, 0, 'U', &photo(5)).unwrap();
    assert_eq!(
        std::fs::read(&kept).unwrap(),
        before,
        "the old photo is untouched"
    );
    // Opened again, the numbering holds (the history now has a run of its own).
    drop(history);
    assert_eq!(new_run(&open(&dir)), run + 1);
    // An emptied file (0 bytes) is a new history too.
    std::fs::write(dir.path().join(DATABASE_FILE), b"").unwrap();
    assert_eq!(new_run(&open(&dir)), run + 1);
}

/// Photos kept beside a removed history go by the photo limits like a recorded run's: the
/// oldest first, only files named as photos, and a recorded run's photos never taken for them.
#[test]
fn photos_no_record_names_are_pruned_oldest_first_within_the_limits() {
    let dir = TempDir::new().unwrap();
    let history = open(&dir);
    let old_runs: Vec<u64> = (0..3).map(|_| new_run(&history)).collect();
    for (&run, shade) in old_runs.iter().zip(1..) {
        history.save_image(run, 0, 'U', &photo(shade)).unwrap();
        history.save_image(run, 0, 'U', &photo(shade + 10)).unwrap();
    }
    drop(history);
    std::fs::remove_file(dir.path().join(DATABASE_FILE)).unwrap();
    let notes = dir.path().join(format!("images/{}/notes.txt", old_runs[0]));
    std::fs::write(&notes, b"the builder's own file").unwrap();
    let history = open(&dir);
    history.set_retention(crate::daemon::config::Retention {
        keep_runs: 2,
        max_photo_bytes: u64::MAX,
    });
    let run = new_run(&history);
    history.save_image(run, 0, 'F', &photo(9)).unwrap();
    let pruned = history.prune_photos().unwrap();
    assert_eq!(
        (pruned.runs, pruned.unrecorded, pruned.files),
        (2, 2, 4),
        "the two oldest unrecorded runs, a photo and its earlier take each: {pruned:?}"
    );
    let folder = |run: u64| dir.path().join(format!("images/{run}"));
    assert!(
        folder(old_runs[2]).join("0-U.png").exists(),
        "the newest old run kept"
    );
    assert!(!folder(old_runs[1]).exists(), "an emptied folder removed");
    assert!(!folder(old_runs[0]).join("0-U.png").exists());
    assert!(notes.exists(), "a file not named as a photo stays");
    assert!(history.image_path(run, 0, 'F').unwrap().unwrap().exists());
    // What the limits count (and dry-run says): run folders with photos, not a folder left
    // with the builder's file alone, nor folders not named as the history names runs.
    for other in ["0099", "old"] {
        let folder = dir.path().join("images").join(other);
        std::fs::create_dir(&folder).unwrap();
        std::fs::write(folder.join("0-U.png"), b"png").unwrap();
    }
    let counted: Vec<u64> = crate::daemon::history::photo_folders(dir.path())
        .into_iter()
        .map(|(run, _)| run)
        .collect();
    assert_eq!(counted, [run, old_runs[2]]);
    drop(history);
    assert_eq!(
        new_run(&open(&dir)),
        run + 1,
        "0099 is no run to number above"
    );
}
