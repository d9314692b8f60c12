//! The handshake of the link task: `Hello` until the firmware answers (resent every 100 ms),
//! then `Configure` until it confirms; each stage has its own deadline, the configuration stage
//! is retried from a fresh `Hello` a few times with a growing pause (a noisy line corrupts the
//! long `Configure` frame often), and an error names the stage that failed.

use super::{LinkTask, Stage};
use crate::link::error::LinkError;
use crate::link::events::{firmware_name, Connected, LinkEvent};
use crate::link::fault_words::refusal_in_words;
use crate::robot::wiring::{is_simulator, simulator_name, RobotSetup, VIRTUAL_WIRING_FIRMWARE};
use crate::robot::{shipped_design, ActuatorMap, SHIPPED_DESIGNS};
use firmware_protocol::message::{ConfigRefusal, Fault, FaultFlags, HelloReply, NakReason, Status};
use firmware_protocol::timing::RETRANSMIT_TIMEOUT_MS;
use firmware_protocol::{HostPhase, Message, PROTOCOL_VERSION};

/// Attempts of the configuration stage (each from a fresh `Hello`) before giving up.
pub(super) const CONFIGURE_ATTEMPTS: u32 = 4;

/// The pause before the first `Hello` of configuration attempt `attempt` (1 = the first
/// retry): 100 ms, 200 ms, 300 ms, … (the line gets time to settle; `Hello`s then go every
/// 100 ms, short frames that get through noise).
fn retry_backoff(attempt: u32) -> u64 {
    RETRANSMIT_TIMEOUT_MS * u64::from(attempt.max(1))
}

impl LinkTask {
    fn stage_timeout(&self) -> u64 {
        self.settings.handshake_timeout.as_millis() as u64
    }

    pub(super) fn on_hello_timers(
        &mut self,
        now: u64,
        started: u64,
        last_sent: u64,
    ) -> Result<(), LinkError> {
        if self.port.is_none() || now.saturating_sub(started) > self.stage_timeout() {
            return Err(LinkError::NoAnswer {
                path: self.path.clone(),
                waited_ms: now.saturating_sub(started),
            });
        }
        if now.saturating_sub(last_sent) >= RETRANSMIT_TIMEOUT_MS {
            self.begin_hello();
        }
        Ok(())
    }

    pub(super) fn on_configuring_timers(
        &mut self,
        now: u64,
        started: u64,
    ) -> Result<(), LinkError> {
        if self.port.is_some() && now.saturating_sub(started) <= self.stage_timeout() {
            self.send_handshake_frames()?;
            if let Some(since) = self.handshake.confirming_since {
                if now.saturating_sub(since) >= RETRANSMIT_TIMEOUT_MS {
                    self.handshake.confirming_since = Some(now);
                    self.emit_frame(&Message::QueryStatus)?;
                }
            }
            return self.retransmit_due(now);
        }
        if self.port.is_some() && self.handshake.configure_attempts < CONFIGURE_ATTEMPTS {
            tracing::debug!(
                "no ConfigureReply on {} within {} ms: handshaking again",
                self.path.display(),
                self.stage_timeout()
            );
            // The first Hello goes out after the backoff (see `on_hello_timers`).
            let pause = retry_backoff(self.handshake.configure_attempts);
            self.stage = Stage::Hello {
                started: now + pause,
                last_sent: now + pause - RETRANSMIT_TIMEOUT_MS,
            };
            self.handshake.hellos = 0;
            return Ok(());
        }
        Err(LinkError::NoConfigureReply {
            path: self.path.clone(),
            attempts: self.handshake.configure_attempts,
            waited_ms: now.saturating_sub(self.handshake.began),
            naks: self.handshake.naks,
        })
    }

    pub(super) fn begin_hello(&mut self) {
        let now = self.now();
        self.outbox.push(0);
        let mut out = [0u8; firmware_protocol::MAX_WIRE_LEN];
        if let Ok(len) = self.link.start_handshake(now, &mut out) {
            self.outbox.extend_from_slice(&out[..len]);
        }
        if let Stage::Hello { last_sent, .. } = &mut self.stage {
            *last_sent = now;
        }
        self.handshake.hellos += 1;
    }

    pub(super) fn on_hello_reply(&mut self, reply: HelloReply) -> Result<(), LinkError> {
        if !matches!(self.stage, Stage::Hello { .. }) {
            return Ok(());
        }
        if let HostPhase::VersionMismatch { firmware } = self.link.phase() {
            return Err(LinkError::VersionMismatch {
                path: self.path.clone(),
                host: PROTOCOL_VERSION,
                firmware,
            });
        }
        let firmware = firmware_name(&reply);
        if !self.setup.wired && !is_simulator(&firmware) {
            return Err(LinkError::Unwired {
                path: self.path.clone(),
                firmware,
            });
        }
        self.hello = Some(reply);
        self.handshake.confirming_since = None;
        self.stage = Stage::Configuring {
            started: self.now(),
        };
        self.handshake.configure_attempts += 1;
        // What is latched, to name it should the configuration be refused.
        self.emit_frame(&Message::QueryStatus)?;
        self.emit_frame(&Message::QueryBoard)?;
        if self.settings.clear_latched {
            self.emit_frame(&Message::ClearFault)?;
            self.handshake.clear_seq = self.link.unacked_messages().last().map(|(seq, _)| seq.0);
        }
        self.handshake.unsent = self.setup.machine.setup_messages().collect();
        self.handshake
            .unsent
            .push_back(Message::Configure(self.setup.configure));
        self.send_handshake_frames()
    }

    /// Sends the setup frames and the `Configure` as far as the firmware's window allows.
    fn send_handshake_frames(&mut self) -> Result<(), LinkError> {
        while let Some(message) = self.handshake.unsent.front().copied() {
            if self.link.check_can_send(&message).is_err() {
                break;
            }
            self.emit_frame(&message)?;
            self.handshake.unsent.pop_front();
        }
        Ok(())
    }

    /// The firmware's `Status` while configuring: what it holds latched; once the
    /// configuration is confirmed, what it holds under its new machine (an e-stop pressed
    /// at power-on latches only once the firmware knows its pin), and the link is up.
    pub(super) fn on_handshake_status(&mut self, status: &Status) -> Result<(), LinkError> {
        if !matches!(self.stage, Stage::Configuring { .. }) {
            return Ok(());
        }
        self.handshake.estop_held = Some(status.inputs.estop_held());
        if self.handshake.confirming_since.is_none() {
            self.handshake.latched = Some(status.faults);
            return Ok(());
        }
        if self.handshake.clear_seq.is_some() {
            // A clear was asked for, yet the e-stop latched again under the new machine:
            // its input is active (still pressed, or a wire open).
            if status.faults.any(FaultFlags::ESTOP) {
                return Err(LinkError::ClearRefused {
                    path: self.path.clone(),
                    latched: Some(status.faults),
                    estop_held: self.handshake.estop_held,
                });
            }
        } else {
            // What latched as the machine was applied (an e-stop pressed since power-on)
            // is latched from before this session too.
            self.handshake.latched = Some(status.faults);
        }
        self.done_at_handshake = status.last_completed_move_id;
        self.finish_handshake(status.config_checksum);
        Ok(())
    }

    /// A frame of the configuration stage refused for good: the `ClearFault` (the e-stop
    /// input is active), or `Configure` (a latch from before, or this design).
    pub(super) fn configuring_refused(&self, seq: u8, reason: NakReason) -> LinkError {
        if self.handshake.clear_seq == Some(seq) {
            return LinkError::ClearRefused {
                path: self.path.clone(),
                latched: self.handshake.latched,
                estop_held: self.handshake.estop_held,
            };
        }
        LinkError::ConfigRefused {
            path: self.path.clone(),
            reason,
            latched: self.handshake.latched,
            estop_held: self.handshake.estop_held,
        }
    }

    /// A handshake failing after the firmware took the `ClearFault` asked for says what the
    /// clear undid: a refused design, or another simulated robot, leaves the latch cleared.
    pub(super) fn with_what_was_cleared(&self, error: LinkError) -> LinkError {
        let Some(clear_seq) = self.handshake.clear_seq else {
            return error;
        };
        let taken = !self
            .link
            .unacked_messages()
            .any(|(seq, _)| seq.0 == clear_seq);
        match self.handshake.latched {
            Some(cleared) if taken && cleared.0 != 0 => match error {
                LinkError::ClearRefused { .. } => error,
                failed => LinkError::AfterClear {
                    cleared,
                    failed: Box::new(failed),
                },
            },
            _ => error,
        }
    }

    pub(super) fn on_configure_reply(&mut self, found: u16) -> Result<(), LinkError> {
        if !matches!(self.stage, Stage::Configuring { .. }) {
            return Ok(());
        }
        if found != self.checksum {
            return Err(LinkError::ConfigMismatch {
                path: self.path.clone(),
                expected: self.checksum,
                found,
            });
        }
        self.check_simulated_machine()?;
        if self.handshake.confirming_since.is_none() {
            self.handshake.confirming_since = Some(self.now());
            self.emit_frame(&Message::QueryStatus)?;
        }
        Ok(())
    }

    /// A simulator that took the setup but simulates another machine (it says which in its
    /// name) is refused before anything moves: its motors would not be this design's.
    /// Checked once the firmware accepted the setup, so a setup it refuses is said as such.
    fn check_simulated_machine(&self) -> Result<(), LinkError> {
        let Some(hello) = &self.hello else {
            return Ok(());
        };
        let firmware = firmware_name(hello);
        // A simulator that does not say its machine (`cubed-sim` alone) is taken at its word.
        if !is_simulator(&firmware) || firmware == VIRTUAL_WIRING_FIRMWARE {
            return Ok(());
        }
        let expected = simulator_name(&self.setup.machine);
        match firmware == expected {
            true => Ok(()),
            false => Err(LinkError::OtherSimulatedRobot {
                path: self.path.clone(),
                shipped: shipped_design_named(&firmware),
                firmware,
                expected,
            }),
        }
    }

    /// The configuration is confirmed and what the firmware holds latched is known.
    fn finish_handshake(&mut self, found: u16) {
        self.stage = Stage::Running;
        if let (Some(ready), Some(hello)) = (self.ready.take(), self.hello) {
            let _ = ready.send(Ok(Connected {
                hello,
                config_checksum: found,
                latched: self.handshake.latched.unwrap_or_default(),
                boot_cause: self.boot_cause,
                chip: self.chip,
            }));
        }
        // An e-stop latched before the first configuration (powered on with the button
        // pressed) does not refuse it, and the firmware announced it to nobody: say it now.
        let estopped = self
            .handshake
            .latched
            .is_some_and(|f| f.any(FaultFlags::ESTOP));
        // From here on, a change of the e-stop switch's level is told as it is seen.
        self.estop_held = self.handshake.estop_held;
        if estopped && self.handshake.clear_seq.is_none() {
            self.emit(LinkEvent::Fault(Fault::EStopLatched));
            // The stop stays latched: whether its button is still down is news too.
            if let Some(held) = self.estop_held {
                self.emit(LinkEvent::EStopButton { held });
            }
        }
    }

    pub(super) fn on_configure_refused(&mut self, refusal: ConfigRefusal) -> Result<(), LinkError> {
        if !matches!(self.stage, Stage::Configuring { .. }) {
            return Ok(());
        }
        Err(LinkError::ConfigureRefused {
            path: self.path.clone(),
            refusal,
            words: refusal_in_words(
                &refusal,
                &self.setup.configure,
                &self.settings.actuator_names,
            ),
        })
    }
}

/// The shipped design a simulator named `simulated` (see [`simulator_name`]) simulates, if
/// it is one of them.
fn shipped_design_named(simulated: &str) -> Option<&'static str> {
    SHIPPED_DESIGNS.into_iter().find(|name| {
        let Ok(model) = shipped_design(name) else {
            return false;
        };
        let setup = ActuatorMap::new(&model)
            .ok()
            .and_then(|map| RobotSetup::for_design(&model, &map).ok());
        setup.is_some_and(|setup| simulator_name(&setup.machine) == simulated)
    })
}
