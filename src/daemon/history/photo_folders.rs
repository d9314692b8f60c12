//! The photo folders on disk (`images/N/`), read apart from the run history's records: which run each folder is, and which files in it are photos; so photos no record names (a history removed, emptied or restored from an older backup beside them) are counted and pruned by the photo limits as a recorded run's are.

use crate::daemon::history::rows::face_index;
use std::path::Path;

/// The photo directory in the data directory.
pub(crate) const IMAGES_DIR: &str = "images";

/// Each run folder under the data directory's `images/` (named by its run's number) that
/// holds photos, newest first, with those photos' paths relative to the data directory:
/// what the photo limits count, recorded or not. Other folders and files are not runs.
pub(crate) fn photo_folders(data_dir: &Path) -> Vec<(u64, Vec<String>)> {
    let Ok(folders) = std::fs::read_dir(data_dir.join(IMAGES_DIR)) else {
        return Vec::new();
    };
    let mut runs: Vec<(u64, Vec<String>)> = (folders.flatten())
        .filter(|entry| entry.file_type().is_ok_and(|t| t.is_dir()))
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            let run = run_folder(&name)?;
            let photos = photos_in(&entry.path(), &name);
            (!photos.is_empty()).then_some((run, photos))
        })
        .collect();
    runs.sort_unstable_by_key(|run| std::cmp::Reverse(run.0));
    runs
}

/// The run a photo folder is named for: its number written as the history writes it.
pub(super) fn run_folder(name: &str) -> Option<u64> {
    let run: u64 = name.parse().ok()?;
    (run.to_string() == name).then_some(run)
}

/// The photos in one run's folder, as paths relative to the data directory, sorted.
fn photos_in(folder: &Path, folder_name: &str) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return Vec::new();
    };
    let mut photos: Vec<String> = (entries.flatten())
        .filter(|entry| entry.file_type().is_ok_and(|t| t.is_file()))
        .filter_map(|entry| entry.file_name().into_string().ok())
        .filter(|name| is_photo_name(name))
        .map(|name| format!("{IMAGES_DIR}/{folder_name}/{name}"))
        .collect();
    photos.sort_unstable();
    photos
}

/// Whether a file is named as the history names a photo: `{attempt}-{face}.png`, or
/// `{attempt}-{face}-take{n}.png` for an earlier take.
fn is_photo_name(name: &str) -> bool {
    let Some(stem) = name.strip_suffix(".png") else {
        return false;
    };
    let (stem, take) = match stem.split_once("-take") {
        Some((stem, take)) => (stem, Some(take)),
        None => (stem, None),
    };
    let number = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let Some((attempt, face)) = stem.split_once('-') else {
        return false;
    };
    let mut face = face.chars();
    let one_face = matches!((face.next(), face.next()), (Some(f), None) if face_index(f).is_some());
    number(attempt) && one_face && take.is_none_or(number)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn photo_names_are_the_historys_own() {
        for name in ["0-U.png", "12-B.png", "1-F-take2.png"] {
            assert!(is_photo_name(name), "{name}");
        }
        for name in [
            "0-U.jpg",
            "notes.txt",
            "0-X.png",
            "0-UR.png",
            "-U.png",
            "a-U.png",
            "0-U-take.png",
            "0-U-takex.png",
            "0U.png",
        ] {
            assert!(!is_photo_name(name), "{name}");
        }
        assert_eq!(run_folder("7"), Some(7));
        assert_eq!(run_folder("007"), None);
        assert_eq!(run_folder("x"), None);
    }
}
