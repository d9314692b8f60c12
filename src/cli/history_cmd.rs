//! `cubed history`: the daemon's run history from the command line, the runs newest first or
//! one run's record (its scans, solutions, interruptions and timings), for people or as JSON.

use super::daemon_cmds::{address_and_token, reachable, ControlArgs};
use crate::daemon::docs::PhotoDoc;
use crate::daemon::history::{image_relative_path, retaken_relative_path};
use crate::daemon::{EarlierPhoto, History, RunDetail, RunSummary};
use crate::web::client;
use clap::Args;
use cubed_core::error_chain::error_chain;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, UNIX_EPOCH};

#[derive(Args, Debug)]
pub(crate) struct HistoryArgs {
    /// One run's whole record instead of the list.
    pub(crate) run: Option<u64>,
    /// How many runs to list, newest first (1 to 1000).
    #[arg(long, default_value_t = 20, conflicts_with = "run",
          value_parser = clap::value_parser!(u16).range(1..=1000))]
    pub(crate) limit: u16,
    /// Only runs older than this one: the next page of a list is `--before` its last run.
    #[arg(long, value_name = "RUN", conflicts_with = "run")]
    pub(crate) before: Option<u64>,
    /// Print the daemon's JSON (as `GET /api/runs` or `/api/runs/RUN` serves it).
    #[arg(long)]
    pub(crate) json: bool,
    /// Read the history file in this data directory instead of asking the daemon, which need
    /// not run (as the daemon's user: `sudo -u cubed cubed history --data-dir /var/lib/cubed`).
    #[arg(long, value_name = "DIR")]
    pub(crate) data_dir: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) control: ControlArgs,
}

/// Where a run's photos are shown from.
enum Photos {
    /// Whole URLs on the daemon at "http://ADDR:PORT".
    Served(String),
    /// Files in the data directory.
    Files(PathBuf),
}

impl Photos {
    fn of(&self, run: u64, photo: &PhotoDoc) -> String {
        match self {
            Photos::Served(at) => format!("{at}{}", photo.url),
            Photos::Files(dir) => (dir.join(image_relative_path(run, photo.attempt, photo.face)))
                .display()
                .to_string(),
        }
    }

    /// An earlier take of a photo, replaced when its face was taken again.
    fn of_earlier(&self, run: u64, photo: &EarlierPhoto) -> String {
        match self {
            Photos::Served(at) => format!("{at}{}", photo.url),
            Photos::Files(dir) => {
                let relative = retaken_relative_path(run, photo.attempt, photo.face, photo.take);
                dir.join(relative).display().to_string()
            }
        }
    }
}

/// Lists the runs, or prints one run's record.
pub(crate) fn history_cmd(args: HistoryArgs) -> anyhow::Result<ExitCode> {
    if let Some(dir) = &args.data_dir {
        return history_in(dir, &args);
    }
    let (bind, token) = match address_and_token(&args.control) {
        Ok(pair) => pair,
        Err(refused) => return refused,
    };
    let (addr, token) = (reachable(bind), token.as_deref());
    let printed = match args.run {
        Some(id) => client::run(addr, token, id).map(|detail| {
            let text = run_out(
                &detail,
                args.json,
                &Photos::Served(format!("http://{addr}")),
            );
            match token.is_some() && !args.json && text.contains("  photos: ") {
                // The token is not printed: the person has it, a log need not.
                true => format!("{text}\n(this daemon has a token: add ?token=… with the [http] token to open the photos)"),
                false => text,
            }
        }),
        None => client::runs(addr, token, usize::from(args.limit), args.before)
            .map(|runs| list_out(&runs, args.json)),
    };
    match printed {
        Ok(text) => {
            println!("{text}");
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            eprintln!("{}", error_chain(&e));
            if matches!(e, client::ClientError::NotRunning { .. }) {
                eprintln!("(with no daemon running, read its data directory's history file: cubed history --data-dir DIR, as the daemon's user)");
            }
            Ok(match e {
                client::ClientError::Daemon { status: 400, .. } => ExitCode::from(2),
                client::ClientError::Daemon { status: 404, .. } => ExitCode::from(2),
                _ => ExitCode::FAILURE,
            })
        }
    }
}

/// A date for people, in UTC ("Sat, 28 Nov 2026 00:50:00 GMT").
fn when(ms: i64) -> String {
    let since = Duration::from_millis(u64::try_from(ms).unwrap_or(0));
    httpdate::fmt_http_date(UNIX_EPOCH + since)
}

/// `text` cut to `most` characters, "…" marking the cut (the whole is in `history RUN`).
fn shortened(text: &str, most: usize) -> String {
    match text.char_indices().nth(most) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

fn list_text(runs: &[RunSummary]) -> String {
    if runs.is_empty() {
        return "no runs yet".to_string();
    }
    let header = [
        "run", "started", "source", "cube", "outcome", "moves", "why",
    ]
    .map(String::from);
    let rows = runs.iter().map(|r| {
        [
            r.id.to_string(),
            when(r.started_ms),
            r.source.clone(),
            r.cube.clone().unwrap_or_else(|| "-".into()),
            r.ending_in_words(),
            r.moves.map_or("-".to_string(), |m| m.to_string()),
            shortened(r.error.as_deref().unwrap_or(""), 100),
        ]
    });
    aligned(std::iter::once(header).chain(rows).collect())
}

/// Rows as columns as wide as their widest cell (the last one left as it is), two spaces apart.
fn aligned<const N: usize>(rows: Vec<[String; N]>) -> String {
    let width = |c: usize| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0);
    let widths: Vec<usize> = (0..N).map(width).collect();
    let line = |row: &[String; N]| {
        let cells: Vec<String> = (row.iter().zip(&widths).enumerate())
            .map(|(c, (cell, &w))| match c + 1 == N {
                true => cell.clone(),
                false => format!("{cell:<w$}"),
            })
            .collect();
        cells.join("  ").trim_end().to_string()
    };
    rows.iter().map(line).collect::<Vec<_>>().join("\n")
}

/// The history file in `dir`, read as it is (read-only: a daemon may be writing it).
fn history_in(dir: &Path, args: &HistoryArgs) -> anyhow::Result<ExitCode> {
    let refused = |e: &dyn std::error::Error| {
        eprintln!("{}", error_chain(e));
        Ok(ExitCode::from(2))
    };
    let history = match History::open_read_only(dir) {
        Ok(history) => history,
        Err(e) => return refused(&e),
    };
    // With no daemon on the directory, a run without an outcome is not running: shown as
    // the next start will record it.
    let daemon_away = !crate::daemon::held_by_a_daemon(dir);
    let as_found = |run: &mut RunSummary| {
        if daemon_away {
            crate::daemon::history::as_found_at_next_start(run);
        }
    };
    let text = match args.run {
        Some(id) => match history.run(id) {
            Ok(Some(mut detail)) => {
                as_found(&mut detail.summary);
                run_out(&detail, args.json, &Photos::Files(dir.to_path_buf()))
            }
            Ok(None) => {
                eprintln!("{}: there is no run {id}", dir.display());
                return Ok(ExitCode::from(2));
            }
            Err(e) => return refused(&e),
        },
        None => match history.list_runs_before(usize::from(args.limit), args.before) {
            Ok(mut runs) => {
                runs.iter_mut().for_each(as_found);
                list_out(&runs, args.json)
            }
            Err(e) => return refused(&e),
        },
    };
    println!("{text}");
    Ok(ExitCode::SUCCESS)
}

/// One run's record as JSON (as `/api/runs/RUN` serves it) or in words.
fn run_out(detail: &RunDetail, json: bool, photos: &Photos) -> String {
    match json {
        true => serde_json::to_string(detail).unwrap_or_default(),
        false => run_text(detail, photos),
    }
}

/// The runs as JSON (as `/api/runs` serves them) or as a table.
fn list_out(runs: &[RunSummary], json: bool) -> String {
    match json {
        true => serde_json::to_string(runs).unwrap_or_default(),
        false => list_text(runs),
    }
}

/// One run's record in words; its photos as `photos` shows them (URLs to open in a browser,
/// or files).
fn run_text(d: &RunDetail, photos: &Photos) -> String {
    let d = &crate::daemon::history::named_rounds(d.clone());
    let s = &d.summary;
    let mut lines = vec![format!(
        "run {}: {} ({}{}), started {}{}",
        s.id,
        s.ending_in_words(),
        s.source,
        s.cube
            .as_deref()
            .map_or(String::new(), |c| format!(", {c}")),
        when(s.started_ms),
        s.finished_ms
            .map_or(String::new(), |f| format!(", finished {}", when(f))),
    )];
    if let Some(moves) = s.moves {
        lines.push(format!("face turns made: {moves}"));
    }
    if let Some(error) = &s.error {
        lines.push(format!("why: {error}"));
    }
    for (n, i) in d.interruptions.iter().enumerate() {
        let next = d.interruptions.get(n + 1);
        let after = match (i.resumed_ms, i.resumed_by.as_deref()) {
            (None, _) if i.waiting => "waiting: Resume (`cubed resume`) or Reset".to_string(),
            // An e-stop pressed while the run waited for its link ends the run there.
            (None, _) if next.is_some() => format!(
                "overtaken by the next interruption ({})",
                next.map_or("", |n| n.cause.as_str())
            ),
            (None, _) => "not resumed".to_string(),
            (Some(at), Some("abandoned")) => format!("abandoned (reset) {}", when(at)),
            (Some(at), Some("rebooted")) => {
                format!("back {}, to a restarted firmware (below)", when(at))
            }
            (Some(at), by) => format!("resumed {} ({})", when(at), by.unwrap_or("?")),
        };
        lines.push(format!(
            "interrupted {} ({}): {}; {after}",
            when(i.at_ms),
            i.cause,
            i.advice
        ));
    }
    lines.push(
        "(scan N: photographed before solving; solve N: a solution run by the robot; check N: \
         the scan that verified it)"
            .to_string(),
    );
    // Each round's solution, then the scan that checked it.
    let mut told: Vec<(u32, u8, Vec<String>)> = Vec::new();
    for scan in &d.scans {
        let read = match (&scan.facelets, &scan.error) {
            (Some(f), None) => f.clone(),
            (Some(f), Some(e)) => format!("refused: {e}\n  best guess, not given: {f}"),
            (None, Some(e)) => format!("refused: {e}"),
            (None, None) if s.source == "calibration" => {
                "photographed for calibration (a solved cube: its colours, not a cube to read)"
                    .to_string()
            }
            (None, None) if s.outcome.is_none() => {
                "not read yet (the run is under way)".to_string()
            }
            (None, None) => "not read (the run stopped before it was)".to_string(),
        };
        let shown: Vec<String> = (scan.images.iter()).map(|p| photos.of(s.id, p)).collect();
        let mut scan_lines = vec![format!("{}: {read}", scan.label)];
        if !shown.is_empty() {
            scan_lines.push(format!("  photos: {}", shown.join(" ")));
        }
        let earlier: Vec<String> = (scan.earlier.iter())
            .map(|p| format!("{} take {}: {}", p.face, p.take, photos.of_earlier(s.id, p)))
            .collect();
        if !earlier.is_empty() {
            scan_lines.push(format!(
                "  taken again (stickers in doubt), the earlier takes: {}",
                earlier.join(", ")
            ));
        }
        told.push((scan.attempt, 1, scan_lines));
    }
    for sol in &d.solutions {
        let line = format!(
            "{}: {} ({} moves, planned {:.1} s)",
            sol.label,
            sol.solution,
            sol.moves,
            f64::from(sol.planned_ms) / 1000.0,
        );
        told.push((sol.attempt, 0, vec![line]));
    }
    told.sort_by_key(|(attempt, order, _)| (*attempt, *order));
    lines.extend(told.into_iter().flat_map(|(_, _, l)| l));
    if let Some(p) = &d.photos_pruned {
        lines.push(format!(
            "photos: {} removed {} to keep the history within [history] keep_runs and \
             max_photo_mb (the readings above stay)",
            p.photos,
            when(p.at_ms)
        ));
    }
    let steps: Vec<String> = (d.steps.iter())
        .map(|t| format!("{} ({}) {:.1} s", t.name, t.label, t.ms / 1000.0))
        .collect();
    if !steps.is_empty() {
        lines.push(format!("steps: {}", steps.join(", ")));
    }
    lines.join("\n")
}

#[cfg(test)]
mod tests {
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

    /// A scan of `attempt` read as `facelets` (None: not read), labelled `label`.
    fn scan_record(
        attempt: u32,
        facelets: Option<String>,
        label: &str,
    ) -> crate::daemon::ScanRecord {
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
}
