//! Why a photo the API was asked for is not there, in words: no such run, its photos removed by the history's limits, no such scan or face in the run, or a file gone from the data directory.

use crate::daemon::RunDetail;

/// The photo asked for: run, scan (the run's round), face, and for an earlier take its number.
#[derive(Clone, Copy, Debug)]
pub(super) struct PhotoAsked {
    pub(super) run: u64,
    pub(super) attempt: u32,
    pub(super) face: char,
    pub(super) take: Option<u32>,
}

impl PhotoAsked {
    /// "photo 0/U" or "take 1 of photo 0/U".
    fn name(&self) -> String {
        match self.take {
            Some(take) => format!("take {take} of photo {}/{}", self.attempt, self.face),
            None => format!("photo {}/{}", self.attempt, self.face),
        }
    }
}

/// Why the history has no photo for `asked`, given the run's record (None: no such run).
pub(super) fn why_no_photo(asked: PhotoAsked, record: Option<&RunDetail>) -> String {
    let run = asked.run;
    let Some(record) = record else {
        return format!("there is no run {run}");
    };
    if let Some(pruned) = &record.photos_pruned {
        return format!(
            "run {run} has no {} any more: its {} photos were removed ({}) to \
             keep the history within [history] keep_runs and max_photo_mb; its readings stay \
             in /api/runs/{run}",
            asked.name(),
            pruned.photos,
            pruned.when()
        );
    }
    let Some(scan) = record.scans.iter().find(|s| s.attempt == asked.attempt) else {
        let scans: Vec<String> = record.scans.iter().map(|s| s.attempt.to_string()).collect();
        return format!(
            "run {run} has no scan {} (its scans: {})",
            asked.attempt,
            listed(&scans)
        );
    };
    let faces: String = scan.images.iter().map(|p| p.face).collect();
    if !faces.contains(asked.face) {
        return format!(
            "run {run}'s scan {} has no photo of face {} (faces photographed: {})",
            asked.attempt,
            asked.face,
            listed(&faces.chars().map(String::from).collect::<Vec<_>>())
        );
    }
    match asked.take {
        Some(take) => {
            let takes: Vec<String> = (scan.earlier.iter())
                .filter(|e| e.face == asked.face)
                .map(|e| e.take.to_string())
                .collect();
            format!(
                "run {run}'s scan {} has no take {take} of face {} (earlier takes: {}; the \
                 current photo is /api/runs/{run}/images/{}/{})",
                asked.attempt,
                asked.face,
                listed(&takes),
                asked.attempt,
                asked.face
            )
        }
        None => format!("run {run} has no {}", asked.name()),
    }
}

/// The record names the photo, but its file is not in the data directory (removed by hand).
pub(super) fn photo_file_gone(asked: PhotoAsked, file: &std::path::Path) -> String {
    format!(
        "run {} has a {} recorded, but its file {} is gone from the data directory",
        asked.run,
        asked.name(),
        file.display()
    )
}

fn listed(items: &[String]) -> String {
    match items.is_empty() {
        true => "none".into(),
        false => items.join(", "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::daemon::docs::{EarlierPhoto, PhotoDoc, PhotosPruned, RunSummary, ScanRecord};

    fn asked(attempt: u32, face: char, take: Option<u32>) -> PhotoAsked {
        PhotoAsked {
            run: 7,
            attempt,
            face,
            take,
        }
    }

    fn record(pruned: bool) -> RunDetail {
        let photo = |face| PhotoDoc {
            face,
            attempt: 0,
            url: String::new(),
            stickers: Vec::new(),
            grid: None,
            check: false,
        };
        let scan = ScanRecord {
            attempt: 0,
            images: "URF".chars().map(photo).collect(),
            readings: Vec::new(),
            facelets: None,
            confidence: Vec::new(),
            error: None,
            label: "scan 1".into(),
            earlier: vec![EarlierPhoto {
                face: 'U',
                attempt: 0,
                take: 1,
                url: String::new(),
            }],
        };
        RunDetail {
            summary: RunSummary::default(),
            scans: vec![scan],
            solutions: Vec::new(),
            steps: Vec::new(),
            interruptions: Vec::new(),
            photos_pruned: pruned.then_some(PhotosPruned {
                photos: 18,
                at_ms: 1_700_000_000_000,
            }),
            calibration: None,
        }
    }

    #[test]
    fn each_reason_is_said() {
        let kept = record(false);
        let cases = [
            (asked(0, 'U', None), None, "there is no run 7"),
            (
                asked(0, 'U', None),
                Some(&record(true)),
                "its 18 photos were removed (Tue, 14 Nov 2023 22:13:20 GMT)",
            ),
            (
                asked(2, 'U', None),
                Some(&kept),
                "has no scan 2 (its scans: 0)",
            ),
            (
                asked(0, 'B', None),
                Some(&kept),
                "no photo of face B (faces photographed: U, R, F)",
            ),
            (
                asked(0, 'U', Some(2)),
                Some(&kept),
                "no take 2 of face U (earlier takes: 1;",
            ),
            (
                asked(0, 'R', Some(1)),
                Some(&kept),
                "no take 1 of face R (earlier takes: none;",
            ),
        ];
        for (asked, record, words) in cases {
            let said = why_no_photo(asked, record);
            assert!(said.contains(words), "{asked:?}: {said}");
        }
    }
}
