//! The firmware state machine: its state (`Firmware`, faults, counters), power-on, bytes and inputs in, bytes out, and what it reports; the host's messages are in `messages.rs`, the machine's set-up in `setup.rs`, stopping in `stop.rs`, time-driven work (steps, command completion, timers) in `run.rs`.

mod messages;
mod setup;
mod stop;

use crate::board::{signal_active, Chip};
use crate::inputs::Inputs;
use crate::queue::{Command, Ring, TxBuffer};
use crate::servo::ServoChannel;
use crate::stepper::{StepperChannel, StepperFault};
use firmware_protocol::message::{
    Actuator, ConfigRefusal, Configure, Event, Fault, FaultFlags, FirmwareState, Machine,
    ResetCause, Signal, MAX_ACTUATORS,
};
use firmware_protocol::{Decoder, FirmwareLink, Message};
use setup::Staged;

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

    /// Whether an input was sampled at a new level and needs more samples before it counts:
    /// a board that sleeps between loops samples again at once instead, so debouncing takes
    /// `debounce_samples` loops, not as many sleeps.
    pub fn inputs_settling(&self) -> bool {
        self.inputs.settling()
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
}
