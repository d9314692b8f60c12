//! What a run works with: the robot model and planner, the solver, the palette, the camera, the link to the robot (opened, homed, reopened after a fatal error), and the in-process simulated robot when the config says `sim`.

use crate::daemon::config::{DaemonConfig, PortChoice};
use crate::daemon::ThreeSolver;
use crate::link::fault_words::fault_in_words;
use crate::link::{
    stream_gated, Connector, EStopHandle, FixedPath, LinkError, LinkEvent, LinkHandle,
    LinkSettings, SerialConnector, StreamError, StreamOutcome, TokioClock,
};
use crate::robot::wiring::RobotSetup;
use crate::robot::{ActuatorMap, EncodedProgram, MotionGroup};
use crate::robot::{Planner, Program, RobotModel, RobotState};
use cubed_vision::camera::{Camera, Retake};
use cubed_vision::light::palette::Palette;
use cubed_vision::scan::GridChoice;
use firmware_protocol::message::{Fault, FirmwareState};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

mod config_files;
mod error;
mod unconfirmed;
mod unreachable;
pub(crate) use config_files::{calibrated_palette_file, check_port_could_be_one, ConfigFiles};
pub(crate) use error::EncodeError;
pub(crate) use error::RigError;
pub(crate) use unconfirmed::{ConfirmedMeanwhile, Unconfirmed, UnconfirmedMove};
pub(crate) use unreachable::Unreachable;

/// Commands queued ahead of the one running while streaming.
const LOOKAHEAD: usize = 2;
/// Attempts to open a port that is still held, and the pause between them.
const OPEN_ATTEMPTS: u32 = 5;
const OPEN_RETRY: std::time::Duration = std::time::Duration::from_millis(200);
/// Every actuator's position lost.
const LOST_ALL: u16 = u16::MAX;

/// Where the e-stop of the link in use is found, by whoever holds a clone (the service).
#[derive(Clone, Default, Debug)]
pub(crate) struct EStopSlot(Arc<Mutex<Option<EStopHandle>>>);

impl EStopSlot {
    pub(crate) fn get(&self) -> Option<EStopHandle> {
        self.0.lock().ok().and_then(|h| h.clone())
    }

    fn set(&self, handle: Option<EStopHandle>) {
        if let Ok(mut slot) = self.0.lock() {
            *slot = handle;
        }
    }
}

/// Everything a run works with. Moved into the run's task and back.
pub(crate) struct Rig {
    pub model: RobotModel,
    pub planner: Planner,
    pub map: ActuatorMap,
    /// The 3x3 solver (a 2x2 daemon's loaded at its first 3x3 guide).
    pub solver: ThreeSolver,
    pub palette: Palette,
    /// Where the palette in use came from.
    pub palette_file: PathBuf,
    /// Where calibration writes the palette.
    pub calibrated_file: PathBuf,
    /// When the calibrated palette was written, as it was last read (none: there was none).
    palette_written: Option<std::time::SystemTime>,
    pub camera: Arc<Mutex<Box<dyn Camera>>>,
    pub camera_name: String,
    /// What photographing a face again brings with this camera.
    pub camera_retake: Retake,
    /// The camera's photos are drawn as in the net already (files named after faces).
    pub camera_upright: bool,
    pub grid: GridChoice,
    /// The robot is the in-process simulator (its port is not the config's).
    simulated: bool,
    connector: Arc<dyn Connector>,
    settings: LinkSettings,
    link: Option<LinkHandle>,
    /// An attempt to open the link that its caller stopped waiting for (the idle loop gives
    /// way to a request): it goes on holding the port, so the next connect waits for it
    /// rather than open the port a second time (refused as held by another program).
    opening: Option<Opening>,
    estop: EStopSlot,
    /// Where the robot is, if known (None: home it before moving).
    pub robot_state: Option<RobotState>,
    /// The actuators' absolute positions, known with the pose (targets are absolute).
    positions: Option<Vec<i32>>,
    /// Actuators whose positions are lost until the next homing (bit per actuator).
    lost: u16,
    /// Whether the last interruption came while a command was running or queued (a layer
    /// may be half turned).
    motion_in_doubt: bool,
    /// Commands a run ended without hearing done while the link was lost.
    unconfirmed: Option<Unconfirmed>,
    next_move_id: u32,
    /// A person reset the daemon while no link was open: the next handshake clears what the
    /// firmware holds latched from before (see [`LinkSettings::clear_latched`]).
    clear_at_connect: bool,
    pub sim: Option<SimRig>,
    /// Wall-clock time per planned millisecond of robot time: 1 on a real robot, 1/speed on
    /// the simulator (0 when it runs as fast as the host acknowledges). A run's first ETA.
    pub pace: f64,
    /// Planned robot time of every motion streamed so far, ms (to compare with the robot's own).
    pub planned_motion_ms: Arc<std::sync::atomic::AtomicU64>,
}

/// An attempt to open the link, under way in a task of its own.
struct Opening {
    /// Whether it clears what the firmware holds latched (see [`Rig::clear_at_connect`]).
    clears: bool,
    attempt: tokio::task::JoinHandle<Result<LinkHandle, LinkError>>,
}

impl Rig {
    /// Loads the design and palette, opens the camera and (for `sim`) starts the simulated robot.
    /// The link is opened by [`Rig::ensure_link`].
    pub(crate) async fn new(config: &DaemonConfig, solver: ThreeSolver) -> Result<Rig, RigError> {
        let ConfigFiles {
            model,
            map,
            planner,
            palette,
            palette_file,
        } = ConfigFiles::load(config)?;
        let planner = match solver.loaded().and_then(|solver| solver.axial_tables()) {
            Some(tables) => planner.with_axial(tables)?,
            None => planner,
        };
        let actuator_names = crate::link::fault_words::actuator_names(&map, &model);
        let sim = match config.port {
            PortChoice::Sim => Some(start_sim(config, &model, &map).await?),
            PortChoice::Serial(_) => None,
        };
        let connector: Arc<dyn Connector> = match (&config.port, &sim) {
            (PortChoice::Serial(path), _) => {
                Arc::new(SerialConnector::new(FixedPath(path.clone()), config.baud))
            }
            (PortChoice::Sim, Some(s)) => {
                Arc::new(SerialConnector::new(s.running.path.clone(), 115_200))
            }
            (PortChoice::Sim, None) => {
                return Err(RigError::Sim(std::io::Error::other(
                    "the simulator did not start",
                )))
            }
        };
        let (camera, grid) = open_camera(config, sim.as_ref())?;
        let camera_name = camera.describe();
        let camera_retake = camera.retake();
        let camera_upright = camera.upright();
        Ok(Rig {
            planner,
            model,
            map,
            solver,
            palette,
            palette_file,
            calibrated_file: calibrated_palette_file(config),
            palette_written: palette::written_at(&calibrated_palette_file(config)),
            camera: Arc::new(Mutex::new(camera)),
            camera_name,
            camera_retake,
            camera_upright,
            grid,
            simulated: sim.is_some(),
            connector,
            settings: LinkSettings {
                reconnect_timeout: config.reconnect,
                actuator_names,
                ..LinkSettings::default()
            },
            link: None,
            opening: None,
            estop: EStopSlot::default(),
            robot_state: None,
            positions: None,
            lost: LOST_ALL,
            motion_in_doubt: false,
            unconfirmed: None,
            next_move_id: 1,
            clear_at_connect: false,
            sim,
            pace: match config.port {
                PortChoice::Sim if config.sim.speed > 0.0 => 1.0 / config.sim.speed,
                PortChoice::Sim => 0.0,
                PortChoice::Serial(_) => 1.0,
            },
            planned_motion_ms: Arc::default(),
        })
    }

    /// Opens the link (handshake, configuration) if it is not open; the robot is not moved.
    pub(crate) async fn connect(&mut self) -> Result<(), RigError> {
        if self.link.is_none() {
            self.end_opening_unless_clearing(self.clear_at_connect)
                .await;
            if self.opening.is_none() {
                let settings = LinkSettings {
                    clear_latched: self.clear_at_connect,
                    ..self.settings.clone()
                };
                let setup = RobotSetup::for_design(&self.model, &self.map)?;
                let attempt = tokio::spawn(LinkHandle::open(
                    Arc::clone(&self.connector),
                    setup,
                    settings,
                    Arc::new(TokioClock::new()),
                ));
                self.opening = Some(Opening {
                    clears: self.clear_at_connect,
                    attempt,
                });
            }
            // Kept in the rig while awaited: if this future is dropped, the attempt goes on.
            let opening = self.opening.as_mut().expect("an attempt under way");
            let opened = (&mut opening.attempt)
                .await
                .unwrap_or(Err(LinkError::Closed));
            self.opening = None;
            // The clear a person asked for holds until the firmware took it or refused it (a
            // port still busy, or an attempt cut short, leaves it for the next one).
            if matches!(opened, Ok(_) | Err(LinkError::ClearRefused { .. })) {
                self.clear_at_connect = false;
            }
            let link = opened?;
            if let Some(words) = crate::link::RestartCause::abnormal(link.connected.boot_cause) {
                tracing::warn!("the robot's firmware had just restarted{words}");
            }
            self.estop.set(Some(link.estop_handle()));
            self.link = Some(link);
            self.next_move_id = 1;
            self.lost = LOST_ALL;
            self.forget_pose();
        }
        Ok(())
    }

    /// Ends an unfinished attempt to open the link that does not clear as `clears` asks (a
    /// person pressed Reset since it began), so a new one can take the port.
    async fn end_opening_unless_clearing(&mut self, clears: bool) {
        let Some(opening) = self.opening.take_if(|o| o.clears != clears) else {
            return;
        };
        if let Ok(Ok(link)) = opening.attempt.await {
            link.shutdown().await;
        }
    }

    /// Opens the link, retrying a few times while the port is still held (a link that ended
    /// a moment ago, e.g. on a firmware reboot, may not have let it go yet).
    async fn connect_soon(&mut self) -> Result<(), RigError> {
        for _ in 1..OPEN_ATTEMPTS {
            match self.connect().await {
                Err(RigError::Link(LinkError::Open { .. })) => {
                    tokio::time::sleep(OPEN_RETRY).await;
                }
                other => return other,
            }
        }
        self.connect().await
    }

    /// Whether the link is open.
    pub(crate) fn connected(&self) -> bool {
        self.link.is_some()
    }

    /// The link, opened (handshake, configuration) and the robot homed if needed, by the
    /// planner's recovery plan (the cube stays supported whatever the grippers hold); `news`
    /// sees the link's events while homing (a cable pulled then, and its return).
    pub(crate) async fn ensure_link(
        &mut self,
        news: impl FnMut(&LinkEvent),
    ) -> Result<&mut LinkHandle, RigError> {
        self.connect_soon().await?;
        if self.robot_state.is_some() && self.firmware_unhomed().await {
            // It switched its drivers off after the design's idle time: the motors were
            // free to move, so nothing is known of where they are.
            tracing::info!("the robot's drivers went off while idle: homing again");
            self.forget_pose();
            self.lost = LOST_ALL;
        }
        if self.robot_state.is_none() {
            if self.link_ended_meanwhile() {
                self.drop_link().await;
                self.connect_soon().await?;
            }
            self.home_by_plan(news).await?;
        }
        self.link.as_mut().ok_or(RigError::Link(LinkError::Closed))
    }

    /// Whether the firmware says some actuator is not homed (drivers off after idling).
    async fn firmware_unhomed(&self) -> bool {
        let Some(link) = self.link.as_ref() else {
            return false;
        };
        link.status()
            .await
            .is_ok_and(|status| status.state == FirmwareState::Unhomed)
    }

    /// The pose and actuator positions are unknown: home before the next motion.
    fn forget_pose(&mut self) {
        self.robot_state = None;
        self.positions = None;
    }

    /// Encodes `program` from where the actuators are now and reserves its move ids.
    pub(crate) fn encode(&mut self, program: &Program) -> Result<EncodedProgram, EncodeError> {
        let positions = self
            .positions
            .as_ref()
            .ok_or(EncodeError::PositionsUnknown)?;
        let encoded = self
            .map
            .encode_from(program, positions, self.next_move_id)?;
        self.take_move_ids(encoded.groups.len());
        Ok(encoded)
    }

    /// A firmware fault in words, its actuator named as in the robot's config.
    pub(crate) fn fault_words(&self, fault: &Fault) -> String {
        fault_in_words(fault, &self.map, &self.model)
    }

    /// Records that the first `done` commands of `encoded` ran (a stop ends between commands).
    pub(crate) fn advance(&mut self, encoded: &EncodedProgram, done: usize) {
        if self.positions.is_some() && done > 0 {
            self.positions = encoded.positions_after.get(done - 1).cloned();
        }
    }

    /// Counts planned motion time about to be streamed.
    pub(crate) fn plan_motion(&self, ms: u64) {
        self.planned_motion_ms
            .fetch_add(ms, std::sync::atomic::Ordering::Relaxed);
    }

    /// Reserves `n` consecutive move ids; returns the first.
    pub(crate) fn take_move_ids(&mut self, n: usize) -> u32 {
        let first = self.next_move_id;
        self.next_move_id = self.next_move_id.wrapping_add(n as u32);
        first
    }

    /// The slot holding the e-stop of whatever link is open.
    pub(crate) fn estop_slot(&self) -> EStopSlot {
        self.estop.clone()
    }

    /// Streams commands (two queued ahead of the one running), stopping at a step boundary
    /// when `stop()` becomes true, and at once when `emergency` resolves while the link is
    /// lost (see `stream_gated`). A fatal link error drops the link (reopened next time).
    pub(crate) async fn stream(
        &mut self,
        groups: &[MotionGroup],
        (stop, emergency): (
            &(dyn Fn() -> bool + Sync),
            impl std::future::Future<Output = ()>,
        ),
        mut progress: impl FnMut(usize, &LinkEvent),
    ) -> Result<StreamOutcome, StreamError> {
        let Some(link) = self.link.as_mut() else {
            return Err(LinkError::Closed.into());
        };
        // What an earlier program left unconfirmed is past news once the robot moves again.
        self.unconfirmed = None;
        let (mut done, mut heard) = (0, false);
        let gate = (LOOKAHEAD, stop, emergency);
        let result = stream_gated(link, groups, gate, |d, _, event| {
            (done, heard) = (d, true);
            progress(d, event)
        })
        .await;
        if let Err(e) = &result {
            self.note_interruption(e, &groups[done.min(groups.len())..], heard);
            self.after_failure(e).await;
        }
        result
    }

    /// After a failed program the robot's pose is unknown; a dead link is closed for reopening.
    async fn after_failure(&mut self, error: &StreamError) {
        if !matches!(error, StreamError::Stopped { .. }) {
            self.forget_pose();
        }
        if matches!(error, StreamError::Link(_) | StreamError::TimedOut { .. }) {
            self.drop_link().await;
        }
    }

    /// Clears a latched fault or e-stop in the firmware (with no link open, at the next
    /// handshake) and forgets the pose (home next).
    pub(crate) fn clear_fault(&mut self) {
        match self.link.as_mut() {
            Some(link) => {
                let _ = link.clear_fault();
            }
            None => self.clear_at_connect = true,
        }
        self.forget_pose();
    }

    /// Clears a latched fault or e-stop now, by a fresh handshake that clears it first, so that
    /// a refusal (the e-stop button still pressed) is known at once; the pose is forgotten
    /// (home next). A robot that cannot be reached now is cleared when it is.
    pub(crate) async fn clear_latch_now(&mut self) -> Result<(), Unreachable> {
        self.drop_link().await;
        self.clear_at_connect = true;
        // The link just closed may hold the port a moment longer: retried then.
        match self.connect_soon().await {
            Err(e) => match self.unreachable(e) {
                why if why.latched.is_some_and(|l| l.clear_refused) => Err(why),
                _ => Ok(()),
            },
            Ok(()) => Ok(()),
        }
    }

    /// Reads the next link event while idle (the start button, link trouble).
    pub(crate) async fn next_idle_event(&mut self) -> Option<LinkEvent> {
        match self.link.as_mut() {
            Some(link) => link.next_event().await,
            None => std::future::pending().await,
        }
    }

    /// Closes the link for good (the event stream ended).
    pub(crate) async fn drop_link(&mut self) {
        self.estop.set(None);
        if let Some(link) = self.link.take() {
            link.shutdown().await;
        }
        self.forget_pose();
    }

    /// Closes the link and stops the simulator.
    pub(crate) async fn shutdown(mut self) {
        self.drop_link().await;
        if let Some(sim) = self.sim.take() {
            let _ = sim.running.stop().await;
        }
    }
}

mod palette;
mod recovery;

mod sim;
use sim::start_sim;
pub(crate) use sim::SimControls;
pub(crate) use sim::SimRig;

mod camera;
use camera::open_camera;
pub(super) use camera::open_camera_folder;
