//! `cubed history`: the daemon's run history from the command line, the runs newest first or
//! one run's record (its scans, solutions, interruptions and timings), for people or as JSON.

use super::daemon_cmds::{address_and_token, reachable, ControlArgs};
use crate::daemon::docs::{CalibrationDoc, PhotoDoc};
use crate::daemon::history::{image_relative_path, retaken_relative_path};
use crate::daemon::{EarlierPhoto, History, RunDetail, RunSummary};
use crate::web::client;
use clap::Args;
use cubed_core::error_chain::error_chain;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

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
            .map(|runs| list_out(&runs, args.json, args.before)),
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
    crate::daemon::docs::date_in_words(ms)
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
                list_out(&runs, args.json, args.before)
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

/// The runs as JSON (as `/api/runs` serves them) or as a table (those `before` a run, if
/// asked: none there is not "no runs yet").
fn list_out(runs: &[RunSummary], json: bool, before: Option<u64>) -> String {
    match (json, before) {
        (true, _) => serde_json::to_string(runs).unwrap_or_default(),
        (false, Some(run)) if runs.is_empty() => format!("no runs before run {run}"),
        (false, _) => list_text(runs),
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
                "  taken again (stickers in doubt, or a light too bright), the earlier takes: {}",
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
    if let Some(calibration) = &d.calibration {
        lines.extend(calibration_lines(calibration));
    }
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

/// What a calibration run made: each colour's ΔE00 before and after (as `cubed calibrate`
/// prints it), what to mend, and where the palette was saved.
fn calibration_lines(c: &CalibrationDoc) -> Vec<String> {
    let figure = |x: Option<&f32>| x.map_or("-".to_string(), |x| format!("{x:.1}"));
    let header = ["  colour", "ΔE00 before", "after"].map(String::from);
    let rows = (c.palette.iter().enumerate()).map(|(i, colour)| {
        [
            format!("  {}", colour.name),
            figure(c.before.get(i)),
            figure(c.after.get(i)),
        ]
    });
    let mut lines = vec![format!("calibration: the palette saved to {}", c.saved_to)];
    lines.push(aligned(std::iter::once(header).chain(rows).collect()));
    lines.push(
        "  (ΔE00: how far each colour's stickers were, on average, from the old and the new \
         reference colour; about 1 is just noticeable, under 3 a close match)"
            .to_string(),
    );
    lines.extend(c.warnings.iter().map(|w| format!("  warning: {w}")));
    lines
}

#[cfg(test)]
mod tests;
