//! The firmware state machine: session and message handling (PROTOCOL.md §9–10).
//! Time-driven work (steps, command completion, timers) is in `run.rs`.

use crate::board::{signal_active, Chip};
use crate::check::{check_setup, home_fits, motion_fits, motion_mask};
use crate::inputs::Inputs;
use crate::queue::{Command, Ring, TxBuffer};
use crate::servo::ServoChannel;
use crate::stepper::{StepperChannel, StepperFault};
use firmware_protocol::message::{
    Actuator, BoardSetup, ConfigRefusal, Configure, Event, Fault, FaultFlags, FirmwareState,
    FirmwareVersion, HelloReply, Machine, NakReason, ResetCause, Signal, MAX_ACTUATORS,
};
use firmware_protocol::{Decoder, FirmwareLink, Frame, Inbound, Message, Seq, MAX_WIRE_LEN};

/// Command-queue capacity announced in `HelloReply` (including the running command).
pub const QUEUE_DEPTH: usize = 32;
/// Most unacknowledged frames the host may send (`HelloReply.rx_window`).
pub const RX_WINDOW: u8 = 32;
/// Notifications (`MoveDone`, `Event`…) awaiting the host's ack at most.
pub const NOTIFY_WINDOW: usize = 8;
/// Outgoing byte buffer.
pub(crate) const TX_BYTES: usize = 1024;

/// Why a fault latched: the protocol's fault plus what the firmware knows about it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FaultCause {
    /// A stepper fault on `actuator`.
    Stepper {
        /// Actuator index.
        actuator: u8,
        /// What happened.
        fault: StepperFault,
    },
    /// No frame from the host for 2 s while running commands.
    CommsTimeout,
    /// The host's `EmergencyStop`.
    EStopCommand,
    /// The e-stop switch.
    EStopSwitch,
    /// A driver reported that `actuator` could not move ([`Firmware::on_stall`]: a
    /// TMC2209's DIAG output, a servo's current sense).
    Stall {
        /// Actuator index.
        actuator: u8,
    },
}

impl FaultCause {
    /// The fault as the protocol reports it.
    pub const fn protocol_fault(&self) -> Fault {
        match *self {
            FaultCause::Stepper {
                actuator,
                fault: StepperFault::HomeNotFound,
            } => Fault::HomeNotFound { actuator },
            FaultCause::Stepper {
                actuator,
                fault: StepperFault::EndStopHit,
            } => Fault::Limit { actuator },
            FaultCause::CommsTimeout => Fault::CommsTimeout,
            FaultCause::Stall { actuator } => Fault::Stall { actuator },
            FaultCause::EStopCommand | FaultCause::EStopSwitch => Fault::EStopLatched,
        }
    }
}

/// One actuator channel.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Channel {
    None,
    Stepper(StepperChannel),
    Servo(ServoChannel),
}

/// The robot's hardware as the host's `SetupBoard` and `SetupActuator`s describe it,
/// waiting for the `Configure` that applies it.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Staged {
    board: Option<BoardSetup>,
    actuators: [Option<Actuator>; MAX_ACTUATORS],
}

impl Staged {
    /// The whole machine, or which part the host has not sent.
    fn machine(&self) -> Result<Machine, ConfigRefusal> {
        let board = self
            .board
            .ok_or(ConfigRefusal::NotSetUp { actuator: None })?;
        let mut machine = Machine {
            board,
            ..Machine::default()
        };
        for index in 0..usize::from(board.actuators).min(MAX_ACTUATORS) {
            let missing = ConfigRefusal::NotSetUp {
                actuator: Some(index as u8),
            };
            let actuator = self.actuators[index].ok_or(missing)?;
            machine
                .actuators
                .push(actuator, "actuators")
                .map_err(|_| missing)?;
        }
        Ok(machine)
    }
}

/// The whole firmware. `'b` is the chip description's lifetime (`'static` on a board).
pub struct Firmware<'b> {
    pub(crate) chip: &'b Chip,
    /// The hardware applied with the last accepted `Configure` (none before).
    pub(crate) machine: Machine,
    pub(crate) staged: Staged,
    /// The machine changed since the board's pins were last told ([`crate::pins::Pins::apply`]).
    pub(crate) pins_stale: bool,
    pub(crate) link: FirmwareLink<NOTIFY_WINDOW>,
    pub(crate) decoder: Decoder,
    pub(crate) configure: Option<Configure>,
    pub(crate) checksum: u16,
    /// Actuators homed since the last `Configure`, `ClearFault` or interruption (bit per index).
    pub(crate) homed: u16,
    pub(crate) latched: FaultFlags,
    pub(crate) cause: Option<FaultCause>,
    pub(crate) queue: Ring<Command, QUEUE_DEPTH>,
    /// The front command is running; `Some(ends)` for a dwell.
    pub(crate) running: Option<Running>,
    pub(crate) channels: [Channel; MAX_ACTUATORS],
    /// Input levels, bit per board input.
    pub(crate) inputs: Inputs,
    /// Steppers whose drivers are switched on, bit per actuator.
    pub(crate) drivers_on: u16,
    /// Last time anything was running or queued, µs (the idle timer counts from it).
    pub(crate) busy_at_us: u64,
    pub(crate) button_was_active: bool,
    pub(crate) last_completed: u32,
    pub(crate) tx: TxBuffer<TX_BYTES>,
    pub(crate) refusal: Option<ConfigRefusal>,
    pub(crate) now_us: u64,
    pub(crate) counters: Counters,
}

/// What the firmware counted since power-on (for a board's diagnostics and the simulator).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counters {
    /// Frames decoded with a good CRC.
    pub frames: u64,
    /// Byte runs that did not decode to a frame.
    pub decode_errors: u64,
    /// Sequenced frames received again (acknowledged, not executed).
    pub duplicates: u64,
    /// Queued commands started.
    pub commands_started: u64,
    /// `Hello`s taken: each begins a session, whose move ids are its own.
    pub hellos: u64,
}

/// What the running command waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Running {
    /// Until every channel is idle.
    Motion,
    /// The steppers of the mask homing; then its jaws close.
    HomeSteppers(u16),
    /// The jaws of the mask closing after its steppers homed.
    HomeJaws(u16),
    /// Until this time, µs.
    Dwell(u64),
}

impl<'b> Firmware<'b> {
    /// A firmware just powered on; its first bytes are `Event Boot`.
    pub fn new(chip: &'b Chip, now_us: u64) -> Self {
        Self::restarted(chip, now_us, ResetCause::PowerOn)
    }

    /// A firmware that has just restarted for `cause`; its first bytes are `Event Boot`.
    /// It drives nothing until the host sets the machine up.
    pub fn restarted(chip: &'b Chip, now_us: u64, cause: ResetCause) -> Self {
        let mut firmware = Firmware {
            chip,
            machine: Machine::default(),
            staged: Staged::default(),
            pins_stale: false,
            link: FirmwareLink::new(RX_WINDOW, now_us / 1000),
            decoder: Decoder::new(),
            configure: None,
            checksum: 0,
            homed: 0,
            latched: FaultFlags(0),
            cause: None,
            queue: Ring::new(),
            running: None,
            channels: [Channel::None; MAX_ACTUATORS],
            inputs: Inputs::new(0, 1),
            drivers_on: 0,
            busy_at_us: now_us,
            button_was_active: false,
            last_completed: 0,
            tx: TxBuffer::new(),
            refusal: None,
            now_us,
            counters: Counters::default(),
        };
        firmware.send_unsequenced(&Message::Event(Event::Boot { cause }));
        firmware
    }

    /// One byte from the host.
    pub fn on_byte(&mut self, now_us: u64, byte: u8) {
        self.now_us = self.now_us.max(now_us);
        match self.decoder.push(byte) {
            None => {}
            Some(Err(error)) => {
                self.counters.decode_errors += 1;
                let nak = self.link.nak_for_decode_error(&error);
                self.send_unsequenced(&nak);
            }
            Some(Ok(frame)) => self.on_frame(&frame),
        }
    }

    /// One sample of board input `index` (home sensors, e-stop, button, stall outputs): a
    /// board calls this for every input once a loop; the level changes after the board's
    /// `debounce_samples` samples in a row, except a safety input (the e-stop, a driver's
    /// stall output) turning active, which counts at its first sample.
    pub fn set_input(&mut self, index: u8, high: bool) {
        if self.is_safety_input_going_active(index, high) {
            self.inputs.set_now(index, high)
        } else {
            self.inputs.sample(index, high)
        }
    }

    fn is_safety_input_going_active(&self, pin: u8, high: bool) -> bool {
        let stalls = self.machine.actuators.iter().filter_map(|a| match a {
            Actuator::Stepper(stepper) => stepper.stall,
            _ => None,
        });
        let mut safety = self.machine.board.estop.into_iter().chain(stalls);
        safety.any(|s| s.pin == pin && s.active_high == high)
    }

    /// The next byte to write to the host.
    pub fn pop_tx(&mut self) -> Option<u8> {
        self.tx.pop()
    }

    /// Bytes waiting to be written.
    pub fn tx_len(&self) -> usize {
        self.tx.len()
    }

    /// The state code `Status` reports.
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

    /// Every configured actuator, as a mask.
    pub(crate) fn configured_mask(&self) -> u16 {
        let count = self.configure.map_or(0, |c| c.actuators.len());
        ((1u32 << count) - 1) as u16
    }

    /// Whether actuator `index` has been homed since the last `Configure`, `ClearFault`
    /// or interrupted command.
    pub fn is_homed(&self, index: u8) -> bool {
        index < 16 && self.homed & (1 << index) != 0
    }

    /// The latched fault's cause, if any.
    pub fn fault_cause(&self) -> Option<FaultCause> {
        self.cause
    }

    /// Why the last `Configure` was refused, if it was.
    pub fn last_refusal(&self) -> Option<ConfigRefusal> {
        self.refusal
    }

    /// The hardware applied with the last accepted `Configure`.
    pub fn machine(&self) -> &Machine {
        &self.machine
    }

    /// Whether a `Hello` of this protocol version started a session.
    pub fn in_session(&self) -> bool {
        self.link.in_session()
    }

    /// Absolute position of actuator `index` in protocol units (jaws: 1 closed).
    pub fn position(&self, index: usize) -> Option<i64> {
        match self.channels.get(index)? {
            Channel::None => None,
            Channel::Stepper(stepper) => Some(stepper.position_units()),
            Channel::Servo(servo) => Some(servo.position()),
        }
    }

    /// A stepper's counted position in microsteps.
    pub fn position_steps(&self, index: usize) -> Option<i64> {
        match self.channels.get(index)? {
            Channel::Stepper(stepper) => Some(stepper.position_steps()),
            _ => None,
        }
    }

    pub(crate) fn input_active(&self, input: Option<Signal>) -> bool {
        signal_active(input, self.inputs.levels())
    }

    pub(crate) fn free_slots(&self) -> u8 {
        self.queue.free() as u8
    }

    pub(crate) fn send_unsequenced(&mut self, message: &Message) {
        let mut out = [0u8; MAX_WIRE_LEN];
        if let Ok(len) = self.link.send_unsequenced(message, &mut out) {
            self.tx.push_frame(&out[..len]);
        }
    }

    pub(crate) fn notify(&mut self, message: &Message) {
        let mut out = [0u8; MAX_WIRE_LEN];
        if let Ok(len) = self.link.send(message, self.now_us / 1000, &mut out) {
            self.tx.push_frame(&out[..len]);
        }
    }

    pub(crate) fn ack(&mut self) {
        self.send_unsequenced(&Message::Ack {
            free_slots: self.free_slots(),
        });
    }

    fn nak(&mut self, seq: Seq, reason: NakReason) {
        self.send_unsequenced(&Message::Nak { seq, reason });
    }

    fn on_frame(&mut self, frame: &Frame) {
        self.counters.frames += 1;
        match self
            .link
            .on_frame(frame, self.free_slots(), self.now_us / 1000)
        {
            Inbound::Execute(message) => self.execute(message, frame.header.seq),
            Inbound::Duplicate => {
                self.counters.duplicates += 1;
                self.ack();
            }
            Inbound::Refuse { seq, reason } => self.nak(seq, reason),
            Inbound::Ignore => {}
        }
    }

    fn execute(&mut self, message: Message, seq: Seq) {
        match message {
            Message::Hello { .. } => self.on_hello(),
            Message::Configure(configure) => self.on_configure(configure, seq),
            Message::Home { move_id, mask } => self.on_queued(Command::Home { move_id, mask }, seq),
            Message::Motion(motion) => self.on_queued(Command::Motion(motion), seq),
            Message::Dwell { move_id, ms } => self.on_queued(Command::Dwell { move_id, ms }, seq),
            Message::QueryStatus => self.send_unsequenced(&Message::Status(self.status())),
            Message::Ping { nonce } => self.send_unsequenced(&Message::Pong { nonce }),
            Message::EmergencyStop => self.emergency_stop(FaultCause::EStopCommand),
            Message::ClearFault => self.on_clear_fault(seq),
            Message::SetupBoard(board) => self.on_setup(seq, |staged| {
                *staged = Staged {
                    board: Some(board),
                    ..Staged::default()
                }
            }),
            Message::SetupActuator { index, actuator } => self.on_setup(seq, |staged| {
                if let Some(slot) = staged.actuators.get_mut(usize::from(index)) {
                    *slot = Some(actuator);
                }
            }),
            Message::QueryBoard => self.send_unsequenced(&Message::BoardInfo(self.chip.info())),
            _ => {}
        }
    }

    fn on_hello(&mut self) {
        self.counters.hellos += 1;
        // PROTOCOL.md §9: stop any motion, decelerating; flush the queue.
        if self.running.take().is_some() {
            self.homed = 0;
        }
        self.queue.clear();
        let now = self.now_us;
        for channel in self.channels.iter_mut() {
            match channel {
                Channel::Stepper(stepper) => stepper.decelerate(now),
                Channel::Servo(servo) => servo.halt(),
                Channel::None => {}
            }
        }
        let (major, minor, patch) = self.chip.version;
        self.send_unsequenced(&Message::HelloReply(HelloReply {
            protocol_version: firmware_protocol::PROTOCOL_VERSION,
            firmware_version: FirmwareVersion {
                major,
                minor,
                patch,
            },
            queue_depth: QUEUE_DEPTH as u8,
            rx_window: RX_WINDOW,
            firmware_name: HelloReply::name_field(self.chip.name),
        }));
    }

    /// Whether the machine may be set up or configured now: not while anything runs or
    /// a fault is latched.
    fn may_configure(&self) -> bool {
        matches!(
            self.state(),
            FirmwareState::Unconfigured | FirmwareState::Unhomed | FirmwareState::Idle
        )
    }

    fn on_setup(&mut self, seq: Seq, stage: impl FnOnce(&mut Staged)) {
        if !self.may_configure() {
            return self.nak(seq, NakReason::BadState);
        }
        stage(&mut self.staged);
        self.ack();
    }

    fn on_configure(&mut self, configure: Configure, seq: Seq) {
        if !self.may_configure() {
            return self.nak(seq, NakReason::BadState);
        }
        let checked = self.staged.machine().and_then(|machine| {
            check_setup(self.chip, &machine, &configure)?;
            Ok(machine)
        });
        let machine = match checked {
            Ok(machine) => machine,
            Err(refusal) => {
                self.refusal = Some(refusal);
                return self.send_unsequenced(&Message::ConfigureRefused { seq, refusal });
            }
        };
        if machine != self.machine {
            self.apply(machine);
        }
        self.refusal = None;
        self.checksum = configure.checksum().unwrap_or(0);
        self.configure = Some(configure);
        self.homed = 0;
        self.notify(&Message::ConfigureReply {
            checksum: self.checksum,
        });
        self.ack();
    }

    fn refusal_for(&self, command: &Command) -> Option<NakReason> {
        match self.state() {
            FirmwareState::EStopped => return Some(NakReason::EStopLatched),
            FirmwareState::Faulted | FirmwareState::Unconfigured => {
                return Some(NakReason::BadState)
            }
            _ => {}
        }
        match command {
            Command::Motion(motion) => {
                let will_be_homed = self.queue.iter().fold(self.homed, |mask, c| match c {
                    Command::Home { mask: home, .. } => mask | home,
                    _ => mask,
                });
                if motion_mask(motion) & !will_be_homed != 0 {
                    return Some(NakReason::BadState);
                }
                if !self.configure.is_some_and(|c| motion_fits(&c, motion)) {
                    return Some(NakReason::InvalidCommand);
                }
            }
            Command::Home { mask, .. } => {
                if !self.configure.is_some_and(|c| home_fits(&c, *mask)) {
                    return Some(NakReason::InvalidCommand);
                }
            }
            Command::Dwell { .. } => {}
        }
        None
    }

    fn on_queued(&mut self, command: Command, seq: Seq) {
        if let Some(reason) = self.refusal_for(&command) {
            return self.nak(seq, reason);
        }
        match self.queue.push(command) {
            Ok(()) => self.ack(),
            // The link checked for a free slot; a full queue here is refused all the same.
            Err(_) => self.nak(seq, NakReason::QueueFull),
        }
    }

    fn on_clear_fault(&mut self, seq: Seq) {
        if self.input_active(self.machine.board.estop) {
            return self.nak(seq, NakReason::BadState);
        }
        if self.latched.0 != 0 {
            self.latched = FaultFlags(0);
            self.cause = None;
            self.homed = 0;
        }
        self.ack();
    }

    /// Stops every motor now, flushes the queue and latches the e-stop.
    pub(crate) fn emergency_stop(&mut self, cause: FaultCause) {
        let already = self.latched.any(FaultFlags::ESTOP);
        self.stop_and_flush();
        self.homed = 0;
        self.latched = FaultFlags(self.latched.0 | FaultFlags::ESTOP);
        if !already {
            self.cause = Some(cause);
        }
        if cause == FaultCause::EStopCommand {
            self.ack();
        }
        if self.link.in_session() && !already {
            self.notify(&Message::Event(Event::Fault(Fault::EStopLatched)));
        }
    }

    /// Takes `machine` as the robot: one channel per actuator, its inputs at their
    /// inactive levels, every driver off and nothing homed; the board rewires its pins at
    /// the next poll.
    fn apply(&mut self, machine: Machine) {
        self.stop_and_flush();
        let mut channels = [Channel::None; MAX_ACTUATORS];
        for (index, (slot, hw)) in channels
            .iter_mut()
            .zip(machine.actuators.iter())
            .enumerate()
        {
            *slot = match *hw {
                Actuator::Stepper(stepper) => {
                    Channel::Stepper(StepperChannel::new(stepper, index as u8))
                }
                Actuator::Servo(servo) => Channel::Servo(ServoChannel::new(servo, index as u8)),
                Actuator::Fixed => Channel::None,
            };
        }
        self.channels = channels;
        self.inputs = Inputs::new(inactive_levels(&machine), machine.board.debounce_samples);
        self.button_was_active = false;
        self.drivers_on = 0;
        self.homed = 0;
        self.machine = machine;
        self.pins_stale = true;
    }

    /// Halts every channel and empties the queue; an interrupted command leaves the
    /// firmware unhomed.
    pub(crate) fn stop_and_flush(&mut self) {
        self.stop_every_channel(false);
    }

    /// Stops every channel, the steppers at once or down their deceleration ramps, and
    /// empties the queue; an interrupted command leaves the firmware unhomed.
    pub(crate) fn stop_every_channel(&mut self, decelerating: bool) {
        if self.running.take().is_some() {
            self.homed = 0;
        }
        let now = self.now_us;
        for channel in self.channels.iter_mut() {
            match channel {
                Channel::Stepper(stepper) if decelerating => stepper.decelerate(now),
                Channel::Stepper(stepper) => stepper.halt(),
                Channel::Servo(servo) => servo.halt(),
                Channel::None => {}
            }
        }
        self.queue.clear();
    }
}

/// Every input the machine names, at its inactive level.
fn inactive_levels(machine: &Machine) -> u32 {
    let mut levels = 0u32;
    let mut set_inactive = |input: Option<Signal>| {
        if let Some(input) = input.filter(|input| input.pin < 32) {
            if !input.active_high {
                levels |= 1 << input.pin;
            }
        }
    };
    set_inactive(machine.board.estop);
    set_inactive(machine.board.button);
    for actuator in machine.actuators.iter() {
        if let Actuator::Stepper(stepper) = actuator {
            set_inactive(stepper.home.map(|home| home.input));
            set_inactive(stepper.stall);
        }
    }
    levels
}
