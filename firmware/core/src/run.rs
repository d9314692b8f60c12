//! Time-driven work: issue due steps, finish and start queued commands, watch the
//! e-stop switch, the button and the host, retransmit notifications.

use crate::firmware::{Channel, FaultCause, Firmware, Running, NOTIFY_WINDOW};
use crate::pins::Pins;
use crate::queue::Command;
use crate::stepper::HomingWay;
use firmware_protocol::message::{
    Action, Actuator, ActuatorConfig, Configure, Event, FaultFlags, InputFlags, JawTarget,
    RotationRange, Status,
};
use firmware_protocol::{FixedList, Message, MAX_WIRE_LEN};

/// How long jaw `index` takes to close (or open), by the accepted `Configure`: a jaw slower
/// one way than the other is waited for that way's time (0 when not a jaw).
fn jaw_ms(configure: &Option<Configure>, index: usize, closed: bool) -> u16 {
    configure
        .as_ref()
        .and_then(|c| c.actuators.get(index))
        .and_then(|actuator| actuator.jaw_ms(closed))
        .unwrap_or(0)
}

/// How often `poll` wants to run while anything is pending that has no exact deadline
/// (retransmissions, the comms watchdog), µs.
const HOUSEKEEPING_US: u64 = 10_000;

impl Firmware<'_> {
    /// Advances to `now_us`: issues the steps due, finishes and starts commands, and
    /// returns when it next needs to run (`None`: only when a byte or input arrives).
    pub fn poll(&mut self, now_us: u64, pins: &mut impl Pins) -> Option<u64> {
        self.now_us = self.now_us.max(now_us);
        let now = self.now_us;
        if self.pins_stale {
            pins.apply(&self.machine);
            self.pins_stale = false;
        }
        if self.input_active(self.machine.board.estop) && !self.latched.any(FaultFlags::ESTOP) {
            self.emergency_stop(FaultCause::EStopSwitch);
        }
        self.watch_button();
        self.service_channels(now, pins);
        self.advance_commands(now, pins);
        // Queued work counts even while it waits for the host's acks (a full notification
        // window holds the next command): a host gone silent then gets a fault, not a hang.
        if self.has_work() && self.link.comms_timed_out(now / 1000) {
            self.latch(FaultCause::CommsTimeout);
        }
        self.guard_drivers(now, pins);
        self.retransmit(now);
        self.next_deadline(now)
    }

    /// Switches every driver off once a fault or e-stop is latched, or after the board's
    /// idle time with nothing to do: a motor without current cannot move, and its
    /// position counts as lost (the host homes before the next move).
    fn guard_drivers(&mut self, now: u64, pins: &mut impl Pins) {
        if self.has_work() {
            self.busy_at_us = now;
        }
        let idle = self.idle_deadline().is_some_and(|at| now >= at);
        if self.drivers_on == 0 || (self.latched.0 == 0 && !idle) {
            return;
        }
        // A motor still slowing down keeps its current until it stands.
        if !self.channels_idle(now, true, false) {
            return;
        }
        for index in 0..16u8 {
            if self.drivers_on & (1 << index) != 0 {
                pins.set_enable(index, false);
            }
        }
        self.drivers_on = 0;
        self.homed = 0;
    }

    /// A command running, or queued (perhaps held until the host acknowledges).
    fn has_work(&self) -> bool {
        self.running.is_some() || !self.queue.is_empty()
    }

    /// When drivers left on with nothing to do go off (the board's idle time), if ever.
    fn idle_deadline(&self) -> Option<u64> {
        let idle_us = u64::from(self.machine.board.idle_disable_ms) * 1000;
        (self.drivers_on != 0 && idle_us > 0).then_some(self.busy_at_us + idle_us)
    }

    /// The status snapshot (`QueryStatus`).
    pub fn status(&self) -> Status {
        let count = self.configure.map_or(0, |c| c.actuators.len());
        let mut positions = FixedList::new();
        for index in 0..count {
            let position = self.position(index).unwrap_or(0);
            let clamped = position.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
            let _ = positions.push(clamped, "positions");
        }
        Status {
            state: self.state(),
            faults: self.latched,
            last_completed_move_id: self.last_completed,
            queue_used: self.queue.len() as u8,
            config_checksum: if self.configure.is_some() {
                self.checksum
            } else {
                0
            },
            inputs: self.input_flags(),
            positions,
        }
    }

    /// The inputs a person acts on, as `Status` reports them.
    fn input_flags(&self) -> InputFlags {
        let held = self.input_active(self.machine.board.estop);
        InputFlags(if held { InputFlags::ESTOP_HELD } else { 0 })
    }

    fn watch_button(&mut self) {
        let active = self.input_active(self.machine.board.button);
        if active && !self.button_was_active && self.link.in_session() {
            self.notify(&Message::Event(Event::ButtonPressed { button: 0 }));
        }
        self.button_was_active = active;
    }

    fn service_channels(&mut self, now: u64, pins: &mut impl Pins) {
        let lead_us = u64::from(self.chip.step_lead_us);
        for index in 0..self.channels.len() {
            let (sensor, stall) = match self.machine.actuators.get(index) {
                Some(Actuator::Stepper(stepper)) => (stepper.home.map(|h| h.input), stepper.stall),
                _ => (None, None),
            };
            let sensor_active = self.input_active(sensor);
            // A driver that reports a stall (a TMC2209's DIAG) while its motor moves: all
            // stop, and this channel takes back its steps handed ahead below.
            let moving = matches!(&self.channels[index], Channel::Stepper(s) if s.busy());
            if moving && self.input_active(stall) {
                self.on_stall(index as u8);
            }
            let result = match &mut self.channels[index] {
                Channel::Stepper(stepper) => stepper.service(now, lead_us, sensor_active, pins),
                Channel::Servo(servo) => {
                    servo.service(now);
                    Ok(())
                }
                Channel::None => Ok(()),
            };
            if let Err(fault) = result {
                self.latch(FaultCause::Stepper {
                    actuator: index as u8,
                    fault,
                });
            }
        }
    }

    fn channels_idle(&self, now: u64, steppers: bool, servos: bool) -> bool {
        self.channels.iter().all(|channel| match channel {
            Channel::Stepper(stepper) => !steppers || !stepper.busy(),
            Channel::Servo(servo) => !servos || !servo.busy(now),
            Channel::None => true,
        })
    }

    fn advance_commands(&mut self, now: u64, pins: &mut impl Pins) {
        loop {
            match self.running {
                Some(Running::Motion) if self.channels_idle(now, true, true) => self.finish(),
                Some(Running::HomeSteppers(mask)) if self.channels_idle(now, true, false) => {
                    self.close_jaws(mask, now, pins);
                    continue;
                }
                Some(Running::HomeJaws(mask)) if self.channels_idle(now, false, true) => {
                    self.homed |= mask;
                    self.finish();
                }
                Some(Running::Dwell(until)) if now >= until => self.finish(),
                Some(_) => return,
                None => {}
            }
            if !self.start_next(now, pins) {
                return;
            }
        }
    }

    fn finish(&mut self) {
        self.running = None;
        let Some(done) = self.queue.pop() else {
            return;
        };
        let move_id = done.move_id();
        self.last_completed = move_id;
        self.notify(&Message::MoveDone { move_id });
        self.ack();
    }

    /// Starts the front command if allowed; false if nothing started.
    fn start_next(&mut self, now: u64, pins: &mut impl Pins) -> bool {
        let Some(&next) = self.queue.front() else {
            return false;
        };
        // Room for its MoveDone and a fault event.
        if self.latched.0 != 0 || self.link.unacked_notifications() + 2 > NOTIFY_WINDOW {
            return false;
        }
        self.counters.commands_started += 1;
        self.running = Some(match next {
            Command::Home { mask, .. } => self.start_homing(mask, now, pins),
            Command::Motion(motion) => {
                for action in motion.actions.iter() {
                    self.start_action(action, now, pins);
                }
                Running::Motion
            }
            Command::Dwell { ms, .. } => Running::Dwell(now + u64::from(ms) * 1000),
        });
        true
    }

    fn start_action(&mut self, action: &Action, now: u64, pins: &mut impl Pins) {
        let index = usize::from(action.actuator());
        let Some(channel) = self.channels.get_mut(index) else {
            return;
        };
        match (*action, channel) {
            (Action::Jaw { target, .. }, Channel::Servo(servo)) => {
                let closed = target == JawTarget::Closed;
                servo.command(closed, jaw_ms(&self.configure, index, closed), now, pins);
            }
            (
                Action::Rotate {
                    quarter_turns: units,
                    ..
                },
                Channel::Stepper(stepper),
            )
            | (
                Action::Flip {
                    position: units, ..
                },
                Channel::Stepper(stepper),
            ) => {
                stepper.move_to_units(i64::from(units), now, pins);
            }
            // `motion_fits` and `check_configure` rule the rest out.
            _ => {}
        }
    }

    /// Actuators the accepted `Configure` names; the board's others stay still.
    fn configured_count(&self) -> usize {
        self.configure.map_or(0, |c| c.actuators.len())
    }

    fn start_homing(&mut self, mask: u16, now: u64, pins: &mut impl Pins) -> Running {
        let mask = mask & self.configured_mask();
        for index in (0..self.configured_count()).filter(|&i| mask & (1 << i) != 0) {
            let sensor = match self.machine.actuators.get(index) {
                Some(Actuator::Stepper(stepper)) => stepper.home.map(|home| home.input),
                _ => None,
            };
            let sensor_active = self.input_active(sensor);
            let way = match self.configure.and_then(|c| c.actuators.get(index).copied()) {
                Some(ActuatorConfig::Rotation {
                    range: RotationRange::Continuous,
                    ..
                }) => HomingWay::Continuous,
                Some(ActuatorConfig::Rotation { .. }) => HomingWay::Limited,
                _ => HomingWay::Seek,
            };
            if let Channel::Stepper(stepper) = &mut self.channels[index] {
                stepper.start_homing(now, sensor_active, way, pins);
                self.drivers_on |= 1 << index;
            }
        }
        Running::HomeSteppers(mask)
    }

    fn close_jaws(&mut self, mask: u16, now: u64, pins: &mut impl Pins) {
        let count = self.configured_count();
        for (index, channel) in self.channels.iter_mut().enumerate().take(count) {
            if let (Channel::Servo(servo), true) = (channel, mask & (1 << index) != 0) {
                servo.command(true, jaw_ms(&self.configure, index, true), now, pins);
            }
        }
        self.running = Some(Running::HomeJaws(mask));
    }

    /// Stops, flushes the queue, latches the fault and reports it.
    pub(crate) fn latch(&mut self, cause: FaultCause) {
        // A silent host leaves the machine sound: its motors slow down as they would
        // at the end of a move. A stall, a limit or a lost home stop them at once.
        self.stop_every_channel(cause == FaultCause::CommsTimeout);
        self.homed = 0;
        let fault = cause.protocol_fault();
        self.latched = FaultFlags(self.latched.0 | fault.flag());
        if self.cause.is_none() {
            self.cause = Some(cause);
        }
        self.notify(&Message::Event(Event::Fault(fault)));
    }

    fn retransmit(&mut self, now: u64) {
        let mut out = [0u8; MAX_WIRE_LEN];
        let now_ms = now / 1000;
        while let Some(seq) = self.link.due_for_retransmit(now_ms) {
            if self.tx.len() + MAX_WIRE_LEN > crate::firmware::TX_BYTES {
                return;
            }
            match self.link.retransmit(seq, now_ms, &mut out) {
                Ok(len) => {
                    self.tx.push_frame(&out[..len]);
                }
                Err(_) => return,
            }
        }
    }

    fn next_deadline(&self, now: u64) -> Option<u64> {
        let mut next: Option<u64> = None;
        let mut consider = |deadline: Option<u64>| {
            if let Some(deadline) = deadline {
                next = Some(next.map_or(deadline, |n| n.min(deadline)));
            }
        };
        for channel in &self.channels {
            match channel {
                Channel::Stepper(stepper) => consider(stepper.next_deadline()),
                Channel::Servo(servo) => consider(servo.next_deadline()),
                Channel::None => {}
            }
        }
        if let Some(Running::Dwell(until)) = self.running {
            consider(Some(until));
        }
        if self.has_work() || self.link.unacked_notifications() > 0 {
            consider(Some(now + HOUSEKEEPING_US));
        }
        consider(self.idle_deadline());
        next
    }
}
