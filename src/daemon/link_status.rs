//! The robot link as the status shows it: open, lost, unreachable, the e-stop button held, closed, with the problem in words and one line for people; and the e-stop button's level as the robot last reported it.

use serde::{Deserialize, Serialize};

/// The robot's link as the daemon last saw it: a script waits on `state` (for `open`), a
/// person reads `line`.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct LinkDoc {
    pub state: LinkState,
    /// Why the link is not open, in words naming the port; none while it is open or was never
    /// tried.
    pub problem: Option<String>,
    /// One line for people, as `cubed status` and the page show it: `robot link: open`,
    /// `robot link: lost, reconnecting: on /dev/ttyACM0: …`.
    pub line: String,
}

/// Where the robot's link stands.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Default)]
#[serde(rename_all = "snake_case")]
pub enum LinkState {
    /// Not opened yet, or closed after the firmware ended it: opened again at the next start.
    #[default]
    Closed,
    /// Open: handshake done, the robot answers.
    Open,
    /// Lost (the cable pulled, the port gone): reopened by itself when the robot is back.
    Lost,
    /// Cannot be opened, or the robot refuses the handshake: tried again every few seconds
    /// while idle, and at every start.
    Unreachable,
    /// The robot will not clear its emergency stop: its e-stop button is still pressed (or its
    /// wiring open). Release it, then reset or resume again.
    EStopHeld,
}

impl LinkState {
    fn words(self) -> &'static str {
        match self {
            LinkState::Closed => "closed (opened at the next start)",
            LinkState::Open => "open",
            LinkState::Lost => "lost, reconnecting",
            LinkState::Unreachable => "cannot be opened, retrying",
            LinkState::EStopHeld => {
                "the robot's e-stop button was still held at the last Reset or Resume (release it, then reset or resume again)"
            }
        }
    }
}

impl Default for LinkDoc {
    fn default() -> LinkDoc {
        LinkDoc::with(LinkState::Closed, None)
    }
}

impl LinkDoc {
    pub fn open() -> LinkDoc {
        LinkDoc::with(LinkState::Open, None)
    }

    /// Not open, and why (a leading "robot link: " of the link's own errors is left out: the
    /// line says it).
    pub fn down(state: LinkState, problem: impl Into<String>) -> LinkDoc {
        let problem: String = problem.into();
        let problem = problem.strip_prefix("robot link: ").unwrap_or(&problem);
        LinkDoc::with(state, Some(problem.to_string()))
    }

    fn with(state: LinkState, problem: Option<String>) -> LinkDoc {
        let line = match &problem {
            Some(problem) => format!("robot link: {}: {problem}", state.words()),
            None => format!("robot link: {}", state.words()),
        };
        LinkDoc {
            state,
            problem,
            line,
        }
    }
}

/// The robot's e-stop button as its firmware last reported it (each `Status`, about twice a
/// second while the link is idle): shown while it is held, and while the stop it latched
/// waits for a Reset. Letting go never clears the stop.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct EStopButtonDoc {
    /// Held down now (or its normally-closed wiring open).
    pub held: bool,
    /// One line for people, as `cubed status` and the page show it.
    pub line: String,
}

impl EStopButtonDoc {
    pub fn new(held: bool) -> EStopButtonDoc {
        let line = if held {
            "e-stop button: held down: release it before Reset (or Resume, when a run waits for it)"
        } else {
            "e-stop button: released: the stop stays latched until a Reset (or a Resume, when a run waits for it); check the robot first"
        };
        EStopButtonDoc {
            held,
            line: line.to_string(),
        }
    }
}
