//! A whole robot program run on the simulator's own machine (`sim::rigid` behind the firmware's
//! actuators, as the simulated firmware drives it; never `robot::physics`): the cube it ends
//! with, or the first step the machine refuses and why. Used to judge plans (3x3 and 2x2)
//! independently of the planner's rules.
//!
//! A 2x2 rides in the corners of the machine's 3x3 (`PocketFacelets::to_3x3`): a gripper
//! grips a 2x2's half the way it grips a 3x3's outer layer, and the machine is never laxer
//! with the 2x2 than with a 3x3 (it still refuses to tear a middle layer a 2x2 lacks).

use cubed::cube::FaceletCube;
use cubed::error_chain::error_chain;
use cubed::robot::Program;
use cubed::robot::RobotModel;
use cubed::robot::{ActuatorError, ActuatorMap, MotionGroup};
use cubed::sim::PhysicsMechanics;

/// What the machine did with a whole program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MachineRun {
    /// The stickers by robot-frame position once the program is done.
    pub robot_frame: FaceletCube,
    /// The cube in its own frame (turned whole until its centres are home).
    pub cube_frame: FaceletCube,
    /// Firmware motions run (photo-only steps send none).
    pub motions: usize,
    /// The machine's own time for them (its motion parameters, not the planner's estimate).
    pub ms: u64,
}

/// Why the machine did not run a program to its end.
#[derive(Debug, thiserror::Error)]
pub enum MachineReplayError {
    #[error("the robot design does not fit the firmware protocol")]
    Design(#[source] ActuatorError),
    #[error("the program cannot be encoded as firmware commands")]
    Encode(#[source] ActuatorError),
    #[error("step {step}: the machine refuses it: {reason}")]
    Refused { step: usize, reason: String },
}

/// Runs `program` from the homed robot holding `cube` (robot frame = its own frame at home).
pub fn run_on_machine(
    model: &RobotModel,
    program: &Program,
    cube: &FaceletCube,
) -> Result<MachineRun, MachineReplayError> {
    let map = ActuatorMap::new(model).map_err(MachineReplayError::Design)?;
    let mut machine = PhysicsMechanics::new(model.clone(), map, cube);
    let encoded = (machine.map)
        .encode_from(program, &machine.positions(), 1)
        .map_err(MachineReplayError::Encode)?;
    let (mut motions, mut ms) = (0, 0u64);
    for (step, group) in &encoded.groups {
        let done = match group {
            MotionGroup::Motion(motion) => machine.run(motion),
            MotionGroup::Home { mask, .. } => machine.home(*mask),
            MotionGroup::Dwell { ms, .. } => Ok(u32::from(*ms)),
        };
        let took = done.map_err(|fault| MachineReplayError::Refused {
            step: step + 1,
            reason: format!("{:?}: {}", fault.fault, fault.reason),
        })?;
        motions += 1;
        ms += u64::from(took);
    }
    Ok(MachineRun {
        robot_frame: machine.machine.cube,
        cube_frame: machine.cube_frame(),
        motions,
        ms,
    })
}

/// [`MachineReplayError`] on one line, for reports.
pub fn describe(error: &MachineReplayError) -> String {
    error_chain(error)
}

#[cfg(test)]
mod tests;
