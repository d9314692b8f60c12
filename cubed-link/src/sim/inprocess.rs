//! A minimal host in the simulator's own process, for benches: handshake, `Configure`,
//! `Home`, then a program streamed with a full queue, every notification acknowledged at
//! once. Time is a stepped wall clock, so the firmware's timing is exact and the host's
//! replies come within a millisecond.

use super::firmware::SimFirmware;
use super::mechanics::Mechanics;
use crate::robot::MotionGroup;
use firmware_protocol::message::{Configure, Event};
use firmware_protocol::{encode, Decoder, Frame, Message, Seq, MAX_WIRE_LEN};

/// Commands in flight at most (the firmware queues 32).
const IN_FLIGHT: usize = 24;
/// Longest simulated run before giving up, ms.
const GIVE_UP_MS: u64 = 600_000;

/// Why a program did not finish.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InProcessError {
    #[error("the firmware refused the configuration")]
    Refused,
    #[error("the firmware latched a fault: {0}")]
    Fault(String),
    #[error("no MoveDone for every command within {GIVE_UP_MS} ms of simulated time")]
    TimedOut,
}

/// The host side: sequence numbers, the decoder, and what came back.
struct Host {
    now_ms: u64,
    seq: u8,
    decoder: Decoder,
    last_sent_ms: u64,
    done: Vec<(u32, u64)>,
}

impl Host {
    fn send<M: Mechanics>(&mut self, fw: &mut SimFirmware<M>, message: Message, ack: u8) {
        let frame = if message.is_sequenced() {
            self.seq = self.seq.wrapping_add(1);
            Frame::new(Seq(self.seq.wrapping_sub(1)), Seq(ack), message)
        } else {
            Frame::unsequenced(Seq(ack), message)
        };
        let mut out = [0u8; MAX_WIRE_LEN];
        if let Ok(len) = encode(&frame, &mut out) {
            fw.on_bytes(&out[..len], self.now_ms);
        }
        self.last_sent_ms = self.now_ms;
    }

    /// Reads what the firmware said, acknowledges it; `Err` on a fault or refusal.
    fn listen<M: Mechanics>(&mut self, fw: &mut SimFirmware<M>) -> Result<(), InProcessError> {
        let mut acks = Vec::new();
        for byte in fw.take_output() {
            let Some(Ok(frame)) = self.decoder.push(byte) else {
                continue;
            };
            if frame.message.is_sequenced() {
                acks.push(frame.header.seq.0.wrapping_add(1));
            }
            match frame.message {
                Message::MoveDone { move_id } => self.done.push((move_id, fw.now_us())),
                Message::Event(Event::Fault(fault)) => {
                    let reason = fw
                        .stats
                        .faults
                        .last()
                        .map_or(String::new(), |f| f.reason.clone());
                    return Err(InProcessError::Fault(format!("{fault:?}: {reason}")));
                }
                Message::ConfigureRefused { .. } => return Err(InProcessError::Refused),
                _ => {}
            }
        }
        for ack in acks {
            self.send(fw, Message::Ack { free_slots: 255 }, ack);
        }
        if self.now_ms >= self.last_sent_ms + 400 {
            self.send(fw, Message::QueryStatus, 0);
        }
        Ok(())
    }

    /// Streams `groups`; the firmware's time of the last `MoveDone`, µs.
    fn run<M: Mechanics>(
        &mut self,
        fw: &mut SimFirmware<M>,
        groups: &[MotionGroup],
    ) -> Result<u64, InProcessError> {
        self.done.clear();
        let mut sent = 0;
        let give_up = self.now_ms + GIVE_UP_MS;
        while self.done.len() < groups.len() {
            while sent < groups.len() && sent - self.done.len() < IN_FLIGHT {
                self.send(fw, groups[sent].to_message(), 0);
                sent += 1;
            }
            self.listen(fw)?;
            self.now_ms += fw.wait_ms(self.now_ms).max(1);
            fw.poll(self.now_ms);
            if self.now_ms > give_up {
                return Err(InProcessError::TimedOut);
            }
        }
        Ok(self.done.last().map_or(0, |&(_, at)| at))
    }
}

/// Handshakes, sets up (the simulator's own machine), configures and homes `fw` with `home_mask`, then runs `groups`; the
/// firmware's time from the end of homing to the last `MoveDone`, µs.
pub fn run_program<M: Mechanics>(
    fw: &mut SimFirmware<M>,
    configure: Configure,
    home_mask: u16,
    groups: &[MotionGroup],
) -> Result<u64, InProcessError> {
    let mut host = Host {
        now_ms: 0,
        seq: 0,
        decoder: Decoder::new(),
        last_sent_ms: 0,
        done: Vec::new(),
    };
    host.send(
        fw,
        Message::Hello {
            protocol_version: firmware_protocol::PROTOCOL_VERSION,
        },
        0,
    );
    // The host sends the machine the design describes: the one the simulator is.
    let setup: Vec<Message> = fw.machine().setup_messages().collect();
    for message in setup {
        host.send(fw, message, 0);
    }
    host.send(fw, Message::Configure(configure), 0);
    let homed_at = host.run(
        fw,
        &[MotionGroup::Home {
            move_id: 1,
            mask: home_mask,
        }],
    )?;
    let done_at = host.run(fw, groups)?;
    Ok(done_at.saturating_sub(homed_at))
}
