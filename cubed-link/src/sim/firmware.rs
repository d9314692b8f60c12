//! The simulated robot's firmware: the real firmware core (`cubed_firmware::Firmware`) on
//! simulated hardware (`hardware.rs`), in a virtual clock that advances from one of the
//! core's deadlines to the next. Every step edge and servo pulse reaches the machine
//! (`Mechanics`); a motor the machine blocks reports its stall to the core.

use super::board::{sim_chip_for, BoardBuildError};
use super::clock::VirtualClock;
use super::hardware::{PinEvent, SimHardware};
use super::mechanics::{MechanicalFault, Mechanics, MotorBatch};
use super::watch::Watch;
use cubed_firmware::{Activity, BoardSetup, Counters, FaultCause, Firmware, Machine, Signal};
use firmware_protocol::message::ResetCause;
use serde::Serialize;
use std::collections::HashSet;

/// A fault the simulator latched, for the report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FaultRecord {
    pub at_ms: u64,
    pub move_id: Option<u32>,
    pub fault: String,
    pub reason: String,
}

/// What the simulator counted.
#[derive(Debug, Clone, Default, Serialize)]
pub struct SimStats {
    pub moves_executed: u64,
    pub duplicates_rejected: u64,
    pub move_ids_run_twice: u64,
    pub frames_received: u64,
    pub decode_errors: u64,
    pub reboots: u64,
    pub faults: Vec<FaultRecord>,
    #[serde(skip)]
    pub executed_ids: HashSet<u32>,
    /// The core's `Hello` count when `executed_ids` began (ids are per session).
    #[serde(skip)]
    pub session: u64,
}

/// The firmware core on simulated hardware.
pub struct SimFirmware<M: Mechanics> {
    core: Firmware<'static>,
    /// The machine the motors are (the host sets the core up with the same).
    machine: Machine,
    /// Whether the e-stop button is held down.
    estop_pressed: bool,
    hw: SimHardware,
    pub mechanics: M,
    /// Per actuator: a stepper's position as the machine knows it.
    watches: Vec<Option<Watch>>,
    clock: VirtualClock,
    next_deadline_us: Option<u64>,
    /// Counters of firmware lives before the current one (reboots reset the core's).
    earlier: Counters,
    out: Vec<u8>,
    pub stats: SimStats,
}

impl<M: Mechanics> SimFirmware<M> {
    /// The firmware powered on at wall time `now_ms`; `speed` scales the firmware's time
    /// to the wall clock (1 real time, 10 ten times faster, 0 as fast as the host keeps up).
    pub fn new(mechanics: M, speed: f64, now_ms: u64) -> Result<SimFirmware<M>, BoardBuildError> {
        let machine = mechanics.machine()?;
        let mut hw = SimHardware::new(&machine);
        for actuator in 0..machine.actuators.len() {
            if let Some((open_ms, close_ms)) = mechanics.jaw_times(actuator) {
                hw.set_jaw_times(actuator, open_ms, close_ms);
            }
        }
        let watches = (0..machine.actuators.len())
            .map(|i| hw.motor_steps(i).map(Watch::homed_at))
            .collect();
        let mut firmware = SimFirmware {
            core: Firmware::new(sim_chip_for(&machine), 0),
            machine,
            estop_pressed: false,
            hw,
            mechanics,
            watches,
            clock: VirtualClock::new(speed, now_ms),
            next_deadline_us: None,
            earlier: Counters::default(),
            out: Vec::new(),
            stats: SimStats::default(),
        };
        firmware.update_sensors();
        firmware.step_at(0);
        Ok(firmware)
    }

    /// The firmware's time, µs.
    pub fn now_us(&self) -> u64 {
        self.clock.now_us()
    }

    /// The machine these motors are (what the host sets the core up with).
    pub fn machine(&self) -> &Machine {
        &self.machine
    }

    /// The core itself (for status and tests).
    pub fn core(&self) -> &Firmware<'static> {
        &self.core
    }

    /// Resets as after power loss: the core starts afresh; motors stay where they are.
    pub fn reboot(&mut self, now_ms: u64) {
        self.poll(now_ms);
        self.earlier = add(self.earlier, self.core.counters());
        let now = self.clock.now_us();
        self.core = Firmware::restarted(sim_chip_for(&self.machine), now, ResetCause::Software);
        self.hw.release_all();
        self.stats.reboots += 1;
        self.update_sensors();
        self.step_at(now);
    }

    /// The simulator did not run for `gap_ms` of wall time: see [`VirtualClock::excuse_host`].
    pub fn excuse_host(&mut self, gap_ms: u64) {
        self.clock.excuse_host(gap_ms);
    }

    /// Bytes to write to the host.
    pub fn take_output(&mut self) -> Vec<u8> {
        self.collect_output();
        std::mem::take(&mut self.out)
    }

    /// Forgets a partial frame (the port was reopened).
    pub fn reset_decoder(&mut self) {
        self.core.reset_decoder();
    }

    /// Bytes from the host at wall time `now_ms`.
    pub fn on_bytes(&mut self, bytes: &[u8], now_ms: u64) {
        self.poll(now_ms);
        let now = self.clock.now_us();
        let frames = self.core.counters().frames;
        for &byte in bytes {
            self.core.on_byte(now, byte);
        }
        // A machine the bytes set up starts from its inputs' resting levels: say where
        // the sensors and the e-stop are.
        self.update_sensors();
        // Only a whole, valid frame feeds the firmware's comms watchdog: garbage, or the
        // first part of a frame, must not let its time run further past the last one.
        if self.core.counters().frames > frames {
            self.clock.heard_host(now_ms);
        }
        self.step_at(now);
        self.count();
    }

    /// The start button was pressed.
    pub fn press_button(&mut self, now_ms: u64) {
        self.poll(now_ms);
        let now = self.clock.now_us();
        let board = self.machine.board;
        set_signal(&mut self.core, &board, board.button, true);
        self.step_at(now);
        set_signal(&mut self.core, &board, board.button, false);
        self.step_at(now);
    }

    /// The emergency-stop button is pressed (`true`) or released at wall time `now_ms`; the
    /// firmware latches the stop when it is pressed and keeps it latched after release.
    pub fn set_estop_button(&mut self, now_ms: u64, pressed: bool) {
        self.poll(now_ms);
        let now = self.clock.now_us();
        self.estop_pressed = pressed;
        let board = self.machine.board;
        set_signal(&mut self.core, &board, board.estop, pressed);
        self.step_at(now);
    }

    /// Advances the firmware's time to wall time `now_ms`; at speed 0 further, through
    /// the motion under way, while the host owes the firmware no acknowledgement.
    pub fn poll(&mut self, now_ms: u64) {
        let target = self.clock.target_us(now_ms);
        self.run_until(target);
        if self.clock.runs_ahead() {
            let limit = self.clock.ahead_limit_us(now_ms);
            for _ in 0..100_000 {
                let busy = !matches!(self.core.activity(), Activity::Idle);
                match self.next_deadline_us {
                    Some(at) if busy && self.core.awaiting_acks() == 0 && at <= limit => {
                        self.step_at(at);
                    }
                    _ => break,
                }
            }
        }
        self.count();
    }

    /// Wall ms until `poll` next has work (at most 5).
    pub fn wait_ms(&self, now_ms: u64) -> u64 {
        let ahead = self.clock.runs_ahead()
            && self.core.awaiting_acks() == 0
            && !matches!(self.core.activity(), Activity::Idle);
        if ahead {
            return 0;
        }
        self.next_deadline_us
            .map_or(5, |at| self.clock.wall_ms_until(at, now_ms).min(5))
    }

    fn run_until(&mut self, target_us: u64) {
        while let Some(at) = self.next_deadline_us.filter(|&at| at <= target_us) {
            if at <= self.clock.now_us() && at != 0 {
                // A deadline already served: move on to the target.
                break;
            }
            self.step_at(at);
        }
        if target_us > self.clock.now_us() {
            self.step_at(target_us);
        }
    }

    /// Runs the core at `at` µs and lets the machine feel what its motors did.
    fn step_at(&mut self, at: u64) {
        let before = self.core.activity();
        let elapsed = self.clock.set_now_us(at);
        if matches!(before, Activity::Motion { .. }) {
            self.mechanics.spent_us(elapsed);
        }
        let now = self.clock.now_us();
        self.hw.now_us = now;
        let started = self.core.counters().commands_started;
        let had_fault = self.core.fault_cause().is_some();
        self.next_deadline_us = self.core.poll(now, &mut self.hw);
        self.feel(before, now);
        self.note_commands(started, before);
        self.note_fault(had_fault, before);
        self.update_sensors();
        self.collect_output();
    }

    fn feel(&mut self, before: Activity, now: u64) {
        let after = self.core.activity();
        let homing_mask = match before {
            Activity::HomingSteppers { mask, .. } => mask,
            _ => 0,
        };
        if let Activity::HomingSteppers { move_id, mask } = after {
            let new =
                !matches!(before, Activity::HomingSteppers { move_id: id, .. } if id == move_id);
            if new {
                if let Err(fault) = self.mechanics.homing(mask) {
                    return self.stall(fault, Some(move_id));
                }
            }
        }
        let new_motion = matches!(after, Activity::Motion { .. }) && after != before;
        if new_motion {
            self.mechanics.motion_began();
        }
        let batch = self.batch(homing_mask, now);
        if homing_mask != 0 && !matches!(after, Activity::HomingSteppers { .. }) {
            self.rehome_watches(homing_mask);
        }
        if !batch.is_empty() {
            if let Err(fault) = self.mechanics.moved(&batch) {
                return self.stall(fault, move_id_of(before));
            }
        }
        if after != before {
            self.mechanics.command_ended();
        }
    }

    /// What the pins did since the last look, skipping the motors that are homing.
    fn batch(&mut self, homing_mask: u16, now: u64) -> MotorBatch {
        let mut batch = MotorBatch::default();
        for event in self.hw.take_events() {
            match event {
                PinEvent::Jaw { actuator, closed } => batch.jaws_started.push((actuator, closed)),
                PinEvent::Step { actuator, .. } => {
                    let index = usize::from(actuator);
                    if index < 16 && homing_mask & (1 << index) != 0 {
                        continue;
                    }
                    let (Some(steps), Some((per_rev, units))) =
                        (self.hw.motor_steps(index), self.hw.motor_scale(index))
                    else {
                        continue;
                    };
                    if let Some(Some(watch)) = self.watches.get_mut(index) {
                        let meaning = watch.on_step(steps, per_rev, units);
                        if let Some(delta) = meaning.leaving {
                            batch.leaving.push((actuator, delta));
                        }
                        if let Some(delta) = meaning.passing {
                            batch.passing.push((actuator, delta));
                        }
                    }
                }
            }
        }
        for (index, watch) in self.watches.iter().enumerate() {
            let sense = watch.as_ref().and_then(Watch::heading);
            let actuator = index as u8;
            if let Some(sense) = sense.filter(|_| batch.leaving.iter().all(|l| l.0 != actuator)) {
                batch.heading.push((actuator, sense));
            }
        }
        for index in 0..self.machine.actuators.len() {
            if let Some(closing) = self.hw.jaw_travelling(index, now) {
                batch.jaws_travelling.push((index as u8, closing));
            }
        }
        batch
    }

    fn rehome_watches(&mut self, mask: u16) {
        for (index, watch) in self.watches.iter_mut().enumerate().take(16) {
            if mask & (1 << index) != 0 && watch.is_some() {
                *watch = self.hw.motor_steps(index).map(Watch::homed_at);
            }
        }
    }

    /// The machine blocks a motor: it stalls, its driver tells the core.
    fn stall(&mut self, fault: MechanicalFault, move_id: Option<u32>) {
        let actuator = fault.actuator();
        self.hw.set_stalled(usize::from(actuator), true);
        self.stats.faults.push(FaultRecord {
            at_ms: self.clock.now_us() / 1000,
            move_id,
            fault: format!("{:?}", fault.fault),
            reason: fault.reason,
        });
        self.core.on_stall(actuator);
        self.next_deadline_us = self.core.poll(self.clock.now_us(), &mut self.hw);
        self.hw.take_events();
    }

    fn note_commands(&mut self, started_before: u64, before: Activity) {
        let started = self.core.counters().commands_started;
        if started == started_before {
            return;
        }
        self.stats.moves_executed += started - started_before;
        self.hw.release_all();
        let after = self.core.activity();
        // Move ids are the session's own: a new host session (another exec) starts at 1 again.
        let sessions = self.earlier.hellos + self.core.counters().hellos;
        if sessions != self.stats.session {
            self.stats.session = sessions;
            self.stats.executed_ids.clear();
        }
        if let Some(id) = move_id_of(after).filter(|_| after != before) {
            if !self.stats.executed_ids.insert(id) {
                self.stats.move_ids_run_twice += 1;
            }
        }
    }

    /// Records a fault the core latched by itself (a stall reported here is recorded by
    /// `stall`, an e-stop is no fault of the machine).
    fn note_fault(&mut self, had_fault: bool, before: Activity) {
        let cause = match self.core.fault_cause() {
            Some(cause) if !had_fault => cause,
            _ => return,
        };
        let reason = match cause {
            FaultCause::Stall { .. } | FaultCause::EStopCommand | FaultCause::EStopSwitch => return,
            FaultCause::CommsTimeout => "no frame from the host for 2 s while moving".into(),
            FaultCause::Stepper { actuator, fault } => {
                format!("actuator {actuator}: {fault:?}")
            }
        };
        self.stats.faults.push(FaultRecord {
            at_ms: self.clock.now_us() / 1000,
            move_id: move_id_of(before),
            fault: format!("{:?}", cause.protocol_fault()),
            reason,
        });
    }

    fn update_sensors(&mut self) {
        let levels: Vec<(u8, bool)> = self.hw.sensor_levels().collect();
        let board = self.machine.board;
        for (input, level) in levels {
            sample(&mut self.core, &board, input, level);
        }
        set_signal(&mut self.core, &board, board.estop, self.estop_pressed);
    }

    fn collect_output(&mut self) {
        while let Some(byte) = self.core.pop_tx() {
            self.out.push(byte);
        }
    }

    /// Link counters over every life of the firmware.
    fn count(&mut self) {
        let all = add(self.earlier, self.core.counters());
        self.stats.frames_received = all.frames;
        self.stats.decode_errors = all.decode_errors;
        self.stats.duplicates_rejected = all.duplicates;
    }
}

/// Sets `signal`'s pin to its active level or not (nothing when it is not wired).
fn set_signal(
    core: &mut Firmware<'static>,
    board: &BoardSetup,
    signal: Option<Signal>,
    active: bool,
) {
    if let Some(signal) = signal {
        sample(core, board, signal.pin, active == signal.active_high);
    }
}

/// A pin at `high` for as many samples as the board debounces with (a real board
/// samples every pass of its loop; the simulator sets inputs when they change).
fn sample(core: &mut Firmware<'static>, board: &BoardSetup, pin: u8, high: bool) {
    for _ in 0..board.debounce_samples.max(1) {
        core.set_input(pin, high);
    }
}

fn move_id_of(activity: Activity) -> Option<u32> {
    match activity {
        Activity::Idle => None,
        Activity::Motion { move_id }
        | Activity::Dwell { move_id }
        | Activity::HomingSteppers { move_id, .. }
        | Activity::HomingJaws { move_id, .. } => Some(move_id),
    }
}

fn add(a: Counters, b: Counters) -> Counters {
    Counters {
        frames: a.frames + b.frames,
        decode_errors: a.decode_errors + b.decode_errors,
        duplicates: a.duplicates + b.duplicates,
        commands_started: a.commands_started + b.commands_started,
        hellos: a.hellos + b.hellos,
    }
}
