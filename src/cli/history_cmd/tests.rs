//! Witnesses of `cubed history`'s text: runs under way, waiting, resumed and abandoned, rounds named as a person reads them, and photos by where they are served.

use super::*;
use crate::daemon::{InterruptionRecord, PhotosPruned};

fn interruption(resumed_by: Option<&str>, waiting: bool) -> InterruptionRecord {
    InterruptionRecord {
        at_ms: 1_700_000_000_000,
        cause: "estop".into(),
        advice: "square the cube, press Resume".into(),
        needs_person: true,
        resumed_ms: resumed_by.map(|_| 1_700_000_100_000),
        resumed_by: resumed_by.map(str::to_owned),
        waiting,
    }
}

fn finished_run(photos_pruned: Option<PhotosPruned>) -> RunDetail {
    RunDetail {
        summary: RunSummary {
            id: 3,
            started_ms: 1_700_000_000_000,
            finished_ms: Some(1_700_000_060_000),
            source: "web".into(),
            cube: Some("3x3".into()),
            outcome: Some("solved".into()),
            moves: Some(19),
            error: None,
            last_acked_move: None,
            abandoned: false,
        },
        scans: Vec::new(),
        solutions: Vec::new(),
        steps: Vec::new(),
        interruptions: Vec::new(),
        photos_pruned,
        calibration: None,
    }
}

/// A run whose photos the history's limits removed says how many and which keys did it;
/// a run never pruned says nothing of it.
#[test]
fn a_run_whose_photos_were_pruned_says_so() {
    let pruned = PhotosPruned {
        photos: 12,
        at_ms: 1_700_000_900_000,
    };
    let text = run_text(
        &finished_run(Some(pruned)),
        &Photos::Served("http://127.0.0.1:8080".into()),
    );
    let line = text.lines().find(|l| l.starts_with("photos:"));
    let line = line.unwrap_or_else(|| panic!("no photos line: {text}"));
    assert!(line.contains("12 removed"), "{line}");
    assert!(
        line.contains("keep_runs") && line.contains("max_photo_mb"),
        "{line}"
    );
    let text = run_text(
        &finished_run(None),
        &Photos::Served("http://127.0.0.1:8080".into()),
    );
    assert!(!text.contains("removed"), "{text}");
}

/// A calibration's record gives each colour's figures as the page's table does, what to mend,
/// and where the palette went.
#[test]
fn a_calibration_run_says_what_it_made() {
    let colour = |name: &str, symbol| crate::daemon::docs::PaletteColourDoc {
        name: name.into(),
        symbol,
        face: 'U',
        rgb: "#ffffff".into(),
    };
    let mut detail = finished_run(None);
    detail.summary.source = "calibration".into();
    detail.summary.outcome = Some("calibrated".into());
    detail.calibration = Some(CalibrationDoc {
        palette: vec![colour("white", 'W'), colour("orange", 'O')],
        before: vec![7.31, 2.0],
        after: vec![1.04],
        saved_to: "/var/lib/cubed/palette.toml".into(),
        warnings: vec!["calibration: a lamp too bright".into()],
    });
    let text = run_text(&detail, &Photos::Files("/var/lib/cubed".into()));
    assert!(
        text.contains("calibration: the palette saved to /var/lib/cubed/palette.toml"),
        "{text}"
    );
    let row = |name: &str| {
        let found = text.lines().find(|l| l.trim_start().starts_with(name));
        let line = found.unwrap_or_else(|| panic!("no row for {name}: {text}"));
        line.split_whitespace()
            .skip(1)
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert_eq!(row("white"), "7.3 1.0");
    // A figure missing from the record is said missing, not shifted.
    assert_eq!(row("orange"), "2.0 -");
    assert!(
        text.contains("warning: calibration: a lamp too bright"),
        "{text}"
    );
    // Other runs have none of it.
    let solved = run_text(&finished_run(None), &Photos::Files("/d".into()));
    assert!(!solved.contains("ΔE00"), "{solved}");
}

/// A scan of `attempt` read as `facelets` (None: not read), labelled `label`.
fn scan_record(attempt: u32, facelets: Option<String>, label: &str) -> crate::daemon::ScanRecord {
    crate::daemon::ScanRecord {
        attempt,
        facelets,
        error: None,
        images: Vec::new(),
        readings: Vec::new(),
        confidence: Vec::new(),
        label: label.into(),
        earlier: Vec::new(),
    }
}

/// A scan not read is "not read yet" while its run is under way, and "not read" once the
/// run stopped before it was.
#[test]
fn a_scan_not_read_says_whether_its_run_is_still_under_way() {
    let mut detail = finished_run(None);
    detail.scans = vec![scan_record(0, None, "scan 1")];
    let served = Photos::Served("http://127.0.0.1:8080".into());
    assert!(run_text(&detail, &served).contains("scan 1: not read (the run stopped"));
    detail.summary.outcome = None;
    detail.summary.finished_ms = None;
    let text = run_text(&detail, &served);
    assert!(
        text.contains("scan 1: not read yet (the run is under way)"),
        "{text}"
    );
}

/// A run that waits says so; one resumed says by whom; one left says it was not resumed,
/// or that the next overtook it; a link that came back to a restarted robot says so.
#[test]
fn a_run_waiting_on_an_interruption_is_shown_waiting() {
    let mut detail = finished_run(None);
    detail.summary.outcome = Some("estopped".into());
    detail.interruptions = vec![
        interruption(Some("person"), false),
        interruption(None, false),
        interruption(Some("rebooted"), false),
        interruption(None, true),
    ];
    let text = run_text(&detail, &Photos::Served("http://127.0.0.1:8080".into()));
    let lines: Vec<&str> = text.lines().filter(|l| l.contains("(estop)")).collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert!(
        lines[0].contains("resumed") && lines[0].contains("(person)"),
        "{text}"
    );
    // Not resumed, but another came before the run went on (an e-stop while the run
    // waited for its link).
    assert!(
        lines[1].ends_with("overtaken by the next interruption (estop)"),
        "{text}"
    );
    assert!(lines[2].contains("to a restarted firmware"), "{text}");
    assert!(lines[3].contains("waiting: Resume"), "{text}");
    detail.interruptions = vec![interruption(None, false)];
    let text = run_text(&detail, &Photos::Served("http://127.0.0.1:8080".into()));
    let last = text.lines().find(|l| l.contains("(estop)")).expect("shown");
    assert!(last.ends_with("not resumed"), "{text}");
}

/// Rounds are numbered as a person reads them: the scan before solving, each solution and
/// the scan that checked it, and a fresh scan after a resumption, in the order they came.
#[test]
fn rounds_are_numbered_scan_solve_check_in_order() {
    use crate::daemon::SolutionRecord;
    let scan = |attempt| scan_record(attempt, Some(format!("seen in round {attempt}")), "");
    let solution = |attempt| SolutionRecord {
        attempt,
        solution: format!("R{attempt}"),
        moves: 1,
        program: serde_json::Value::Null,
        planned_ms: 1000,
        label: String::new(),
    };
    let mut detail = finished_run(None);
    // Scan, solve, check; then an interruption and a fresh scan, solve, check.
    detail.scans = vec![scan(0), scan(1), scan(2), scan(3)];
    detail.solutions = vec![solution(3), solution(1)];
    let text = run_text(&detail, &Photos::Served("http://127.0.0.1:8080".into()));
    let told: Vec<&str> = (text.lines())
        .filter_map(|l| l.split_once(": ").map(|(name, _)| name))
        .filter(|name| {
            ["scan", "solve", "check"]
                .iter()
                .any(|w| name.starts_with(w))
        })
        .collect();
    assert_eq!(
        told,
        ["scan 1", "solve 1", "check 1", "scan 2", "solve 2", "check 2"],
        "{text}"
    );
    assert!(text.contains("check 1: seen in round 1"), "{text}");
}

/// A calibration's photos were its reading: its record does not say they were not read.
#[test]
fn a_calibrations_scan_is_told_as_photographed_for_calibration() {
    use crate::daemon::ScanRecord;
    let mut detail = finished_run(None);
    detail.summary.source = "calibration".into();
    detail.scans = vec![ScanRecord {
        attempt: 0,
        facelets: None,
        error: None,
        images: Vec::new(),
        readings: Vec::new(),
        confidence: Vec::new(),
        label: String::new(),
        earlier: Vec::new(),
    }];
    let text = run_text(&detail, &Photos::Served("http://127.0.0.1:8080".into()));
    assert!(
        text.contains("scan 1: photographed for calibration"),
        "{text}"
    );
    assert!(!text.contains("not read"), "{text}");
}

/// A source as long as "calibration" keeps the columns in line.
#[test]
fn the_run_list_keeps_its_columns_whatever_the_source() {
    let run = |source: &str, outcome: &str| RunSummary {
        source: source.into(),
        outcome: Some(outcome.into()),
        ..finished_run(None).summary
    };
    let text = list_text(&[run("calibration", "calibrated"), run("web", "estopped")]);
    let lines: Vec<&str> = text.lines().collect();
    let column = |line: &str, word: &str| line.find(word);
    assert_eq!(
        column(lines[1], "calibrated"),
        column(lines[2], "e-stopped"),
        "{text}"
    );
    assert_eq!(
        column(lines[0], "outcome"),
        column(lines[1], "calibrated"),
        "{text}"
    );
}

/// An empty page of older runs says there are none before the run asked for, not that the
/// history is empty; JSON stays an empty list.
#[test]
fn no_runs_before_a_run_is_not_no_runs_yet() {
    assert_eq!(list_out(&[], false, Some(1)), "no runs before run 1");
    assert_eq!(list_out(&[], false, None), "no runs yet");
    assert_eq!(list_out(&[], true, Some(1)), "[]");
}
