//! One run, stage by stage, read top to bottom: home → scan → classify → solve → plan → execute → verify, and if verifying finds the cube unsolved (a slipped turn), solve again from what the camera saw, up to `[run] max_solves`. After an interruption (e-stop, fault, firmware restart) the same stages run again from re-homing and a fresh scan, by themselves when nothing physical is in doubt, else when a person resumes. Each stage borrows what it needs and returns what it made; the pipeline records it (the phases' times, the readings, the solution) between stages. The stages live in `capture.rs` (scan), `scanning.rs` (classify), `solving.rs` (solve, plan) and `execute.rs`. One generic path serves a 3x3 and a 2x2: what differs (reading, solving, the cube's stickers) is the `CubeKind`.

use crate::daemon::cube_size::RunCube;
use crate::daemon::docs::{DaemonState, LinkDoc, LinkState};
use crate::daemon::run::capture::{at_normal_exposure, capture_scan, Purpose};
use crate::daemon::run::context::RunContext;
use crate::daemon::run::cube_kind::{CubeKind, Pocket, Three};
use crate::daemon::run::error::RunError;
use crate::daemon::run::execute::execute;
use crate::daemon::run::interruption::Interruption;
use crate::daemon::run::link_news::LinkNews;
use crate::daemon::run::outcome::Outcome;
use crate::daemon::run::record::{record_classified, record_phase, record_solution, refuse, Began};
use crate::daemon::run::scanning::{faces_and_exposures, judge, read, Verdict};
use crate::daemon::run::solving::{plan_program, solve};
use cubed_core::cube::Face;
use cubed_core::error_chain::error_chain;
use cubed_vision::camera::Exposure;
use cubed_vision::read::reading::CubeReading;
use cubed_vision::recapture::Rounds;
use cubed_vision::scan::{FacePhoto, ScanError};
use std::sync::Arc;

/// Runs the whole pipeline; the outcome says how it ended.
pub(crate) async fn run(ctx: &mut RunContext) -> Outcome {
    go_on(ctx, 0).await
}

/// Resumes a run after an interruption a person has seen to: re-home in the recovery plan's
/// order, rescan (the cube's state is never assumed), solve again and run to verified solved.
pub(crate) async fn resume(ctx: &mut RunContext) -> Outcome {
    let first = ctx.note(ctx.history.next_attempt(ctx.run)).unwrap_or(1);
    go_on(ctx, first).await
}

/// The stages from scan `first` on; an interruption nothing physical is in doubt about (a
/// firmware restart between moves) is resumed here by itself, the others wait for a person.
async fn go_on(ctx: &mut RunContext, mut first: u32) -> Outcome {
    let mut automatic = 0;
    loop {
        let result = match ctx.settings.cube.clone() {
            RunCube::Three => stages(ctx, Three(ctx.rig.solver.get().await), first).await,
            RunCube::Pocket(solver) => stages(ctx, Pocket(solver), first).await,
        };
        let error = match result {
            Ok(Outcome::Solved { moves }) => {
                return Outcome::Solved {
                    moves: run_turns(ctx).unwrap_or(moves),
                }
            }
            Ok(outcome) => return outcome,
            Err(error) => error,
        };
        let words = |f: &firmware_protocol::message::Fault| ctx.rig.fault_words(f);
        let asked = ctx.abort.requested() == Some(crate::daemon::run::abort::Abort::EStop);
        let in_doubt = ctx.rig.motion_in_doubt();
        let Some(interruption) = Interruption::of(&error, in_doubt, asked, &words) else {
            return error.into();
        };
        let interruption = interruption.after_automatic(automatic);
        end_the_lost_link(ctx, &interruption);
        let advice = interruption.advice();
        let needs_person = interruption.needs_person();
        let recorded =
            (ctx.history).record_interruption(ctx.run, interruption.cause(), &advice, needs_person);
        ctx.note(recorded);
        if needs_person {
            return Outcome::Interrupted {
                interruption,
                error: Arc::new(error),
            };
        }
        automatic += 1;
        ctx.board.log(format!("run {}: {advice}", ctx.run));
        ctx.note(ctx.history.record_resumption(ctx.run, "automatic"));
        first = ctx
            .note(ctx.history.next_attempt(ctx.run))
            .unwrap_or(first + 1);
    }
}

/// A firmware restart found as a lost link came back ends the link's interruption: the link
/// is back ("rebooted": to a restarted firmware, whose own interruption follows).
fn end_the_lost_link(ctx: &RunContext, interruption: &Interruption) {
    let was_lost = || {
        ctx.link_lost
            .swap(false, std::sync::atomic::Ordering::Relaxed)
    };
    if interruption.is_reboot() && was_lost() {
        ctx.note(ctx.history.record_resumption(ctx.run, "rebooted"));
    }
}

/// The face turns the run made in all, before and after any interruption, as journaled (a
/// read that fails leaves the caller's count: it is no fault of the run).
fn run_turns(ctx: &RunContext) -> Option<u32> {
    let detail = ctx.history.run(ctx.run).ok()??;
    detail.summary.moves
}

/// The stages of a run of a cube of `kind`, from scan `first` on.
async fn stages<K: CubeKind>(
    ctx: &mut RunContext,
    kind: K,
    first: u32,
) -> Result<Outcome, RunError> {
    home(ctx).await?;
    if let Some(words) = K::ANNOUNCE {
        ctx.board.say(words);
    }
    let mut seen = look(ctx, &kind, (first, Purpose::Scanning)).await?;
    ctx.board.log(format!(
        "run {}: read the {}: {}",
        ctx.run,
        K::NAME,
        seen.symbols()
    ));
    let mut moves = 0;
    if seen.is_solved() {
        return Ok(match first {
            0 => Outcome::AlreadySolved,
            _ => Outcome::Solved { moves },
        });
    }
    for attempt in first + 1..=first + ctx.settings.max_solves {
        ctx.abort.check()?;
        let before = seen.symbols();
        let solving = Began::now();
        let (board, abort) = (&ctx.board, &*ctx.abort);
        let solved = solve(
            &kind,
            &seen,
            &ctx.rig,
            (board, abort),
            ctx.settings.solve_budget,
        )
        .await;
        let plan = match solved {
            Ok(plan) => plan,
            Err(error) => {
                // A stopped or failed solve keeps its time, as a stopped run keeps the part run.
                record_phase(ctx, ("solve", attempt), solving);
                return Err(error.while_solving());
            }
        };
        let executable = plan_program::<K>(&mut ctx.rig, plan, &seen);
        // The solve phase: the solution and its program for the robot, encoded for its link.
        record_phase(ctx, ("solve", attempt), solving);
        let executable = executable?;
        let executing = Began::now();
        // Recorded before a move is made: an interrupted run's history shows what it was doing.
        let solution = record_solution(ctx, &executable, attempt);
        let executed = execute(ctx, &executable, &solution).await;
        // The time is recorded however the stream ended: a stopped run's history shows the part run.
        record_phase(ctx, ("execute", attempt), executing);
        let turned = executed?;
        moves += turned;
        ctx.board.log(format!(
            "run {}: verifying: photographing the {} again",
            ctx.run,
            K::NAME
        ));
        seen = look(ctx, &kind, (attempt, Purpose::Verifying))
            .await
            .map_err(|e| e.unverified_after(moves))?;
        if seen.is_solved() {
            ctx.board.log(format!(
                "run {}: the camera sees the {} solved",
                ctx.run,
                K::NAME
            ));
            return Ok(Outcome::Solved { moves });
        }
        if seen.symbols() == before {
            // No slipped turn leaves every sticker where it was: solving again would only
            // turn the real cube further from solved.
            return Err(RunError::Unchanged { turns: turned });
        }
        ctx.board.log(format!(
            "run {}: the {} is not solved after {} (a slipped turn?); solving again from what the camera sees",
            ctx.run,
            K::NAME,
            solve_label(ctx, attempt)
        ));
    }
    Err(RunError::NotSolved {
        solves: ctx.settings.max_solves,
    })
}

/// What the run's history calls the solve of round `attempt` ("solve 2": a round a
/// resumption began with a scan alone is not counted).
fn solve_label(ctx: &RunContext, attempt: u32) -> String {
    let detail = ctx.history.run(ctx.run).ok().flatten();
    let recorded = detail.and_then(|d| d.solutions.into_iter().find(|s| s.attempt == attempt));
    recorded.map_or_else(|| format!("solve {attempt}"), |s| s.label)
}

/// Home: opens the link and homes the robot if its pose is unknown.
pub(crate) async fn home(ctx: &mut RunContext) -> Result<(), RunError> {
    ctx.board.set(
        DaemonState::Scanning,
        "connecting to the robot and homing it",
    );
    let news = LinkNews::new(ctx, DaemonState::Scanning);
    let opened = (ctx.rig)
        .ensure_link(|event| news.show(event))
        .await
        .map(|_| ());
    ctx.board.link(match &opened {
        Ok(()) => LinkDoc::open(),
        // Homing stopped (an e-stop, a fault) by a robot that still answers: the run's
        // interruption says why, the link is not to blame.
        Err(_) if ctx.rig.connected() => LinkDoc::open(),
        Err(e) => LinkDoc::down(LinkState::Unreachable, error_chain(e)),
    });
    opened.map_err(RunError::Connect)
}

/// Scan and classify: photographs the six faces and reads them as a cube of `kind`; what the
/// reading doubts is photographed again, up to `[vision] recaptures` rounds, before the run is
/// refused. Each photo is saved as it is taken and each reading recorded before the next photo,
/// so a run stopped mid-scan keeps what it saw.
async fn look<K: CubeKind>(
    ctx: &mut RunContext,
    kind: &K,
    (attempt, purpose): (u32, Purpose),
) -> Result<K::Seen, RunError> {
    let doing = purpose.doing();
    ctx.board.set(
        purpose.state(),
        format!("{doing}: photographing the six faces"),
    );
    ctx.board
        .update(|s| s.photos.retain(|p| p.attempt != attempt));
    let mut rounds = Rounds::for_camera(ctx.rig.camera_retake, ctx.settings.recaptures);
    if let Some(read_at) = ctx.read_at {
        rounds = rounds.starting_at(next_scan_light(read_at));
    }
    let first: Vec<(Face, Exposure)> = (Face::ALL.iter())
        .map(|&f| (f, rounds.exposure_of(f)))
        .collect();
    let darker_or_brighter: Vec<(Face, Exposure)> = (first.iter().copied())
        .filter(|&(_, e)| e != Exposure::NORMAL)
        .collect();
    if !darker_or_brighter.is_empty() {
        let faces = faces_and_exposures(&darker_or_brighter);
        ctx.board.say(format!(
            "{doing}: photographing the six faces in the light the last scan was read in: {faces}"
        ));
    }
    let mut photos = photograph(ctx, (attempt, purpose), &first).await?;
    loop {
        photos = match classify(ctx, (kind, doing), attempt, &photos, &mut rounds)? {
            Next::Seen(cube) => {
                ctx.read_at = Some(rounds.exposures());
                return Ok(cube);
            }
            Next::Unreadable(error) => {
                let error = error_chain(&error);
                ctx.board
                    .say(format!("{doing}: {error}; photographing again"));
                crate::metrics::recaptured();
                photograph(ctx, (attempt, purpose), &at_normal_exposure(&Face::ALL)).await?
            }
            Next::Again { faces, why } => {
                photograph_again(ctx, (attempt, purpose), (&faces, &why), photos).await?
            }
        };
    }
}

/// The exposures a scan starts at after one read at `read_at` (URFDLB): one lamp lights every
/// face, and the colours have moved between the faces since, so when faces were read darker
/// (none brighter) every face starts at the darkest of them; otherwise each at its own.
fn next_scan_light(read_at: [Exposure; 6]) -> [Exposure; 6] {
    let darkest = read_at.iter().copied().min_by_key(|e| e.in_stops());
    match darkest {
        Some(d) if read_at.iter().all(|e| e.in_stops() <= 0) => [d; 6],
        _ => read_at,
    }
}

/// Scan: the robot shows the `wanted` faces to the camera, each at its exposure, for `purpose`;
/// the scan's time is recorded once they are all taken, or the scan stopped.
pub(crate) async fn photograph(
    ctx: &mut RunContext,
    (attempt, purpose): (u32, Purpose),
    wanted: &[(Face, Exposure)],
) -> Result<Vec<FacePhoto>, RunError> {
    let scanning = Began::now();
    let photos = capture_scan(ctx, (attempt, purpose), wanted).await;
    // The time is recorded however the scan ended: a stopped run's history shows the part run.
    record_phase(ctx, ("scan", attempt), scanning);
    photos
}

/// Photographs the faces of `again` once more (saying `why` and how), in place of their photos.
pub(crate) async fn photograph_again(
    ctx: &mut RunContext,
    (attempt, purpose): (u32, Purpose),
    (again, why): (&[(Face, Exposure)], &str),
    mut photos: Vec<FacePhoto>,
) -> Result<Vec<FacePhoto>, RunError> {
    crate::metrics::recaptured();
    ctx.board.say(format!(
        "{}: {why}; photographing again: {}",
        purpose.doing(),
        faces_and_exposures(again)
    ));
    let faces: Vec<Face> = again.iter().map(|&(face, _)| face).collect();
    let retaken = photograph(ctx, (attempt, purpose), again).await?;
    photos.retain(|p| !faces.contains(&p.face));
    photos.extend(retaken);
    Ok(photos)
}

/// What a scan does after a reading of its photos.
enum Next<Seen> {
    /// The cube is read.
    Seen(Seen),
    /// The photos could not be read: all are taken again.
    Unreadable(ScanError),
    /// The `faces` are photographed again, at their exposures, because of `why`.
    Again {
        faces: Vec<(Face, Exposure)>,
        why: String,
    },
}

/// Classify: reads the photos as a cube of `kind` and judges the reading with the `rounds`
/// left (`doing`: what the photos are for, in the run's words); then records, in one go, the
/// classify phase's time, where each face's stickers were found and the reading as judged.
fn classify<K: CubeKind>(
    ctx: &RunContext,
    (kind, doing): (&K, &str),
    attempt: u32,
    photos: &[FacePhoto],
    rounds: &mut Rounds,
) -> Result<Next<K::Seen>, RunError> {
    let classifying = Began::now();
    let judged = read(kind, &ctx.rig, ctx.settings.min_confidence, photos).map(|read| {
        let judging = (&ctx.rig, ctx.settings.min_confidence);
        let verdict = judge(
            kind,
            (&read.found.readings, read.result),
            rounds,
            judging,
            doing,
        );
        (read.found, verdict)
    });
    record_phase(ctx, ("classify", attempt), classifying);
    let verdict = match judged {
        Ok((found, verdict)) => {
            record_classified(ctx, (attempt, photos), &found, &verdict);
            verdict
        }
        Err(error) if rounds.again_after_unreadable() => return Ok(Next::Unreadable(error)),
        Err(error) => return Err(refuse(ctx, attempt, RunError::Unreadable(error))),
    };
    Ok(match verdict {
        Verdict::Sure { cube, .. } => Next::Seen(cube),
        Verdict::Again { faces, why, .. } => Next::Again { faces, why },
        Verdict::Refused { error, .. } => return Err(error),
    })
}

#[cfg(test)]
mod tests {
    use super::next_scan_light;
    use cubed_vision::camera::Exposure;

    #[test]
    fn the_next_scan_starts_at_the_darkest_light_read_unless_a_face_was_read_brighter() {
        let stops = |s: [i8; 6]| s.map(Exposure::stops);
        assert_eq!(next_scan_light(stops([0; 6])), stops([0; 6]));
        assert_eq!(
            next_scan_light(stops([-2, -2, -1, 0, -2, -1])),
            stops([-2; 6]),
            "one lamp: every face as dark as the darkest read"
        );
        let mixed = stops([-1, 0, 1, 0, 0, 0]);
        assert_eq!(next_scan_light(mixed), mixed, "each face its own");
    }
}
