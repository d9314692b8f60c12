//! Interruptions of a run that it can come back from: an emergency stop, a robot fault, a
//! firmware reboot. Each says, in words, what a person must do before Resume, or that nothing
//! physical is in doubt and the daemon resumes by itself (re-home, rescan, solve again).

use crate::daemon::rig::RigError;
use crate::daemon::run::abort::Abort;
use crate::daemon::run::error::RunError;
use crate::link::{LinkError, StreamError};
use firmware_protocol::message::Fault;

/// Why a run stopped part-way and can be resumed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Interruption {
    /// The emergency stop (the page, the CLI, or the robot's switch: `by_robot`, nobody asked
    /// the daemon for it). `still`: it came between stages (while solving, say), when no
    /// command was running or queued.
    EStop { still: bool, by_robot: bool },
    /// The emergency stop asked for while the link to the robot was lost: the daemon could not
    /// deliver it (the link sends it once the port is back), and the robot may have gone on.
    EStopUnreached,
    /// The robot latched a fault (a stall, a limit, the supply…), in words.
    Fault { words: String },
    /// The firmware restarted (power loss, brown-out, watchdog). `in_doubt`: a command was
    /// running or queued, so a layer may be half turned.
    Reboot { in_doubt: bool },
    /// The firmware restarted between moves once more after `MAX_AUTOMATIC` automatic
    /// resumptions in this run (`times` in all): something keeps restarting it.
    Reboots { times: u32 },
}

/// What an e-stop says when no link is open to send it on (sent, and said so, once one is).
pub(crate) const NOT_REACHED: &str = "the robot cannot be reached now (no link is open to it), so the stop goes out the moment one is: if it still moves, press its e-stop button or cut its power";

/// Automatic resumptions allowed in one run (a firmware that keeps rebooting needs a person).
pub(crate) const MAX_AUTOMATIC: u32 = 3;

/// Where an emergency stop nobody asked the daemon for came from.
const BY_ROBOT: &str = " from the robot's e-stop button (nobody asked for it here; a \
                        normally-closed switch also reads pressed when a wire is loose)";

/// What a person must do before pressing Resume when a layer may be half turned.
const SQUARE_THE_CUBE: &str =
    "a layer may be half turned: square the cube, seat it back in the robot, press Resume (`cubed resume`)";

impl Interruption {
    /// The interruption `error` is, if the run can be resumed from it. `motion_in_doubt`:
    /// commands were running or queued when it came; `estop_asked`: the page, the CLI or a
    /// shutdown asked for an emergency stop; `words` says a fault in words.
    pub(crate) fn of(
        error: &RunError,
        motion_in_doubt: bool,
        estop_asked: bool,
        words: &dyn Fn(&Fault) -> String,
    ) -> Option<Interruption> {
        match error {
            RunError::Aborted(Abort::EStop) => Some(Interruption::EStop {
                still: true,
                by_robot: false,
            }),
            RunError::Halted {
                emergency: true, ..
            }
            | RunError::Connect(RigError::Home(StreamError::EStopped { .. })) => {
                Some(Interruption::EStop {
                    still: false,
                    by_robot: !estop_asked,
                })
            }
            RunError::Stream {
                source: StreamError::EStopUnreached { .. },
                ..
            } => Some(Interruption::EStopUnreached),
            RunError::Fault { words, .. } => Some(Interruption::Fault {
                words: words.clone(),
            }),
            RunError::Connect(RigError::Home(StreamError::Fault { fault, .. })) => {
                Some(Interruption::Fault {
                    words: format!("while re-homing: {}", words(fault)),
                })
            }
            RunError::Stream { source, .. } | RunError::Connect(RigError::Home(source))
                if rebooted(source) =>
            {
                Some(Interruption::Reboot {
                    in_doubt: motion_in_doubt,
                })
            }
            RunError::Connect(RigError::Link(LinkError::FirmwareRebooted { .. })) => {
                Some(Interruption::Reboot {
                    in_doubt: motion_in_doubt,
                })
            }
            _ => None,
        }
    }

    /// The interruption as a run that has resumed by itself `automatic` times takes it: one
    /// more firmware restart after `MAX_AUTOMATIC` of them waits for a person.
    pub(crate) fn after_automatic(self, automatic: u32) -> Interruption {
        match self {
            Interruption::Reboot { in_doubt: false } if automatic >= MAX_AUTOMATIC => {
                Interruption::Reboots {
                    times: automatic + 1,
                }
            }
            other => other,
        }
    }

    /// Whether the firmware restarted (once, or again and again).
    pub(crate) fn is_reboot(&self) -> bool {
        matches!(
            self,
            Interruption::Reboot { .. } | Interruption::Reboots { .. }
        )
    }

    /// Whether a person must look at the robot before the run goes on.
    pub(crate) fn needs_person(&self) -> bool {
        !matches!(self, Interruption::Reboot { in_doubt: false })
    }

    /// Whether an emergency stop made it, delivered or not.
    pub(crate) fn is_estop(&self) -> bool {
        matches!(
            self,
            Interruption::EStop { .. } | Interruption::EStopUnreached
        )
    }

    /// A short name for the history: "estop", "fault", "reboot".
    pub(crate) fn cause(&self) -> &'static str {
        match self {
            Interruption::EStop { .. } | Interruption::EStopUnreached => "estop",
            Interruption::Fault { .. } => "fault",
            Interruption::Reboot { .. } | Interruption::Reboots { .. } => "reboot",
        }
    }

    /// What happened and what to do, in words.
    pub(crate) fn advice(&self) -> String {
        match self {
            Interruption::EStop {
                still: false,
                by_robot,
            } => match by_robot {
                true => format!(
                    "emergency stop{BY_ROBOT}. Motors halted: release the button (or fix the wiring), then, as a layer may be half turned, square the cube, seat it back in the robot and press Resume (`cubed resume`); or Reset to abandon the run"
                ),
                false => format!(
                    "emergency stop: motors halted; {SQUARE_THE_CUBE} (or Reset to abandon the run)"
                ),
            },
            Interruption::EStopUnreached => format!(
                "emergency stop asked while the link to the robot was lost: {}. Then, as a layer may be half turned, square the cube, seat it back in the robot and press Resume (`cubed resume`); or Reset to abandon the run",
                NOT_REACHED
            ),
            Interruption::EStop { still: true, .. } => {
                "emergency stop: nothing was moving (it came between steps); check the robot, then press Resume (`cubed resume`) to go on (or Reset to abandon the run)".into()
            }
            Interruption::Fault { words } => format!(
                "the robot stopped on a fault ({words}): find and clear what stopped it (a jammed layer, a loose cable); {SQUARE_THE_CUBE} (or Reset to abandon the run)"
            ),
            Interruption::Reboot { in_doubt: true } => format!(
                "the robot's firmware restarted during a move; {SQUARE_THE_CUBE} (or Reset to abandon the run)"
            ),
            Interruption::Reboot { in_doubt: false } => {
                "the robot's firmware restarted between moves: re-homing, rescanning and solving again by itself".into()
            }
            Interruption::Reboots { times } => format!(
                "the robot's firmware restarted {times} times in this run, between moves: something keeps restarting it (a supply that sags under the motors' load, a loose wire, its watchdog); check the robot, then press Resume (`cubed resume`) to re-home, rescan and go on (or Reset to abandon the run)"
            ),
        }
    }
}

/// The firmware restarted, or the link ended under the run (a restart seen while idle closes
/// it before the next command is sent).
fn rebooted(error: &StreamError) -> bool {
    matches!(
        error,
        StreamError::Link(LinkError::FirmwareRebooted { .. } | LinkError::Closed)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn words(fault: &Fault) -> String {
        format!("{fault:?}")
    }

    fn reboot() -> StreamError {
        StreamError::Link(LinkError::FirmwareRebooted {
            path: PathBuf::from("/dev/ttyACM0"),
            cause: crate::link::RestartCause::default(),
        })
    }

    /// A run resumes by itself after a clean restart `MAX_AUTOMATIC` times; the next one waits
    /// for a person, told why, and is recorded as needing one (so a daemon started again
    /// finds the run waiting, as it was). Other interruptions are as they were.
    #[test]
    fn a_firmware_that_keeps_restarting_waits_for_a_person() {
        let clean = Interruption::Reboot { in_doubt: false };
        for automatic in 0..MAX_AUTOMATIC {
            assert_eq!(clean.clone().after_automatic(automatic), clean);
        }
        let again = clean.after_automatic(MAX_AUTOMATIC);
        assert!(again.needs_person());
        assert_eq!(again.cause(), "reboot");
        let advice = again.advice();
        assert!(
            advice.contains("restarted 4 times") && advice.contains("press Resume"),
            "{advice}"
        );
        let stop = Interruption::EStop {
            still: false,
            by_robot: false,
        };
        assert_eq!(stop.clone().after_automatic(MAX_AUTOMATIC + 2), stop);
    }

    #[test]
    fn a_reboot_needs_a_person_only_when_a_move_was_cut() {
        let error = RunError::Stream {
            what: "executing",
            source: reboot(),
        };
        let cut = Interruption::of(&error, true, false, &words).expect("resumable");
        assert!(cut.needs_person());
        assert!(cut.advice().contains("square the cube"), "{}", cut.advice());
        let clean = Interruption::of(&error, false, false, &words).expect("resumable");
        assert!(!clean.needs_person());
    }

    #[test]
    fn an_estop_even_while_homing_and_a_fault_need_a_person_and_a_refused_scan_is_no_interruption()
    {
        let estop = RunError::Halted {
            what: "executing",
            done: 3,
            total: 9,
            unit: "commands",
            emergency: true,
        };
        let asked = Interruption::of(&estop, false, true, &words);
        assert_eq!(
            asked,
            Some(Interruption::EStop {
                still: false,
                by_robot: false
            })
        );
        let advice = asked.map(|i| i.advice()).unwrap_or_default();
        assert!(!advice.contains("button"), "{advice}");
        // Nobody asked: the robot's own button (or its wiring) is named.
        let pressed = Interruption::of(&estop, false, false, &words);
        let advice = pressed.map(|i| i.advice()).unwrap_or_default();
        assert!(advice.contains("the robot's e-stop button"), "{advice}");
        let while_homing =
            RunError::Connect(RigError::Home(StreamError::EStopped { done: 0, total: 5 }));
        assert_eq!(
            Interruption::of(&while_homing, true, true, &words),
            Some(Interruption::EStop {
                still: false,
                by_robot: false
            })
        );
        let fault = RunError::Fault {
            what: "executing",
            words: "'left' rotation stalled".into(),
            done: 1,
            total: 4,
            unit: "commands",
        };
        let i = Interruption::of(&fault, true, false, &words).expect("resumable");
        assert!(i.needs_person() && i.advice().contains("'left' rotation stalled"));
        let unsure = RunError::Unsure {
            stickers: "F3".into(),
            turned: None,
            rounds: 1,
            doubt: cubed_vision::read::classify::Doubt::Close,
            light: cubed_vision::recapture::Step::Same,
            retake: cubed_vision::camera::Retake::Exposure,
            washed_out: Vec::new(),
        };
        assert_eq!(Interruption::of(&unsure, true, false, &words), None);
        let stop = RunError::Halted {
            what: "executing",
            done: 3,
            total: 9,
            unit: "commands",
            emergency: false,
        };
        assert_eq!(Interruption::of(&stop, true, false, &words), None);
    }
}
