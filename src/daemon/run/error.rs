//! Why a run (or a calibration) did not go on: one typed error per way a stage can end early, and how each maps to the run's outcome (refused, failed, stopped, e-stopped).

use crate::daemon::rig::{EncodeError, RigError};
use crate::daemon::run::abort::{Abort, AbortFlag};
use crate::link::StreamError;
use crate::robot::{AwareError, PlanError};
use cubed_core::cube::face_letters;
use cubed_core::cube::Face;
use cubed_vision::camera::{CameraError, Retake};
use cubed_vision::read::advice::what_to_do;
use cubed_vision::read::calibrate::CalibrateError;
use cubed_vision::read::classify::Doubt;
use cubed_vision::recapture::Step;
use cubed_vision::scan::ScanError;
use firmware_protocol::message::Fault;
use std::path::PathBuf;
use tokio::task::JoinError;

/// Why a run the history could not be written for ended (the history adds the write that
/// failed when it records the ending).
pub(crate) const HISTORY_STOPPED_RUN: &str =
    "the run history could not be written, so the run was stopped at a step boundary";

/// [`HISTORY_STOPPED_RUN`] naming the write that failed, as the run's ending and the page say it.
pub(crate) fn history_stopped_run_by(write: &str) -> String {
    format!(
        "the run history could not be written ({write}), so the run was stopped at a step boundary"
    )
}

/// What a streamed program's progress is counted in.
const COMMANDS: &str = "commands";

/// A stage that could not finish.
#[derive(Debug, thiserror::Error)]
pub(crate) enum RunError {
    #[error("connecting to the robot and homing it")]
    Connect(#[source] RigError),
    #[error("the robot's pose is unknown (it must be homed first)")]
    PoseUnknown,
    #[error("planning how to show the faces to the camera")]
    PlanScan(#[source] PlanError),
    #[error("encoding the program for the firmware")]
    Encode(#[from] EncodeError),
    #[error("the planned program breaks a rule at step {step}: {why}")]
    IllegalStep { step: usize, why: String },
    #[error("the {what} task ended unexpectedly")]
    Task {
        what: &'static str,
        #[source]
        source: JoinError,
    },
    #[error("photographing face {face}")]
    Photo {
        face: Face,
        #[source]
        source: CameraError,
    },
    #[error("the photos cannot be read")]
    Unreadable(#[source] ScanError),
    #[error("unsure of {stickers} {}: {doubt}; {}", after_rounds(*rounds, *retake), match turned { Some(t) => format!("{t}; otherwise: {}", unsure_advice(*doubt, (*light, *retake), washed_out)), None => unsure_advice(*doubt, (*light, *retake), washed_out) })]
    Unsure {
        /// The stickers in doubt, counted and named ("2 stickers U1, L4").
        stickers: String,
        /// Which photo a turn would make readable for sure, if one does (see `vision::turned`).
        turned: Option<String>,
        rounds: u32,
        doubt: Doubt,
        /// How they came out in the last photos: near white (`Darker` would be next),
        /// near black (`Brighter`), or neither.
        light: Step,
        /// What taking the photos again could bring with this camera.
        retake: Retake,
        /// The faces the light washed out in the last photos (`vision::read::washed_out`).
        washed_out: Vec<Face>,
    },
    #[error("solving")]
    Solve(#[source] AwareError),
    /// The check scan after the solution's turns could not be read for sure: the turns were made,
    /// and whether the cube is solved is not known.
    #[error("the solution's {turns} face turns were made, but the check scan after them could not be read for sure, so the cube is not known to be solved")]
    Unverified {
        turns: u32,
        #[source]
        source: Box<RunError>,
    },
    #[error("still not solved after {}; see the photos of the last scan", crate::words::count(*solves, "solve", "solves"))]
    NotSolved { solves: u32 },
    #[error("the cube reads the same after the solution's {turns} face turns as before them: the camera shows old pictures (a folder of photos, or a webcam whose picture froze) or the robot did not turn the faces; check both before starting again")]
    Unchanged { turns: u32 },
    #[error("while {what}, after {done} of {total} {unit}: {words}")]
    Fault {
        what: &'static str,
        words: String,
        done: usize,
        total: usize,
        /// What `done` and `total` count: "commands", "moves" (face turns) while executing, or
        /// "faces photographed" while scanning.
        unit: &'static str,
    },
    #[error("while {what}")]
    Stream {
        what: &'static str,
        #[source]
        source: StreamError,
    },
    /// The link was lost for good with commands still to run: the robot confirmed `confirmed`
    /// of `total` face turns, and may have made the next before the link went.
    #[error("while {what}, after {confirmed} of {total} moves confirmed (the robot may have made the next one before the link was lost; the next run scans the cube, never assumes it)")]
    LostMidProgram {
        what: &'static str,
        confirmed: usize,
        total: usize,
        #[source]
        source: StreamError,
    },
    #[error("{what} was stopped after {done} of {total} {unit}")]
    Halted {
        what: &'static str,
        done: usize,
        total: usize,
        /// What `done` and `total` count, as for `Fault`.
        unit: &'static str,
        emergency: bool,
    },
    #[error("{}", match .0 { Abort::Stop => "stopped on request", Abort::History => HISTORY_STOPPED_RUN, Abort::EStop => "emergency stop requested" })]
    Aborted(Abort),
    #[error("stopped on request while solving (the search was cancelled; nothing had moved since the scan)")]
    StoppedWhileSolving,
    #[error("the scan of the solved cube cannot calibrate the palette")]
    Calibrate(#[source] CalibrateError),
    #[error("the scan of the solved cube cannot calibrate the palette: the light washed out {faces}{}, too bright for the camera: dim the lamp or lower `[camera] exposure` (on the simulator, `[sim] exposure`), then calibrate again", if *rounds > 0 { format!(" still after {} of photographing all six faces darker", crate::words::count(*rounds, "round", "rounds")) } else { String::new() })]
    CalibrateWashedOut { faces: String, rounds: u32 },
    #[error("writing the palette {}", .path.display())]
    WritePalette {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The run's task panicked or was cancelled.
    #[error("the run task failed")]
    Panicked(#[source] JoinError),
    #[error("the daemon was shut down (SIGINT/SIGTERM)")]
    Shutdown,
    #[error("the daemon shut down and the run did not reach a step boundary in time")]
    ShutdownTimedOut,
}

/// What a run error makes of the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ending {
    /// The cube (or its scan) is the problem: the person fixes it and starts again.
    Refused,
    /// The solution's turns were made but the check scan after them could not be read: the
    /// person looks at the cube.
    Unverified,
    /// The robot, the link or the software failed.
    Failed,
    Stopped,
    EStopped,
}

/// What a person can do about stickers in doubt (`what_to_do`), naming the faces the light
/// washed out: the light is what to fix there, whatever else the doubt says.
fn unsure_advice(doubt: Doubt, (light, retake): (Step, Retake), washed_out: &[Face]) -> String {
    let advice = what_to_do(doubt, light, retake);
    if washed_out.is_empty() {
        return advice.to_string();
    }
    let faces = match washed_out {
        [face] => format!("face {face}"),
        _ => format!("faces {}", face_letters(washed_out)),
    };
    let too_bright = what_to_do(Doubt::Alike, light, retake);
    if advice == too_bright {
        format!("{faces} washed out: {advice}")
    } else {
        format!("{advice}; {faces} washed out too: {too_bright}")
    }
}

/// How many times the photos were taken again ("after 2 re-captures"), or why they were not.
fn after_rounds(rounds: u32, retake: Retake) -> String {
    match retake {
        Retake::SamePhoto => "in the folder's photos (files named after faces are read as they are, never taken again)".into(),
        Retake::Exposure | Retake::NextFrame => {
            format!("after {}", crate::words::count(rounds, "re-capture", "re-captures"))
        }
    }
}

impl RunError {
    /// The error a streamed program ended with. A program that stopped at a step boundary
    /// because of an emergency stop (before the firmware confirmed it) is e-stopped.
    /// `fault_words` says a firmware fault in words (the actuator by its config name).
    pub(crate) fn from_stream(
        error: StreamError,
        what: &'static str,
        abort: &AbortFlag,
        fault_words: impl FnOnce(&Fault) -> String,
    ) -> RunError {
        let estop_requested = abort.requested() == Some(Abort::EStop);
        match error {
            StreamError::Stopped { .. } if abort.requested() == Some(Abort::History) => {
                RunError::Aborted(Abort::History)
            }
            StreamError::Stopped { done, total } => RunError::Halted {
                what,
                done,
                total,
                unit: COMMANDS,
                emergency: estop_requested,
            },
            StreamError::EStopped { done, total } => RunError::Halted {
                what,
                done,
                total,
                unit: COMMANDS,
                emergency: true,
            },
            StreamError::Fault { fault, done, total } => RunError::Fault {
                what,
                words: fault_words(&fault),
                done,
                total,
                unit: COMMANDS,
            },
            source => RunError::Stream { what, source },
        }
    }

    /// A stop or a fault counted in face turns (`done` of `total` moves) instead of commands,
    /// as the page counts a solution; other errors as they are.
    pub(crate) fn in_moves(self, turns_done: usize, turns: usize) -> RunError {
        self.counted_in(turns_done, turns, "moves")
    }

    /// A stop or a fault during a scan counted in faces photographed: the commands of the one
    /// stretch of motion between two photos say nothing to a person.
    pub(crate) fn in_faces(self, photographed: usize, faces: usize) -> RunError {
        self.counted_in(photographed, faces, "faces photographed")
    }

    /// A check scan after `turns` face turns that could not be read, said as such: the turns
    /// were made, so the run is not refused, only unverified. Other errors as they are.
    pub(crate) fn unverified_after(self, turns: u32) -> RunError {
        match self {
            RunError::Unsure { .. } | RunError::Unreadable(_) => RunError::Unverified {
                turns,
                source: Box::new(self),
            },
            other => other,
        }
    }

    /// A stop asked for while solving, said as such (the run's record says what it cut short).
    pub(crate) fn while_solving(self) -> RunError {
        match self {
            RunError::Aborted(Abort::Stop) => RunError::StoppedWhileSolving,
            other => other,
        }
    }

    /// A link lost for good (its port never came back) with turns still to make, said as one
    /// whose last turn is in doubt.
    pub(crate) fn lost_mid_program(self, confirmed: usize, total: usize) -> RunError {
        match self {
            RunError::Stream {
                what,
                source: source @ StreamError::Link(crate::link::LinkError::PortGone { .. }),
            } if confirmed < total => RunError::LostMidProgram {
                what,
                confirmed,
                total,
                source,
            },
            other => other,
        }
    }

    fn counted_in(mut self, now_done: usize, of: usize, counting: &'static str) -> RunError {
        if let RunError::Halted {
            done, total, unit, ..
        }
        | RunError::Fault {
            done, total, unit, ..
        } = &mut self
        {
            (*done, *total, *unit) = (now_done, of, counting);
        }
        self
    }

    /// How the run ends because of this error.
    pub(crate) fn ending(&self) -> Ending {
        match self {
            RunError::Unreadable(_)
            | RunError::Unsure { .. }
            | RunError::Calibrate(_)
            | RunError::CalibrateWashedOut { .. } => Ending::Refused,
            RunError::Unverified { .. } => Ending::Unverified,
            RunError::Halted {
                emergency: true, ..
            }
            | RunError::Aborted(Abort::EStop)
            | RunError::Stream {
                source: StreamError::EStopUnreached { .. },
                ..
            }
            | RunError::ShutdownTimedOut => Ending::EStopped,
            RunError::Aborted(Abort::History) => Ending::Failed,
            RunError::Halted { .. }
            | RunError::Aborted(Abort::Stop)
            | RunError::StoppedWhileSolving
            | RunError::Shutdown => Ending::Stopped,
            _ => Ending::Failed,
        }
    }
}

impl AbortFlag {
    /// Ends the stage now if a stop or an emergency stop was asked for.
    pub(crate) fn check(&self) -> Result<(), RunError> {
        self.requested()
            .map_or(Ok(()), |a| Err(RunError::Aborted(a)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ending_after(requested: Option<Abort>, error: StreamError) -> Ending {
        let abort = AbortFlag::default();
        if let Some(a) = requested {
            abort.request(a);
        }
        RunError::from_stream(error, "executing", &abort, |f| format!("{f:?}")).ending()
    }

    #[test]
    fn a_step_boundary_stop_after_an_emergency_stop_is_an_emergency_stop() {
        let stopped = || StreamError::Stopped { done: 3, total: 9 };
        assert_eq!(
            ending_after(Some(Abort::EStop), stopped()),
            Ending::EStopped
        );
        assert_eq!(ending_after(Some(Abort::Stop), stopped()), Ending::Stopped);
        assert_eq!(ending_after(None, stopped()), Ending::Stopped);
        let confirmed = StreamError::EStopped { done: 3, total: 9 };
        assert_eq!(ending_after(None, confirmed), Ending::EStopped);
    }

    #[test]
    fn a_link_lost_for_good_mid_program_says_the_count_may_be_short() {
        let abort = AbortFlag::default();
        let gone = || {
            let source = StreamError::Link(crate::link::LinkError::PortGone {
                path: "/dev/ttyACM0".into(),
                waited_ms: 4000,
            });
            RunError::from_stream(source, "executing the solution", &abort, |f| {
                format!("{f:?}")
            })
        };
        let said = gone().lost_mid_program(7, 17).to_string();
        assert!(
            said.contains("after 7 of 17 moves confirmed") && said.contains("may have made"),
            "{said}"
        );
        assert_eq!(gone().lost_mid_program(7, 17).ending(), Ending::Failed);
        // All confirmed: nothing in doubt.
        let whole = gone().lost_mid_program(17, 17);
        assert!(matches!(whole, RunError::Stream { .. }), "{whole}");
    }

    #[test]
    fn a_stop_while_scanning_is_counted_in_faces_and_while_executing_in_moves() {
        let abort = AbortFlag::default();
        let stopped = || StreamError::EStopped { done: 0, total: 1 };
        let scan = RunError::from_stream(stopped(), "scanning", &abort, |f| format!("{f:?}"));
        assert_eq!(
            scan.in_faces(2, 6).to_string(),
            "scanning was stopped after 2 of 6 faces photographed"
        );
        let run = RunError::from_stream(stopped(), "executing", &abort, |f| format!("{f:?}"));
        let run = run.in_moves(4, 19);
        assert_eq!(run.to_string(), "executing was stopped after 4 of 19 moves");
        assert_eq!(run.ending(), Ending::EStopped);
    }

    #[test]
    fn a_refusal_over_washed_out_faces_names_them_and_the_light_never_the_cube() {
        let refused = |doubt: Doubt, washed_out: Vec<Face>| {
            let error = RunError::Unsure {
                stickers: "U1, L4".into(),
                turned: None,
                rounds: 2,
                doubt,
                light: Step::Same,
                retake: Retake::Exposure,
                washed_out,
            };
            error.to_string()
        };
        let said = refused(Doubt::Alike, vec![Face::U, Face::L]);
        assert!(
            said.contains(
                "faces U, L washed out: they came out too bright for the camera (clipped at full"
            ),
            "{said}"
        );
        assert!(!said.contains("check the cube"), "{said}");
        // Doubt elsewhere: its own advice, and the light's for the washed-out face.
        let said = refused(Doubt::Close, vec![Face::B]);
        assert!(
            said.contains(
                "recalibrate the palette; face B washed out too: they came out too bright"
            ),
            "{said}"
        );
        let said = refused(Doubt::Alike, Vec::new());
        assert!(!said.contains("washed out"), "{said}");
    }

    #[test]
    fn an_unsure_reading_is_refused_and_a_lost_pose_is_a_failure() {
        let unsure = |doubt: Doubt, light: Step| RunError::Unsure {
            stickers: "U1, U3".into(),
            turned: None,
            rounds: 2,
            doubt,
            light,
            retake: Retake::Exposure,
            washed_out: Vec::new(),
        };
        assert_eq!(unsure(Doubt::Close, Step::Same).ending(), Ending::Refused);
        // What the person is told to do, by why and how the stickers came out.
        let said = [
            (Doubt::Close, Step::Same, "recalibrate the palette"),
            (Doubt::Blank, Step::Same, "blank white"),
            (Doubt::Blank, Step::Same, "dim the lamp"),
            (Doubt::Alike, Step::Same, "dim the lamp"),
            (Doubt::Close, Step::Darker, "dim the lamp"),
            (Doubt::Close, Step::Brighter, "near black"),
            (Doubt::Unlike, Step::Same, "light each face evenly"),
            (
                Doubt::Impossible,
                Step::Same,
                "cube put back together wrong",
            ),
            (
                Doubt::Impossible,
                Step::Darker,
                "a piece turned in place by hand",
            ),
        ];
        for (doubt, light, words) in said {
            let message = unsure(doubt, light).to_string();
            assert!(
                message.contains("U1, U3 after 2 re-captures") && message.contains(words),
                "{doubt:?} {light:?}: {message}"
            );
        }
        assert_eq!(RunError::PoseUnknown.ending(), Ending::Failed);
        assert_eq!(RunError::Aborted(Abort::Stop).ending(), Ending::Stopped);
        // A run the history stopped failed; nobody asked for the stop.
        assert_eq!(RunError::Aborted(Abort::History).ending(), Ending::Failed);
        let stopped_for_history = StreamError::Stopped { done: 2, total: 9 };
        let flag = AbortFlag::default();
        flag.request(Abort::History);
        let error =
            RunError::from_stream(stopped_for_history, "executing", &flag, |_| String::new());
        assert_eq!(error.ending(), Ending::Failed);
        assert_eq!(error.to_string(), HISTORY_STOPPED_RUN);
    }
}
