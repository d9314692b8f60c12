//! The simulated firmware: a pure state machine around the protocol's `FirmwareLink`
//! (bytes in → bytes out, time passed in), a command queue, and `Mechanics` that execute
//! motions. Behaves as PROTOCOL.md §10 says a firmware must.

use super::mechanics::{motion_fits, MechanicalFault, Mechanics};
use firmware_protocol::message::{
    Configure, Event, Fault, FaultFlags, FirmwareState, FirmwareVersion, HelloReply, Motion,
    NakReason, ResetCause, Status,
};
use firmware_protocol::{
    Decoder, FirmwareLink, FixedList, Frame, Inbound, Message, Seq, MAX_WIRE_LEN,
};
use serde::Serialize;
use std::collections::{HashSet, VecDeque};

/// Command-queue capacity announced in `HelloReply`.
pub(crate) const QUEUE_DEPTH: u8 = 8;
/// Host window announced in `HelloReply`.
pub(crate) const RX_WINDOW: u8 = 16;
/// Notifications in flight at most.
const NOTIFY_WINDOW: usize = 16;

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
}

/// The simulated firmware.
pub struct SimFirmware<M: Mechanics> {
    link: FirmwareLink<NOTIFY_WINDOW>,
    decoder: Decoder,
    pub mechanics: M,
    configure: Option<Configure>,
    /// Actuators homed since the last `Configure`, `ClearFault` or interruption.
    homed: u16,
    latched: FaultFlags,
    queue: VecDeque<Message>,
    running_until: Option<u64>,
    last_completed: u32,
    /// Action time divisor: 0 = instant, 1 = real time, 10 = ten times faster.
    pub speed: f64,
    out: Vec<u8>,
    pub stats: SimStats,
}

impl<M: Mechanics> SimFirmware<M> {
    /// A firmware just powered on (it sends `Event Boot`).
    pub fn new(mechanics: M, speed: f64, now: u64) -> SimFirmware<M> {
        let mut firmware = SimFirmware {
            link: FirmwareLink::new(RX_WINDOW, now),
            decoder: Decoder::new(),
            mechanics,
            configure: None,
            homed: 0,
            latched: FaultFlags(0),
            queue: VecDeque::new(),
            running_until: None,
            last_completed: 0,
            speed,
            out: Vec::new(),
            stats: SimStats::default(),
        };
        firmware.send_unsequenced(&Message::Event(Event::Boot {
            cause: ResetCause::PowerOn,
        }));
        firmware
    }

    /// Resets as after power loss: session, configuration, queue and move ids forgotten.
    pub fn reboot(&mut self, now: u64) {
        self.link = FirmwareLink::new(RX_WINDOW, now);
        self.decoder.reset();
        self.configure = None;
        self.homed = 0;
        self.latched = FaultFlags(0);
        self.queue.clear();
        self.running_until = None;
        self.last_completed = 0;
        self.stats.reboots += 1;
        self.send_unsequenced(&Message::Event(Event::Boot {
            cause: ResetCause::Software,
        }));
    }

    /// Bytes to write to the host.
    pub fn take_output(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.out)
    }

    /// Forgets a partial frame (the port was reopened).
    pub fn reset_decoder(&mut self) {
        self.decoder.reset();
    }

    /// The firmware's state code.
    pub fn state(&self) -> FirmwareState {
        if self.configure.is_none() {
            FirmwareState::Unconfigured
        } else if self.latched.any(FaultFlags::ESTOP) {
            FirmwareState::EStopped
        } else if self.latched.0 != 0 {
            FirmwareState::Faulted
        } else if !self.queue.is_empty() {
            FirmwareState::Busy
        } else if self.homed != self.configured_mask() {
            FirmwareState::Unhomed
        } else {
            FirmwareState::Idle
        }
    }

    fn configured_mask(&self) -> u16 {
        let count = self.configure.map_or(0, |c| c.actuators.len());
        ((1u32 << count) - 1) as u16
    }

    fn free_slots(&self) -> u8 {
        QUEUE_DEPTH.saturating_sub(self.queue.len() as u8)
    }

    fn send_unsequenced(&mut self, message: &Message) {
        let mut out = [0u8; MAX_WIRE_LEN];
        if let Ok(len) = self.link.send_unsequenced(message, &mut out) {
            self.out.extend_from_slice(&out[..len]);
        }
    }

    fn notify(&mut self, message: &Message, now: u64) {
        let mut out = [0u8; MAX_WIRE_LEN];
        if let Ok(len) = self.link.send(message, now, &mut out) {
            self.out.extend_from_slice(&out[..len]);
        }
    }

    fn ack(&mut self) {
        self.send_unsequenced(&Message::Ack {
            free_slots: self.free_slots(),
        });
    }

    /// Bytes from the host.
    pub fn on_bytes(&mut self, bytes: &[u8], now: u64) {
        for byte in bytes {
            match self.decoder.push(*byte) {
                None => {}
                Some(Err(error)) => {
                    self.stats.decode_errors += 1;
                    let nak = self.link.nak_for_decode_error(&error);
                    self.send_unsequenced(&nak);
                }
                Some(Ok(frame)) => self.on_frame(&frame, now),
            }
        }
    }

    fn on_frame(&mut self, frame: &Frame, now: u64) {
        self.stats.frames_received += 1;
        match self.link.on_frame(frame, self.free_slots(), now) {
            Inbound::Execute(message) => self.execute(message, frame.header.seq, now),
            Inbound::Duplicate => {
                self.stats.duplicates_rejected += 1;
                self.ack();
            }
            Inbound::Refuse { seq, reason } => self.send_unsequenced(&Message::Nak { seq, reason }),
            Inbound::Ignore => {}
        }
    }

    fn execute(&mut self, message: Message, seq: Seq, now: u64) {
        match message {
            Message::Hello { .. } => self.on_hello(),
            Message::Configure(configure) => self.on_configure(configure, seq, now),
            Message::Home { .. } | Message::Motion(_) | Message::Dwell { .. } => {
                self.on_queued(message, seq)
            }
            Message::QueryStatus => self.send_unsequenced(&Message::Status(self.status())),
            Message::Ping { nonce } => self.send_unsequenced(&Message::Pong { nonce }),
            Message::EmergencyStop => self.on_estop(now),
            Message::ClearFault => {
                self.latched = FaultFlags(0);
                self.homed = 0;
                self.ack();
            }
            _ => {}
        }
    }

    fn on_hello(&mut self) {
        if self.running_until.take().is_some() {
            self.homed = 0;
        }
        self.queue.clear();
        self.send_unsequenced(&Message::HelloReply(HelloReply {
            protocol_version: firmware_protocol::PROTOCOL_VERSION,
            firmware_version: FirmwareVersion {
                major: 0,
                minor: 1,
                patch: 0,
            },
            queue_depth: QUEUE_DEPTH,
            rx_window: RX_WINDOW,
            firmware_name: HelloReply::name_field("cubed-sim"),
        }));
    }

    fn on_configure(&mut self, configure: Configure, seq: Seq, now: u64) {
        let allowed = matches!(
            self.state(),
            FirmwareState::Unconfigured | FirmwareState::Unhomed | FirmwareState::Idle
        );
        if !allowed {
            return self.send_unsequenced(&Message::Nak {
                seq,
                reason: NakReason::BadState,
            });
        }
        if let Err(refusal) = self.mechanics.accepts(&configure) {
            return self.send_unsequenced(&Message::ConfigureRefused { seq, refusal });
        }
        let checksum = configure.checksum().unwrap_or(0);
        self.configure = Some(configure);
        self.homed = 0;
        self.notify(&Message::ConfigureReply { checksum }, now);
        self.ack();
    }

    fn refusal(&self, message: &Message) -> Option<NakReason> {
        let state = self.state();
        if state == FirmwareState::EStopped {
            return Some(NakReason::EStopLatched);
        }
        if matches!(state, FirmwareState::Faulted | FirmwareState::Unconfigured) {
            return Some(NakReason::BadState);
        }
        match message {
            Message::Motion(motion) => {
                let will_be_homed = self.queue.iter().fold(self.homed, |mask, m| match m {
                    Message::Home { mask: home, .. } => mask | home,
                    _ => mask,
                });
                if motion_mask(motion) & !will_be_homed != 0 {
                    return Some(NakReason::BadState);
                }
                if !self.configure.is_some_and(|c| motion_fits(&c, motion)) {
                    return Some(NakReason::InvalidCommand);
                }
            }
            Message::Home { mask, .. } if !self.configure.is_some_and(|c| home_fits(&c, *mask)) => {
                return Some(NakReason::InvalidCommand);
            }
            _ => {}
        }
        None
    }

    fn on_queued(&mut self, message: Message, seq: Seq) {
        match self.refusal(&message) {
            Some(reason) => self.send_unsequenced(&Message::Nak { seq, reason }),
            None => {
                self.queue.push_back(message);
                self.ack();
            }
        }
    }

    fn on_estop(&mut self, now: u64) {
        let already = self.latched.any(FaultFlags::ESTOP);
        self.stop_and_flush();
        self.latched = FaultFlags(self.latched.0 | FaultFlags::ESTOP);
        self.ack();
        if self.link.in_session() && !already {
            self.notify(&Message::Event(Event::Fault(Fault::EStopLatched)), now);
        }
    }

    fn stop_and_flush(&mut self) {
        if self.running_until.take().is_some() {
            self.homed = 0;
        }
        self.queue.clear();
    }

    /// The status snapshot.
    pub fn status(&self) -> Status {
        let positions: Vec<i32> = self.mechanics.positions().into_iter().take(12).collect();
        Status {
            state: self.state(),
            faults: self.latched,
            last_completed_move_id: self.last_completed,
            queue_used: self.queue.len() as u8,
            config_checksum: self.configure.and_then(|c| c.checksum().ok()).unwrap_or(0),
            positions: FixedList::from_slice(&positions, "positions").unwrap_or_default(),
        }
    }

    /// The start button was pressed.
    pub fn press_button(&mut self, now: u64) {
        if self.link.in_session() {
            self.notify(&Message::Event(Event::ButtonPressed { button: 0 }), now);
        }
    }

    /// Advances time: finishes and starts commands, retransmits, watches the host.
    pub fn poll(&mut self, now: u64) {
        self.finish_running(now);
        while self.running_until.is_none() && self.start_next(now) {
            self.finish_running(now);
        }
        if self.state() == FirmwareState::Busy && self.link.comms_timed_out(now) {
            self.latch(
                Fault::CommsTimeout,
                None,
                "no frame from the host for 2 s while moving".into(),
                now,
            );
        }
        let mut out = [0u8; MAX_WIRE_LEN];
        while let Some(seq) = self.link.due_for_retransmit(now) {
            match self.link.retransmit(seq, now, &mut out) {
                Ok(len) => self.out.extend_from_slice(&out[..len]),
                Err(_) => break,
            }
        }
    }

    /// When `poll` next has something to do (a command finishing).
    pub fn next_deadline(&self) -> Option<u64> {
        self.running_until
    }

    fn finish_running(&mut self, now: u64) {
        let Some(until) = self.running_until else {
            return;
        };
        if now < until {
            return;
        }
        self.running_until = None;
        let Some(done) = self.queue.pop_front() else {
            return;
        };
        if let Message::Home { mask, .. } = done {
            self.homed |= mask;
        }
        let move_id = done.move_id().unwrap_or(0);
        self.last_completed = move_id;
        self.notify(&Message::MoveDone { move_id }, now);
        self.ack();
    }

    /// Starts the next queued command if allowed; false if none was started.
    fn start_next(&mut self, now: u64) -> bool {
        let Some(next) = self.queue.front().copied() else {
            return false;
        };
        if self.latched.0 != 0 || self.link.unacked_notifications() + 2 > NOTIFY_WINDOW {
            return false;
        }
        let move_id = next.move_id().unwrap_or(0);
        if !self.stats.executed_ids.insert(move_id) {
            self.stats.move_ids_run_twice += 1;
        }
        let result = match next {
            Message::Home { mask, .. } => self.mechanics.home(mask),
            Message::Motion(motion) => self.mechanics.run(&motion),
            Message::Dwell { ms, .. } => Ok(u32::from(ms)),
            _ => Ok(0),
        };
        match result {
            Ok(ms) => {
                self.stats.moves_executed += 1;
                self.running_until = Some(now + self.scaled(ms));
                true
            }
            Err(MechanicalFault { fault, reason }) => {
                self.latch(fault, Some(move_id), reason, now);
                false
            }
        }
    }

    fn scaled(&self, ms: u32) -> u64 {
        if self.speed <= 0.0 {
            0
        } else {
            (f64::from(ms) / self.speed).round() as u64
        }
    }

    fn latch(&mut self, fault: Fault, move_id: Option<u32>, reason: String, now: u64) {
        self.stop_and_flush();
        self.homed = 0;
        self.latched = FaultFlags(self.latched.0 | fault.flag());
        self.stats.faults.push(FaultRecord {
            at_ms: now,
            move_id,
            fault: format!("{fault:?}"),
            reason,
        });
        self.notify(&Message::Event(Event::Fault(fault)), now);
    }
}

/// Whether a `Home` mask names only actuators of `configure`.
fn home_fits(configure: &Configure, mask: u16) -> bool {
    let configured = (1u32 << configure.actuators.len()) - 1;
    u32::from(mask) & !configured == 0
}

/// The actuators `motion` moves, as a mask.
fn motion_mask(motion: &Motion) -> u16 {
    (motion.actions.iter()).fold(0, |mask, a| mask | 1u16 << (a.actuator() % 16))
}
