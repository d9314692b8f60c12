//! The simulated workbench shared by the simulated robot, the simulated camera and whoever plays the person at the robot: the cube they put in, turns that slip, and the robot time spent.

use crate::cube::{FaceletCube, Move, Turn};
use crate::robot::{view, PhysicsState, RobotModel};
use crate::vision::camera::sim::SharedScene;
use std::sync::{Arc, Mutex};

/// What happens at the simulated robot besides the commands it is sent.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Bench {
    /// A cube a person has just put in (its own frame); the robot picks it up at its next command.
    pub load: Option<FaceletCube>,
    /// Face turns (counted from 1 over the simulator's life) that slip: the motor turns, the layer does not.
    pub slip_at_turns: Vec<u64>,
    /// Face turns performed so far.
    pub turns: u64,
    /// Turns that slipped.
    pub slips: u64,
    /// Robot time of every executed command, ms at real speed.
    pub robot_ms: u64,
}

/// A bench shared between threads.
pub(crate) type SharedBench = Arc<Mutex<Bench>>;

/// The scene and bench a simulated robot keeps up to date.
#[derive(Debug, Clone)]
pub struct Attachment {
    pub scene: SharedScene,
    pub bench: SharedBench,
}

impl Attachment {
    /// Picks up a newly loaded cube, if any: the robot now holds it.
    pub fn take_load(&self, physics: &mut PhysicsState) {
        let loaded = self.bench.lock().ok().and_then(|mut b| b.load.take());
        if let Some(cube) = loaded {
            *physics = PhysicsState::new(physics.robot, &cube);
        }
    }

    /// Counts a step's turns and time; a turn due to slip is undone (the layer stayed put).
    pub fn after_step(&self, physics: &mut PhysicsState, turns: &[Turn], ms: u32) {
        let Ok(mut bench) = self.bench.lock() else {
            return;
        };
        bench.robot_ms += u64::from(ms);
        for &turn in turns {
            bench.turns += 1;
            let due = bench.turns;
            if bench.slip_at_turns.contains(&due) {
                bench.slips += 1;
                let cube = physics.cube_frame().apply(Move::Turn(turn.inverse()));
                *physics = PhysicsState::new(physics.robot, &cube);
            }
        }
    }

    /// Shows the camera what the robot now holds, as each camera sees it.
    pub fn publish(&self, model: &RobotModel, physics: &PhysicsState) {
        if let Ok(mut scene) = self.scene.lock() {
            scene.cube = physics.cube_frame();
            scene.in_view = (0..model.cameras.len())
                .map(|c| view(model, physics.robot.orientation, c))
                .collect();
        }
    }
}
