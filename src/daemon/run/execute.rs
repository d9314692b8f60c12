//! The execute stage: streams the solution's firmware commands with progress on the page (move i of N, ETA), journals every acknowledged move, and leaves the rig knowing where the robot stopped.

use crate::daemon::board::StatusBoard;
use crate::daemon::docs::{DaemonState, Progress};
use crate::daemon::rig::{Unconfirmed, UnconfirmedMove};
use crate::daemon::run::context::RunContext;
use crate::daemon::run::error::RunError;
use crate::daemon::run::link_news::LinkNews;
use crate::daemon::run::solving::Executable;
use crate::link::{LinkEvent, StreamError};
use crate::robot::MotionGroup;
use std::sync::Arc;
use std::time::Instant;

/// Streams the program with progress (the `solution` shown in Singmaster notation), journaling
/// each acknowledged move with the face turns it completed (durable at once: after a crash the
/// run's turns are known to the move); returns the turns made.
pub(crate) async fn execute(
    ctx: &mut RunContext,
    executable: &Executable,
    solution: &str,
) -> Result<u32, RunError> {
    show_start(&ctx.board, executable, solution, ctx.rig.pace);
    ctx.rig.plan_motion(executable.total_ms());
    let groups: Vec<MotionGroup> = executable.encoded.groups.iter().map(|(_, g)| *g).collect();
    let mut progress = ProgressReport::new(ctx, executable);
    let abort = Arc::clone(&ctx.abort);
    let stop = move || abort.requested().is_some();
    let emergency = Arc::clone(&ctx.abort);
    let result = ctx
        .rig
        .stream(&groups, (&stop, emergency.emergency()), |done, event| {
            progress.on_event(done, event)
        })
        .await;
    let (last_step, ran, progress_began) = (progress.last_step, progress.ran, progress.began);
    let turns_done = last_step.map_or(0, |s| executable.after[s].turns);
    crate::metrics::moves_executed(turns_done as u32);
    ctx.rig.advance(&executable.encoded, ran);
    match result {
        Ok(_) => {
            // On the simulator the wall time is not the robot's: the pace is said with it.
            let pace = match ctx.rig.pace {
                1.0 => String::new(),
                0.0 => " (the simulator as fast as it is answered)".to_string(),
                p => format!(
                    " (the simulator at {}x the robot's speed)",
                    crate::words::number(1.0 / p)
                ),
            };
            ctx.board.log(format!(
                "run {}: executed {turns_done} face turns in {:.1} s{pace}{}",
                ctx.run,
                progress_began.elapsed().as_secs_f64(),
                earlier_rounds(ctx, turns_done as u32)
            ));
            ctx.rig.robot_state = Some(executable.plan.end);
            Ok(turns_done as u32)
        }
        Err(e) => {
            // The program ended short: no time is left to wait for, whatever comes next.
            ctx.board.update(|s| {
                if let Some(p) = s.progress.as_mut() {
                    p.eta_ms = 0;
                }
            });
            if ctx.rig.robot_state.is_some() {
                let stopped_at = last_step.map(|s| executable.after[s].pose);
                ctx.rig.robot_state = Some(stopped_at.unwrap_or(executable.plan.start));
            }
            if matches!(e, StreamError::EStopUnreached { .. }) {
                // The robot may still finish what it had queued: owed to this run's record.
                let unconfirmed = unconfirmed_after(executable, ran, turns_done);
                let of = executable.encoded.groups.len();
                (ctx.rig).leave_unconfirmed(Unconfirmed::new(ctx.run, unconfirmed, of));
            }
            let error = RunError::from_stream(e, "executing the solution", &ctx.abort, |f| {
                ctx.rig.fault_words(f)
            });
            let total = executable.total_turns();
            Err((error.in_moves(turns_done, total)).lost_mid_program(turns_done, total))
        }
    }
}

/// The run's turns made before this round's `turns_done` (a round before an e-stop and
/// Resume, or before a slipped turn was found), as the run's count says them: ", 19 in the
/// run, 2 of them in its earlier rounds"; nothing when there were none.
fn earlier_rounds(ctx: &RunContext, turns_done: u32) -> String {
    let journaled = ctx.history.summary(ctx.run).ok().flatten();
    match journaled.and_then(|run| run.moves) {
        Some(all) if all > turns_done => format!(
            ", {all} in the run, {} of them in its earlier rounds",
            all - turns_done
        ),
        _ => String::new(),
    }
}

/// The commands after the first `ran` with the face turns each completes (`turns_done` made
/// before them).
fn unconfirmed_after(
    executable: &Executable,
    ran: usize,
    turns_done: usize,
) -> Vec<UnconfirmedMove> {
    let mut before = turns_done;
    let rest = executable.encoded.groups.iter().enumerate().skip(ran);
    rest.map(|(index, &(step, group))| {
        let after = executable.after[step].turns;
        let turns = after.saturating_sub(before) as u32;
        before = after.max(before);
        UnconfirmedMove {
            move_id: group.move_id(),
            number: index + 1,
            turns,
        }
    })
    .collect()
}

/// Shows "move 0 of N" with the solution and the planned time, at the robot's `pace`, as the
/// first ETA.
fn show_start(board: &StatusBoard, executable: &Executable, solution: &str, pace: f64) {
    let (total_turns, total_ms) = (executable.total_turns(), executable.total_ms());
    board.update(|s| {
        s.state = DaemonState::Executing;
        s.message = format!("executing: move 0 of {total_turns}");
        s.solution = solution.split_whitespace().map(str::to_string).collect();
        s.progress = Some(Progress {
            moves_done: 0,
            moves: total_turns,
            commands_done: 0,
            commands: executable.encoded.groups.len(),
            elapsed_ms: 0,
            eta_ms: (total_ms as f64 * pace) as u64,
        });
    });
}

/// Follows the acknowledged moves: journal, page, and the last step done.
struct ProgressReport<'a> {
    ctx_run: u64,
    history: Arc<crate::daemon::history::History>,
    abort: Arc<crate::daemon::run::abort::AbortFlag>,
    board: StatusBoard,
    link_news: LinkNews,
    executable: &'a Executable,
    began: Instant,
    last_step: Option<usize>,
    ran: usize,
    /// Face turns journaled so far (each ack adds the turns its command completed).
    turns_journaled: usize,
}

impl<'a> ProgressReport<'a> {
    fn new(ctx: &RunContext, executable: &'a Executable) -> ProgressReport<'a> {
        ProgressReport {
            ctx_run: ctx.run,
            history: Arc::clone(&ctx.history),
            abort: Arc::clone(&ctx.abort),
            board: ctx.board.clone(),
            link_news: LinkNews::new(ctx, DaemonState::Executing),
            executable,
            began: Instant::now(),
            last_step: None,
            ran: 0,
            turns_journaled: 0,
        }
    }

    fn on_event(&mut self, done: usize, event: &LinkEvent) {
        match event {
            LinkEvent::MoveDone { move_id, .. } => self.on_move_done(done, *move_id),
            other => self.link_news.show(other),
        }
    }

    fn on_move_done(&mut self, done: usize, move_id: u32) {
        let step = self.executable.encoded.groups.get(done.wrapping_sub(1));
        let turns = step.map_or(self.turns_journaled, |&(s, _)| {
            self.executable.after[s].turns
        });
        let new_turns = turns.saturating_sub(self.turns_journaled) as u32;
        self.turns_journaled = turns;
        if let Err(e) = self.history.journal_ack(self.ctx_run, move_id, new_turns) {
            // Without its journal a run could not be recovered after a crash: a fault.
            crate::daemon::run::record::history_fault(
                &self.board,
                &self.abort,
                &format!("could not journal move {move_id}"),
                &e,
            );
        }
        let Some(&(step, _)) = step else {
            return;
        };
        self.last_step = Some(step);
        self.ran = done;
        self.show(done, step);
    }

    /// "move i of N", the cube after the step, and an ETA scaled by the pace so far.
    fn show(&self, done: usize, step: usize) {
        let after = &self.executable.after[step];
        let (total_turns, total_ms) = (self.executable.total_turns(), self.executable.total_ms());
        let elapsed = self.began.elapsed().as_millis() as u64;
        let pace = if after.ms > 0 {
            elapsed as f64 / after.ms as f64
        } else {
            1.0
        };
        let commands = self.executable.encoded.groups.len();
        self.board.update(|s| {
            s.state = DaemonState::Executing;
            s.message = format!("executing: move {} of {total_turns}", after.turns);
            s.facelets = Some(after.facelets.clone());
            s.facelets_unread = true;
            s.progress = Some(Progress {
                moves_done: after.turns,
                moves: total_turns,
                commands_done: done,
                commands,
                elapsed_ms: elapsed,
                eta_ms: ((total_ms - after.ms) as f64 * pace) as u64,
            });
        });
    }
}
