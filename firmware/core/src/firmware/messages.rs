//! The host's messages (PROTOCOL.md §9–10): frames sent and acknowledged, each message executed: the handshake, queued commands (refused when they cannot run), e-stop and fault clearing.

use super::setup::Staged;
use super::{Channel, FaultCause, Firmware, QUEUE_DEPTH, RX_WINDOW};
use crate::check::{home_fits, motion_fits, motion_mask};
use crate::queue::Command;
use firmware_protocol::message::{
    FaultFlags, FirmwareState, FirmwareVersion, HelloReply, NakReason,
};
use firmware_protocol::{Frame, Inbound, Message, Seq, MAX_WIRE_LEN};

impl<'b> Firmware<'b> {
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

    pub(super) fn nak(&mut self, seq: Seq, reason: NakReason) {
        self.send_unsequenced(&Message::Nak { seq, reason });
    }

    pub(super) fn on_frame(&mut self, frame: &Frame) {
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
}
