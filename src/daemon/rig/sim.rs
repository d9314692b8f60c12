//! The daemon's in-process simulated robot: the simulator on a pty, the bench a person at it uses (load a cube, press the button, pull the cable), and the fault plan it follows.

use super::RigError;
use crate::daemon::config::DaemonConfig;
use crate::robot::{ActuatorMap, RobotModel};
use crate::sim::bench::{Attachment, Bench, SharedBench};
use crate::sim::faults::FaultPlan;
use crate::sim::pty::{Control, ServeCounts};
use crate::sim::spawn::RunningSim;
use crate::sim::{PhysicsMechanics, SimFirmware};
use cubed_core::cube::FaceletCube;
use cubed_vision::camera::sim::SharedScene;
use std::sync::{Arc, Mutex};

/// The fault plan's entries a run never reached, as written, and how far the robot got.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FaultsNotReached {
    pub entries: Vec<String>,
    /// Commands executed and face turns made over the simulator's life.
    pub commands: u64,
    pub turns: u64,
}

/// The in-process simulated robot and the bench around it.
pub(crate) struct SimRig {
    pub running: RunningSim<PhysicsMechanics>,
    pub controls: SimControls,
}

/// What a person at the simulated robot can do: load a cube, press the button, pull the cable.
#[derive(Clone)]
pub struct SimControls {
    pub scene: SharedScene,
    pub bench: SharedBench,
    pub orders: tokio::sync::mpsc::UnboundedSender<Control>,
    /// The fault plan the simulator was started with, and the commands its firmware has
    /// executed so far.
    faults: FaultPlan,
    counts: Arc<ServeCounts>,
}

impl SimControls {
    /// "drop=0.05, corrupt=0.01": the faults the simulator puts on its line (damaged and lost
    /// bytes), if any: what a failed handshake with it is owed to, not a cable.
    pub fn line_faults(&self) -> Option<String> {
        let named = [("corrupt", self.faults.corrupt), ("drop", self.faults.drop)];
        let given: Vec<String> = (named.iter())
            .filter(|(_, rate)| *rate > 0.0)
            .map(|(name, rate)| format!("{name}={rate}"))
            .collect();
        (!given.is_empty()).then(|| given.join(", "))
    }

    /// The fault plan's entries that have not come yet (`estop-at-move=5000` after 1200
    /// commands), with the commands executed and the face turns made so far.
    pub fn faults_not_reached(&self) -> FaultsNotReached {
        let commands = self
            .counts
            .executed
            .load(std::sync::atomic::Ordering::Relaxed);
        let turns = self.bench.lock().map(|b| b.turns).ok();
        FaultsNotReached {
            entries: self.counts.not_reached(&self.faults, turns),
            commands,
            turns: turns.unwrap_or(0),
        }
    }

    /// A person puts `cube` (its own frame) into the robot.
    pub fn load_cube(&self, cube: FaceletCube) {
        if let Ok(mut bench) = self.bench.lock() {
            bench.load = Some(cube);
        }
        if let Ok(mut scene) = self.scene.lock() {
            scene.cube = cube;
        }
    }

    /// A person's hand gets into the next `photos` photos (over the lower left of the face).
    pub fn hand_in_next_photos(&self, photos: u32) {
        if let Ok(mut scene) = self.scene.lock() {
            scene.hand_in_photos = photos;
        }
    }

    /// Presses the robot's start button.
    pub fn press_button(&self) {
        let _ = self.orders.send(Control::Button);
    }

    /// Pulls the USB cable (the pty closes; it comes back after the `unplug-for` time).
    pub fn unplug(&self) {
        let _ = self.orders.send(Control::Unplug);
    }

    /// Resets the simulated firmware now, as a power glitch would (the mechanics stay put).
    pub fn reboot(&self) {
        let _ = self.orders.send(Control::Reboot);
    }

    /// Something blocks the motor of the `n`-th motion from now (1 = the next one): the
    /// firmware latches a stall naming it.
    pub fn stall_motion_in(&self, n: u64) {
        if let Ok(mut bench) = self.bench.lock() {
            let due = bench.motions + n;
            bench.stall_at_motions.push(due);
        }
    }

    /// The cube the robot holds now (its own frame).
    pub fn cube(&self) -> FaceletCube {
        self.scene.lock().map(|s| s.cube).unwrap_or_default()
    }

    pub fn bench(&self) -> Bench {
        self.bench.lock().map(|b| b.clone()).unwrap_or_default()
    }
}

pub(super) async fn start_sim(
    config: &DaemonConfig,
    model: &RobotModel,
    map: &ActuatorMap,
) -> Result<SimRig, RigError> {
    let faults = FaultPlan::parse(&config.sim.faults).unwrap_or_default();
    let scene: SharedScene = Arc::new(Mutex::new(Default::default()));
    let bench: SharedBench = Arc::new(Mutex::new(Bench {
        slip_at_turns: faults.slip_at_turns.clone(),
        hand_at_turns: faults.hand_at_turns.clone(),
        ..Bench::default()
    }));
    let attachment = Attachment {
        scene: Arc::clone(&scene),
        bench: Arc::clone(&bench),
    };
    let mechanics = PhysicsMechanics::new(model.clone(), map.clone(), &FaceletCube::default())
        .attach(attachment);
    let firmware = SimFirmware::new(mechanics, config.sim.speed, 0)?;
    let running = RunningSim::start(firmware, faults.clone(), config.sim.seed)
        .await
        .map_err(RigError::Sim)?;
    let orders = running.controls.clone();
    let counts = Arc::clone(&running.counts);
    Ok(SimRig {
        running,
        controls: SimControls {
            scene,
            bench,
            orders,
            faults,
            counts,
        },
    })
}
