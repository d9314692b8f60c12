//! The simulator's JSON report (`--report FILE`): the cube, what ran, and every fault.

use super::faults::InjectionStats;
use super::firmware::{FaultRecord, SimStats};
use serde::Serialize;

/// Written when the simulator exits.
#[derive(Debug, Clone, Serialize)]
pub struct SimReport {
    /// The cube in its own frame (54 URFDLB letters, 24 for a 2x2); null for a robot with no
    /// cube in it.
    pub cube: Option<String>,
    /// The stickers as the robot sees them (by robot-frame position); null with no cube.
    pub robot_frame: Option<String>,
    /// Whether the cube is solved (false with no cube).
    pub solved: bool,
    pub moves_executed: u64,
    pub duplicates_rejected: u64,
    pub move_ids_run_twice: u64,
    pub reboots: u64,
    pub unplugs: u64,
    pub bytes_corrupted: u64,
    pub bytes_dropped: u64,
    pub faults: Vec<FaultRecord>,
}

impl SimReport {
    /// The report of a run.
    pub fn new(
        cube: Option<String>,
        robot_frame: Option<String>,
        solved: bool,
        stats: &SimStats,
        injected: &InjectionStats,
    ) -> SimReport {
        SimReport {
            cube,
            robot_frame,
            solved,
            moves_executed: stats.moves_executed,
            duplicates_rejected: stats.duplicates_rejected,
            move_ids_run_twice: stats.move_ids_run_twice,
            reboots: stats.reboots,
            unplugs: injected.unplugs,
            bytes_corrupted: injected.bytes_corrupted,
            bytes_dropped: injected.bytes_dropped,
            faults: stats.faults.clone(),
        }
    }

    /// The report of a served simulation of the physical robot.
    pub fn of_served(
        served: &crate::sim::pty::Served<crate::sim::mechanics_robot::PhysicsMechanics>,
    ) -> SimReport {
        let mechanics = &served.firmware.mechanics;
        let holds = mechanics.machine.holds_cube;
        SimReport::new(
            holds.then(|| mechanics.cube_facelets()),
            holds.then(|| mechanics.robot_frame_facelets()),
            holds && mechanics.cube_solved(),
            &served.firmware.stats,
            &served.injected,
        )
    }

    /// The report of a served simulation holding a 2x2 (a 3x3's corners): the cube as its
    /// 24 stickers, solved when they are.
    pub fn of_served_pocket(
        served: &crate::sim::pty::Served<crate::sim::mechanics_robot::PhysicsMechanics>,
    ) -> SimReport {
        use cubed_core::pocket::PocketFacelets;
        let mechanics = &served.firmware.mechanics;
        let holds = mechanics.machine.holds_cube;
        let own = PocketFacelets::from_3x3(&mechanics.cube_frame());
        SimReport {
            cube: holds.then(|| own.to_string()),
            robot_frame: holds
                .then(|| PocketFacelets::from_3x3(&mechanics.machine.cube).to_string()),
            solved: holds && own.is_solved(),
            ..SimReport::of_served(served)
        }
    }
}
