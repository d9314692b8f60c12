//! One program run end to end: the real host link streams it over a real pty to the
//! simulator running the robot physics; the simulator's report says what happened.

use cubed::cube::FaceletCube;
use cubed::link::{
    stream_program, LinkEvent, LinkHandle, LinkSettings, SerialConnector, StreamError,
    StreamOutcome, TokioClock,
};
use cubed::robot::wiring::RobotSetup;
use cubed::robot::{ActuatorError, ActuatorMap, MotionGroup};
use cubed::robot::{Program, RobotModel, RobotState};
use cubed::sim::faults::FaultPlan;
use cubed::sim::report::SimReport;
use cubed::sim::spawn::RunningSim;
use cubed::sim::BoardBuildError;
use cubed::sim::PhysicsMechanics;
use cubed::sim::SimFirmware;
use std::sync::Arc;

/// Move id of the `Home` that starts every program; the program's commands follow.
pub const HOME_MOVE_ID: u32 = 1;

/// Home, then the program's commands with absolute targets.
pub fn program_groups(
    map: &ActuatorMap,
    program: &Program,
    start: &RobotState,
) -> Result<Vec<MotionGroup>, ActuatorError> {
    let encoded = map.encode_program(program, start, HOME_MOVE_ID + 1)?;
    let mut groups = vec![MotionGroup::Home {
        move_id: HOME_MOVE_ID,
        mask: map.home_mask(),
    }];
    groups.extend(encoded.groups.into_iter().map(|(_, group)| group));
    Ok(groups)
}

/// How a run went, from both sides.
pub struct ScenarioResult {
    pub commands: usize,
    pub outcome: Result<StreamOutcome, StreamError>,
    pub report: SimReport,
    /// Every event the host saw, in order.
    pub events: Vec<LinkEvent>,
}

/// The scenario's settings.
#[derive(Clone)]
pub struct Scenario {
    pub model: RobotModel,
    pub cube: FaceletCube,
    pub faults: FaultPlan,
    pub seed: u64,
    pub speed: f64,
    pub settings: LinkSettings,
    /// Longest the program may take before the run counts as failed.
    pub deadline: std::time::Duration,
}

impl Scenario {
    /// Streams `program` (planned from the model's home pose) to a fresh simulator.
    pub async fn run(&self, program: &Program) -> Result<ScenarioResult, ScenarioError> {
        let map = ActuatorMap::new(&self.model)?;
        let groups = program_groups(&map, program, &self.model.home())?;
        let mechanics = PhysicsMechanics::new(self.model.clone(), map.clone(), &self.cube);
        let firmware = SimFirmware::new(mechanics, self.speed, 0)?;
        let sim = RunningSim::start(firmware, self.faults.clone(), self.seed).await?;
        let connector = Arc::new(SerialConnector::new(sim.path.clone(), 115_200));
        let mut events = Vec::new();
        let setup = RobotSetup::for_design(&self.model, &map).map_err(BoardBuildError::from)?;
        let outcome = match LinkHandle::open(
            connector,
            setup,
            self.settings.clone(),
            Arc::new(TokioClock::new()),
        )
        .await
        {
            Ok(mut link) => {
                let streaming =
                    stream_program(&mut link, &groups, |_, _, e| events.push(e.clone()));
                let outcome = match tokio::time::timeout(self.deadline, streaming).await {
                    Ok(outcome) => outcome,
                    Err(_) => Err(StreamError::TimedOut {
                        waited_ms: self.deadline.as_millis() as u64,
                        status: link.status_now().await,
                    }),
                };
                link.shutdown().await;
                outcome
            }
            Err(e) => Err(e.into()),
        };
        let served = sim.stop().await?;
        let report = SimReport::of_served(&served);
        Ok(ScenarioResult {
            commands: groups.len(),
            outcome,
            report,
            events,
        })
    }
}

/// Why a scenario could not be run at all.
#[derive(Debug, thiserror::Error)]
pub enum ScenarioError {
    #[error("cannot run the simulator on a pseudo-terminal")]
    Pty(#[from] std::io::Error),
    #[error(transparent)]
    Actuators(#[from] ActuatorError),
    #[error(transparent)]
    Board(#[from] BoardBuildError),
}
