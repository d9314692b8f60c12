//! The simulated workbench shared by the simulated robot, the simulated camera and whoever plays the person at the robot: the cube they put in, turns that slip, and the robot time spent.

use cubed_core::cube::{Face, FaceletCube};
use cubed_vision::camera::sim::SharedScene;
use std::sync::{Arc, Mutex};

/// What happens at the simulated robot besides the commands it is sent.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Bench {
    /// A cube a person has just put in (its own frame); the robot picks it up at its next command.
    pub load: Option<FaceletCube>,
    /// Face turns (counted from 1 over the simulator's life) that slip: the motor turns, the layer does not.
    pub slip_at_turns: Vec<u64>,
    /// Face turns (counted from 1) after which a person's hand gets into the next scan's
    /// photos.
    pub hand_at_turns: Vec<u64>,
    /// Face turns performed so far.
    pub turns: u64,
    /// Turns that slipped.
    pub slips: u64,
    /// Robot time of every executed motion, ms at real speed.
    pub robot_ms: u64,
    /// Motions (counted from 1 over the simulator's life) whose first motor is blocked: the
    /// motion does not happen and the firmware latches a stall naming that motor.
    pub stall_at_motions: Vec<u64>,
    /// Motions asked of the robot so far.
    pub motions: u64,
    /// The simulated person puts a solved cube in when calibration is asked for (as a person
    /// at a real robot would); `cubed run` on the simulator has one.
    pub solved_for_calibration: bool,
    /// The same, µs (`robot_ms` is this rounded down).
    pub robot_us: u64,
}

/// A bench shared between threads.
pub type SharedBench = Arc<Mutex<Bench>>;

/// The scene and bench a simulated robot keeps up to date.
#[derive(Debug, Clone)]
pub struct Attachment {
    pub scene: SharedScene,
    pub bench: SharedBench,
}

impl Attachment {
    /// A cube a person has just put in (its own frame), if any: the robot now holds it.
    pub fn take_loaded(&self) -> Option<FaceletCube> {
        self.bench.lock().ok().and_then(|mut b| b.load.take())
    }

    /// Counts one face turn; true if it is due to slip (the motor turns, the layer stays).
    /// A person's hand due after it gets into the next scan's photos (all six).
    pub fn next_turn_slips(&self) -> bool {
        let Ok(mut bench) = self.bench.lock() else {
            return false;
        };
        bench.turns += 1;
        let due = bench.turns;
        let slips = bench.slip_at_turns.contains(&due);
        bench.slips += u64::from(slips);
        if bench.hand_at_turns.contains(&due) {
            if let Ok(mut scene) = self.scene.lock() {
                scene.hand_in_photos = 6;
            }
        }
        slips
    }

    /// Counts one motion; true if its first motor is due to be blocked.
    pub fn next_motion_stalls(&self) -> bool {
        let Ok(mut bench) = self.bench.lock() else {
            return false;
        };
        bench.motions += 1;
        let due = bench.motions;
        bench.stall_at_motions.contains(&due)
    }

    /// Counts robot time spent on a command.
    pub fn spent(&self, ms: u32) {
        self.spent_us(u64::from(ms) * 1000);
    }

    /// Counts robot time spent on a command, µs.
    pub fn spent_us(&self, us: u64) {
        if let Ok(mut bench) = self.bench.lock() {
            bench.robot_us += us;
            bench.robot_ms = bench.robot_us / 1000;
        }
    }

    /// Shows the camera the cube the robot holds (its own frame) and, per camera, the face
    /// in view and the photo's rotation.
    pub fn show(&self, cube: FaceletCube, in_view: Vec<(Face, u8)>) {
        if let Ok(mut scene) = self.scene.lock() {
            scene.cube = cube;
            scene.in_view = in_view;
        }
    }
}
