//! What a run task carries: the rig, the history, the status board, the abort flag, the run's settings, and the light its last scan was read in.

use crate::daemon::board::StatusBoard;
use crate::daemon::cube_size::RunCube;
use crate::daemon::history::History;
use crate::daemon::rig::Rig;
use crate::daemon::run::abort::AbortFlag;
use std::sync::Arc;

/// Settings of a run, from the config.
#[derive(Clone, Debug)]
pub(crate) struct RunSettings {
    pub min_confidence: f32,
    pub recaptures: u32,
    pub max_solves: u32,
    pub solve_budget: cubed_core::solver::Budget,
    /// A 3x3, or a 2x2 with its solver.
    pub cube: RunCube,
}

/// A run in progress.
pub(crate) struct RunContext {
    pub rig: Rig,
    pub history: Arc<History>,
    pub board: StatusBoard,
    pub abort: Arc<AbortFlag>,
    pub settings: RunSettings,
    pub run: u64,
    /// A lost robot link is recorded and its return not yet (shared by the stages' link news:
    /// a cable pulled while homing may come back while scanning).
    pub link_lost: Arc<std::sync::atomic::AtomicBool>,
    /// The exposure each face's photo was read at in this run's last scan (URFDLB), if it was
    /// read: the robot's lamp lights each face's photo alike in the next scan.
    pub read_at: Option<[cubed_vision::camera::Exposure; 6]>,
}
