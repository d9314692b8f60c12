//! What a run writes down, and what a failed write does: the phases' times, where each face's stickers were found, the scans as read or refused, and the solution, in the history and on the page (the pipeline records them between stages); a history write that fails is a fault that stops the run at the next step boundary.

use crate::daemon::board::{hex, StatusBoard};
use crate::daemon::docs::StickerDoc;
use crate::daemon::history::HistoryError;
use crate::daemon::run::abort::AbortFlag;
use crate::daemon::run::context::RunContext;
use crate::daemon::run::cube_kind::CubeKind;
use crate::daemon::run::error::RunError;
use crate::daemon::run::scanning::{Found, Verdict};
use crate::daemon::run::solving::Executable;
use crate::robot::ProgramDoc;
use cubed_core::cube::{format_moves, Face, Move, Notation};
use cubed_core::error_chain::error_chain;
use cubed_vision::grid::face_grid::FaceGrid;
use cubed_vision::light::colour::Rgb;
use cubed_vision::read::reading::CubeReading;
use cubed_vision::scan::FacePhoto;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

/// Unix time in ms.
pub(crate) fn unix_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// The phases of a run that are timed (the history's phase rows, the metrics' `phase` label).
pub(crate) const PHASES: [&str; 4] = ["scan", "classify", "solve", "execute"];

/// When a timed phase of the run began.
pub(crate) struct Began {
    unix_ms: i64,
    at: Instant,
}

impl Began {
    pub(crate) fn now() -> Began {
        Began {
            unix_ms: unix_ms(),
            at: Instant::now(),
        }
    }
}

/// Records that phase `name` (one of [`PHASES`]) of scan or solve `attempt`, begun at
/// `began`, has ended: its time in the history and the metrics.
pub(crate) fn record_phase(ctx: &RunContext, (name, attempt): (&str, u32), began: Began) {
    debug_assert!(PHASES.contains(&name), "{name} is listed in PHASES");
    let ms = began.at.elapsed().as_secs_f64() * 1000.0;
    crate::metrics::phase(name, ms);
    let recorded = (ctx.history).record_step(ctx.run, name, attempt, began.unix_ms, ms);
    ctx.note(recorded);
}

impl RunContext {
    /// A history write that failed is a fault: logged as an error, and the run stops at the
    /// next step boundary (never mid-move); the history records why once it can be written.
    pub(crate) fn note<T>(&self, result: Result<T, HistoryError>) -> Option<T> {
        match result {
            Ok(v) => Some(v),
            Err(e) => {
                history_fault(
                    &self.board,
                    &self.abort,
                    "could not record in the run history",
                    &e,
                );
                None
            }
        }
    }
}

/// A failed history write during a run: an ERROR in the log, a line on the page, and the run
/// asked to stop at the next step boundary.
pub(crate) fn history_fault(
    board: &StatusBoard,
    abort: &AbortFlag,
    doing: &str,
    error: &HistoryError,
) {
    let words = format!(
        "{doing}: {}; stopping the run at the next step boundary",
        error_chain(error)
    );
    tracing::error!("run history: {words}");
    board.log(words);
    abort.request(crate::daemon::run::abort::Abort::History);
}

/// Shows and records where each photo's stickers were found (`grids`, URFDLB, as sampled), for
/// the page to draw what was read over them, now and in the history.
fn show_grids(ctx: &RunContext, attempt: u32, photos: &[FacePhoto], grids: &[FaceGrid]) {
    let boxes: Vec<(char, [f32; 4])> = (Face::ALL.iter().zip(grids))
        .filter_map(|(&face, grid)| {
            let photo = photos.iter().find(|p| p.face == face)?;
            // Shown as `upright` turns it: `image_rotation` quarter turns anticlockwise.
            let turns = photo.image_rotation;
            Some((face.letter(), grid.box_in(photo.image.dimensions(), turns)))
        })
        .collect();
    ctx.board.update(|s| {
        for doc in s.photos.iter_mut().filter(|p| p.attempt == attempt) {
            doc.grid = boxes.iter().find(|(f, _)| *f == doc.face).map(|&(_, b)| b);
        }
    });
    for &(face, grid) in &boxes {
        ctx.note(ctx.history.record_grid(ctx.run, attempt, face, grid));
    }
}

/// Records one reading as judged, in one go: where each photo's stickers were found, what
/// settling faces turned in their photos said, and the scan row (a sure one as read, one
/// photographed again with its reason, a refused one as its best guess beside the reason).
pub(crate) fn record_classified<K: CubeKind>(
    ctx: &RunContext,
    (attempt, photos): (u32, &[FacePhoto]),
    found: &Found<K>,
    verdict: &Verdict<K::Seen>,
) {
    show_grids(ctx, attempt, photos, &found.grids);
    if let Some(words) = found.grids.lent_words() {
        ctx.board.log(words);
    }
    if let Some(words) = &found.settled {
        ctx.board.say(words.clone());
    }
    let readings = found.readings.as_ref();
    match verdict {
        Verdict::Sure { cube, said } => {
            if let Some(words) = said {
                ctx.board.say(words.clone());
            }
            record_scan::<K>(ctx, attempt, readings, cube, None);
        }
        Verdict::Again {
            cube, recorded_as, ..
        } => record_scan::<K>(ctx, attempt, readings, cube, Some(recorded_as)),
        Verdict::Refused { guess, error } => {
            crate::metrics::vision_refused();
            let reason = error_chain(error);
            record_scan::<K>(ctx, attempt, readings, guess, Some(&reason));
        }
    }
}

/// Records a refused scan with its reason and returns the error.
pub(crate) fn refuse(ctx: &RunContext, attempt: u32, error: RunError) -> RunError {
    crate::metrics::vision_refused();
    let reason = error_chain(&error);
    let recorded = (ctx.history).record_scan(ctx.run, attempt, None, None, &[], Some(&reason));
    ctx.note(recorded);
    error
}

/// Records the scan (`error`: why it is not taken) and shows each photo's stickers on the page.
fn record_scan<K: CubeKind>(
    ctx: &RunContext,
    attempt: u32,
    readings: &[Rgb],
    cube: &K::Seen,
    error: Option<&str>,
) {
    let symbols: Vec<char> = cube.symbols().chars().collect();
    let confidence = cube.confidence();
    let recorded = ctx.history.record_scan(
        ctx.run,
        attempt,
        Some(readings),
        Some(&cube.symbols()),
        &confidence,
        error,
    );
    ctx.note(recorded);
    let n = K::PER_FACE;
    ctx.board.update(|s| {
        for photo in s.photos.iter_mut().filter(|p| p.attempt == attempt) {
            let f = Face::from_letter(photo.face).map_or(0, Face::index);
            photo.stickers = (f * n..f * n + n)
                .map(|i| StickerDoc {
                    symbol: symbols.get(i).copied().unwrap_or('?'),
                    rgb: readings.get(i).map(|&r| hex(r)).unwrap_or_default(),
                    confidence: confidence.get(i).copied().unwrap_or(0.0),
                })
                .collect();
        }
        s.facelets = Some(cube.symbols());
        s.facelets_guessed = error.is_some();
        s.facelets_unread = false;
    });
}

/// Records the solution and its program in the history and says it; returns it in Singmaster
/// notation.
pub(crate) fn record_solution(ctx: &RunContext, executable: &Executable, attempt: u32) -> String {
    let plan = &executable.plan;
    let moves: Vec<Move> = plan.solution.iter().map(|&t| Move::Turn(t)).collect();
    let text = format_moves(&moves, Notation::Singmaster).unwrap_or_default();
    let doc = ProgramDoc::new(
        &ctx.rig.model,
        &plan.program,
        plan.face_turns,
        plan.cube_rotations,
        text.clone(),
    );
    let program = serde_json::to_value(&doc).unwrap_or_default();
    ctx.note(ctx.history.record_solution(
        ctx.run,
        attempt,
        &text,
        moves.len() as u32,
        &program,
        plan.total_ms,
    ));
    ctx.board.log(format!(
        "run {}: solution: {text} ({} face turns, {:.1} s of robot time); executing it",
        ctx.run,
        executable.total_turns(),
        executable.total_ms() as f64 / 1000.0
    ));
    text
}
