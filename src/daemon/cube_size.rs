//! Which cube the daemon solves (`[run] cube_size` in `cubed.toml`): a 3x3, or a 2x2 pocket cube; and, for a run, the 2x2's solver.

use cubed_core::pocket::{PocketSolver, PocketTables};
use std::fmt;
use std::sync::Arc;

/// The cube the robot holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum CubeSize {
    #[default]
    Three,
    /// The 2x2 pocket cube: read without centres, solved optimally.
    Two,
}

impl CubeSize {
    /// The size a config value names, if it names one (2 or 3).
    pub fn from_value(n: i64) -> Option<CubeSize> {
        match n {
            3 => Some(CubeSize::Three),
            2 => Some(CubeSize::Two),
            _ => None,
        }
    }

    /// Stickers along an edge: 3 or 2 (what `--size` takes).
    pub fn edge(self) -> u8 {
        match self {
            CubeSize::Three => 3,
            CubeSize::Two => 2,
        }
    }

    /// "3x3" or "2x2".
    pub fn name(self) -> &'static str {
        match self {
            CubeSize::Three => "3x3",
            CubeSize::Two => "2x2",
        }
    }
}

/// What a run solves with, by cube size.
#[derive(Clone)]
pub(crate) enum RunCube {
    Three,
    Pocket(Arc<PocketSolver>),
}

impl RunCube {
    /// The size of the cube this run solves.
    pub(crate) fn size(&self) -> CubeSize {
        match self {
            RunCube::Three => CubeSize::Three,
            RunCube::Pocket(_) => CubeSize::Two,
        }
    }

    /// For a 2x2, builds its distance tables (well under a second; kept in memory).
    pub(crate) async fn for_size(size: CubeSize) -> RunCube {
        match size {
            CubeSize::Three => RunCube::Three,
            CubeSize::Two => RunCube::Pocket(pocket_solver().await),
        }
    }
}

/// A 2x2 solver: its distance tables built (well under a second) off the runtime's threads.
pub(crate) async fn pocket_solver() -> Arc<PocketSolver> {
    let tables = crate::daemon::three_solver::off_the_runtime(PocketTables::build).await;
    Arc::new(PocketSolver::new(Arc::new(tables)))
}

impl fmt::Debug for RunCube {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RunCube::Three => "RunCube::Three",
            RunCube::Pocket(_) => "RunCube::Pocket",
        })
    }
}
